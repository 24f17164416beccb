"""A plot area whose automatic y range moves in steps, not every frame.

pyqtgraph's auto-range fits the data exactly, so while a speed climbs the y axis
changes on every redraw: its tick labels and grid are redone and, when the labels'
width changes, the layout of every plot beside it (in `bench`, three runs each way:
frame median 4.1-5.7 ms fitted every redraw, 3.9-4.1 ms in steps).
Here the range follows the data only when the data leaves it (then with SPARE of the
data's span added on the side it left by) or fills less than SHRINK of it, and a new
range ends on round numbers, so a slider dragged back and forth meets the same few
ranges again (the force curve's y axis while a mass is dragged). The data is always
in view; the mouse, the "A" button and manual ranges work as in pyqtgraph.
"""

from __future__ import annotations

import math

import pyqtgraph as pg

from . import qt  # noqa: F401  (binding choice before pyqtgraph)

SPARE = 0.25
"""Headroom added on the side the data left by, as a fraction of the data's span."""
SHRINK = 0.5
"""Refit when the data spans less than this fraction of the range."""
ROUND_STEPS = (1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0)
"""The round numbers (times a power of ten) a new range's ends are rounded to."""


class SteadyViewBox(pg.ViewBox):
    """ViewBox whose auto-ranged y axis changes only when the data leaves the range
    or shrinks well inside it (x and manual ranges unchanged)."""

    def setRange(self, rect=None, xRange=None, yRange=None, padding=None, update=True, disableAutoRange=True):
        if yRange is not None and rect is None and not disableAutoRange:  # pyqtgraph's auto-range pass
            yRange = self._steady(*sorted(yRange))
            if yRange is None and xRange is None:
                return
        super().setRange(rect, xRange, yRange, padding, update, disableAutoRange)

    def _steady(self, low: float, high: float) -> tuple[float, float] | None:
        """The y range to show for data fitted by (low, high); None: keep the current.
        A new range's ends are round numbers (`round_above`), so a slider dragged back
        and forth meets the same few ranges again."""
        now_low, now_high = self.viewRange()[1]
        span = high - low
        if now_low <= low and high <= now_high:  # in view
            if span == 0 or span >= SHRINK * (now_high - now_low):
                return None  # (a flat line is shown at any scale; pyqtgraph keeps it)
            new_low, new_high = low, high  # shrunk well inside: fit it
        else:
            spare = SPARE * span
            new_low = low - spare if low < now_low else now_low
            new_high = high + spare if high > now_high else now_high
        return -round_above(-new_low), round_above(new_high)


def round_above(value: float) -> float:
    """The least round number (ROUND_STEPS times a power of ten, its negative, or 0)
    at or above `value`."""
    if value > 0:
        return round_up(value)
    if value < 0:
        return -round_down(-value)
    return value


def round_down(value: float) -> float:
    """The greatest of ROUND_STEPS times a power of ten that is at most `value` (> 0)."""
    if not (value > 0 and math.isfinite(value)):
        return value
    power = 10.0 ** math.floor(math.log10(value))
    return next((step * power for step in reversed(ROUND_STEPS) if step * power <= value * (1 + 1e-12)), power / 10 * 8)


def round_up(value: float) -> float:
    """The least of ROUND_STEPS times a power of ten that is at least `value` (> 0;
    other values are returned as they are)."""
    if not (value > 0 and math.isfinite(value)):
        return value
    power = 10.0 ** math.floor(math.log10(value))
    return next((step * power for step in ROUND_STEPS if step * power >= value * (1 - 1e-12)), 10 * power)
