"""Game controllers in the window: the pads and wheels (session/pads.py) are polled at the
start of every frame, before the frame's physics ticks, so a stick moved reaches the car
on the next tick; the keyboard's source (input.DriveKeys) takes, per control, the larger
of the keys and the controllers. A pad's reset and record buttons do what Car → Reset car
and Ctrl+R do. The status bar names what is connected. The dead zones are Godot's, read
from the user's project.godot when one was chosen (kept between runs), else the default
of the Godot release chosen in Car → Controller dead zones. SDL starts just after the
window's first paint (its import and start take about 0.3 s, which the first paint does not
wait for); until then the car drives on the keyboard. The Controls dialog shows the last
reading (`reading`) and sets each axis's shaping and each wheel's axis map (kept between
runs, controls_settings.py)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QLabel

from ..errors import UserError, printable
from ..files.godot_project_input import read_project_input
from ..session.axis_shaping import Shaping
from ..session.godot_input import DeadZones, default_dead_zone, project_zones
from ..session.pad_maps import WheelMap
from ..session.pads import Pads, PadsReading
from . import controls_settings
from .qt import after_first_paint
from .window_memory import settings

ENGINES = (
    ("3", "Godot &3 (dead zone 0.5)"),
    ("4.3", "Godot 4.0 to 4.&3 (dead zone 0.5)"),
    ("4.4", "Godot 4.&4 and later (dead zone 0.2)"),
)
"""Car → Controller dead zones: the Godot releases whose default dead zone differs."""
ENGINE_KEY = "controllers/godot"
PROJECT_KEY = "controllers/project"


def connected_text(reading: PadsReading) -> str:
    """The status bar's words for what is connected: "pad: <name>", "2 controllers", or ""."""
    devices = reading.devices
    if not devices:
        return ""
    if len(devices) == 1:
        return f"{devices[0].kind}: {devices[0].name}"
    return f"{len(devices)} controllers"


class PadControl:
    """The controllers of `window` (a MainWindow, which owns this); `note` is what the
    start has to say about them (the saved project could not be read). `pads` is None
    until SDL has started, after the window's first paint (`start`)."""

    def __init__(self, window):
        self.window = w = window
        self.engine, self.project = "3", ""
        if w.remember:
            self.engine = w.memory.setting(ENGINE_KEY, "3", choices=[value for value, _ in ENGINES])
            self.project = w.memory.setting(PROJECT_KEY, "")
        self.note = ""
        zones = DeadZones(default_dead_zone(self.engine))
        if self.project:
            try:
                zones = self._zones_of(self.project)
            except UserError as exc:
                self.note += f"Controller dead zones: {exc}; Godot's defaults are used. "
        self.dead_zones = zones
        self.shaping, self.wheel_maps = Shaping(), {}
        if w.remember:
            self.shaping = controls_settings.load_shaping(w.memory)
            self.wheel_maps = controls_settings.load_wheel_maps(w.memory)
        self.pads: Pads | None = None
        self.reading = PadsReading()  # the last poll's, for the Controls dialog
        self.dialog = None
        self._closed = False
        self.label = QLabel()  # what is connected; hidden when nothing is
        self.label.hide()
        w.statusBar().addPermanentWidget(self.label)
        after_first_paint(w.track, self.start)  # the car view: the last part of the window painted

    def start(self) -> None:
        """Start SDL and read the controllers from the next frame on; if SDL cannot start,
        one status message says so and the car drives on the keyboard."""
        if self.pads is not None or self._closed:
            return
        self.pads = Pads(self.dead_zones)
        self.pads.shaping, self.pads.wheel_maps = self.shaping, dict(self.wheel_maps)
        if self.pads.error:
            bar = self.window.statusBar()
            bar.showMessage(f"{bar.currentMessage()} Keyboard only: {self.pads.error}.".strip(), 10000)

    def _zones_of(self, path: str) -> DeadZones:
        """The dead zones of the project.godot at `path`, for the release it says (else the
        one chosen); a UserError naming the file and the problem when it cannot be read."""
        project = read_project_input(path)
        return project_zones(project, project.engine or self.engine)

    def poll(self) -> None:
        """Read the controllers now (a frame begins): their controls go to the keyboard's
        source for the next ticks, their reset and record presses to the window."""
        if self.pads is None:
            return
        self.reading = reading = self.pads.poll()
        w = self.window
        if self.dialog is not None and self.dialog.isVisible():
            self.dialog.show_reading(reading)
        w.keys.pads.update(reading)
        if reading.connected or reading.disconnected:
            text = connected_text(reading)
            self.label.setText(text)
            self.label.setToolTip("\n".join(f"{d.name} ({d.kind})" for d in reading.devices))
            self.label.setVisible(bool(text))
        if reading.pressed.get("reset"):
            w.drive_view.reset_car()
        if reading.pressed.get("record"):
            w.replay.bar.record_action.trigger()

    def read_project_dialog(self) -> None:
        """Car → Read dead zones from project.godot…: ask for the file, then read it."""
        path, _ = QFileDialog.getOpenFileName(
            self.window, "Read dead zones from project.godot", "", "Godot project (project.godot);;All files (*)"
        )
        if path:
            self.read_project(path)

    def read_project(self, path, before: str = "") -> bool:
        """Use the dead zones of the project.godot at `path` (kept between runs). A file
        that cannot be read: a status message naming the problem, nothing changed.
        `before`: what the status message says first (what read the file: an import)."""
        bar = self.window.statusBar()
        try:
            zones = self._zones_of(str(path))
        except UserError as exc:
            bar.showMessage(f"{before}Dead zones not read: {exc}", 10000)
            return False
        self._use(zones)
        self.project = str(Path(path))
        self._keep(PROJECT_KEY, self.project)
        found = ", ".join(f"{action} {value:g}" for action, value in sorted(zones.actions.items()))
        said = f"Controller dead zones from {printable(path)}: {found or 'none named'}, others {zones.default:g}."
        bar.showMessage(" ".join((before + said, *zones.notes)), 10000)
        return True

    def set_engine(self, engine: str) -> None:
        """Car → Controller dead zones: Godot's default dead zones of `engine`, without a project."""
        self.engine = engine
        self.project = ""
        self._use(DeadZones(default_dead_zone(engine)))
        self._keep(ENGINE_KEY, engine)
        self._keep(PROJECT_KEY, "")
        self.window.menus.refresh()

    def _use(self, zones: DeadZones) -> None:
        self.dead_zones = zones
        if self.pads is not None:
            self.pads.dead_zones = zones
        if self.dialog is not None:
            self.dialog.show_settings()

    def controls_dialog(self):
        """Car → Controls…: the dialog, shown (made on first use)."""
        from .controls_dialog import ControlsDialog

        if self.dialog is None:
            self.dialog = ControlsDialog(self)
        self.dialog.show_reading(self.reading)
        self.dialog.show()
        self.dialog.raise_()
        return self.dialog

    def set_shape(self, axis: str, **changes) -> None:
        """Change `axis`'s shaping from the next poll on (kept between runs); ShapingError
        naming the axis and the value when it cannot be used (nothing changed then)."""
        self.shaping = self.shaping.with_axis(axis, **changes)
        if self.pads is not None:
            self.pads.shaping = self.shaping
        if self.window.remember:
            controls_settings.save_shape(axis, self.shaping.of(axis))

    def reset_shaping(self) -> None:
        """Every axis back to Godot's dead zones, no curve, no inversion."""
        self.shaping = Shaping()
        if self.pads is not None:
            self.pads.shaping = self.shaping
        if self.window.remember:
            controls_settings.forget_shaping()

    def wheel_map(self, name: str) -> WheelMap:
        """The axis map of the wheel named `name`."""
        return self.wheel_maps.get(name, WheelMap())

    def set_wheel_map(self, name: str, wheel: WheelMap) -> None:
        """Read the wheel named `name` through `wheel` from the next poll on (kept between runs)."""
        self.wheel_maps[name] = wheel
        if self.pads is not None:
            self.pads.wheel_maps[name] = wheel
        if self.window.remember:
            controls_settings.save_wheel_map(name, wheel)

    def _keep(self, key: str, value: str) -> None:
        if self.window.remember:
            settings().setValue(key, value)

    def close(self) -> None:
        self._closed = True  # a first paint still to come starts nothing
        if self.pads is not None:
            self.pads.close()
