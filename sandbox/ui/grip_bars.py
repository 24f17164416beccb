"""The g-g tab's bars (each wheel's friction-circle use, each axle's load): titled
groups of horizontal bars with their text, all painted by one widget in one paint with
the window's frame. A QProgressBar per bar painted itself with the style at each change
of its value: the frames that changed them took 12 ms and more, one frame in six while
driving."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QEvent, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPalette
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

ROW_PX = 18
"""px: a bar's height, and a title's."""
GAP_PX = 2


@dataclass
class Bar:
    """One bar: its value out of `top`, its text and its fill colour."""

    tip: str
    top: int
    value: int = 0
    label: str = ""
    colour: str = "#2e7d32"

    def text(self) -> str:
        return self.label


@dataclass
class Group:
    title: str
    tip: str
    bars: list[Bar]


class GripBars(QWidget):
    """Groups of bars, each under its title; `group` adds one, `clear` removes all.
    A bar changed with `set` is painted with the window's next frame."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.groups: list[Group] = []
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.setFixedHeight(0)

    def clear(self) -> None:
        self.groups = []
        self._resize()

    def group(self, title: str, tip: str, names, top: int, bar_tip: str) -> list[Bar]:
        """A titled group of bars (0 … `top`), one for each of `names` (none, and no
        title, without names)."""
        bars = [Bar(f"{name}: {bar_tip}", top) for name in names]
        if bars:
            self.groups.append(Group(title, tip, bars))
            self._resize()
        return bars

    def set(self, bar: Bar, value: int, text: str, colour: str | None = None) -> None:
        """A bar's value (clamped to 0 … its top), text and colour, painted with the next frame."""
        value = min(max(value, 0), bar.top)
        if (value, text, colour or bar.colour) != (bar.value, bar.label, bar.colour):
            bar.value, bar.label, bar.colour = value, text, colour or bar.colour
            self.update()

    def _rows(self):
        """(rect, group's title or None, bar or None) of each row, top down."""
        y, width = 0.0, float(self.width())
        for group in self.groups:
            yield QRectF(0, y, width, ROW_PX), group, None
            y += ROW_PX + GAP_PX
            for bar in group.bars:
                yield QRectF(0, y, width, ROW_PX), group, bar
                y += ROW_PX + GAP_PX

    def _resize(self) -> None:
        rows = sum(1 + len(group.bars) for group in self.groups)
        self.setFixedHeight(max(0, rows * (ROW_PX + GAP_PX) - GAP_PX))
        self.update()

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        palette = self.palette()
        text, base = palette.color(QPalette.ColorRole.WindowText), palette.color(QPalette.ColorRole.Base)
        edge, on_fill = palette.color(QPalette.ColorRole.Mid), palette.color(QPalette.ColorRole.HighlightedText)
        for rect, group, bar in self._rows():
            if bar is None:
                painter.setPen(text)
                painter.drawText(rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, group.title)
                continue
            painter.fillRect(rect, base)
            filled = QRectF(rect)
            filled.setWidth(rect.width() * bar.value / max(bar.top, 1))
            painter.fillRect(filled, QColor(bar.colour))
            painter.setPen(edge)
            painter.drawRect(rect.adjusted(0, 0, -1, -1))
            # the text light over the fill, dark beside it, as a progress bar draws it
            for clip, colour in ((filled, on_fill), (rect.adjusted(filled.width(), 0, 0, 0), text)):
                painter.setClipRect(clip)
                painter.setPen(colour)
                painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, bar.label)
            painter.setClipping(False)
        painter.end()

    def event(self, event) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            at = QPointF(event.pos())
            for rect, group, bar in self._rows():
                if rect.contains(at):
                    QToolTip.showText(event.globalPos(), group.tip if bar is None else bar.tip, self)
                    return True
            QToolTip.hideText()
            event.ignore()
            return True
        return super().event(event)
