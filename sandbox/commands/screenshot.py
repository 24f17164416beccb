"""`screenshot`: the window rendered offscreen after a scripted drive (or a game
recording replayed to a time), or one of its dialogs."""

from __future__ import annotations

import os

from ..errors import UserError, shown

SCREENSHOT_SIZES = (200, 8000)
"""px: the smallest and largest side of a screenshot (larger ones exhaust the painter)."""

MAX_SCREENSHOT_GHOSTS = 4
"""The window's compare ghosts at most (its plots have a colour for each)."""


def _channels(model, text: str) -> tuple[str, ...]:
    """The channel names `--channels` gives for `model`; a UserError lists the channels."""
    from ..session.input_channels import plot_channels
    from ..ui.channel_chooser import channel_names

    channels = plot_channels(model)
    try:
        return channel_names(text, channels)
    except ValueError:
        raise UserError(
            f"--channels {shown(repr(text))}: give up to 4 channels of 2 units at most; "
            f"the channels of the {model.TITLE}: {', '.join(c.name for c in channels)}"
        ) from None


def run(args) -> None:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    try:
        width, height = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        raise UserError(f"--size {shown(repr(args.size))}: expected WIDTHxHEIGHT, e.g. 1400x860") from None
    if not (
        SCREENSHOT_SIZES[0] <= width <= SCREENSHOT_SIZES[1] and SCREENSHOT_SIZES[0] <= height <= SCREENSHOT_SIZES[1]
    ):
        raise UserError(
            f"--size {shown(args.size)}: each side must be {SCREENSHOT_SIZES[0]} … {SCREENSHOT_SIZES[1]} px"
        )
    if args.out.suffix.lower() != ".png":
        raise UserError(f"{args.out}: screenshots are PNG files; use a .png name")
    if (args.dialog == "update-script") != (args.script is not None):
        raise UserError(
            "--dialog update-script and --script CAR_GD go together: the dialog shows the change to that script"
        )
    if args.dialog == "fit" and args.recording is None:
        raise UserError("--dialog fit needs --recording FILE: the dialog fits that recording")
    from ..files.presets import load_preset
    from ..ui.app import MainWindow
    from ..ui.qt import application, dispose
    from ..ui.screenshot_scenes import (
        driver_at_wheel,
        driver_laps_in_tab,
        fit_dialog_in,
        gg_in_tab,
        open_recording,
        replay_at,
        run_fit,
        save_beside_window,
    )
    from ..ui.world_tracks import read_named_track

    preset = load_preset(args.preset)
    chosen = None if args.channels is None else _channels(preset.model, args.channels)
    track = read_named_track(args.track) if args.track else None
    if args.tab == "laps" and track is None:
        raise UserError("--tab laps needs --track: the tab shows the driver's laps of that track")
    if args.driver and (track is None or args.recording is not None):
        raise UserError("--driver needs --track (the lap the driver drives) and no --recording")
    if args.section is not None and args.tab != "tuning":
        raise UserError("--section is a section of the tuning tab: leave --tab out or give --tab tuning")
    if args.zoom_to_track and track is None:
        raise UserError("--zoom-to-track needs --track: the track to show whole")
    if len(args.ghost) > MAX_SCREENSHOT_GHOSTS:
        raise UserError(
            f"--ghost given {len(args.ghost)} times: the window drives {MAX_SCREENSHOT_GHOSTS} ghosts at most"
        )
    ghosts = [load_preset(path) for path in args.ghost]
    app = application()
    window = MainWindow(remember=False)
    try:
        window.resize(width, height)
        window.show()
        window.timer.stop()  # only the scripted drive moves the car
        window.apply_preset(preset)
        if chosen is not None:
            window.panels.chooser.choose(chosen)
        for ghost in ghosts:
            window.set_ghost(ghost, ghost.name)
        if track is not None:
            window.world.show_track(*track)
        window.track.set_zoom(args.zoom)
        if args.tab == "gg":  # in front before the drive: it records only while shown
            gg_in_tab(window)
        if args.recording is not None:  # the recording's controls drive the car: its replay at --drive s
            open_recording(window, args.recording, args.drive)
        elif args.driver:
            driver_at_wheel(window, args.drive)
        else:
            window.scripted_drive(args.drive)
        if args.tab == "laps":
            driver_laps_in_tab(window)
        window.show_tab(args.tab)
        app.processEvents()
        if args.section:
            window.panel.show_section(args.section)
            app.processEvents()
        if args.zoom_to_track:  # the view's size is settled now
            window.world.zoom_to_track()
            app.processEvents()
        if args.dialog == "fit":
            dialog = run_fit(window)
            replay_at(window, args.drive)  # the fitted ghost drives from the recording's start to there
            fit_dialog_in(window, dialog)
            app.processEvents()
            save_beside_window(window, dialog, args.out)
            dialog.close()
        elif args.dialog == "update-script":
            from ..files.godot_into import read_update

            read_update(args.script, window.current_preset())  # a refusal is the command's error
            dialog = window.update_script(args.script)
            dialog.show()
            app.processEvents()
            window.save_screenshot(args.out, dialog)
            dialog.close()
        elif args.dialog:
            dialog = window.godot_export_dialog()
            dialog.as_scene.setChecked(args.dialog == "godot-scene")
            dialog.show()
            app.processEvents()
            window.save_screenshot(args.out, dialog)
            dialog.close()
        else:
            window.save_screenshot(args.out)
    finally:
        dispose(window)
