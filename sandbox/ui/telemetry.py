"""Live plots of speed, slip angle and the model's own channels against time, from
preallocated ring buffers: one time axis at the bottom, a hover cursor whose readout
(above the plots) shows every curve's value at that time, and doubles as the legend."""

from __future__ import annotations

import html
import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QSizePolicy

from ..physics.channels import Channel, channel_values
from . import qt  # noqa: F401  (binding choice before pyqtgraph)
from .palette import CAR, CHANNELS, GAME, GHOSTS
from .plot_style import AXIS_WIDTH, CompactAxis, style_plot
from .ring_buffer import RingBuffer
from .steady_view import SteadyViewBox

WINDOW_SECONDS = 10.0
MAX_GHOSTS = 4
MAX_CHANNELS = 4
"""Curves the channel plot draws at once (more cannot be told apart on a plot this short)."""
MAX_UNITS = 2
"""Units the channel plot shows at once: the first on the left axis, the second on the right."""
CHANNEL_COLUMNS = tuple(f"channel_{i}" for i in range(MAX_CHANNELS))
COLUMNS = (
    ("t", "speed", "slip")
    + CHANNEL_COLUMNS
    + tuple(f"ghost{i}_{kind}" for i in range(MAX_GHOSTS) for kind in ("speed", "slip"))
    + ("game_speed", "game_slip")
)
PLOT_COLUMNS = (  # the buffer's columns each plot draws: the car's, then each ghost's, then the game's
    (COLUMNS.index("speed"),)
    + tuple(COLUMNS.index(f"ghost{i}_speed") for i in range(MAX_GHOSTS))
    + (COLUMNS.index("game_speed"),),
    (COLUMNS.index("slip"),)
    + tuple(COLUMNS.index(f"ghost{i}_slip") for i in range(MAX_GHOSTS))
    + (COLUMNS.index("game_slip"),),
    tuple(COLUMNS.index(c) for c in CHANNEL_COLUMNS),
)
SIDE_WIDTH = 62
"""px: the column of names and units left of the plots (horizontal text: a rotated
axis label was cut off on plots this short)."""


MIN_SLIP_SPAN_DEG = 2.0
"""°: the slip-angle plot's smallest vertical span."""
MIN_SPEED_SPAN = 1.0
"""speed units: the speed plot's smallest vertical span (a car at rest is a flat line)."""


class SecondsAgoAxis(pg.AxisItem):
    """The time axis, without a label line (the plots are short): its ticks say "now",
    then "-2 s" and so on."""

    def tickStrings(self, values, scale, spacing):
        return ["now" if v == 0 else f"{v:g} s" for v in values]


def _side(name: str, unit: str) -> str:
    return f"{html.escape(name)}<br><span style='color:#8a8a8a'>[{html.escape(unit)}]</span>" if unit else name


def channel_units(channels) -> list[str]:
    """The units of `channels`, each once, in order: the left axis's first."""
    return list(dict.fromkeys(c.unit for c in channels))


def shown_channels(channels) -> tuple[Channel, ...]:
    """`channels` the channel plot can show together: the first MAX_CHANNELS of the first
    MAX_UNITS units."""
    units = channel_units(channels)[:MAX_UNITS]
    return tuple(c for c in channels if c.unit in units)[:MAX_CHANNELS]


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
        self.length_unit = length_unit
        self.ci.setContentsMargins(2, 4, 6, 2)
        self.ci.setSpacing(2)
        self.sides = [self.addLabel("", row=row, col=0, justify="right", size="8pt") for row in range(3)]
        self.ci.layout.setColumnFixedWidth(0, SIDE_WIDTH)
        self.speed_plot, self.slip_plot, self.channel_plot = (
            self.addPlot(
                row=row,
                col=1,
                viewBox=SteadyViewBox(),
                axisItems={"left": CompactAxis("left"), "bottom": SecondsAgoAxis("bottom")},
            )
            for row in range(3)
        )
        self.plots = (self.speed_plot, self.slip_plot, self.channel_plot)
        self.channels: tuple[Channel, ...] = ()
        self.state_layout = None  # the state rows' layout, and the row before the next tick's:
        self._before = None  # the derived channels' tick before (None: not known)
        self.ghost_names: list[str] = []
        self.game_name = ""  # the linked game's, while its car is shown
        self.game = (math.nan, math.nan)  # the game car's newest speed and slip angle (°), recorded each tick
        for plot in self.plots:
            style_plot(plot)
            plot.setMouseEnabled(x=False, y=True)
            plot.getAxis("left").setWidth(AXIS_WIDTH)
        for plot in self.plots[:2]:  # one time axis, under the last plot
            plot.hideAxis("bottom")
        self.channel_plot.getAxis("bottom").setHeight(22)
        for row in range(3):
            self.ci.layout.setRowStretchFactor(row, 1)
        self.slip_plot.setXLink(self.speed_plot)
        self.channel_plot.setXLink(self.speed_plot)
        self.channel_plot.enableAutoRange(y=True)
        self.channel_curves = [self._curve(None, pg.mkPen(c, width=1)) for c in CHANNELS]
        self._curve_boxes: list = [None] * MAX_CHANNELS  # the view box each curve is in
        self.right_box = self._right_axis_box()
        self.speed_plot.setXRange(-WINDOW_SECONDS, 0, padding=0)
        self.speed_plot.setYRange(0, 100)
        self.speed_plot.enableAutoRange(y=True)
        self.slip_plot.setYRange(-10, 10)
        self.slip_plot.enableAutoRange(y=True)
        # the auto-range never zooms in below a span that means something: a car going
        # straight has slip angles of 1e-14° (float noise), not a curve worth a full plot
        self.slip_plot.setLimits(minYRange=MIN_SLIP_SPAN_DEG)
        self.speed_plot.setLimits(minYRange=MIN_SPEED_SPAN)
        # ghost curves join their plots only while a ghost is drawn: idle items in a
        # plot still cost every frame's auto-range pass
        dashed = [pg.mkPen(c, width=1, style=Qt.PenStyle.DashLine) for c in GHOSTS]
        self.ghost_speed_curves = [self._curve(None, pen) for pen in dashed]
        self.ghost_slip_curves = [self._curve(None, pen) for pen in dashed]
        self.game_speed_curve, self.game_slip_curve = (self._curve(None, pg.mkPen(GAME, width=1)) for _ in range(2))
        self.speed_curve = self._curve(self.speed_plot, pg.mkPen(CAR, width=1))
        self.slip_curve = self._curve(self.slip_plot, pg.mkPen(CAR, width=1))
        zero = self.slip_plot.addLine(y=0, pen=pg.mkPen("#555"))
        zero.setZValue(-50)  # under the curves
        self.cursor_ago: float | None = None  # hovered time (s before now), None: not hovering
        self.cursors = []
        for plot in self.plots:
            line = pg.InfiniteLine(angle=90, pen=pg.mkPen("#9e9e9e", width=1, style=Qt.PenStyle.DotLine))
            line.setZValue(-40)
            line.hide()
            plot.addItem(line, ignoreBounds=True)
            self.cursors.append(line)
        self.readout = QLabel()
        self.readout.setObjectName("plot_readout")
        self.readout.setTextFormat(Qt.TextFormat.RichText)
        font = self.readout.font()
        font.setPointSizeF(font.pointSizeF() * 0.9)
        self.readout.setFont(font)
        self.readout.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)  # text changes never relayout
        self.readout.setToolTip(
            "Values of every curve at the time under the mouse (now, when the mouse "
            "is elsewhere). Solid: your car (and, red, the linked game's car); dashed: the ghosts."
        )
        self._now = 0.0
        self._refreshes = 0
        self.scene().sigMouseMoved.connect(self._hover)
        self._label_sides()

    def _right_axis_box(self) -> pg.ViewBox:
        """A second view box over the channel plot, on its right axis: the curves of a
        second unit (pyqtgraph's multiple-axes recipe); its axis shows only while used."""
        box = SteadyViewBox()
        plot = self.channel_plot
        plot.scene().addItem(box)
        axis = plot.getAxis("right")
        axis.linkToView(box)
        axis.setWidth(AXIS_WIDTH)
        axis.setGrid(False)  # the left axis's grid is the plot's: a second one only crowds it
        box.setXLink(plot)
        box.enableAutoRange(y=True)
        box.setMouseEnabled(x=False, y=True)
        plot.getViewBox().sigResized.connect(lambda vb: box.setGeometry(vb.sceneBoundingRect()))
        return box

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
        self.length_unit = length_unit
        self._label_sides()

    def set_ghost_names(self, names) -> None:
        """The ghosts' names, in order, for the readout."""
        self.ghost_names = list(names)
        self.show_readout()

    def set_game(self, name: str, speed: float = math.nan, slip_deg: float = math.nan) -> None:
        """The linked game's car from now on: its name ("" when none) and its newest speed
        (this car's units/s) and slip angle (°), recorded with each tick of this car."""
        if name != self.game_name:
            self.game_name = name
            self.show_readout()
        self.game = (speed, slip_deg)

    def _label_sides(self) -> None:
        self.sides[0].setText(_side("speed", f"{self.length_unit}/s"))
        self.sides[1].setText(_side("slip angle", "°"))
        units = channel_units(self.channels)
        if len(units) > 1:
            text = "<br>".join(
                f"{side} <span style='color:#8a8a8a'>{f'[{html.escape(u)}]' if u else 'no unit'}</span>"
                for side, u in zip("◀▶", units)
            )
        elif len(self.channels) <= 2:
            text = _side(" / ".join(c.label for c in self.channels) or "channel", units[0] if units else "")
        else:
            text = _side("channels", units[0])
        self.sides[2].setText(text)

    def set_hz(self, hz: int) -> None:
        """Size the buffers for WINDOW_SECONDS at `hz` ticks per second (starts afresh)."""
        self.dt = 1.0 / hz
        self._before = None
        self.buffer = RingBuffer(int(WINDOW_SECONDS * hz) + 1, len(COLUMNS))
        # what each plot shows, copied at its own refresh: the plots take turns, and a
        # curve keeps (not copies) its arrays, so a shared or ring-buffer view would
        # drift under a plot drawn a frame ago (row 0 of each block: t - now)
        self._shown = np.empty((3, 1 + max(map(len, PLOT_COLUMNS)), self.buffer.capacity))

    def set_channels(self, channels) -> None:
        """Plot `channels` (physics.channels.Channel, as many as `shown_channels` keeps)
        from now on: those of the first unit on the left axis, of a second on the right.
        Their earlier values are not known, so their history starts blank."""
        self.channels = shown_channels(channels)
        units = channel_units(self.channels)
        plot, right = self.channel_plot, self.right_box
        for i, curve in enumerate(self.channel_curves):
            box = (
                None if i >= len(self.channels) else (plot.getViewBox() if self.channels[i].unit == units[0] else right)
            )
            if self._curve_boxes[i] is not box:  # idle curves leave: they cost every frame's auto-range
                if self._curve_boxes[i] is not None:
                    self._curve_boxes[i].removeItem(curve)
                if box is not None:
                    box.addItem(curve)
                self._curve_boxes[i] = box
        plot.showAxis("right", len(units) > 1)
        self._label_sides()
        first = COLUMNS.index(CHANNEL_COLUMNS[0])
        self.buffer.fill_columns(slice(first, first + MAX_CHANNELS), np.nan)  # not the ghosts'
        for box in (plot.getViewBox(), right):
            box.setYRange(0, 1)  # the old channels' range means nothing now
            box.enableAutoRange(y=True)
        self.show_readout()

    def forget_tick_before(self) -> None:
        """The next rows recorded do not follow the last ones (a jump): the derived
        channels' first value is left blank."""
        self._before = None

    def record(self, t, state, ghosts=(), inputs=None) -> None:
        """Add the states after one or more ticks (times `t`, one row of `state` each),
        and each ghost's speed (times its scale into this car's units) and slip angle:
        `ghosts` is ((state, scale), ...), the same rows; the game car's newest values
        (`set_game`) with each row. `inputs`: the ticks' values of the input channels that
        are no state slot (session/input_channels.py INPUT_KEYS: a value or a row each);
        a key not given is blank."""
        blank = np.full(len(state), np.nan)
        if state.layout is not self.state_layout:  # another model: its rows before mean nothing
            self.state_layout, self._before = state.layout, None
        rows = state.data
        values = [channel_values(c, self.state_layout, rows, self._before, self.dt, inputs) for c in self.channels]
        values += [blank] * (MAX_CHANNELS - len(values))
        self._before = rows[-1].copy()
        shadows = []
        for i in range(MAX_GHOSTS):
            if i < len(ghosts):
                g, scale = ghosts[i]
                shadows += [g.speed * scale, np.degrees(g.sideslip)]
            else:
                shadows += [blank, blank]
        shadows += [np.full(len(state), value) for value in self.game]
        times = np.broadcast_to(np.asarray(t, dtype=np.float64), (len(state),))
        self.buffer.extend(np.column_stack([times, state.speed, np.degrees(state.sideslip), *values, *shadows]))

    def reset_data(self) -> None:
        # not `clear`: GraphicsLayoutWidget binds its layout's clear() (remove all
        # plots) onto the instance under that name
        self.buffer.clear()
        self._before = None
        self.refresh(0.0)

    def refresh(self, now: float, plot: int | None = None) -> None:
        """Redraw the curves against time before `now` (s): all three plots, or only
        `plot` (0 speed, 1 slip, 2 the model's channels). Only the changed plot's area
        is repainted, so the window can spread the three over three frames."""
        data = self.buffer.view()
        n = data.shape[1]
        self._now = now
        # the readout's rich text costs about a millisecond to lay out: ten times a
        # second is as fast as anyone reads it (and at once while hovering, see _hover).
        # Counted in the speed plot's turns only: a count of every refresh met the speed
        # plot's turn on a multiple of six never, after a whole redraw (a reset) shifted it
        if plot == 0:
            self._refreshes += 1
        if plot is None or (plot == 0 and self._refreshes % 2 == 0):
            self.show_readout()
        for index in (0, 1, 2) if plot is None else (plot,):
            columns = PLOT_COLUMNS[index]
            shown = self._shown[index, : len(columns) + 1, :n]
            np.subtract(data[0], now, out=shown[0])
            np.take(data, columns, axis=0, out=shown[1:])
            ago, values = shown[0], shown[1:]
            if index == 2:
                for curve, row, _ in zip(self.channel_curves, values, self.channels):
                    curve.setData(ago, row, connect="finite")
            else:
                plot_item, car, ghosts = (
                    (self.speed_plot, self.speed_curve, self.ghost_speed_curves),
                    (self.slip_plot, self.slip_curve, self.ghost_slip_curves),
                )[index]
                car.setData(ago, values[0])
                game = (self.game_speed_curve, self.game_slip_curve)[index]
                self._refresh_ghosts(ago, values[1:], plot_item, [*ghosts, game])

    def _refresh_ghosts(self, ago, rows, plot, curves) -> None:
        """Each ghost's curve on `plot` (row i for ghost i; the game car's last); a curve
        joins the plot while its ghost has data and leaves it after."""
        for values, curve in zip(rows, curves):
            shown = curve.scene() is not None
            if np.isfinite(values[-1:]).any():
                if not shown:
                    plot.addItem(curve)
                curve.setData(ago, values, connect="finite")
            elif shown:
                plot.removeItem(curve)

    # --- the cursor and its readout -----------------------------------------
    def _hover(self, pos) -> None:
        """Follow the mouse over any plot with the cursor; elsewhere show "now"."""
        for plot in self.plots:
            box = plot.getViewBox()
            if box.sceneBoundingRect().contains(pos):
                ago = min(0.0, max(-WINDOW_SECONDS, box.mapSceneToView(pos).x()))
                self.cursor_ago = ago
                for line in self.cursors:
                    line.setValue(ago)
                    line.show()
                self.show_readout()
                return
        self.leave_cursor()

    def leaveEvent(self, event) -> None:
        super().leaveEvent(event)
        self.leave_cursor()

    def leave_cursor(self) -> None:
        if self.cursor_ago is not None:
            self.cursor_ago = None
            for line in self.cursors:
                line.hide()
            self.show_readout()

    def values_at(self, ago: float) -> np.ndarray | None:
        """The buffer's row (COLUMNS) nearest `ago` s before the last refresh; None
        when nothing is recorded yet."""
        data = self.buffer.view()
        if data.shape[1] == 0:
            return None
        target = self._now + ago
        i = min(int(np.searchsorted(data[0], target)), data.shape[1] - 1)
        if i > 0 and abs(data[0, i - 1] - target) <= abs(data[0, i] - target):
            i -= 1
        return data[:, i]

    def show_readout(self) -> None:
        """Every curve's value at the cursor (or now), in the curve's colour: this car
        solid, each ghost dashed, the linked game's car, then the model's channels."""
        ago = self.cursor_ago
        row = self.values_at(ago or 0.0)
        when = "now" if ago is None else f"{ago:+.2f} s"
        unit = f"{self.length_unit}/s"

        def number(value: float, places: int) -> str:
            if row is None or not math.isfinite(value):
                return "–"
            return f"{value:.0f}" if abs(value) >= 1000 else f"{value:.{places}f}"

        def at(column: str) -> float:
            return float(row[COLUMNS.index(column)]) if row is not None else math.nan

        parts = [
            f"<b>{when}</b>",
            f"<span style='color:{CAR}'>━ car {number(at('speed'), 1)} {unit} · {number(at('slip'), 1)}°</span>",
        ]
        for i, name in enumerate(self.ghost_names[:MAX_GHOSTS]):
            parts.append(
                f"<span style='color:{GHOSTS[i]}'>┅ {html.escape(name)} "
                f"{number(at(f'ghost{i}_speed'), 1)} {unit} · {number(at(f'ghost{i}_slip'), 1)}°</span>"
            )
        if self.game_name:
            parts.append(
                f"<span style='color:{GAME}'>━ game {html.escape(self.game_name)} "
                f"{number(at('game_speed'), 1)} {unit} · {number(at('game_slip'), 1)}°</span>"
            )
        for channel, colour, column in zip(self.channels, CHANNELS, CHANNEL_COLUMNS):
            unit = f" {html.escape(channel.unit)}" if channel.unit else ""
            parts.append(
                f"<span style='color:{colour}'>━ {html.escape(channel.label)} {number(at(column), 1)}{unit}</span>"
            )
        self.readout.setText(" &nbsp; ".join(parts))
