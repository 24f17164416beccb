"""Car → Controls…: each connected controller's axes live, raw and as the car receives
them (from the reading the window polls each frame: SDL is not read a second time), and
the per-axis shaping (dead zone, saturation, response curve, inversion) with a reset to
Godot's defaults; for a wheel, its axis map. Every change counts from the car's next
tick and is kept between runs. Not modal: the car drives on while it is open."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QGridLayout,
    QGroupBox,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ..errors import UserError
from ..session.axis_shaping import AXES, PEDAL_ACTIONS, STEER_ACTIONS
from ..session.pad_maps import AxisBinding
from ..session.pads import PadsReading
from .axis_meters import DeviceMeters
from .controls_settings import MAX_AXIS, WHEEL_AXES

NO_CONTROLLER = (
    "No game controller is connected. Plug a pad (Xbox, PlayStation, Switch Pro …) or a wheel in "
    "by USB, or pair it by Bluetooth: it is picked up at once, no restart needed. "
    "The keyboard keeps driving the car meanwhile."
)
NO_SDL = "Game controllers are off ({error}); the keyboard drives the car."
GODOTS = "Godot's"
SHAPE_TIPS = {
    "dead_zone": "Below this magnitude the car receives 0 (Godot's: the dead zone of your project.godot or "
    "of the Godot release chosen in the Car menu); lowest value: Godot's",
    "saturation": "The magnitude at which the car receives full (1: Godot's, the end of the axis)",
    "exponent": "Response curve: the car receives strength^exponent (1: straight; above 1: finer near the "
    "centre; below 1: quicker off it)",
    "inverted": "The axis runs the other way (a pedal: pressed reads released)",
}


def _spin(low: float, high: float, step: float, decimals: int, tip: str) -> QDoubleSpinBox:
    box = QDoubleSpinBox()
    box.setRange(low, high)
    box.setSingleStep(step)
    box.setDecimals(decimals)
    box.setKeyboardTracking(False)  # a value typed counts on Enter, not at each digit
    box.setToolTip(tip)
    return box


class ControlsDialog(QDialog):
    """The Controls dialog of `controllers` (the window's PadControl)."""

    def __init__(self, controllers):
        super().__init__(controllers.window)
        self.controllers = controllers
        self.setWindowTitle("Controls")
        layout = QVBoxLayout(self)
        self.note = QLabel()
        self.note.setWordWrap(True)
        layout.addWidget(self.note)
        self.devices_box = QVBoxLayout()
        layout.addLayout(self.devices_box)
        self.meters: dict[int, DeviceMeters] = {}
        self.wheel_editors: dict[int, WheelMapEditor] = {}
        layout.addWidget(self._shaping_box())
        self.status = QLabel()
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.reset_button = QPushButton("Reset to defaults")
        self.reset_button.setToolTip("Every axis back to Godot's dead zones, saturation 1, exponent 1, not inverted")
        self.reset_button.clicked.connect(self.reset)
        buttons.addButton(self.reset_button, QDialogButtonBox.ButtonRole.ResetRole)
        self.project_button = QPushButton("Read dead zones from project.godot…")
        self.project_button.setToolTip(
            "Godot's dead zone of each action as your game's project.godot sets it (kept between runs)"
        )
        self.project_button.clicked.connect(self._read_project)
        buttons.addButton(self.project_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.close)
        layout.addWidget(buttons)
        self.show_settings()
        self._make_meters(controllers.reading)

    def _read_project(self) -> None:
        """As Car → Read dead zones from project.godot…, then the dead zones shown anew."""
        self.controllers.read_project_dialog()
        self.show_settings()
        self.status.setText(self.controllers.window.statusBar().currentMessage())

    def _shaping_box(self) -> QGroupBox:
        box = QGroupBox("Shaping, per axis (order: inversion → dead zone … saturation → curve)")
        grid = QGridLayout(box)
        for column, text in enumerate(("axis", "dead zone", "saturation", "exponent", "inverted"), start=0):
            grid.addWidget(QLabel(f"<i>{text}</i>"), 0, column)
        self.editors = {}
        for row, axis in enumerate(AXES, start=1):
            dead_zone = _spin(-0.01, 0.99, 0.01, 3, SHAPE_TIPS["dead_zone"])
            saturation = _spin(0.05, 1.0, 0.01, 3, SHAPE_TIPS["saturation"])
            exponent = _spin(0.1, 5.0, 0.1, 2, SHAPE_TIPS["exponent"])
            inverted = QCheckBox()
            inverted.setToolTip(SHAPE_TIPS["inverted"])
            dead_zone.valueChanged.connect(lambda v, a=axis: self._change(a, dead_zone=None if v < 0 else v))
            saturation.valueChanged.connect(lambda v, a=axis: self._change(a, saturation=v))
            exponent.valueChanged.connect(lambda v, a=axis: self._change(a, exponent=v))
            inverted.toggled.connect(lambda on, a=axis: self._change(a, inverted=on))
            for column, widget in enumerate((QLabel(axis), dead_zone, saturation, exponent, inverted)):
                grid.addWidget(widget, row, column)
            self.editors[axis] = {"dead_zone": dead_zone, "saturation": saturation, "exponent": exponent,
                                  "inverted": inverted}  # fmt: skip
        return box

    def show_settings(self) -> None:
        """The editors show the shaping in use (and Godot's dead zones as they are now)."""
        zones = self.controllers.dead_zones
        for axis, editors in self.editors.items():
            shape = self.controllers.shaping.of(axis)
            actions = STEER_ACTIONS if axis == "steer" else (PEDAL_ACTIONS[axis],)
            godot = " / ".join(f"{zones.of(a):g}" for a in actions)
            editors["dead_zone"].setSpecialValueText(f"{GODOTS} ({godot})")
            values = (-0.01 if shape.dead_zone is None else shape.dead_zone, shape.saturation, shape.exponent)
            for name, value in zip(("dead_zone", "saturation", "exponent"), values):
                editors[name].blockSignals(True)
                editors[name].setValue(value)
                editors[name].blockSignals(False)
            editors["inverted"].blockSignals(True)
            editors["inverted"].setChecked(shape.inverted)
            editors["inverted"].blockSignals(False)

    def _change(self, axis: str, **changes) -> None:
        try:
            self.controllers.set_shape(axis, **changes)
        except UserError as exc:
            self.status.setText(f"Not changed: {exc}.")
            self.show_settings()
            return
        self.status.setText("")

    def reset(self) -> None:
        """Reset to defaults: Godot's dead zones, no saturation, curve or inversion."""
        self.controllers.reset_shaping()
        self.show_settings()
        self.status.setText("Every axis is back to Godot's dead zones.")

    def show_reading(self, reading: PadsReading) -> None:
        """The controllers of `reading` (the window's last poll), each axis raw and as the car receives it."""
        ids = [d.instance_id for d in reading.devices]
        if ids != list(self.meters):
            self._make_meters(reading)
        for device in reading.devices:
            self.meters[device.instance_id].show_values(device.raw, device.shaped)

    def _make_meters(self, reading: PadsReading) -> None:
        for meters in self.meters.values():
            self.devices_box.removeWidget(meters)
            meters.deleteLater()
        self.meters.clear()
        self.wheel_editors.clear()
        for device in reading.devices:
            editor = None
            if device.kind == "wheel":
                editor = self.wheel_editors[device.instance_id] = WheelMapEditor(self.controllers, device.name)
            self.meters[device.instance_id] = meters = DeviceMeters(device.name, device.kind, editor)
            self.devices_box.addWidget(meters)
        pads = self.controllers.pads
        if pads is not None and pads.error:
            self.note.setText(NO_SDL.format(error=pads.error))
        elif not reading.devices:
            self.note.setText(NO_CONTROLLER)
        else:
            wheels = any(d.kind == "wheel" for d in reading.devices)
            self.note.setText(
                "Each axis as the device reports it and as the car receives it, live."
                + (" A wheel's axis map is set below the wheel." if wheels else "")
            )
        self.adjustSize()


class WheelMapEditor(QWidget):
    """A wheel's axis map: which axis number steers, throttles, brakes and clutches (none:
    -1), each inverted or not, each pedal over the full range of its axis or half of it,
    and throttle and brake combined on one axis."""

    def __init__(self, controllers, name: str, parent=None):
        super().__init__(parent)
        self.controllers, self.name = controllers, name
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 6, 0, 0)
        for column, text in enumerate(("axis map", "axis number", "inverted", "full range")):
            grid.addWidget(QLabel(f"<i>{text}</i>"), 0, column)
        wheel = controllers.wheel_map(name)
        self.numbers, self.inverted, self.full = {}, {}, {}
        for row, axis in enumerate(WHEEL_AXES, start=1):
            binding = getattr(wheel, axis)
            optional = axis in ("brake", "clutch")
            number = QSpinBox()
            number.setRange(-1 if optional else 0, MAX_AXIS)
            if optional:
                number.setSpecialValueText("none")
            number.setValue(-1 if binding is None else binding.axis)
            number.setToolTip(f"The device's axis that gives the {axis} (0 is the first)")
            inverted = QCheckBox()
            inverted.setChecked(binding is not None and binding.inverted)
            grid.addWidget(QLabel(axis), row, 0)
            grid.addWidget(number, row, 1)
            grid.addWidget(inverted, row, 2)
            self.numbers[axis], self.inverted[axis] = number, inverted
            number.valueChanged.connect(self._changed)
            inverted.toggled.connect(self._changed)
            if axis != "steer":
                full = QCheckBox()
                full.setChecked(binding is None or binding.full_range)
                full.setToolTip("On: the pedal spans its whole axis (-1 released … 1 pressed); off: half (0 … 1)")
                full.toggled.connect(self._changed)
                grid.addWidget(full, row, 3)
                self.full[axis] = full
        self.combined = QCheckBox("throttle and brake combined on the throttle's axis (plus: throttle, minus: brake)")
        self.combined.setChecked(wheel.combined_pedals)
        self.combined.toggled.connect(self._changed)
        grid.addWidget(self.combined, len(WHEEL_AXES) + 1, 0, 1, 4)

    def _changed(self, *_args) -> None:
        bindings = {}
        for axis, number in self.numbers.items():
            full = self.full[axis].isChecked() if axis in self.full else True
            n = number.value()
            bindings[axis] = None if n < 0 else AxisBinding(n, self.inverted[axis].isChecked(), full)
        wheel = replace(self.controllers.wheel_map(self.name), **bindings, combined_pedals=self.combined.isChecked())
        self.controllers.set_wheel_map(self.name, wheel)
