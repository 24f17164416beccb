"""One look for every plot, chosen to paint fast.

Qt's raster engine draws translucent lines 20-40x slower than opaque ones (measured
here: 9 ms against 0.3 ms for a 1000 px grid), and pyqtgraph's grid is translucent by
default. So grids and ticks are opaque, in a dim pen, and each axis (with its grid)
is kept as a cached picture between range changes.
"""

from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6.QtWidgets import QGraphicsItem

from . import qt  # noqa: F401  (binding choice before pyqtgraph)

AXIS_PEN = "#383838"
TEXT_PEN = "#b0b0b0"
AXIS_WIDTH = 42
"""px: every left axis the same width (the live plots line up), and fixed, so the
labels of a new range never lay a plot out again."""


class CompactAxis(pg.AxisItem):
    """An axis whose tick labels stay short: 12k for 12 000, 1.5M for 1 500 000 (the
    unit is written beside the plot), so they fit a narrow axis and never overlap."""

    def tickStrings(self, values, scale, spacing):
        big = max((abs(v) for v in values), default=0.0)
        if big < 10_000:
            return super().tickStrings(values, scale, spacing)
        divisor, suffix = (1e6, "M") if big >= 1e7 else (1e3, "k")
        places = max(0, -math.floor(math.log10(spacing / divisor))) if spacing > 0 else 0
        return [f"{v / divisor:.{places}f}{suffix}" for v in values]


def style_plot(plot: pg.PlotItem) -> None:
    """Opaque dim grid under the data, light labels, plain units (1000 px/s, not 1 kpx/s);
    labels on the major ticks only, so they never crowd."""
    for name in ("left", "bottom"):
        axis = plot.getAxis(name)
        axis.setPen(pg.mkPen(AXIS_PEN))
        axis.setTextPen(pg.mkPen(TEXT_PEN))
        axis.setStyle(tickAlpha=1.0, maxTickLevel=0, maxTextLevel=0, hideOverlappingLabels=True)
        axis.enableAutoSIPrefix(False)
        # the axis item draws the grid; put it below the ViewBox (z -100, no
        # background) so the opaque grid lines pass under the curves
        axis.setZValue(-200)
        # the axis and its grid span the plot, so every new curve point repainted
        # them (0.1-0.15 ms an axis); cached as a picture they are redrawn only when
        # their range changes (4 % of the live plots' repaints in `bench`)
        axis.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
    plot.showGrid(x=True, y=True, alpha=1.0)


def set_label(item: pg.PlotItem, side: str, text: str, unit: str) -> None:
    """An axis label, set only when it changes: a new label redraws the axis and lays
    the plot out again (every redraw of the force curve set it, costing a frame 2-3 ms)."""
    axis = item.getAxis(side)
    if (axis.labelText, axis.labelUnits) != (text, unit):
        item.setLabel(side, text, units=unit)


def opaque(rgb: tuple[int, int, int], alpha: float, under: tuple[int, int, int] = (0, 0, 0)) -> tuple[int, int, int]:
    """`rgb` at `alpha` (0-1) over `under`, as one opaque colour."""
    return tuple(round(u + (c - u) * alpha) for c, u in zip(rgb, under))
