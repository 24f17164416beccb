"""The window (no command): a splash first, then the slow imports, the first start's
compilation, and the window."""

from __future__ import annotations

import os

from ..errors import UserError, shown


def run(args) -> int:
    from ..ui.qt import application, dispose
    from ..ui.warm_up import show_splash

    app = application()
    splash = show_splash()  # first: importing the physics and the window takes seconds on a busy machine
    from ..files.presets import load_preset
    from ..ui.app import MainWindow
    from ..ui.terminal_signals import follow_terminal_signals
    from ..ui.warm_up import compile_first_start, prepare_physics
    from ..ui.world_tracks import read_named_track

    try:
        preset = load_preset(args.preset) if args.preset else None
        track = read_named_track(args.track) if args.track else None
    except UserError:
        splash.close()
        raise
    compile_first_start(splash, preset)  # before the window exists: none of its work competes
    try:
        window = MainWindow()
    except Exception as exc:  # a saved session the window cannot show: never a crash loop
        import traceback

        from ..ui.window_memory import set_aside_session

        traceback.print_exc()  # a bug all the same: its traceback goes to stderr
        note = set_aside_session(f"{type(exc).__name__}: {shown(str(exc))}")
        window = MainWindow()
        window.show_error(note, "Last session set aside")
    if preset is not None:
        window.apply_preset(preset)
    if track is not None:
        window.world.show_track(*track)
    follow_terminal_signals(window)
    prepare_physics(app, window)
    if os.environ.get("CAR_SANDBOX_FIRST_FRAME"):
        from ..ui.qt import report_first_frame

        report_first_frame(window.track)
    window.show()
    splash.finish(window)
    code = app.exec()
    dispose(window)
    return code
