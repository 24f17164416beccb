"""The Controls dialog's live view of one controller: per axis a bar and a number for the
device's raw value and for what the car receives (steer -1 left .. 1 right, from the
middle; a pedal 0 released .. 1 pressed, from the left)."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import QGridLayout, QGroupBox, QLabel, QWidget

from ..session.axis_shaping import AXES

RANGES = {"steer": "-1 left … 1 right", "throttle": "0 … 1", "brake": "0 … 1", "clutch": "0 … 1"}
"""Each axis's range, as the dialog says it."""
RAW_COLOUR, CAR_COLOUR = QColor(140, 150, 165), QColor(70, 150, 230)


class AxisBar(QWidget):
    """A value drawn as a bar: from the middle for a signed one (-1..1), else from the left (0..1)."""

    def __init__(self, signed: bool, colour: QColor, parent=None):
        super().__init__(parent)
        self.signed, self.colour, self.value = signed, colour, 0.0
        self.setMinimumSize(QSize(120, 14))

    def set_value(self, value: float) -> None:
        if value != self.value:
            self.value = value
            self.update()

    def paintEvent(self, _event) -> None:
        p = QPainter(self)
        r = QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5)
        p.setPen(self.palette().mid().color())
        p.drawRect(r)
        v = max(-1.0, min(1.0, self.value))
        if self.signed:
            middle = r.center().x()
            p.drawLine(int(middle), int(r.top()), int(middle), int(r.bottom()))
            left, right = sorted((middle, middle + v * r.width() / 2))
        else:
            left, right = r.left(), r.left() + max(0.0, v) * r.width()
        p.fillRect(QRectF(left, r.top() + 2, right - left, r.height() - 4), self.colour)
        p.end()


def number(axis: str, value: float) -> str:
    """How a value is written: the steer with its sign, three decimals."""
    value += 0.0  # -0.0 (a curve of nothing to the left) is written 0
    return f"{value:+.3f}" if axis == "steer" else f"{value:.3f}"


class DeviceMeters(QGroupBox):
    """One controller's axes, raw and as the car receives them; `extra` (a wheel's axis
    map editor) below them."""

    def __init__(self, name: str, kind: str, extra: QWidget | None = None, parent=None):
        super().__init__(f"{name} ({kind})", parent)
        self.axes = AXES if kind == "wheel" else AXES[:3]  # a pad has no clutch
        grid = QGridLayout(self)
        for column, text in enumerate(("axis", "raw (device)", "", "car receives", "", "range")):
            grid.addWidget(QLabel(f"<i>{text}</i>"), 0, column)
        self.bars, self.numbers = {}, {}
        for row, axis in enumerate(self.axes, start=1):
            signed = axis == "steer"
            raw_bar, car_bar = AxisBar(signed, RAW_COLOUR), AxisBar(signed, CAR_COLOUR)
            raw_text, car_text = QLabel(number(axis, 0.0)), QLabel(number(axis, 0.0))
            for label in (raw_text, car_text):
                label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                label.setMinimumWidth(52)
            note = "" if axis != "clutch" else " (shown only: the car has no clutch)"
            grid.addWidget(QLabel(axis), row, 0)
            grid.addWidget(raw_bar, row, 1)
            grid.addWidget(raw_text, row, 2)
            grid.addWidget(car_bar, row, 3)
            grid.addWidget(car_text, row, 4)
            grid.addWidget(QLabel(RANGES[axis] + note), row, 5)
            self.bars[axis], self.numbers[axis] = (raw_bar, car_bar), (raw_text, car_text)
        if extra is not None:
            grid.addWidget(extra, len(self.axes) + 1, 0, 1, 6)

    def show_values(self, raw: dict, shaped: dict) -> None:
        for axis in self.axes:
            values = (raw.get(axis, 0.0), shaped.get(axis, 0.0))
            for bar, label, value in zip(self.bars[axis], self.numbers[axis], values):
                bar.set_value(value)
                label.setText(number(axis, value))

    def shown(self) -> dict:
        """axis → (raw, car) as the numbers show them now."""
        return {axis: tuple(float(label.text()) for label in self.numbers[axis]) for axis in self.axes}
