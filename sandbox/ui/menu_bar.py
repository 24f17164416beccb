"""The window's menu bar, left to right, as data (the entry types and the builder
are in menus.py): every command's text, shortcut, handler, tips and when it is
enabled or ticked, in the order the menus show them."""

from __future__ import annotations

from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QMenu

from ..files.godot import has_script
from ..files.presets import list_presets, user_dir
from ..physics.models import MODELS
from ..physics.sim import TICK_RATES
from .camera import CAMERAS
from .ghosts import MAX_GHOSTS
from .lap_wheel import TIP as LAP_DRIVER_TIP
from .lap_wheel import WHY_DISABLED as LAP_DRIVER_WHY
from .menus import SEPARATOR, Choices, Command, Owned, Submenu, Window, add_action
from .pad_control import ENGINES
from .world_layer import CONTACT

PX_PER_METRE_CHOICES = (10.0, 15.0, 25.0, 40.0, 60.0)
"""View → Pixels per metre: the scale of the models that work in metres."""


def fill_presets(window: Window, menu: QMenu) -> None:
    """This model's presets first (Ctrl+1…9), then other models', then yours."""
    menu.clear()
    model = window.model
    entries = list_presets()
    here = [e for e in entries if e[2] and e[3] == model.NAME]
    others = [e for e in entries if e[2] and e[3] != model.NAME]
    mine = [e for e in entries if not e[2]]
    sections = {0: f"Built-in · {model.TITLE}"}
    if others:
        sections[len(here)] = "Built-in · other models (switches the model)"
    if mine:
        sections[len(here) + len(others)] = "Yours"
    current = window.preset.path.resolve() if window.preset.path is not None else None
    for index, (path, name, _, of) in enumerate(here + others + mine):
        if index in sections:
            menu.addSection(sections[index])
        number = index + 1
        if of is not None and of != model.NAME:
            name = f"{name} ({MODELS[of].TITLE})"
        shortcut = f"Ctrl+{number}" if number <= 9 and index < len(here) else None
        action = add_action(menu, name, lambda _=False, p=path: window.open_preset_file(p), shortcut, str(path))
        action.setCheckable(True)
        action.setChecked(path.resolve() == current)
    if not mine:
        hint = menu.addAction(f"(your presets go to {user_dir()})")
        hint.setEnabled(False)


def fill_ghost_presets(window: Window, menu: QMenu) -> None:
    """Every preset, each of its model, as a ghost to add."""
    menu.clear()
    for path, name, _, model in list_presets():
        if model is not None:
            add_action(menu, f"{name} ({MODELS[model].TITLE})", lambda _=False, p=path: window.compare.add_from_file(p))


def _zoom(window: Window, factor: float | None) -> None:
    window.track.set_zoom(1.0 if factor is None else window.track.zoom * factor)


_SWEEP_EXPORT = {
    "enabled": lambda w: w.sweep.grid is not None,
    "why_disabled": "Run a sweep first (the Sweep tab)",
    "listed": "sweep_exports",
}
_GODOT = {"enabled": lambda w: has_script(w.model), "listed": "godot_exports"}
_LIVE_PLOTS = "Speed, slip angle and the model's channels over the last 10 s (ghosts too)"
_STD = QKeySequence.StandardKey
_DEFAULT_DEAD_ZONE = "Game controllers: Godot's default dead zone of this release (a project.godot read is set aside)"

FILE = Submenu(
    "&File",
    (
        Command("&Open preset…", lambda w: w.files.open_preset_dialog(), _STD.Open),
        Command(
            "&Save preset",
            lambda w: w.files.save(),
            _STD.Save,
            "Save over the current preset (built-in presets are saved as a copy)",
        ),
        Command("Save preset &as…", lambda w: w.files.save_as_dialog(), "Ctrl+Shift+S"),
        SEPARATOR,
        Command(
            "Open &game recording…",
            lambda w: w.recordings.open_dialog(),
            tip="Replay a drive recorded in your game through the sandbox car: its path, and how far apart they get",
        ),
        Command(
            "&Fit to game recording…",
            lambda w: w.recordings.fit_dialog(),
            tip="Find the tuning (and the model) that drives a recording from your game",
        ),
        Submenu(
            "&Import",
            (
                Command(
                    "&Godot script (.gd)…",
                    lambda w: w.godot.import_dialog(),
                    "Ctrl+I",
                    "Read the tuning of a Godot car script into the sliders (nothing in the file is run)",
                ),
            ),
            name="import_menu",
        ),
        Submenu(
            "&Export",
            (
                Command("Force curve as &PNG image…", lambda w: w.files.export_curve_dialog(".png"), "Ctrl+E"),
                Command("Force curve as &SVG drawing…", lambda w: w.files.export_curve_dialog(".svg")),
                Command("Force curve as &CSV data…", lambda w: w.files.export_curve_dialog(".csv")),
                SEPARATOR,
                Command("Live plots as PNG image…", lambda w: w.files.export_plots_dialog(".png"), tip=_LIVE_PLOTS),
                Command("Live plots as SVG drawing…", lambda w: w.files.export_plots_dialog(".svg"), tip=_LIVE_PLOTS),
                Command("Live plots as CSV data…", lambda w: w.files.export_plots_dialog(".csv"), tip=_LIVE_PLOTS),
                SEPARATOR,
                Command("Sweep as CS&V data…", lambda w: w.files.export_sweep_dialog(".csv"), **_SWEEP_EXPORT),
                Command("Sweep plot as P&NG…", lambda w: w.files.export_sweep_dialog(".png"), **_SWEEP_EXPORT),
                Command("Sweep plot as S&VG…", lambda w: w.files.export_sweep_dialog(".svg"), **_SWEEP_EXPORT),
                SEPARATOR,
                Command(
                    "&Godot script or scene…",
                    lambda w: w.godot.export_dialog().exec(),
                    "Ctrl+G",
                    "The car as a Godot 3 or 4 script, or a scene to open and play",
                    **_GODOT,
                ),
                Command(
                    "Copy Godot sc&ript",
                    lambda w: w.godot.copy_script(),
                    "Ctrl+Shift+C",
                    "Put the car's Godot script on the clipboard (the version last exported, else Godot 4)",
                    **_GODOT,
                ),
                Command(
                    "Godot &link node…",
                    lambda w: w.godot.export_link_dialog(),
                    tip="A node for your game, a child of the car: the sandbox shows and tunes the car "
                    "while the game runs",
                    **_GODOT,
                ),
                Command(
                    "&Update my script…",
                    lambda w: w.godot.update_script_dialog(),
                    tip="Write the tuning's values into your own Godot car script; nothing else in it changes",
                    **_GODOT,
                ),
            ),
            name="export_menu",
        ),
        SEPARATOR,
        Command("&Quit", lambda w: w.quit_asking(), _STD.Quit),
    ),
    name="file_menu",
)
EDIT = Submenu(
    "&Edit",
    (
        Owned(lambda w: w.undo.createUndoAction(w, "&Undo"), ("Ctrl+Z",)),
        Owned(lambda w: w.undo.createRedoAction(w, "&Redo"), ("Ctrl+Shift+Z", "Ctrl+Y")),
        SEPARATOR,
        Command("Reset all &parameters", lambda w: w.panel.reset_all(), "Ctrl+Shift+R"),
    ),
)
PRESETS = Submenu("&Presets", fill=fill_presets, name="presets_menu")
VIEW = Submenu(
    "&View",
    (
        Command(
            "Show &panels\tTab",
            lambda w: w.panels.toggle(),
            tip="Hide every panel to give the car the whole window; Tab again brings them back",
            checked=lambda w: not w.panels.hidden,
            name="panel_action",
        ),
        Command(
            "&Reset layout",
            lambda w: w.panels.reset_layout(),
            tip="Panels back to where and how large they start: the car view first",
        ),
        SEPARATOR,
        Owned(lambda w: [dock.toggleViewAction() for dock in w.panels.docks()]),  # one per row of docks.DOCKS
        SEPARATOR,
        Command("Zoom &in", lambda w: _zoom(w, 1.25), "Ctrl+="),
        Command("Zoom &out", lambda w: _zoom(w, 1 / 1.25), "Ctrl+-"),
        Command("&Actual size", lambda w: _zoom(w, None), "Ctrl+0"),
        Command(
            "Zoom to &track",
            lambda w: w.world.zoom_to_track(),
            "Ctrl+Shift+T",
            "Zoom out until the whole track is in view around the car",
            enabled=lambda w: w.world.track is not None,
            why_disabled="No track is open (Track menu)",
        ),
        Command(
            "&Collision shape",
            lambda w: w.set_collision_shape_shown(not w.show_collision_shape),
            tip="Draw the car's collision shape (the Tuning tab's Collision shape section) as a dashed outline",
            checked=lambda w: w.show_collision_shape,
            name="collision_shape_action",
        ),
        SEPARATOR,
        Choices(
            lambda w: [(text, value, tip, keys) for value, text, keys, tip in CAMERAS],
            lambda w, mode: w.set_camera(mode),
            lambda w: w.track.camera_mode,
            "camera_actions",
        ),
        SEPARATOR,
        Submenu(
            "&Pixels per metre (models in metres)",
            (
                Choices(
                    lambda w: [(f"{v:g} px/m", v, "") for v in PX_PER_METRE_CHOICES],
                    lambda w, v: w.set_px_per_metre(v),
                    lambda w: w.px_per_metre,
                    "scale_actions",
                ),
            ),
        ),
    ),
)
_CONTACT = f"The track is drawn under the car; {CONTACT}."
TRACK = Submenu(
    "Trac&k",
    (
        Command(
            "&Open track…",
            lambda w: w.world.open_dialog(),
            "Ctrl+T",
            f"A track file (.json), a racetrack-database circuit (.csv) or a Godot level (.tscn). {_CONTACT}",
        ),
        Submenu("&Built-in tracks", fill=lambda w, menu: w.world.fill_builtin(menu), name="builtin_tracks_menu"),
        Submenu("&Recent tracks", fill=lambda w, menu: w.world.fill_recent(menu), name="recent_tracks_menu"),
        Owned(lambda w: w.world.game_action),
        Command(
            "&Save track as…",
            lambda w: w.world.save_dialog(),
            tip="Write the track shown (a level pulled from the game, an imported level or circuit) as a "
            "track file (.json)",
            enabled=lambda w: w.world.track is not None,
            why_disabled="No track is open (the open field)",
        ),
        SEPARATOR,
        Command(
            "Open &field (no track)",
            lambda w: w.world.open_field(),
            tip="Nothing to meet: the car starts at the origin",
            checked=lambda w: w.world.track is None,
            name="open_field_action",
        ),
    ),
    name="track_menu",
)
MODEL = Submenu(
    "&Model",
    (
        Choices(
            lambda w: [(m.TITLE, name, f"Drive the {m.TITLE} model (its first preset)") for name, m in MODELS.items()],
            lambda w, name: w.switcher.switch_model(name),
            lambda w: w.model.NAME,
            "model_actions",
        ),
    ),
    name="model_menu",
)
TRACES = Submenu(
    "&Traces",
    (
        Owned(lambda w: w.replay.bar.record_action, ("Ctrl+R",)),
        Command(
            "&Save recording as…",
            lambda w: w.files.save_recording_dialog(),
            tip="Write the last recording as a control trace CSV",
        ),
        SEPARATOR,
        Owned(lambda w: w.replay.bar.play_action, ("F6",)),
        Owned(lambda w: w.replay.bar.step_action, ("F7",)),
        Owned(lambda w: w.replay.bar.live_action, ("F8",)),
        SEPARATOR,
        Command("&Open trace…", lambda w: w.files.open_trace_dialog(), tip="Replay a control trace CSV"),
        Submenu("&Replay a test drive", fill=lambda w, menu: w.replay.fill_traces_menu(menu), name="traces_menu"),
        SEPARATOR,
        Owned(lambda w: w.panels.recording_dock.toggleViewAction()),  # the game recording's divergence tab
    ),
)
COMPARE = Submenu(
    "C&ompare",
    (
        Command(
            "&Pin this tuning as a ghost",
            lambda w: w.compare.pin(),
            "Ctrl+P",
            f"A car with these values, driven by the same controls, drawn translucent (up to {MAX_GHOSTS})",
        ),
        Submenu("Add a ghost from &preset", fill=fill_ghost_presets, name="ghost_presets_menu", filled_at_start=False),
        Command("&Remove the ghosts", lambda w: w.compare.remove_all(), "Ctrl+Shift+P"),
    ),
)
_LINKED = {"enabled": lambda w: w.link.game is not None, "why_disabled": "No game is linked: Listen, then run the game"}
LINK = Submenu(
    "&Link",
    (
        Command(
            "&Listen for the game",
            lambda w: w.link.toggle(),
            "Ctrl+L",
            "Listen for the running Godot game (its link node); again to stop and close the port",
            checked=lambda w: w.link.listening,
            name="link_listen_action",
        ),
        Command(
            "&Copy token",
            lambda w: w.link.copy_token(),
            tip="Put this session's token on the clipboard, for the link node's token property",
            enabled=lambda w: w.link.listening,
            why_disabled="Listen first: each session has its own token",
        ),
        SEPARATOR,
        Command(
            "&Pull from game",
            lambda w: w.link.pull(),
            tip="Take the game's values into the sliders (one undo step)",
            **_LINKED,
        ),
        Command(
            "Pull &level from game",
            lambda w: w.link.pull_level(),
            "Ctrl+Shift+K",
            "Draw the running game's walls (its static collision shapes) and drive on them: the track "
            "becomes the game's level (Track → Save track as… keeps it as a file)",
            name="link_pull_level_action",
            **_LINKED,
        ),
        Command(
            "&Send all values to game",
            lambda w: w.link.send_all(),
            tip="Send every value of this tuning to the game now",
            enabled=lambda w: w.link.sending,
            why_disabled="No game of this model is linked (the Link panel says why)",
        ),
        Command(
            "&Record game drive",
            lambda w: w.link.set_recording(not w.link.recording),
            "Ctrl+Shift+L",
            "Record the game's controls and its car's pose every tick; again to stop and save it as a trace",
            enabled=lambda w: w.link.listening,
            why_disabled="Listen for the game first",
            checked=lambda w: w.link.recording,
            name="link_record_action",
        ),
        SEPARATOR,
        Owned(lambda w: w.panels.link_dock.toggleViewAction()),
    ),
)
PHYSICS = Submenu(
    "P&hysics",
    (
        Choices(
            lambda w: [(f"{hz} Hz", hz, "") for hz in TICK_RATES],
            lambda w, hz: w.switcher.set_rate(hz),
            lambda w: w.sim.hz,
            "rate_actions",
        ),
    ),
)
CAR = Submenu(
    "&Car",
    (
        Command(
            "&Reset car",
            lambda w: w.drive_view.reset_car(),
            "R",
            "Put the car back at the track's start (the origin on the open field), at rest",
        ),
        Command(
            "&Driver at the wheel",
            lambda w: w.wheel.toggle(),
            "F9",
            LAP_DRIVER_TIP,
            enabled=lambda w: w.wheel.driving or w.wheel.available,
            why_disabled=LAP_DRIVER_WHY,
            checked=lambda w: w.wheel.driving,
            name="driver_action",
        ),
        SEPARATOR,
        Command(
            "C&ontrols…",
            lambda w: w.controllers.controls_dialog(),
            "Ctrl+Shift+J",
            "Game controllers: each axis live, raw and as the car receives it; per-axis dead zone, saturation, "
            "curve and inversion; a wheel's axis map",
        ),
        Command(
            "Read dead zones from &project.godot…",
            lambda w: w.controllers.read_project_dialog(),
            tip="Game controllers: each action's dead zone as your Godot game's project.godot sets it",
        ),
        Submenu(
            "Controller &dead zones: Godot's defaults",
            (
                Choices(
                    lambda w: [(text, value, _DEFAULT_DEAD_ZONE) for value, text in ENGINES],
                    lambda w, value: w.controllers.set_engine(value),
                    lambda w: w.controllers.engine,
                    "dead_zone_actions",
                ),
            ),
        ),
    ),
)
HELP = Submenu("&Help", (Command("&Controls…", lambda w: w.show_controls(), _STD.HelpContents),))

MENU_BAR = (FILE, EDIT, PRESETS, VIEW, TRACK, MODEL, TRACES, COMPARE, LINK, PHYSICS, CAR, HELP)
"""The window's menus, left to right."""
