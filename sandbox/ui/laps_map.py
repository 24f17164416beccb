"""The Laps tab's track map: where the car went over a lap, each tick's point coloured
by a channel of that lap, with a colour bar in the channel's unit."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg

from ..analysis.lap_channels import LapChannels
from .plot_style import set_label, style_plot

COLOUR_MAP = "viridis"
"""Low values dark blue, high values yellow (readable in grey and by the colour-blind)."""
POINT_PX = 4


class LapMap(pg.GraphicsLayoutWidget):
    """The lap's path (x right, y down, as the track view) coloured by one channel."""

    def __init__(self):
        super().__init__()
        self.plot = self.addPlot()
        style_plot(self.plot)
        self.plot.setAspectLocked(True)
        self.plot.invertY(True)
        self.points = pg.ScatterPlotItem(size=POINT_PX, pen=None)
        self.plot.addItem(self.points)
        self.cmap = pg.colormap.get(COLOUR_MAP)
        self.bar = pg.ColorBarItem(values=(0.0, 1.0), colorMap=self.cmap, interactive=False, width=14)
        self.addItem(self.bar)
        self.setToolTip("The second lap's path, coloured by the channel chosen above")

    def show_lap(self, channels: LapChannels | None, name: str) -> None:
        """`channels`' lap coloured by its channel `name` (nothing for None or a lap
        without that channel)."""
        if channels is None or name not in channels:
            self.points.setData([], [])
            return
        values, unit = channels[name]
        x, y = channels["x"], channels["y"]
        lo, hi = (float(np.min(values)), float(np.max(values))) if len(values) else (0.0, 1.0)
        if hi <= lo:
            hi = lo + 1.0
        colours = self.cmap.map((np.asarray(values) - lo) / (hi - lo), mode="qcolor")
        self.points.setData(x.values, y.values, brush=colours)
        self.bar.setLevels((lo, hi))
        label = f"{name} [{unit}]" if unit else name
        self.bar.axis.setLabel(label)
        set_label(self.plot, "bottom", "x", x.unit)
        set_label(self.plot, "left", "y", y.unit)
        self.plot.enableAutoRange()  # kept on: the pane is laid out after the first lap is drawn

    def colours(self) -> list[tuple[int, int, int]]:
        """The points' colours (r, g, b), in the lap's tick order."""
        return [brush.color().getRgb()[:3] for brush in self.points.data["brush"]]
