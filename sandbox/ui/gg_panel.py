"""The g-g tab: the car's longitudinal against its lateral acceleration, in its own
frame (physics/car_frame.py), over the last seconds as a trail coloured by speed and
fading with age, the live point, and the grip envelope the tuning allows at the
current speed (analysis/grip_envelope.py: the limit the lap driver plans with, from the
car's measured limits, computed on a worker thread as the driver's are). Beside it,
each tyre's (or axle's) friction-circle use and the axle loads (analysis/grip_use.py).
In g for the models in metres, px/s² for the arcade. Nothing is recorded or drawn
while the tab is hidden."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QDoubleSpinBox,
    QGraphicsItem,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from ..analysis.grip_envelope import outline
from ..analysis.grip_use import GripUse, grip_use
from ..analysis.kernel_prep import DRIVER, prepare
from ..analysis.lap_plan import Limits, car_limits
from ..physics.car_frame import STANDARD_G
from ..physics.channels import derived
from .gg_trail import TrailItem, pens_of
from .grip_bars import Bar, GripBars
from .ring_buffer import RingBuffer
from .window_memory import settings
from .worker import Worker

TRAIL_KEY = "gg/trail_s"
"""Where the trail's length (s) is kept between runs (QSettings)."""
TRAIL_S = 3.0
"""s of driving the trail shows by default."""
TRAIL_RANGE_S = (0.5, 30.0)
"""s: the shortest and longest trail the setting allows."""
OUTLINE_POINTS = 61
"""Points of each half of the envelope drawn."""
SPEED_COLOURS = 16
"""Steps of the trail's speed colours (slow blue to fast red)."""
AGE_STEPS = 6
"""Steps of the trail's fading with age."""
ENVELOPE_STEP = 0.01
"""While driving, the envelope is drawn again when its forward reach moves by this share
of the axes' span (about 3 px: each redraw repaints the whole plot, ~5 ms)."""
RANGE_MARGIN = 0.15
"""The axes reach this much beyond the envelope (or the trail, where it goes further)."""
USE_WARN = 0.9
"""Friction-circle use from which a bar turns orange; red from 100 %."""


def trail_colours() -> list[QColor]:
    """The trail's colour of age step a (0 the oldest) and speed step c at a·SPEED_COLOURS
    + c: the speed's colour (slow blue to fast red), fainter with age."""
    colours = pg.colormap.get("CET-R4").getLookupTable(0.0, 1.0, SPEED_COLOURS, alpha=False)
    return [
        QColor(int(r), int(g), int(b), int(40 + 215 * (a + 1) / AGE_STEPS))
        for a in range(AGE_STEPS)
        for r, g, b in colours
    ]


class GGPanel(QWidget):
    """The g-g diagram and the grip bars of the window's car. The window feeds it the
    states of each tick (`record`), tells it the car (`set_car`), and redraws it
    (`refresh`); `set_active` with its tab's visibility."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.model = None
        self.tuning: dict = {}
        self.hz = 60
        self.scale = STANDARD_G  # length/s² per unit shown
        self.unit = "g"
        self.limits: Limits | None = None
        self.active = False
        self.buffer = RingBuffer(2, 4)
        self._last: np.ndarray | None = None  # the newest state row
        self._time = 0.0
        self._turns = 0  # refreshes so far (the bars change every other one while driving)
        self._envelope_reach: float | None = None  # the forward reach of the envelope drawn (length/s²)
        self._range: np.ndarray | None = None  # the axes' reach: across, ahead, behind (unit shown)
        self._span = 1.0  # the longitudinal axis's span (unit shown)
        self.job = Worker(self, "g-g limits")
        self.job.active = False
        self.job.finished.connect(self._limits_ready)
        self.job.failed.connect(lambda why: self._set_note(f"no envelope: could not measure the limits ({why})"))
        self.plot = pg.PlotWidget()
        self.plot.setObjectName("gg_plot")
        self.plot.setAspectLocked(True)
        self.plot.disableAutoRange()  # `_fit_range` sets it
        self.plot.showGrid(x=True, y=True, alpha=0.25)
        self.plot.setMenuEnabled(False)
        for side in ("left", "bottom"):
            self.plot.getAxis(side).enableAutoSIPrefix(False)  # the unit is in the label: no ×0.001
            # its grid lines span the plot: kept as a picture, not drawn again with each trail
            self.plot.getAxis(side).setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.envelope = self.plot.plot(pen=pg.mkPen("#2e7d32", width=2), name="envelope")
        self.trail = TrailItem(pens_of(trail_colours()))
        self.live = pg.ScatterPlotItem(size=12, pen=pg.mkPen("k", width=1.5), brush=pg.mkBrush("#ffeb3b"))
        self.plot.addItem(self.trail)
        self.plot.addItem(self.live)
        self.seconds = QDoubleSpinBox()
        self.seconds.setObjectName("gg_seconds")
        self.seconds.setRange(*TRAIL_RANGE_S)
        self.seconds.setSingleStep(0.5)
        self.seconds.setDecimals(1)
        self.seconds.setValue(TRAIL_S)
        self.seconds.setSuffix(" s")
        self.seconds.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.seconds.setToolTip("How many seconds of driving the trail shows (older points fade out)")
        self.seconds.valueChanged.connect(self._resize_buffer)
        self.speeds = QLabel("")
        self.speeds.setToolTip("The trail's points are coloured by the car's speed over the trail's span")
        # its text changes while driving: a fixed size keeps that from laying the column out again
        self.speeds.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.envelope_text = QLabel("")
        self.envelope_text.setStyleSheet("color: gray")
        self.envelope_text.setWordWrap(True)
        self.bars = GripBars()
        self.note = QLabel("")
        self.note.setWordWrap(True)
        self.note.setStyleSheet("color: gray")
        self._bar_labels: tuple = ()
        self.use_bars: list[Bar] = []
        self.load_bars: list[Bar] = []
        side = QVBoxLayout()
        row = QHBoxLayout()
        row.addWidget(QLabel("trail"))
        row.addWidget(self.seconds)
        row.addStretch(1)
        side.addLayout(row)
        side.addWidget(self.speeds)
        side.addWidget(self.envelope_text)
        side.addWidget(self.bars)
        side.addWidget(self.note)
        side.addStretch(1)
        column = QWidget()
        column.setLayout(side)
        column.setMaximumWidth(300)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.plot, 1)
        layout.addWidget(column)

    def remember_trail(self, memory) -> None:
        """The trail's length kept between runs under TRAIL_KEY: the one kept shown now
        (a damaged one: the default, said by `memory`, the window's SessionMemory), each
        change kept."""
        low, high = TRAIL_RANGE_S
        self.seconds.setValue(memory.setting(TRAIL_KEY, TRAIL_S, low=low, high=high))
        self.seconds.valueChanged.connect(lambda seconds: settings().setValue(TRAIL_KEY, float(seconds)))

    # --- the car ------------------------------------------------------------------------
    def set_car(self, model, tuning, hz: int) -> None:
        """Follow the window's car: its model, tuning and tick rate (a new model or rate
        starts the trail afresh); its limits measured anew, off the window's thread."""
        fresh = model is not self.model or hz != self.hz
        self.model, self.tuning, self.hz = model, dict(tuning), int(hz)
        if fresh:
            metric = model.LENGTH_UNIT == "m"
            self.scale, self.unit = (STANDARD_G, "g") if metric else (1.0, f"{model.LENGTH_UNIT}/s²")
            self.plot.getAxis("bottom").setLabel(f"lateral acceleration ({self.unit}), + to the right")
            self.plot.getAxis("left").setLabel(f"longitudinal acceleration ({self.unit}), + speeding up")
            self._resize_buffer()
            self.limits = None
            self.envelope.setData([], [])
            self._range = None
        self._envelope_reach = None  # drawn again for the new limits
        self.envelope_text.setText("measuring the car's limits…")
        car = (model, dict(tuning), float(hz))
        self.job.request(lambda task: _measured(*car))

    def _limits_ready(self, result, seconds: float) -> None:
        model, limits = result
        if model is not self.model:
            return
        self.limits = limits
        self._envelope_reach, self._range = None, None
        if not (math.isfinite(limits.lateral) and limits.lateral > 0 and math.isfinite(limits.braking)):
            self.envelope_text.setText("no envelope: the car showed no lateral grip or braking in its manoeuvres")
            return
        self.envelope_text.setText(
            f"envelope: {limits.lateral / self.scale:.2f} {self.unit} across, "
            f"{limits.braking / self.scale:.2f} {self.unit} braking, ahead as the full-throttle run at this "
            "speed (the driver's limits)"
        )
        self.envelope_text.setToolTip(
            "The grip envelope the lap driver plans with: lateral grip from the skid pad, braking from a stop "
            "from the top speed, acceleration from a full-throttle run, shared as a friction ellipse"
        )
        if self.active:
            self.refresh()

    def set_active(self, shown: bool) -> None:
        """Connected to the tab's visibility: record, measure and draw only while shown."""
        self.active = shown
        self.job.set_active(shown)
        if not shown:
            self._last = None  # the first tick after showing again has no tick before it
        elif self.model is not None:
            self.refresh()

    def _resize_buffer(self) -> None:
        self.buffer = RingBuffer(int(self.seconds.value() * self.hz) + 1, 4)
        self._last = None

    def clear(self) -> None:
        """The car placed again: the trail starts afresh."""
        self.buffer.clear()
        self._last = None

    # --- the drive ----------------------------------------------------------------------
    def record(self, time_s: float, rows: np.ndarray) -> None:
        """The state rows (n, size) of the last n ticks, oldest first, the newest at
        `time_s` s: their accelerations (from each row's velocity and the one before)
        into the trail."""
        if not self.active or self.model is None or len(rows) == 0:
            return
        layout = self.model.STATE
        if len(rows) > self.buffer.capacity:  # only the newest fit: the first of them is the one before
            rows, self._last = rows[-self.buffer.capacity - 1 :], None
        if self._last is None:
            previous, after = rows[:-1], rows[1:]
        else:
            previous, after = np.vstack([self._last[None, :], rows[:-1]]), rows
        if len(after):
            o = layout.offset
            # the plots' own channels (channels.derived): one definition of the car's frame
            along = derived("accel_long", layout, after, previous[0], 1.0 / self.hz)
            across = derived("accel_lat", layout, after, previous[0], 1.0 / self.hz)
            times = time_s - np.arange(len(after))[::-1] / self.hz
            speed = np.hypot(after[:, o["vx"]], after[:, o["vy"]])
            self.buffer.extend(np.column_stack([times, along, across, speed]))
        self._last = rows[-1].copy()
        self._time = time_s

    def point(self) -> tuple[float, float] | None:
        """(lateral, longitudinal) of the newest tick, in the unit shown; None before one."""
        data = self.buffer.view()
        if not data.shape[1]:
            return None
        return float(data[2, -1] / self.scale), float(data[1, -1] / self.scale)

    def use(self) -> GripUse | None:
        """The friction-circle use and loads of the newest tick (None before one)."""
        if self._last is None:
            return None
        return grip_use(self.model, self.tuning, self._last)

    # --- drawing ------------------------------------------------------------------------
    def refresh(self, exact: bool = True) -> None:
        """Draw the trail, the live point, the envelope at the current speed and the bars.
        While driving (`exact` False) the bars' numbers change every other time only: a
        progress bar's new value and text cost about 0.4 ms each to lay out, more than the
        trail, and ten changes a second are as fast as anyone reads them."""
        if not self.active or self.model is None:
            return
        self._turns += 1
        data = self.buffer.view()
        if data.shape[1]:
            speed = data[3]
            slowest, fastest = float(speed.min()), float(speed.max())
            spread = max(fastest - slowest, 1e-9)
            colour = np.minimum(((speed - slowest) / spread * SPEED_COLOURS).astype(int), SPEED_COLOURS - 1)
            self._show_speeds(slowest, fastest)
            age = (self._time - data[0]) / max(self.seconds.value(), 1e-9)
            fade = np.clip(((1.0 - age) * AGE_STEPS).astype(int), 0, AGE_STEPS - 1)
            self.trail.set_points(data[2] / self.scale, data[1] / self.scale, fade * SPEED_COLOURS + colour)
            x, y = self.point()
            self.live.setData([x], [y])
            self._draw_envelope(float(speed[-1]), exact)
            self._fit_range(data[2] / self.scale, data[1] / self.scale)
        else:
            self.trail.set_points(np.empty(0), np.empty(0), np.empty(0, dtype=int))
            self.live.setData([], [])
        if exact or self._turns % 2:
            self._show_use(self.use())

    def _show_speeds(self, slowest: float, fastest: float) -> None:
        unit = f"{self.model.LENGTH_UNIT}/s"
        text = f"colour: speed {slowest:.0f} → {fastest:.0f} {unit} (blue → red)"
        if self.speeds.text() != text:
            self.speeds.setText(text)

    def envelope_at(self, speed: float) -> tuple[np.ndarray, np.ndarray] | None:
        """The envelope (lateral, longitudinal) drawn at `speed` (length/s), in the unit
        shown; None while the limits are not known."""
        limits = self.limits
        if limits is None or not (math.isfinite(limits.lateral) and limits.lateral > 0):
            return None
        if not (math.isfinite(limits.braking) and limits.braking > 0):
            return None
        lateral, longitudinal = outline(
            speed, limits.lateral, limits.braking, limits.accel[:, 0].copy(), limits.accel[:, 1].copy(), OUTLINE_POINTS
        )
        return lateral / self.scale, longitudinal / self.scale

    def _draw_envelope(self, speed: float, exact: bool = True) -> None:
        """The envelope at `speed`; while driving (`exact` False) drawn again only when
        its forward reach has moved by ENVELOPE_STEP of the axes' span."""
        limits = self.limits
        reach = np.interp(speed, limits.accel[:, 0], limits.accel[:, 1]) if limits is not None else math.nan
        moved = abs(reach - self._envelope_reach) / self.scale if self._envelope_reach is not None else math.inf
        if moved == 0 or (not exact and moved < ENVELOPE_STEP * self._span):
            return
        shape = self.envelope_at(speed)
        self._envelope_reach = reach if shape is not None else None
        if shape is None:
            self.envelope.setData([], [])
        else:
            self.envelope.setData(*shape)

    def _fit_range(self, x: np.ndarray, y: np.ndarray) -> None:
        """The axes fixed (no autorange: it lays the axes out anew at every redraw) round
        the envelope, with RANGE_MARGIN more each way; widened when the trail leaves them."""
        limits = self.limits
        known = limits is not None and math.isfinite(limits.lateral) and math.isfinite(limits.braking)
        across = limits.lateral if known else 0.0
        ahead = float(np.max(limits.accel[:, 1])) if known else 0.0
        behind = limits.braking if known else 0.0
        if len(x):
            across = max(across, float(np.max(np.abs(x))) * self.scale)
            ahead = max(ahead, float(np.max(y)) * self.scale)
            behind = max(behind, -float(np.min(y)) * self.scale)
        wanted = np.array([across, ahead, behind]) * (1 + RANGE_MARGIN) / self.scale
        if self._range is not None and np.all(wanted <= self._range) and np.all(wanted >= 0.5 * self._range):
            return
        self._range = np.maximum(wanted, 1e-3)
        self._span = float(self._range[1] + self._range[2])
        self.plot.setRange(
            xRange=(-self._range[0], self._range[0]), yRange=(-self._range[2], self._range[1]), padding=0
        )

    def _show_use(self, use: GripUse | None) -> None:
        if use is None:
            return
        labels = (use.labels, len(use.use), len(use.loads))
        if labels != self._bar_labels:
            self._make_bars(use)
            self._bar_labels = labels
        self._set_note(use.note)
        for bar, share, name in zip(self.use_bars, use.use, use.labels):
            percent = 100.0 * share if math.isfinite(share) else 0.0
            text = f"{name}: {percent:.0f} %" if math.isfinite(share) else f"{name}: — (no grip: μ or load 0)"
            colour = "#c62828" if share >= 1.0 else "#ef6c00" if share >= USE_WARN else "#2e7d32"
            self.bars.set(bar, int(round(min(percent, 150.0))), text, colour)
        if not self.load_bars:
            return
        total = float(np.sum(use.loads)) or 1.0
        for bar, load, rest, name in zip(self.load_bars, use.loads, use.static, use.labels):
            text = f"{name}: {load:,.0f} N (rest {rest:,.0f})".replace(",", " ")
            self.bars.set(bar, int(round(1000 * load / total)), text)

    def _make_bars(self, use: GripUse) -> None:
        self.bars.clear()
        self.use_bars = self.bars.group(
            "friction-circle use √(Fx² + Fy²) / (μ·Fz)",
            "Each tyre's (or axle's) force on the road over the most its friction allows, in percent "
            "(orange from 90 %, red at the limit)",
            use.labels if len(use.use) else (),
            150,
            "its force over μ × its load, in percent (the bar ends at 150 %)",
        )
        self.load_bars = self.bars.group(
            "loads (share of the weight)",
            "What each axle carries now, with the weight transfer, against its load at rest",
            use.labels if len(use.loads) else (),
            1000,
            "the load it carries now (N), against its load at rest",
        )

    def _set_note(self, text: str) -> None:
        if self.note.text() != text:
            self.note.setText(text)

    def settle(self) -> None:
        """Block until the limits asked for are measured and shown (tests, screenshots)."""
        self.job.settle()


def _measured(model, tuning, hz: float):
    """(model, the car's `Limits`) on the worker thread, the driver's kernels compiled
    apart first (a first use), as the lap driver gets them."""
    prepare(model, DRIVER)
    return model, car_limits(model, tuning, hz)
