"""Vertical markers at speeds on a plot (top speed, slip speed, the car's speed now),
each with a label, drawn by one light item in the plot area's own pixels.

pyqtgraph's InfiniteLine recomputes its bounds from the view on every move and
range change: with three of them the force curve's repaint after a new tuning took
4.6-6.4 ms, against 2.0-3.2 ms without them (Corvette, 40 redraws). This item's
bounds are the plot area's and never move, so a marker's move is one repaint.
Labels are stacked in rows from the top, each in the first row where it overlaps
no other label, so they never cover each other.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPen
from PySide6.QtWidgets import QGraphicsObject

LABEL_TEXT = QColor("#dddddd")
LABEL_FILL = QColor(20, 20, 20)
LABEL_PAD = 2.0
"""px around a label's text."""


class Marker:
    """One vertical line at a speed (model units/s), labelled with `text` formatted
    with its value ("top {value:.0f}")."""

    def __init__(self, owner: "SpeedMarkers", text: str, pen: QPen):
        self._owner, self.text, self.pen = owner, text, pen
        self._value, self._visible = 0.0, True

    def value(self) -> float:
        return self._value

    def setValue(self, value: float) -> None:
        value = float(value)
        if value != self._value:
            self._value = value
            self._owner.update()

    def isVisible(self) -> bool:
        return self._visible

    def setVisible(self, visible: bool) -> None:
        if bool(visible) != self._visible:
            self._visible = bool(visible)
            self._owner.update()

    def show(self) -> None:
        self.setVisible(True)

    def hide(self) -> None:
        self.setVisible(False)

    def label(self) -> str:
        return self.text.format(value=self._value)


class SpeedMarkers(QGraphicsObject):
    """The markers of one pyqtgraph ViewBox, drawn over its data (a child of the box,
    clipped to it)."""

    def __init__(self, view_box, font_size: float = 7.5):
        super().__init__(view_box)
        self.box = view_box
        self.markers: list[Marker] = []
        self.font = QFont()
        self.font.setPointSizeF(font_size)
        self.setZValue(10)  # over the box's data group
        view_box.sigRangeChanged.connect(lambda *_: self.update())
        view_box.sigResized.connect(self._resized)

    def add(self, text: str, pen: QPen) -> Marker:
        marker = Marker(self, text, pen)
        self.markers.append(marker)
        return marker

    def _resized(self) -> None:
        self.prepareGeometryChange()
        self.update()

    def boundingRect(self) -> QRectF:
        return self.box.boundingRect()

    def x_pixel(self, value: float) -> float:
        """Where `value` lies across the box, in the box's pixels."""
        (left, right), _ = self.box.viewRange()
        rect = self.box.boundingRect()
        return rect.left() + (value - left) / ((right - left) or 1.0) * rect.width()

    def label_rects(self) -> list[tuple[Marker, QRectF]]:
        """Each visible marker's label box, in rows from the top: a label goes in the
        first row where it overlaps no label already placed."""
        rect = self.box.boundingRect()
        metrics = QFontMetricsF(self.font)
        height = metrics.height() + 2 * LABEL_PAD
        rows: list[list[QRectF]] = []
        placed = []
        shown = sorted((m for m in self.markers if m._visible), key=lambda m: m._value)
        for marker in shown:
            width = metrics.horizontalAdvance(marker.label()) + 2 * LABEL_PAD
            x = self.x_pixel(marker._value) + 3
            if x + width > rect.right():  # at the right edge: the label on the line's left
                x = self.x_pixel(marker._value) - 3 - width
            for row, boxes in enumerate(rows + [[]]):
                box = QRectF(x, rect.top() + 2 + row * (height + 1), width, height)
                if not any(box.intersects(other) for other in boxes):
                    if row == len(rows):
                        rows.append([])
                    rows[row].append(box)
                    placed.append((marker, box))
                    break
        return placed

    def paint(self, painter, *args) -> None:
        rect = self.box.boundingRect()
        for marker in self.markers:
            if marker._visible:
                x = self.x_pixel(marker._value)
                painter.setPen(marker.pen)
                painter.drawLine(QPointF(x, rect.top()), QPointF(x, rect.bottom()))
        painter.setFont(self.font)
        for marker, box in self.label_rects():
            painter.fillRect(box, LABEL_FILL)
            painter.setPen(LABEL_TEXT)
            painter.drawText(box, Qt.AlignmentFlag.AlignCenter, marker.label())
