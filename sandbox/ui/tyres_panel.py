"""The Tyres tab: each model's force curves for the tuning now (analysis/tyre_curves.py),
the live operating points while the car drives, the limits, and the parameters that
shape the curves as handles to drag.

A handle's drag goes the sliders' way: the tuning changes live while the mouse moves
(the slider follows), clamped and snapped to the parameter's declared range and step,
and the drag becomes one step of the window's undo stack when the mouse is released.
Drawn only while the tab is in front (`set_active`)."""

from __future__ import annotations

import math
import time
from typing import Callable

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QGraphicsEllipseItem, QGraphicsItem, QLabel, QVBoxLayout, QWidget

from ..analysis.tyre_curves import Handle, HeldExtent, TyrePlot, tyre_plots
from ..physics.state import State
from ..session.tuning import LiveTuning, TuningChange
from . import qt  # noqa: F401  (binding choice before pyqtgraph)
from .plot_style import AXIS_WIDTH, CompactAxis, set_label, style_plot
from .tuning_panel import SetValues

CURVE_COLOURS = ("#4fc3f7", "#ff8a65", "#aed581", "#ffd54f")
POINT_COLOURS = ("#29b6f6", "#4dd0e1", "#ff7043", "#ffab91")
HANDLE_COLOUR = "#ffffff"
DOT = 9
"""px: an operating point's diameter."""
LIMIT_PEN = pg.mkPen("#e53935", width=1, style=Qt.PenStyle.DashLine)
MARK_PEN = pg.mkPen("#29b6f6", width=1, style=Qt.PenStyle.DotLine)
DOTS_HINT = "Dots: where the wheels are this tick."
DRAG_HINT = "Drag a square handle to change the parameter it stands for."
RANGE_SLACK = 0.15
"""A plot's range is set again only when what it shows moves more than this share of
it (a new range redraws the axes: not every frame while the load shifts)."""


class TyrePlotItems:
    """The pyqtgraph items of one `TyrePlot` (curves, points, limits, marks, handles),
    given new data by `show` while their labels stay the same."""

    def __init__(self, item: pg.PlotItem, plot: TyrePlot, dragged: Callable, released: Callable):
        self.item = item
        style_plot(item)
        item.getAxis("left").setWidth(AXIS_WIDTH)
        item.showGrid(x=True, y=True)
        item.setMenuEnabled(True)
        legend = item.addLegend(offset=(-6, 6), labelTextSize="7pt", verSpacing=-6)
        legend.setColumnCount(2 if len(plot.curves) + len(plot.points) > 4 else 1)
        item.vb.disableAutoRange()
        self.key = _key(plot)
        # 1-px lines: Qt strokes wider ones several times slower, and the tab redraws while driving
        # and plain curve items: a PlotDataItem's setData costs several times theirs
        self.curves = []
        for i, curve in enumerate(plot.curves):
            line = pg.PlotCurveItem(pen=pg.mkPen(CURVE_COLOURS[i % 4], width=1), name=curve.label)
            item.addItem(line)
            self.curves.append(line)
        self.drawn: list[tuple] = [()] * len(plot.curves)  # each curve's data as last drawn
        self.points = []
        for i, point in enumerate(plot.points):
            colour = _point_colour(plot, i)
            # in the legend only: a plot item's setData costs a millisecond, a dot's move nothing
            legend.addItem(pg.ScatterPlotItem(symbol="o", size=DOT, brush=colour, pen="w"), point.label)
            dot = QGraphicsEllipseItem(-DOT / 2, -DOT / 2, DOT, DOT)
            dot.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
            dot.setBrush(pg.mkBrush(colour))
            dot.setPen(pg.mkPen("w"))
            dot.setZValue(10)
            item.addItem(dot, ignoreBounds=True)
            self.points.append(dot)
        self.texts = []
        for point in plot.points:
            text = pg.TextItem("", color="#e0e0e0", anchor=(-0.1, 1.1))
            text.setVisible(bool(point.text))
            item.addItem(text)
            self.texts.append(text)
        self.limits = []
        for label, _ in plot.limits:
            text = f"{label} = {{value:.{_decimals(plot.y_unit)}f}} {plot.y_unit}" if label else None
            line = pg.InfiniteLine(angle=0, pen=LIMIT_PEN, label=text, labelOpts={"position": 0.25, "color": "#ef9a9a"})
            item.addItem(line)
            self.limits.append(line)
        self.marks = []
        for label, _ in plot.marks:
            line = pg.InfiniteLine(angle=90, pen=MARK_PEN, label=label, labelOpts={"position": 0.9, "color": "#81d4fa"})
            item.addItem(line)
            self.marks.append(line)
        self.handles: list[pg.TargetItem] = []
        self.specs: list[Handle] = list(plot.handles)
        for index, spec in enumerate(plot.handles):
            target = pg.TargetItem(
                size=13, symbol="s", pen=pg.mkPen(HANDLE_COLOUR, width=1.5), brush=(255, 255, 255, 40), movable=True
            )
            target.setToolTip(f"Drag: {spec.label} (one undo step; the slider follows)")
            target.setZValue(20)
            target.placing = False
            target.sigPositionChanged.connect(lambda t, h=index: dragged(self, h))
            target.sigPositionChangeFinished.connect(lambda t, h=index: released(self, h))
            item.addItem(target)
            self.handles.append(target)
        self.range = None
        self.title = ""
        self.dragging: int | None = None
        self.held: Handle | None = None  # the dragged handle as it was when the drag began

    def show(self, plot: TyrePlot, exact: bool = True) -> None:
        """Show `plot`; not `exact`: a curve moved by less than a screen pixel stays as drawn."""
        item = self.item
        title = f"{plot.title}<br>{plot.note}" if plot.note else plot.title
        if title != self.title:  # a new title lays the plot out again: not every frame
            self.title = title
            item.setTitle(title, size="8pt", color="#cfcfcf")
        set_label(item, "bottom", plot.x_label, plot.x_unit)
        set_label(item, "left", plot.y_label, plot.y_unit)
        (left, right), (bottom, top) = item.viewRange()
        pixel = (top - bottom) / max(item.vb.height(), 1.0)
        pixel_x = (right - left) / max(item.vb.width(), 1.0)
        for i, (line, curve) in enumerate(zip(self.curves, plot.curves)):
            if _changed(self.drawn[i], curve.xs, curve.ys, 0.0 if exact else pixel):
                line.setData(curve.xs, curve.ys)
                self.drawn[i] = (curve.xs, curve.ys)
        for dot, text, point in zip(self.points, self.texts, plot.points):
            dot.setPos(point.x, point.y)
            if point.text:
                text.setPos(point.x, point.y)
                if text.toPlainText() != point.text:
                    text.setText(point.text)
        for line, (_, y) in zip(self.limits, plot.limits):
            if abs(line.value() - y) >= pixel:  # not for less than a screen pixel: a move costs a repaint
                line.setValue(y)
        for line, (_, x) in zip(self.marks, plot.marks):
            line.setValue(x)
        self.specs = list(plot.handles)
        for i, (target, spec) in enumerate(zip(self.handles, plot.handles)):
            if i != self.dragging and all(math.isfinite(v) for v in (spec.x, spec.y)):
                at = target.pos()
                if not exact and abs(at.x() - spec.x) < pixel_x and abs(at.y() - spec.y) < pixel:
                    continue  # moved less than a screen pixel while driving: a move costs a repaint
                target.placing = True
                target.setPos(spec.x, spec.y)
                target.placing = False
        self._fit(plot)

    def _fit(self, plot: TyrePlot) -> None:
        """The view around the curves, limits and points, set again only when they leave
        it or shrink well inside it (never while a handle is dragged)."""
        if self.dragging is not None:
            return
        xs = [v for c in plot.curves for v in (float(c.xs.min()), float(c.xs.max()))]
        ys = [v for c in plot.curves for v in (float(c.ys.min()), float(c.ys.max()))]
        xs += [p.x for p in plot.points] + [x for _, x in plot.marks] + [h.x for h in plot.handles]
        ys += [p.y for p in plot.points] + [y for _, y in plot.limits] + [h.y for h in plot.handles] + [0.0]
        xs, ys = [v for v in xs if math.isfinite(v)], [v for v in ys if math.isfinite(v)]
        want = (min(xs), max(xs), min(ys), max(ys))
        if self.range is None or _moved(self.range, want):
            # a little room beyond: a point creeping out does not set the range every frame
            want = (
                want[0],
                want[1],
                want[2] - RANGE_SLACK / 2 * abs(want[2]),
                want[3] + RANGE_SLACK / 2 * abs(want[3]),
            )
            self.range = want
            pad_y = 0.08 * max(want[3] - want[2], 1e-9)
            self.item.setXRange(want[0], want[1], padding=0.02)
            self.item.setYRange(want[2] - pad_y, want[3] + pad_y, padding=0)


def _changed(drawn: tuple, xs: np.ndarray, ys: np.ndarray, pixel: float) -> bool:
    """Whether a curve drawn as `drawn` (xs, ys) differs from (xs, ys) by `pixel` or more
    (any difference when `pixel` is 0)."""
    if not drawn or not np.array_equal(drawn[0], xs):
        return True
    if pixel <= 0:
        return not np.array_equal(drawn[1], ys)
    return bool(np.max(np.abs(drawn[1] - ys), initial=0.0) >= pixel)


def _decimals(unit: str) -> int:
    """Decimals of a limit's value: none for newtons."""
    return 0 if unit == "N" else 1


def _point_colour(plot: TyrePlot, index: int) -> str:
    """A point in the colour of its curve (its first word names it: front, rear), else its own."""
    word = plot.points[index].label.split()[0]
    for i, curve in enumerate(plot.curves):
        if curve.label.split()[0] == word:
            return CURVE_COLOURS[i % len(CURVE_COLOURS)]
    return POINT_COLOURS[index % len(POINT_COLOURS)]


def _moved(shown: tuple, want: tuple) -> bool:
    """Whether `want` (x0, x1, y0, y1) left `shown` or shrank well inside it."""
    for lo, hi, new_lo, new_hi in ((shown[0], shown[1], want[0], want[1]), (shown[2], shown[3], want[2], want[3])):
        span = max(hi - lo, 1e-9)
        if new_lo < lo - 1e-9 * span or new_hi > hi + 1e-9 * span:
            return True
        if (new_hi - new_lo) < (1 - 2 * RANGE_SLACK) * span:
            return True
    return False


def _key(plot: TyrePlot) -> tuple:
    """What the items are made for: a plot with other labels needs other items."""
    return (
        tuple(c.label for c in plot.curves),
        tuple(p.label for p in plot.points),
        tuple(label for label, _ in plot.limits),
        tuple(label for label, _ in plot.marks),
        tuple(h.param for h in plot.handles),
    )


class TyresPanel(QWidget):
    """The Tyres tab. `now()` gives (model, hz, state): the driven car."""

    def __init__(self, tuning: LiveTuning, undo: QUndoStack, now: Callable[[], tuple], parent=None):
        super().__init__(parent)
        self.tuning, self.undo, self.now = tuning, undo, now
        self.active = False
        self.plots: list[TyrePlot] = []
        self.items: list[TyrePlotItems] = []
        self._drag_from: dict[str, float] = {}
        self._extent = HeldExtent(time.monotonic)  # a point crossing a step does not redraw the axes each time
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.view = pg.GraphicsLayoutWidget()
        self.view.setObjectName("tyre_plots")
        layout.addWidget(self.view, 1)
        self.hint = QLabel(f"{DOTS_HINT} {DRAG_HINT}")
        self.hint.setWordWrap(True)
        self.hint.setStyleSheet("color: #9e9e9e; font-size: 8pt")
        layout.addWidget(self.hint)
        tuning.changed.connect(self._tuning_changed)

    def set_active(self, visible: bool) -> None:
        """Drawn while the tab is in front; caught up when it comes back."""
        self.active = visible
        if visible:
            self.refresh()

    def _tuning_changed(self, change: TuningChange) -> None:
        if self.active:
            self.refresh()

    def refresh(self, exact: bool = True) -> None:
        """Draw the curves and points for the tuning and the car now (while driving, not
        `exact`: a curve that moved less than a screen pixel is not drawn again)."""
        model, hz, state = self.now()
        if state.layout is not model.STATE:  # a model switch on its way: the car is not yet its
            state = State.at_rest(1, model.STATE)
        self.plots = tyre_plots(model, self.tuning, hz, state, self._extent)
        if [item.key for item in self.items] != [_key(plot) for plot in self.plots]:
            self._rebuild()
        for items, plot in zip(self.items, self.plots):
            items.show(plot, exact)
        remarks = " ".join(plot.remark for plot in self.plots if plot.remark)
        handles = any(plot.handles for plot in self.plots)
        text = f"{remarks} {DOTS_HINT} {DRAG_HINT if handles else ''}".strip()
        if text != self.hint.text():  # a new text lays the tab out again
            self.hint.setText(text)

    def _rebuild(self) -> None:
        self.view.clear()
        self._extent = HeldExtent(time.monotonic)
        self.items = []
        for row, plot in enumerate(self.plots):
            item = self.view.addPlot(row=0, col=row, axisItems={"left": CompactAxis("left")})
            self.items.append(TyrePlotItems(item, plot, self._dragged, self._released))

    # --- handles: the sliders' path (live while dragged, one undo step at release) --------
    def _dragged(self, items: TyrePlotItems, index: int) -> None:
        target = items.handles[index]
        if target.placing:
            return
        if items.dragging != index:  # a drag begins: its handle read at the loads of now, to its end
            items.dragging, items.held = index, items.specs[index]
        spec = items.held
        pos = target.pos()
        asked = spec.value(pos.x(), pos.y())
        if not math.isfinite(asked):
            return
        param = self.tuning.param(spec.param)
        self._drag_from.setdefault(spec.param, float(self.tuning[spec.param]))
        value = param.snap(asked)
        if value != self.tuning[spec.param]:
            self.tuning.set(spec.param, value)

    def _released(self, items: TyrePlotItems, index: int) -> None:
        items.dragging, items.held = None, None
        name = items.specs[index].param
        if name not in self._drag_from:
            return
        old, new = self._drag_from.pop(name), float(self.tuning[name])
        if old != new:
            label = self.tuning.param(name).label
            self.undo.push(SetValues(self.tuning, {name: old}, {name: new}, f"{label} {old:g} → {new:g}"))
        if self.active:
            self.refresh()  # the handle back on its curve
