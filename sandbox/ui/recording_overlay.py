"""What the car view draws of a replayed recording, in world coordinates: the path
the recorded car drove (x, y per tick) and the recorded car's outline where it was at
the replay's tick, both in the recording's own colour."""

from __future__ import annotations

import math
from typing import Callable

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QLineF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen

from . import qt  # noqa: F401  (binding choice before pyqtgraph)

RECORDING = "#ff7043"
"""The recording's colour (its path, its car, its divergence curve): deep orange, apart
from the car's blue and the ghosts' colours."""

PATH_POINTS = 20_000
"""The most points of the recorded path drawn (every k-th tick of a longer recording)."""


class RecordingOverlay:
    """The recorded path `x`, `y` (model units, one point a tick) and the recorded
    pose at the tick `tick_of()` says (None: nothing drawn); a TrackView calls
    `paint(painter, view)` in world coordinates."""

    def __init__(self, x: np.ndarray, y: np.ndarray, heading: np.ndarray, tick_of: Callable[[], int | None]):
        self.x, self.y, self.heading = (np.asarray(a, dtype=np.float64) for a in (x, y, heading))
        self.tick_of = tick_of
        # built once (the path never changes), of at most PATH_POINTS points: an hour's
        # recording stroked whole each frame would cost the frame rate, for no more to see
        stride = max(1, len(self.x) // PATH_POINTS)
        xs, ys = self.x[::stride], self.y[::stride]
        if stride > 1:
            xs, ys = np.append(xs, self.x[-1]), np.append(ys, self.y[-1])
        self._path = pg.arrayToQPath(xs, ys, connect="finite")

    def paint(self, p: QPainter, view) -> None:
        tick = self.tick_of()
        if tick is None:
            return
        colour = QColor(RECORDING)
        pen = QPen(colour, 2)
        pen.setCosmetic(True)
        p.setPen(pen)
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawPath(self._path)
        i = min(max(tick, 0), len(self.x) - 1)
        x, y, h = float(self.x[i]), float(self.y[i]), float(self.heading[i])
        if not all(map(math.isfinite, (x, y, h))):
            return
        length, width = view.body["length"], view.body["width"]
        p.save()
        p.translate(x, y)
        p.rotate(math.degrees(h))
        p.drawRoundedRect(QRectF(-length / 2, -width / 2, length, width), 0.1 * width, 0.1 * width)
        p.drawLine(QLineF(0, 0, length / 2 + 18 / view.scale, 0))  # where it points
        p.restore()
