"""Sweep panel: one or two parameters over a range, simulated as batches on a worker
thread (chunks, with progress and cancel), shown as a curve or a heatmap; clicking a
point or cell loads that tuning."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ..analysis import sweep
from ..analysis.kernel_prep import prepare
from ..analysis.metrics import METRICS, missing_reason, unit_of
from ..analysis.sweep import Axis, csv_text, grid_of, point_text
from ..errors import UserError
from ..files.disk import write_text_atomic
from ..physics.params import effective_params
from . import qt  # noqa: F401  (binding choice before pyqtgraph)
from .force_curve_plot import export_image
from .palette import CAR
from .plot_style import set_label, style_plot
from .worker import Task, Worker

PLOT_MIN_HEIGHT = 150
"""px: the result plot (curve or heatmap) never gets lower than this."""
CHUNK = 64
"""Tunings simulated per batch: progress and cancel happen between batches."""


def _sweep(model, base: dict, axes: list[Axis], hz: int, task: Task):
    """(grid, metrics) of every tuning of the sweep, or (None, None) once cancelled
    (on the worker's thread; progress as (done, total) after each chunk)."""
    done = sweep.run(model, base, axes, hz, lambda *count: task.report(count), task.stop.is_set, CHUNK)
    return done if done is not None else (None, None)


def _narrow(combo: QComboBox) -> QComboBox:
    """A combo box whose width does not follow its longest item (the panel stays narrow;
    the open list shows the whole names)."""
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(6)
    combo.setMinimumWidth(60)
    return combo


class _AxisRow:
    """Parameter, from, to and steps for one swept parameter, on two rows of `grid`
    (the parameter, then its range), so the panel fits a narrow window."""

    def __init__(self, grid: QGridLayout, row: int, label: QWidget):
        self.name = _narrow(QComboBox())
        self.low, self.high = QDoubleSpinBox(), QDoubleSpinBox()
        self.count = QSpinBox()
        self.count.setRange(2, 200)
        self.count.setValue(15)
        self.count.setToolTip("How many values, from … to, evenly spaced")
        self.low.setToolTip("The first value swept")
        self.high.setToolTip("The last value swept")
        grid.addWidget(label, row, 0)
        grid.addWidget(self.name, row, 1, 1, 6)
        for col, (text, widget) in enumerate((("from", self.low), ("to", self.high), ("steps", self.count))):
            grid.addWidget(QLabel(f"<span style='color:gray'>{text}</span>"), row + 1, 1 + 2 * col)
            grid.addWidget(widget, row + 1, 2 + 2 * col)
            widget.setMinimumWidth(40)
        self.name.currentIndexChanged.connect(self._limits)
        self.params: dict = {}

    def set_model(self, model, base: dict) -> None:
        self.params = {p.name: p for p in effective_params(model.PARAMS, base) if p.moves_motion}
        self.name.blockSignals(True)
        self.name.clear()
        for p in self.params.values():
            self.name.addItem(f"{p.label} [{p.unit}]", p.name)
        self.name.blockSignals(False)
        self._limits()

    def _limits(self) -> None:
        p = self.params.get(self.name.currentData())
        if p is None:
            return
        for box, value in ((self.low, p.min), (self.high, p.max)):
            box.setDecimals(max(p.decimals, 0))
            box.setRange(p.min, p.max)
            box.setSingleStep(p.step)
            box.setValue(value)

    def axis(self) -> Axis:
        p = self.params[self.name.currentData()]
        return Axis(p.name, self.low.value(), self.high.value(), self.count.value(), p.decimals)


class SweepPanel(QWidget):
    """Inputs, progress, and the result plot; `load_point` asks the window to tune."""

    load_point = Signal(dict, str)
    finished = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.model, self.base, self.hz = None, {}, 60
        self._meanings: tuple = ()
        self.grid: np.ndarray | None = None
        self.values: dict | None = None
        self.axes: list[Axis] = []
        self.job = Worker(self, "sweep")
        self.job.progress.connect(lambda count: self._progress(*count))
        self.job.finished.connect(lambda result, _seconds: self._done(*result))
        self.job.failed.connect(self._failed)

        form = QGridLayout()
        form.setHorizontalSpacing(4)
        for col in (2, 4, 6):
            form.setColumnStretch(col, 1)
        self.first = _AxisRow(form, 0, QLabel("sweep"))
        self.use_second = QCheckBox("and")
        self.use_second.setToolTip("Sweep a second parameter too: a heatmap of every pair")
        self.second = _AxisRow(form, 2, self.use_second)
        self.use_second.toggled.connect(self._second_enabled)
        self.metric = _narrow(QComboBox())
        self.metric.setToolTip("The metric the plot shows (every metric is computed; switch freely after a run)")
        for name, metric in METRICS.items():
            self.metric.addItem(metric.label, name)
            self.metric.setItemData(self.metric.count() - 1, metric.how, Qt.ItemDataRole.ToolTipRole)
        self.metric.currentIndexChanged.connect(self._plot)
        self.run_button = QPushButton("Run")
        self.run_button.setToolTip("Simulate every tuning of the grid (on a worker thread; the car keeps driving)")
        self.run_button.clicked.connect(self.run)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(self.job.cancel)
        self.cancel_button.setEnabled(False)
        for button in (self.run_button, self.cancel_button):
            button.setMinimumWidth(56)  # the style's 80 px would make the panel wider than its dock
        self.progress = QProgressBar()
        self.progress.setMaximumHeight(14)
        self.progress.setTextVisible(False)
        self.progress.hide()  # shown while a sweep runs
        # its room is kept while hidden: showing it would resize the plot (all its axes
        # redrawn) in the frame a sweep starts and again when it ends
        keep = self.progress.sizePolicy()
        keep.setRetainSizeWhenHidden(True)
        self.progress.setSizePolicy(keep)
        self.note = QLabel("Click a point or cell to load that tuning (one undo step).")
        self.note.setWordWrap(True)
        self.note.setStyleSheet("color: gray")
        self.plot = pg.PlotWidget()
        self.plot.setMinimumHeight(PLOT_MIN_HEIGHT)
        style_plot(self.plot.getPlotItem())
        self.plot.scene().sigMouseClicked.connect(self._clicked)
        self.image = pg.ImageItem()
        self.curve = self.plot.plot([], [], pen=pg.mkPen(CAR, width=2), symbol="o", symbolSize=6, symbolBrush=CAR)
        self.here_line = pg.InfiniteLine(
            angle=90,
            pen=pg.mkPen("#ffeb3b", width=1, style=Qt.PenStyle.DashLine),
            label="now",
            labelOpts={"position": 0.95, "color": "#ffeb3b"},
        )
        # a white ring with a dark edge: visible on every colour of the heatmap
        self.here_point = pg.ScatterPlotItem(size=13, symbol="o", pen=pg.mkPen("w", width=2), brush=None)
        self.here_edge = pg.ScatterPlotItem(size=17, symbol="o", pen=pg.mkPen("k", width=1), brush=None)
        self.here_point.setZValue(10)
        self.here_edge.setZValue(10)
        for item in (self.here_line, self.here_point, self.here_edge):
            item.hide()
            self.plot.getPlotItem().addItem(item, ignoreBounds=True)
        self.bar = None
        metric_row = QHBoxLayout()
        metric_row.addWidget(QLabel("metric"))
        metric_row.addWidget(self.metric, 1)
        metric_row.addWidget(self.run_button)
        metric_row.addWidget(self.cancel_button)
        # in a scroll area: in a low window the controls and the plot's minimum height
        # scroll instead of being drawn over each other
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.addLayout(form)
        layout.addLayout(metric_row)
        layout.addWidget(self.progress)
        layout.addWidget(self.plot, 1)
        layout.addWidget(self.note)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(body)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll)
        self._second_enabled(False)

    def set_model(self, model, base: dict, hz: int) -> None:
        """The model and the values that are not swept (the current tuning)."""
        meanings = effective_params(model.PARAMS, base)
        if model is not self.model or meanings != self._meanings:
            self._meanings = meanings
            self.first.set_model(model, base)
            self.second.set_model(model, base)
            if self.second.name.count() > 1:
                self.second.name.setCurrentIndex(1)
        self.model, self.base, self.hz = model, dict(base), hz
        self._mark_current()

    def _mark_current(self) -> None:
        """Mark the current tuning on the plot: a line at its value (one parameter), a
        cross at its pair of values (a heatmap)."""
        shown = self.grid is not None and all(a.name in self.base for a in self.axes)
        self.here_line.setVisible(shown and len(self.axes) == 1)
        self.here_point.setVisible(shown and len(self.axes) == 2)
        self.here_edge.setVisible(shown and len(self.axes) == 2)
        if shown and len(self.axes) == 1:
            self.here_line.setValue(float(self.base[self.axes[0].name]))
        elif shown:
            for ring in (self.here_point, self.here_edge):
                ring.setData([float(self.base[self.axes[0].name])], [float(self.base[self.axes[1].name])])

    def sweep_one(self, name: str, metric: str) -> None:
        """Sweep `metric` over parameter `name`'s whole range (from the Sensitivity view)."""
        self.first.name.setCurrentIndex(self.first.name.findData(name))
        self.use_second.setChecked(False)
        self.metric.setCurrentIndex(self.metric.findData(metric))
        self.run()

    def _second_enabled(self, on: bool) -> None:
        for widget in (self.second.name, self.second.low, self.second.high, self.second.count):
            widget.setEnabled(on)

    def run(self) -> None:
        axes = [self.first.axis()] + ([self.second.axis()] if self.use_second.isChecked() else [])
        try:
            grid_of(axes)  # with the same checks as the command line's
        except UserError as exc:
            self.note.setText(f"{exc}.")
            return
        self.axes = axes
        self.run_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.progress.setValue(0)
        self.progress.show()
        model, base, hz = self.model, dict(self.base), self.hz
        # a first use compiles the model's kernels in a separate process (kernel_prep.py)
        self.job.request(lambda task: (prepare(model, "everything"), _sweep(model, base, axes, hz, task))[1])

    def _progress(self, done: int, total: int) -> None:
        self.progress.setRange(0, total)
        self.progress.setValue(done)

    def _done(self, grid, values) -> None:
        self.progress.hide()
        self.run_button.setEnabled(True)
        self.cancel_button.setEnabled(False)
        if grid is None:
            self.note.setText("Sweep cancelled.")
        else:
            self.grid, self.values = grid, values
            self._plot()
        self.finished.emit()

    def _failed(self, why: str) -> None:
        self._done(None, None)
        self.note.setText(f"The sweep could not be computed ({why}).")

    def _plot(self) -> None:
        if self.grid is None:
            return
        item = self.plot.getPlotItem()
        metric = self.metric.currentData()
        label, kind = METRICS[metric].label, METRICS[metric].kind
        z = self.values[metric]
        self.note.setText(self._missing_note(metric, label, z))
        first = self.first.params[self.axes[0].name]
        set_label(item, "bottom", first.label, first.unit)
        if self.bar is not None:
            self.bar.setVisible(len(self.axes) == 2)
        if len(self.axes) == 1:
            self.image.setVisible(False)
            shown = np.isfinite(z)  # points without a value are left out (the note says why)
            self.curve.setData(self.grid[shown, 0], z[shown])
            set_label(item, "left", label, unit_of(kind, self.model))
        else:
            a, b = self.axes
            second = self.second.params[b.name]
            set_label(item, "left", second.label, second.unit)
            self.curve.setData([], [])
            table = z.reshape(a.count, b.count)
            if self.image.scene() is None:
                item.addItem(self.image)
            self.image.setVisible(True)
            finite = table[np.isfinite(table)]
            levels = (finite.min(), finite.max()) if len(finite) else (0, 1)
            self.image.setImage(np.where(np.isfinite(table), table, np.nan), levels=levels)  # NaN: left blank
            colours = pg.colormap.get("viridis")
            self.image.setColorMap(colours)
            if self.bar is None:  # the colour scale beside the heatmap
                self.bar = pg.ColorBarItem(values=levels, colorMap=colours, interactive=False, width=12)
                self.bar.setImageItem(self.image, insert_in=item)
            self.bar.setLevels(levels)
            self.bar.axis.setLabel(unit_of(kind, self.model))
            dx = (a.high - a.low) / max(a.count - 1, 1)
            dy = (b.high - b.low) / max(b.count - 1, 1)
            self.image.setRect(a.low - dx / 2, b.low - dy / 2, dx * a.count or 1, dy * b.count or 1)
        self._mark_current()
        item.autoRange()

    def _missing_note(self, metric: str, label: str, z: np.ndarray) -> str:
        """The note under the plot: how many tunings, and which have no value and why
        (those points are left out, those cells blank)."""
        text = f"{len(z)} tunings. Click a point or cell to load that tuning."
        missing = np.nonzero(~np.isfinite(z))[0]
        if len(missing):
            why = missing_reason(metric, float(z[missing[0]]), self.model, self.values, int(missing[0]))
            text = f"{len(missing)} of {len(z)} tunings have no {label} ({why}), left blank. " + text
        return text

    def _clicked(self, event) -> None:
        if self.grid is None:
            return
        point = self.plot.getPlotItem().vb.mapSceneToView(event.scenePos())
        self.pick(point.x(), point.y())

    def pick(self, x: float, y: float) -> None:
        """Load the grid point nearest to (x, y) in plot coordinates."""
        if self.grid is None:
            return
        if len(self.axes) == 1:
            index = int(np.argmin(np.abs(self.grid[:, 0] - x)))
        else:
            spans = [max(a.high - a.low, 1e-12) for a in self.axes]
            distance = ((self.grid[:, 0] - x) / spans[0]) ** 2 + ((self.grid[:, 1] - y) / spans[1]) ** 2
            index = int(np.argmin(distance))
        values = {axis.name: float(self.grid[index, i]) for i, axis in enumerate(self.axes)}
        self.load_point.emit(values, f"Sweep point {point_text(self.axes, self.grid[index])}")

    def export(self, path) -> None:
        """CSV of every metric per grid point, or the plot as PNG/SVG."""
        path = Path(path)
        if self.grid is None:
            raise UserError("run a sweep first")
        suffix = path.suffix.lower()
        if suffix == ".csv":
            write_text_atomic(path, csv_text(self.axes, self.grid, self.values))
        elif suffix in (".png", ".svg"):
            export_image(self.plot.getPlotItem(), path, max(800, self.plot.width()))
        else:
            raise UserError(f"{path}: unknown export type {suffix or '(none)'!r}; use .csv, .png or .svg")

    def settle(self) -> None:
        """Block until a running sweep has finished and is drawn."""
        self.job.settle()
        QApplication.processEvents()

    def wait(self) -> None:
        """Stop a running sweep and block until it has ended (closing the window)."""
        self.job.cancel()
        self.job.wait()
