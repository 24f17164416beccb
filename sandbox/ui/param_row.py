"""The pieces of a parameter's row in the tuning panel: its label (whole, on a line
of its own), and the slider with its number box.

The slider moves in whole steps of the parameter (or, for a parameter declared
`log`, evenly in the logarithm of the value: every decade the same length); it is
never shorter than SLIDER_MIN_PX, and Shift held while dragging moves it ten times
slower, for fine changes. The number box takes a typed value; a value that is not a
number, lies outside the range or falls between two steps is answered with a note
naming what happened. Clicked, the number box also takes the mouse wheel: a step a
notch (ten with Ctrl).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSlider,
    QStyle,
    QStyleOptionSlider,
    QWidget,
)

from ..physics.params import Param

LOG_POSITIONS = 1000
"""Slider positions of a logarithmic slider."""
MAX_POSITIONS = 100_000
"""Most positions of a linear slider (one per step when there are fewer steps)."""
NUMBER_CHARS = 7
"""Characters the number box is wide enough for."""
FLASH_MS = 1500
"""How long the number box shows that a typed value was changed."""
SLIDER_MIN_PX = 150
"""Shortest slider, in px. At 150 px the Corvette's mass (470 steps of 10 kg) moves
about 3 steps a pixel, and with Shift a step every 3 px; finer sliders have the
number box's wheel and typed values."""
SLOW_DRAG = 10
"""With Shift held, a drag moves the slider this many times slower."""
COARSE_WHEEL = 10
"""Steps a wheel notch moves the number box with Ctrl held."""
WHEEL_NOTCH = 120
"""angleDelta of one wheel notch (Qt's eighths of a degree)."""


class ParamLabel(QLabel):
    """A parameter's name and unit on a line of its own above its slider, never cut:
    it is never narrower than its text (the longest, 200 px, is well inside the panel's
    slider row). `full` is the text."""

    def __init__(self, text: str, parent=None):
        super().__init__(text, parent)
        self.full = text
        self.setMinimumWidth(self.sizeHint().width())

    def set_full_text(self, text: str) -> None:
        """Show `text` in place of the old one."""
        self.full = text
        self.setText(text)
        self.setMinimumWidth(self.sizeHint().width())


class FineSlider(QSlider):
    """A horizontal slider whose drag follows the mouse from where it was grabbed,
    SLOW_DRAG times slower while Shift is held (Shift can be pressed or let go mid-drag:
    the handle carries on from where it is)."""

    def __init__(self, parent=None):
        super().__init__(Qt.Orientation.Horizontal, parent)
        self._anchor: tuple[float, float, bool] | None = None  # mouse x, position, slow
        self._last_x = 0.0

    def positions_per_px(self) -> float:
        """Slider positions one pixel of a full-speed drag moves."""
        option = QStyleOptionSlider()
        self.initStyleOption(option)
        style = self.style()
        groove = style.subControlRect(QStyle.ComplexControl.CC_Slider, option, QStyle.SubControl.SC_SliderGroove, self)
        handle = style.subControlRect(QStyle.ComplexControl.CC_Slider, option, QStyle.SubControl.SC_SliderHandle, self)
        travel = max(1, groove.width() - handle.width())
        return (self.maximum() - self.minimum()) / travel

    def mousePressEvent(self, event) -> None:
        super().mousePressEvent(event)
        x = event.position().x()
        self._anchor = (x, float(self.sliderPosition()), self._slow(event)) if self.isSliderDown() else None
        self._last_x = x

    @staticmethod
    def _slow(event) -> bool:
        return bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)

    def mouseMoveEvent(self, event) -> None:
        if self._anchor is None or not self.isSliderDown():
            super().mouseMoveEvent(event)
            return
        x, slow = event.position().x(), self._slow(event)
        if self._anchor[2] != slow:  # Shift pressed or let go: carry on from where the handle is
            self._anchor = (self._last_x, float(self.sliderPosition()), slow)
        self._last_x = x
        start_x, start, _ = self._anchor
        rate = self.positions_per_px() / (SLOW_DRAG if slow else 1)
        if self.invertedAppearance() != (self.layoutDirection() == Qt.LayoutDirection.RightToLeft):
            rate = -rate
        self.setSliderPosition(round(min(self.maximum(), max(self.minimum(), start + (x - start_x) * rate))))
        event.accept()

    def mouseReleaseEvent(self, event) -> None:
        self._anchor = None
        super().mouseReleaseEvent(event)


class NumberBox(QLineEdit):
    """The number box: typed values, and once clicked the mouse wheel, a notch moving
    the value one step (COARSE_WHEEL with Ctrl). Unclicked, the wheel is left to the
    panel, which scrolls: scrolling past a box never changes its number."""

    stepped = Signal(int)  # steps up (positive) or down

    def wheelEvent(self, event) -> None:
        if not self.hasFocus():
            event.ignore()
            return
        delta = event.angleDelta()
        turn = delta.y() or delta.x()  # Shift turns some systems' wheel sideways
        notches = round(turn / WHEEL_NOTCH) or (1 if turn > 0 else -1 if turn < 0 else 0)
        if notches:
            coarse = event.modifiers() & Qt.KeyboardModifier.ControlModifier
            self.stepped.emit(notches * (COARSE_WHEEL if coarse else 1))
        event.accept()


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
        self.slider = FineSlider()
        self.slider.setMinimumWidth(SLIDER_MIN_PX)
        self._take(p)
        self.number = NumberBox()
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
        self.number.stepped.connect(self._stepped)
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

    def _stepped(self, steps: int) -> None:
        """The wheel on the number box: `steps` of the parameter's step from the value."""
        p = self.param
        value = p.snap(self._value + steps * p.step)
        self.number.setText(number_text(p, value))
        if value != self._value:
            self.setValue(value)

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
            why = (
                f"outside {p.range_text()}"
                if not p.min <= typed <= p.max
                else f"the slider moves in steps of {p.step:g} {p.unit}"
            )
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


class ParamChoice(QWidget):
    """A choice's row (the collision shape's kind): its label, then a drop-down list of
    its names. It never takes keyboard focus: the keys keep driving. `box` is the list."""

    def __init__(self, p: Param, value: float, tooltip: str, parent=None):
        super().__init__(parent)
        self.box = QComboBox()
        self.box.addItems(list(p.choices))
        self.box.setCurrentIndex(int(value))
        self.box.setObjectName(p.name)
        self.box.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        label = QLabel(p.label)
        for part in (self, label, self.box):
            part.setToolTip(tooltip)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(label)
        layout.addWidget(self.box, 1)
        self.setObjectName(p.name)
