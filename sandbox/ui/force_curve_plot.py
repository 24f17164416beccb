"""Force-vs-speed plot: engine, friction, drag and net acceleration for a tuning.

Markers: the car's current speed, the top speed where net = 0, the slip speed.
"""

from __future__ import annotations

import html
import math
import os
import time
from pathlib import Path

import pyqtgraph as pg
import pyqtgraph.exporters  # noqa: F401  (registers ImageExporter, SVGExporter)
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QApplication

from ..analysis.force_curves import ForceCurve, curve_csv, force_curve
from ..analysis.kernel_prep import CURVE, prepare
from ..errors import UserError
from ..files.disk import png_complete, svg_complete, write_atomic, write_text_atomic
from . import qt  # noqa: F401  (binding choice before pyqtgraph)
from .curve_set import CurveSet
from .plot_style import AXIS_WIDTH, CompactAxis, set_label, style_plot
from .speed_markers import SpeedMarkers
from .steady_view import SteadyViewBox, round_up
from .worker import Worker

COLOURS = {
    "engine": "#4caf50",
    "friction": "#ff9800",
    "drag": "#ba68c8",
    "net": "#eeeeee",
    "throttle": "#4caf50",
    "coasting": "#ff9800",
    "brake": "#ef5350",
}
OTHER_COLOURS = (
    "#26c6da",
    "#ffca28",
    "#8d6e63",
    "#9ccc65",
    "#ec407a",
    "#7e57c2",
    "#ff7043",
    "#78909c",
    "#d4e157",
    "#5c6bc0",
)
EXPORT_SUFFIXES = (".png", ".svg", ".csv")
DRAW_EVERY_S = 0.05
"""s: the force curve is recomputed and redrawn at most this often (20 times a second)."""
PREPARING = "preparing the force curve (compiled once, the first time a model is shown)…"


def _compute(task, model, params, hz: float) -> ForceCurve:
    """The curve (on the worker thread) once its kernels are ready: a first use
    compiles them in a separate process (`kernel_prep`), `task` reporting it."""
    prepare(model, CURVE, lambda step, steps: task.report(step))
    return force_curve(model, params, hz)


def export_image(item, path: Path, width: int = 800) -> None:
    """PNG or SVG of a pyqtgraph item through its own exporters, written by
    disk.write_atomic (checked whole before it replaces the old file)."""
    png = path.suffix.lower() == ".png"
    exporter = (pg.exporters.ImageExporter if png else pg.exporters.SVGExporter)(item)
    if png:
        exporter.parameters()["width"] = width
    write_atomic(path, exporter.export, check=png_complete if png else svg_complete)


class ForceCurvePlot(pg.PlotWidget):
    """pyqtgraph plot of `analysis.force_curve`, recomputed by `set_tuning`."""

    def __init__(self, parent=None):
        # the y range moves in steps, not with every redraw (steady_view.py): while a
        # slider is dragged the axes and grid are then not redrawn every frame
        super().__init__(parent, viewBox=SteadyViewBox(), axisItems={"left": CompactAxis("left")})
        self.curve: ForceCurve | None = None
        self.job = Worker(self, "force curve")
        self.job.finished.connect(self._arrived)
        self.job.failed.connect(lambda why: self.setToolTip(f"could not compute the force curve ({why})"))
        self.job.progress.connect(self._preparing)
        self._wanted = None  # (model, params, hz, title) waiting for its turn to be computed
        self._asked_at = -math.inf
        self._ask_timer = QTimer(self)
        self._ask_timer.setSingleShot(True)
        self._ask_timer.timeout.connect(self._ask)
        item = self.getPlotItem()
        style_plot(item)
        # a fixed width: labels of a new range never lay the plot out again
        item.getAxis("left").setWidth(AXIS_WIDTH)
        # the legend: one or two lines of text above the plot area, in its own row of
        # the layout (over the data it hid the curves' ends; pyqtgraph's legend needs
        # 20 px a row, more than this short plot can give)
        self.legend = pg.LabelItem(justify="left", size="7pt")
        item.layout.removeItem(item.getAxis("top"))  # hidden, never shown: its cell holds the legend
        item.layout.addItem(self.legend, 1, 1)
        self.full_title = ""
        self._extent = None
        item.setLabel("bottom", "speed", units="px/s")
        item.setMenuEnabled(True)
        self._pens: dict = {}  # term name -> pen
        self._holders: dict = {}  # term name -> hidden curve item
        self.lines = CurveSet()  # every term's line, one item (curve_set.py)
        item.addItem(self.lines)
        zero = item.addLine(y=0, pen=pg.mkPen("#555", width=1))
        zero.setZValue(-50)  # under the curves
        markers = SpeedMarkers(item.getViewBox())
        self.top_marker = markers.add("top {value:.0f}", pg.mkPen("#e53935", width=2, style=Qt.PenStyle.DashLine))
        self.slip_marker = markers.add("slip {value:.0f}", pg.mkPen("#29b6f6", width=1, style=Qt.PenStyle.DotLine))
        self.speed_marker = markers.add("now", pg.mkPen("#ffeb3b", width=2))
        self.markers = markers
        self.speed_marker.hide()  # shown once a live car reports its speed

    def set_tuning(self, model, params, hz: float, title: str = "") -> None:
        """Recompute every curve for `params` at `hz` ticks per second on a worker
        thread, drawn when it arrives. While a slider is dragged, at most one tuning
        every DRAW_EVERY_S is computed (redrawing a dozen curves costs a frame's time,
        and a curve computed but never drawn costs the other core for nothing); the
        newest waits for its turn, and the last one is always drawn."""
        self._wanted = (model, dict(params), hz, title)
        wait = DRAW_EVERY_S - (time.perf_counter() - self._asked_at)
        if wait <= 0:
            self._ask()
        elif not self._ask_timer.isActive():
            self._ask_timer.start(max(1, round(wait * 1000)))

    def _ask(self) -> None:
        wanted, self._wanted = self._wanted, None
        if wanted is not None:
            self._asked_at = time.perf_counter()
            model, params, hz, title = wanted
            self.job.request(lambda task: (model, params, hz, title, _compute(task, model, params, hz)))

    def _preparing(self, _step) -> None:
        self.full_title = PREPARING  # the next curve drawn puts its own title back
        self._show_title()

    def _arrived(self, result, seconds: float) -> None:
        self._draw(result)

    def settle(self) -> None:
        """Block until the newest curve is drawn."""
        self._ask_timer.stop()
        self._ask()
        self.job.settle()
        QApplication.processEvents()  # the new title and ranges laid out before anyone renders

    def _draw(self, result) -> None:
        model, params, hz, title, curve = result
        self.curve = curve
        if list(self._pens) != list(curve.terms):
            self._make_pens(list(curve.terms))
        self.lines.set_curves(curve.speeds, [(pen, curve.terms[name]) for name, pen in self._pens.items()])
        for name, holder in self._holders.items():
            holder.setData(curve.speeds, curve.terms[name])
        set_label(self.getPlotItem(), "bottom", "speed", f"{model.LENGTH_UNIT}/s")
        top = curve.top_speed
        self.top_marker.setVisible(math.isfinite(top) and top > 0)
        if math.isfinite(top):
            self.top_marker.setValue(top)
        slip = params.get("slip_speed")
        self.slip_marker.setVisible(slip is not None)
        if slip is not None:
            self.slip_marker.setValue(slip)
        # the unit in the title, not a rotated axis label: this plot is often too
        # short for one. The top speed is on its marker, so a drag leaves the title
        # alone (a new title lays the plot out again: a slower frame)
        head = f" · {title}" if title else ""
        nothing = "" if math.isfinite(top) else " · no top speed"
        full = f"acceleration ({curve.unit}) against speed{head} · {hz:g} Hz{nothing}"
        if full != self.full_title:
            self.full_title = full
            self._show_title()
        # the speed axis ends at a round number, so while a slider is dragged its range
        # (and with it the axes and grid) changes only when the curve crosses one
        extent = round_up(float(curve.speeds[-1]))
        if extent != self._extent:
            self._extent = extent
            self.getPlotItem().setXRange(0, extent, padding=0.02)

    def _show_title(self) -> None:
        """The title, cut with "…" to the plot's width; the whole of it as tooltip."""
        item = self.getPlotItem()
        if item is None:  # being closed
            return
        metrics = QFontMetrics(self.font())
        item.setTitle(
            metrics.elidedText(self.full_title, Qt.TextElideMode.ElideRight, max(self.width() - 40, 40)), size="9pt"
        )
        self.setToolTip(self.full_title)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if getattr(self, "full_title", ""):  # pyqtgraph resizes it while it is being built
            self._show_title()

    def _make_pens(self, names: list[str]) -> None:
        """A pen per term of the model's curve, shown in the legend in that order:
        1-px lines (Qt strokes wider lines several times slower)."""
        item = self.getPlotItem()
        for holder in self._holders.values():
            item.removeItem(holder)
        spare = iter(OTHER_COLOURS)
        self._pens, self._holders = {}, {}
        entries = []
        for name in names:
            colour = COLOURS.get(name) or next(spare, "#bbbbbb")
            self._pens[name] = pen = pg.mkPen(colour, width=1)
            # never drawn (`lines` draws): the data pyqtgraph's own right-click CSV export reads
            self._holders[name] = holder = pg.PlotCurveItem(pen=pen, name=name)
            holder.hide()
            item.addItem(holder)
            mark = "━━" if name == "net" else "──"
            entries.append(f"<span style='color:{colour}'>{mark}</span>&nbsp;{html.escape(name)}")
        per_row = len(entries) if len(entries) <= 5 else math.ceil(len(entries) / 2)  # two lines at most
        rows = [" &nbsp; ".join(entries[i : i + per_row]) for i in range(0, len(entries), per_row)]
        self.legend.setText("<br>".join(rows), color="#cfcfcf", size="7pt")

    def set_speed(self, speed: float) -> None:
        """Move the "now" marker; not for less than a screen pixel (each move repaints
        the curves under it)."""
        (left, right), _ = self.getPlotItem().viewRange()
        pixel = (right - left) / max(self.width(), 1)
        if not self.speed_marker.isVisible() or abs(speed - self.speed_marker.value()) >= pixel:
            self.speed_marker.setValue(speed)
            self.speed_marker.show()

    def export(self, path: str | os.PathLike) -> None:
        """Write the plot as PNG or SVG (pyqtgraph exporters) or the data as CSV.

        Written to a temporary file first and renamed, so a failure never leaves a
        half-written file.
        """
        path = Path(path)
        suffix = path.suffix.lower()
        if suffix not in EXPORT_SUFFIXES:
            raise UserError(f"{path}: unknown export type {suffix or '(none)'!r}; use .png, .svg or .csv")
        self.settle()
        if self.curve is None:
            raise UserError("nothing to export yet")
        if suffix == ".csv":
            write_text_atomic(path, curve_csv(self.curve))
            return
        export_image(self.getPlotItem(), path, max(800, self.width()))
