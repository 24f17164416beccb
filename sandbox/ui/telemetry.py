"""Live plots of speed and slip angle against time, from preallocated ring buffers."""

from __future__ import annotations


import numpy as np

from . import qt  # noqa: F401  (binding choice before pyqtgraph)
import pyqtgraph as pg
from PySide6.QtCore import Qt

from .ring_buffer import RingBuffer
from .plot_style import style_plot
from .steady_view import SteadyViewBox

WINDOW_SECONDS = 10.0
MAX_GHOSTS = 4
COLUMNS = ("t", "speed", "slip", "channel_a", "channel_b") + tuple(
    f"ghost{i}_{kind}" for i in range(MAX_GHOSTS) for kind in ("speed", "slip"))
PLOT_COLUMNS = (  # the buffer's columns each plot draws: the car's, then each ghost's
    (COLUMNS.index("speed"),) + tuple(COLUMNS.index(f"ghost{i}_speed") for i in range(MAX_GHOSTS)),
    (COLUMNS.index("slip"),) + tuple(COLUMNS.index(f"ghost{i}_slip") for i in range(MAX_GHOSTS)),
    (COLUMNS.index("channel_a"), COLUMNS.index("channel_b")),
)
GHOST_PENS = ("#b0bec5", "#f48fb1", "#ffe082", "#80cbc4")
CHANNEL_PENS = ("#aed581", "#ce93d8")


class LivePlots(pg.GraphicsLayoutWidget):
    """Speed (model units/s), slip angle (°) and a model channel group (e.g. rpm and
    gear, axle loads) over the last WINDOW_SECONDS.

    Curves are 1 px wide: Qt strokes wider lines several times slower (a redraw of
    the three plots with two ghosts took 5.8 ms at width 2, 3.3 ms at width 1).

    The time axis is fixed at -WINDOW_SECONDS … 0 (0 = now) and the data moves
    along it, so the axes are not redrawn every frame.
    """

    def __init__(self, hz: int = 60, length_unit: str = "px", parent=None):
        super().__init__(parent)
        self.set_hz(hz)
        self.speed_plot = self.addPlot(row=0, col=0, viewBox=SteadyViewBox())
        self.slip_plot = self.addPlot(row=1, col=0, viewBox=SteadyViewBox())
        self.channel_plot = self.addPlot(row=2, col=0, viewBox=SteadyViewBox())
        self.channels: tuple = ()
        for plot in (self.speed_plot, self.slip_plot, self.channel_plot):
            style_plot(plot)
            plot.setMouseEnabled(x=False, y=True)
        self.speed_plot.setLabel("left", "speed", units=f"{length_unit}/s")
        self.slip_plot.setLabel("left", "slip angle", units="°")
        self.channel_plot.setLabel("bottom", "time before now", units="s")
        self.slip_plot.setXLink(self.speed_plot)
        self.channel_plot.setXLink(self.speed_plot)
        self.channel_plot.enableAutoRange(y=True)
        self.channel_legend = self.channel_plot.addLegend(offset=(5, 5), brush=(20, 20, 20))
        self.channel_curves = [self._curve(self.channel_plot, pg.mkPen(c, width=1)) for c in CHANNEL_PENS]
        self.speed_plot.setXRange(-WINDOW_SECONDS, 0, padding=0)
        self.speed_plot.setYRange(0, 100)
        self.speed_plot.enableAutoRange(y=True)
        self.slip_plot.setYRange(-10, 10)
        self.slip_plot.enableAutoRange(y=True)
        # ghost curves join their plots only while a ghost is drawn: idle items in a
        # plot still cost every frame's auto-range pass
        dashed = [pg.mkPen(c, width=1, style=Qt.PenStyle.DashLine) for c in GHOST_PENS]
        self.ghost_speed_curves = [self._curve(None, pen) for pen in dashed]
        self.ghost_slip_curves = [self._curve(None, pen) for pen in dashed]
        self.speed_curve = self._curve(self.speed_plot, pg.mkPen("#4fc3f7", width=1))
        self.slip_curve = self._curve(self.slip_plot, pg.mkPen("#ff8a65", width=1))
        self.slip_plot.addLine(y=0, pen=pg.mkPen("#888"))

    @staticmethod
    def _curve(plot, pen) -> pg.PlotCurveItem:
        """A bare curve item (on `plot` if given): PlotDataItem's setData costs ~200 µs a
        call on top, for symbols and datasets these plots never use. `connect="finite"`
        leaves gaps where a value is NaN (a ghost, a channel, before it existed)."""
        curve = pg.PlotCurveItem(pen=pen, connect="finite")
        if plot is not None:
            plot.addItem(curve)
        return curve

    def set_units(self, length_unit: str) -> None:
        self.speed_plot.setLabel("left", "speed", units=f"{length_unit}/s")

    def set_hz(self, hz: int) -> None:
        """Size the buffers for WINDOW_SECONDS at `hz` ticks per second (starts afresh)."""
        self.buffer = RingBuffer(int(WINDOW_SECONDS * hz) + 1, len(COLUMNS))
        # what each plot shows, copied at its own refresh: the plots take turns, and a
        # curve keeps (not copies) its arrays, so a shared or ring-buffer view would
        # drift under a plot drawn a frame ago (row 0 of each block: t - now)
        self._shown = np.empty((3, 1 + max(map(len, PLOT_COLUMNS)), self.buffer.capacity))

    def set_channels(self, group: str, unit: str, channels: tuple) -> None:
        """Plot `channels` ((state key, label, factor), at most two) from now on; the
        group's earlier values are not known, so its history starts blank."""
        self.channels = tuple(channels)[:2]
        # the unit alone: the group's name is in the box above the plots, and a long
        # name ("rpm and gear (rpm)") ran past this short plot into its neighbour
        self.channel_plot.setLabel("left", unit or group)
        self.channel_legend.clear()
        for curve, (_, label, _) in zip(self.channel_curves, self.channels):
            self.channel_legend.addItem(curve, label)
        self.buffer.fill_columns(slice(3, 5), np.nan)  # the channel columns, not the ghosts'

    def record(self, t, state, ghosts=()) -> None:
        """Add the states after one or more ticks (times `t`, one row of `state` each),
        and each ghost's speed (times its scale into this car's units) and slip angle:
        `ghosts` is ((state, scale), ...), the same rows."""
        blank = np.full(len(state), np.nan)
        values = [state.channel(key) * factor for key, _, factor in self.channels]
        values += [blank] * (2 - len(values))
        shadows = []
        for i in range(MAX_GHOSTS):
            if i < len(ghosts):
                g, scale = ghosts[i]
                shadows += [g.speed * scale, np.degrees(g.slip_angle)]
            else:
                shadows += [blank, blank]
        times = np.broadcast_to(np.asarray(t, dtype=np.float64), (len(state),))
        self.buffer.extend(np.column_stack([times, state.speed, np.degrees(state.slip_angle), *values, *shadows]))

    def reset_data(self) -> None:
        # not `clear`: GraphicsLayoutWidget binds its layout's clear() (remove all
        # plots) onto the instance under that name
        self.buffer.clear()
        self.refresh(0.0)

    def refresh(self, now: float, plot: int | None = None) -> None:
        """Redraw the curves against time before `now` (s): all three plots, or only
        `plot` (0 speed, 1 slip, 2 the model's channels). Only the changed plot's area
        is repainted, so the window can spread the three over three frames."""
        data = self.buffer.view()
        n = data.shape[1]
        for index in (0, 1, 2) if plot is None else (plot,):
            columns = PLOT_COLUMNS[index]
            shown = self._shown[index, :len(columns) + 1, :n]
            np.subtract(data[0], now, out=shown[0])
            np.take(data, columns, axis=0, out=shown[1:])
            ago, values = shown[0], shown[1:]
            if index == 2:
                for curve, row, used in zip(self.channel_curves, values, (0, 1)):
                    if used < len(self.channels):
                        curve.setData(ago, row, connect="finite")
                    elif curve.xData is not None and len(curve.xData):
                        curve.setData(np.empty(0), np.empty(0))
            else:
                plot_item, car, ghosts = ((self.speed_plot, self.speed_curve, self.ghost_speed_curves),
                                          (self.slip_plot, self.slip_curve, self.ghost_slip_curves))[index]
                car.setData(ago, values[0])
                self._refresh_ghosts(ago, values[1:], plot_item, ghosts)

    def _refresh_ghosts(self, ago, rows, plot, curves) -> None:
        """Each ghost's curve on `plot` (row i for ghost i); a curve joins the plot while
        its ghost has data and leaves it after."""
        for values, curve in zip(rows, curves):
            shown = curve.scene() is not None
            if np.isfinite(values[-1:]).any():
                if not shown:
                    plot.addItem(curve)
                curve.setData(ago, values, connect="finite")
            elif shown:
                plot.removeItem(curve)
