"""The "Steering feel" section's plot: the full-lock share and the steering-speed share
over speed, as the physics reads them (steer_feel.share_at: straight lines between the
three speed points, flat beyond them), redrawn whenever the tuning changes; a line at
the car's speed."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt

from ..physics.steer_feel import share_at
from ..session.tuning import LiveTuning, TuningChange
from . import qt  # noqa: F401  (binding choice before pyqtgraph)
from .palette import CAR, CHANNELS
from .plot_style import AXIS_WIDTH, CompactAxis, set_label, style_plot

SAMPLES = 121
"""Speeds the curves are drawn at, besides the three points themselves (where they bend)."""
BEYOND = 1.25
"""The speed axis runs to this many times the highest speed point (flat from there on)."""
HEIGHT_PX = 150
CURVES = (("lock_at", "full lock", CHANNELS[0]), ("rate_at", "steering speed", CHANNELS[1]))
"""(parameter prefix, name, colour) of each curve."""


def share_curve(tuning, prefix: str, speeds: np.ndarray) -> np.ndarray:
    """% at each of `speeds`: the share `prefix`_1..3 at speed_point_1..3 of `tuning`,
    by the physics' own rule (share_at, run as Python: no compile for a plot)."""
    points = [float(tuning[f"speed_point_{k}"]) for k in (1, 2, 3)]
    shares = [float(tuning[f"{prefix}_{k}"]) for k in (1, 2, 3)]
    return np.array([share_at.py_func(float(v), *points, *shares) for v in speeds])


def plot_speeds(tuning) -> np.ndarray:
    """The speeds drawn: evenly to BEYOND × the highest speed point, and the points."""
    points = [float(tuning[f"speed_point_{k}"]) for k in (1, 2, 3)]
    top = max(max(points) * BEYOND, 1.0)
    return np.unique(np.concatenate([np.linspace(0.0, top, SAMPLES), points]))


class SteerFeelPlot(pg.PlotWidget):
    """Full lock (%) and steering speed (%) over speed (the model's unit/s) of `tuning`."""

    def __init__(self, tuning: LiveTuning, parent=None):
        super().__init__(parent, axisItems={"left": CompactAxis("left")})
        self.tuning = tuning
        self.setObjectName("steer_feel_plot")
        self.setFixedHeight(HEIGHT_PX)
        item = self.getPlotItem()
        style_plot(item)
        item.getAxis("left").setWidth(AXIS_WIDTH)
        item.setMouseEnabled(x=False, y=False)
        item.hideButtons()
        item.setMenuEnabled(False)
        legend = item.addLegend(offset=(4, -4), labelTextSize="8pt")  # bottom left: shares are high when slow
        self.curves = {prefix: item.plot(pen=pg.mkPen(colour, width=1), name=name) for prefix, name, colour in CURVES}
        legend.setParentItem(item.getViewBox())
        self.marker = pg.InfiniteLine(angle=90, pen=pg.mkPen(CAR, width=1, style=Qt.PenStyle.DashLine))
        self.marker.hide()
        item.addItem(self.marker, ignoreBounds=True)
        self.setToolTip(
            "Share of the full-lock angle the wheels reach, and speed of the steer and return times, "
            "over the car's speed: straight lines between the three speed points, flat beyond them. "
            "Dashed: the car's speed now."
        )
        self.redraw()
        tuning.changed.connect(self._changed)

    def redraw(self) -> None:
        """The curves of the tuning now."""
        speeds = plot_speeds(self.tuning)
        for prefix, curve in self.curves.items():
            curve.setData(speeds, share_curve(self.tuning, prefix, speeds))
        item = self.getPlotItem()
        set_label(item, "bottom", "speed", f"{self.tuning.model.LENGTH_UNIT}/s")
        set_label(item, "left", "share", "%")
        item.setXRange(0.0, speeds[-1], padding=0.0)

    def set_speed(self, speed: float) -> None:
        """The car's speed (model units/s) as a line, while it is in the plot's range."""
        self.marker.setValue(speed)
        self.marker.setVisible(bool(speed <= self.getPlotItem().getViewBox().viewRange()[0][1]))

    def _changed(self, change: TuningChange) -> None:
        if change.model:  # another model's panel, with its own plot, replaces this one
            self.tuning.changed.disconnect(self._changed)
            return
        if any(name.startswith(("speed_point_", "lock_at_", "rate_at_")) for name in change.names):
            self.redraw()
