"""The pieces of a parameter's row in the tuning panel: a label that elides, and the
slider with its number box.

The slider moves in whole steps of the parameter (or, for a parameter declared
`log`, evenly in the logarithm of the value: every decade the same length). The
number box takes a typed value; a value that is not a number, lies outside the
range or falls between two steps is answered with a note naming what happened.
"""

from __future__ import annotations

from PySide6.QtCore import QTimer, Qt, Signal
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QSlider, QWidget

from ..physics.params import Param

LOG_POSITIONS = 1000
"""Slider positions of a logarithmic slider."""
MAX_POSITIONS = 100_000
"""Most positions of a linear slider (one per step when there are fewer steps)."""
NUMBER_CHARS = 7
"""Characters the number box is wide enough for."""
FLASH_MS = 1500
"""How long the number box shows that a typed value was changed."""


class ElidedLabel(QLabel):
    """A one-line label that ends in "…" when narrower than its text; the whole text
    is its tooltip."""

    def __init__(self, text: str, parent=None):
        super().__init__(parent)
        self.full = text
        self.setMinimumWidth(40)
        self.setToolTip(text)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._elide()

    def set_full_text(self, text: str) -> None:
        """Show `text` (elided to the width) in place of the old one."""
        self.full = text
        self.updateGeometry()
        self._elide()

    def _elide(self) -> None:
        self.setText(QFontMetrics(self.font()).elidedText(self.full, Qt.TextElideMode.ElideRight, self.width()))

    def sizeHint(self):
        hint = super().sizeHint()
        hint.setWidth(QFontMetrics(self.font()).horizontalAdvance(self.full) + 4)
        return hint

    def minimumSizeHint(self):
        hint = super().minimumSizeHint()
        hint.setWidth(40)
        return hint


def number_text(p: Param, value: float) -> str:
    """`value` with the parameter's decimals (those of its step)."""
    return f"{value:.{p.decimals}f}"


class ParamSlider(QWidget):
    """Slider and number box of one parameter (the label and reset sit beside it in the
    panel's grid). `value()` is in the parameter's unit."""

    valueChanged = Signal(float)
    sliderPressed = Signal()
    sliderReleased = Signal()
    editingFinished = Signal()
    note = Signal(str)  # a typed value was refused or changed: say why

    def __init__(self, p: Param, value: float, parent=None):
        super().__init__(parent)
        self._value = float(value)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setMinimumWidth(60)
        self._take(p)
        self.number = QLineEdit()
        self.number.setAlignment(Qt.AlignmentFlag.AlignRight)
        self.number.setFixedWidth(QFontMetrics(self.number.font()).horizontalAdvance("0" * NUMBER_CHARS) + 12)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(self.slider, 1)
        layout.addWidget(self.number)
        self.slider.valueChanged.connect(self._moved)
        self.slider.sliderPressed.connect(self.sliderPressed)
        self.slider.sliderReleased.connect(self.sliderReleased)
        self.number.editingFinished.connect(self._typed)
        self._flash = QTimer(self)
        self._flash.setSingleShot(True)
        self._flash.setInterval(FLASH_MS)
        self._flash.timeout.connect(lambda: self.number.setStyleSheet(""))
        self._show(self._value)

    def _take(self, p: Param) -> None:
        self.param = p
        self.positions = LOG_POSITIONS if p.log else max(1, min(MAX_POSITIONS, round((p.max - p.min) / p.step)))
        self.slider.blockSignals(True)
        self.slider.setRange(0, self.positions)
        self.slider.setPageStep(max(1, self.positions // 20))
        self.slider.blockSignals(False)

    def set_param(self, p: Param, value: float) -> None:
        """Show parameter `p` (the same name with another range and unit, when a switch
        gives it another meaning) at `value`, without emitting valueChanged."""
        self._take(p)
        self._value = float(value)
        self._show(self._value)

    # --- the value -----------------------------------------------------------
    def value(self) -> float:
        return self._value

    def setValue(self, value: float) -> None:
        """Show `value` (clamped to the range) and emit valueChanged with it."""
        p = self.param
        value = min(p.max, max(p.min, float(value)))
        self._value = value
        self._show(value)
        self.valueChanged.emit(value)

    def position(self, value: float) -> int:
        """The slider position of `value`."""
        return round(self.param.to_slider(value) * self.positions)

    def _show(self, value: float) -> None:
        self.slider.blockSignals(True)
        self.slider.setValue(self.position(value))
        self.slider.blockSignals(False)
        if not self.number.hasFocus():
            self.number.setText(number_text(self.param, value))

    # --- from the user -------------------------------------------------------
    def _moved(self, position: int) -> None:
        value = self.param.from_slider(position / self.positions)
        if value != self._value:
            self._value = value
            self.number.setText(number_text(self.param, value))
            self.valueChanged.emit(value)

    def _typed(self) -> None:
        p = self.param
        text = self.number.text().strip()
        try:
            typed = float(text.replace(",", ".").replace("−", "-"))
        except ValueError:
            typed = float("nan")
        if typed != typed or typed in (float("inf"), float("-inf")):
            self._mark(f"{p.label}: “{text[:40]}” is not a number; kept {number_text(p, self._value)} {p.unit}")
            self.number.setText(number_text(p, self._value))
            self.editingFinished.emit()
            return
        snapped = p.snap(typed)
        if snapped != typed:
            why = (f"outside {p.range_text()}" if not p.min <= typed <= p.max
                   else f"the slider moves in steps of {p.step:g} {p.unit}")
            self._mark(f"{p.label}: {text} became {number_text(p, snapped)} ({why})")
        self.number.setText(number_text(p, snapped))
        if snapped != self._value:
            self.setValue(snapped)
        self.editingFinished.emit()

    def _mark(self, message: str) -> None:
        """Tint the number box for a moment and send the note."""
        self.number.setStyleSheet("background: #fff3c4; color: black")
        self._flash.start()
        self.note.emit(message)
