"""Several curves over one x array, each in its own pen, drawn by one plot item.

The force curve of the dynamic car has eight lines (a gear each, the resistance, the
net). As eight pyqtgraph curve items, each redraw paid eight times for pyqtgraph's
per-item bookkeeping (bounds from the data, pixel padding, the paint wrapper): a
redraw of the Corvette's curve while a slider moved cost the window's thread
3-5 ms. One item holding a path per line works out its bounds once per new curve.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF

from . import qt  # noqa: F401  (binding choice before pyqtgraph)

PAD_PX = 2
"""Screen pixels added around the data in the item's bounds (a flat line has no height)."""


class CurveSet(pg.GraphicsObject):
    """Lines y_i(x) in pens p_i; the ViewBox's auto-range sees their joint bounds."""

    def __init__(self):
        super().__init__()
        self._paths: list = []  # (pen, QPainterPath)
        self._ranges = ((None, None), (None, None))  # (x min, x max), (y min, y max)
        self._rect: QRectF | None = None

    def set_curves(self, x: np.ndarray, lines: list[tuple[object, np.ndarray]]) -> None:
        """Draw `lines`, (pen, y) each, against `x`; points where y is not finite are
        left out (a gap)."""
        x = np.asarray(x, dtype=np.float64)
        self._paths = []
        lows, highs = [], []
        for pen, y in lines:
            y = np.asarray(y, dtype=np.float64)
            finite = np.isfinite(y)
            connect = "all" if finite.all() else "finite"
            self._paths.append((pen, pg.arrayToQPath(x, y, connect=connect)))
            if finite.any():
                lows.append(float(y[finite].min()))
                highs.append(float(y[finite].max()))
        x_range = (float(x.min()), float(x.max())) if x.size else (None, None)
        y_range = (min(lows), max(highs)) if lows else (None, None)
        self.prepareGeometryChange()
        self._ranges, self._rect = (x_range, y_range), None
        self.informViewBoundsChanged()
        self.update()

    def dataBounds(self, ax: int, frac: float = 1.0, orthoRange=None):
        return self._ranges[ax]

    def pixelPadding(self) -> float:
        return PAD_PX

    def viewTransformChanged(self) -> None:
        self._rect = None  # the padding is in screen pixels
        self.prepareGeometryChange()
        super().viewTransformChanged()

    def boundingRect(self) -> QRectF:
        if self._rect is None:
            (x0, x1), (y0, y1) = self._ranges
            if x0 is None or y0 is None:
                self._rect = QRectF()
            else:
                px, py = self.pixelVectors()
                px = 0.0 if px is None else px.length() * PAD_PX
                py = 0.0 if py is None else py.length() * PAD_PX
                self._rect = QRectF(x0 - px, y0 - py, x1 - x0 + 2 * px, y1 - y0 + 2 * py)
        return self._rect

    def paint(self, painter, *args) -> None:
        for pen, path in self._paths:
            painter.setPen(pen)
            painter.drawPath(path)
