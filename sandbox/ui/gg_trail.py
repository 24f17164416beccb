"""The g-g tab's trail: points drawn as round dots, each in its speed's colour made
fainter with its age, one pen and one draw call per (age step, speed step) in place of
a brush per point (a scatter item with one brush per point cost ~2 ms of Python each
redraw for 3 s of driving, ten times that for 30 s)."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QPainter, QPen

DOT_PX = 5
"""px: a point's diameter."""


def _pen(colour: pg.QtGui.QColor) -> QPen:
    pen = QPen(colour)
    pen.setWidthF(DOT_PX)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)  # a wide point with round caps: a round dot
    pen.setCosmetic(True)  # its width in px, whatever the axes' scale
    return pen


class TrailItem(pg.GraphicsObject):
    """Points (x, y) in the axes' units, point i drawn with `pens[style[i]]` (pens
    made once: `pens_of`); the styles in drawing order (a higher style on top)."""

    def __init__(self, pens: list[QPen]):
        super().__init__()
        self.pens = pens
        self._groups: list[tuple[int, pg.QtGui.QPolygonF]] = []
        self._rect = QRectF()

    def set_points(self, x: np.ndarray, y: np.ndarray, style: np.ndarray) -> None:
        """The trail's points and each one's pen (index into `pens`)."""
        self.prepareGeometryChange()
        self._groups = []
        if len(x):
            order = np.argsort(style, kind="stable")  # by style, the points' own order within one
            ranked = style[order]
            starts = np.flatnonzero(np.diff(ranked, prepend=-1))
            ends = np.append(starts[1:], len(ranked))
            for start, end in zip(starts, ends):
                polygon = pg.functions.create_qpolygonf(int(end - start))
                points = pg.functions.ndarray_from_qpolygonf(polygon)
                points[:, 0], points[:, 1] = x[order[start:end]], y[order[start:end]]
                self._groups.append((int(ranked[start]), polygon))
            self._rect = QRectF(float(x.min()), float(y.min()), float(x.max() - x.min()), float(y.max() - y.min()))
        else:
            self._rect = QRectF()
        self.update()

    def styles(self) -> list[tuple[int, int]]:
        """(style, points drawn with it) in drawing order (tests)."""
        return [(style, polygon.size()) for style, polygon in self._groups]

    def viewTransformChanged(self) -> None:
        self.prepareGeometryChange()  # the dots' margin in px: another size in the axes' units
        super().viewTransformChanged()

    def boundingRect(self) -> QRectF:
        if not self._groups:
            return QRectF()
        dx, dy = (self.pixelWidth() or 0.0) * DOT_PX, (self.pixelHeight() or 0.0) * DOT_PX
        return self._rect.adjusted(-dx, -dy, dx, dy)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        # drawn in px: a wide point under the axes' scale comes out as an ellipse
        to_px = painter.transform()
        painter.resetTransform()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        for style, polygon in self._groups:
            painter.setPen(self.pens[style])
            painter.drawPoints(to_px.map(polygon))


def pens_of(colours) -> list[QPen]:
    """A pen for each of `colours` (QColor), in that order."""
    return [_pen(colour) for colour in colours]
