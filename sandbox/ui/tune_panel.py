"""Tune tab: targets for the metrics, locks and search ranges for the sliders, and the
auto-tune's search (analysis/tune.py) on a worker thread, with live progress, a Stop
that keeps the best so far, and Apply (one undo step) or Discard."""

from __future__ import annotations

import copy
import math
import threading

from PySide6.QtCore import QObject, QRunnable, Qt, QThreadPool, Signal
from PySide6.QtWidgets import (QCheckBox, QDoubleSpinBox, QHBoxLayout, QHeaderView, QLabel, QPushButton, QSizePolicy,
                               QSpinBox, QSplitter, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from . import qt  # noqa: F401  (binding choice before pyqtgraph)
import pyqtgraph as pg

from ..analysis.metrics import DECIMALS, METRICS, compute, format_value, reference_speed, unit_of
from ..analysis.tune import DEFAULT_TOLERANCE, Progress, Target, TuneResult, check_range, conflicts, search
from ..errors import UserError
from ..physics.params import effective_params
from .latest_job import background
from .palette import CAR
from .plot_style import style_plot

SPIN_MAX = 1e7
"""The largest target a box takes (far above any metric in either unit)."""
SPIN_WIDTH = 84
"""px: a number box (the names get the rest of the panel's width)."""


class _Signals(QObject):
    progress = Signal(object)  # a copy of the search's Progress
    finished = Signal(object)  # TuneResult, or a UserError's text


class _Job(QRunnable):
    def __init__(self, model, tuning: dict, targets: list, names: list, ranges: dict, hz: int, seed: int,
                 stop: threading.Event, signals: _Signals):
        super().__init__()
        self.args = (model, tuning, targets, names, hz, seed, ranges)
        self.stop, self.signals = stop, signals

    def _report(self, progress: Progress) -> None:
        self.signals.progress.emit(copy.deepcopy(progress))  # the search goes on changing its own

    def run(self) -> None:
        background()
        model, tuning, targets, names, hz, seed, ranges = self.args
        try:
            result = search(model, tuning, targets, names, hz, seed, ranges, on_generation=self._report,
                            stop=self.stop)
            if not result.hit and not self.stop.is_set():  # which targets pull against each other
                result.binding += conflicts(model, tuning, targets, names, hz, seed, ranges)
        except UserError as exc:
            result = str(exc)
        self.signals.finished.emit(result)


def _fit_columns(table: QTableWidget) -> None:
    """Rows in pairs: a name across the table, then its boxes indented under it (the
    first column only indents); the last column takes the room left."""
    header = table.horizontalHeader()
    for column in range(table.columnCount() - 1):
        header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
    header.setSectionResizeMode(table.columnCount() - 1, QHeaderView.ResizeMode.Stretch)
    table.setColumnWidth(0, 16)


def _spin(decimals: int, maximum: float = SPIN_MAX, minimum: float = 0.0) -> QDoubleSpinBox:
    box = QDoubleSpinBox()
    box.setButtonSymbols(QDoubleSpinBox.ButtonSymbols.NoButtons)  # narrow: the panel shares a side of the window
    box.setMaximumWidth(SPIN_WIDTH)
    box.setDecimals(decimals)
    box.setRange(minimum, maximum)
    box.setKeyboardTracking(False)
    return box


class TunePanel(QWidget):
    """Targets, locks, the search and its result for the tuning on screen."""

    apply_requested = Signal(dict, str)  # values, undo text
    candidate = Signal(object)  # the best tuning so far (dict) while searching; None when it ends

    def __init__(self, parent=None):
        super().__init__(parent)
        self.model, self.tuning, self.hz = None, {}, 60
        self._meanings: tuple = ()
        self.searched_model = None
        self.result: TuneResult | None = None
        self.stop_event = threading.Event()
        self.running = False
        self.signals = _Signals()
        self.signals.progress.connect(self._show_progress)
        self.signals.finished.connect(self._finished)

        self.targets = QTableWidget(0, 4)
        self.targets.setHorizontalHeaderLabels(["", "target", "±", "best now"])
        self.targets.verticalHeader().hide()
        _fit_columns(self.targets)
        self.targets.setToolTip("Tick a metric to aim at it: its target value and tolerance, in the model's units")
        self.params = QTableWidget(0, 3)
        self.params.setHorizontalHeaderLabels(["", "search from", "to"])
        self.params.verticalHeader().hide()
        _fit_columns(self.params)
        self.params.setToolTip("Ticked parameters are locked: they stay as they are; the others are searched "
                               "between from and to (the slider's range unless narrowed). Options never change.")
        self.seed = QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        self.seed.setValue(1)
        self.seed.setToolTip("The search's random seed: the same seed and targets give the same tuning "
                             "(as `car-sandbox tune --seed`)")
        self.run_button, self.stop_button = QPushButton("&Run"), QPushButton("S&top")
        self.apply_button, self.discard_button = QPushButton("&Apply"), QPushButton("&Discard")
        self.run_button.setToolTip("Search for the tuning nearest this one that hits every ticked target")
        self.stop_button.setToolTip("Stop the search and keep the best tuning found so far")
        self.apply_button.setToolTip("Make the tuning found the current one (one undo step)")
        self.discard_button.setToolTip("Forget the tuning found; nothing changes")
        self.run_button.clicked.connect(self.run)
        self.stop_button.clicked.connect(self.stop)
        self.apply_button.clicked.connect(self.apply)
        self.discard_button.clicked.connect(self.discard)
        self.status = QLabel("Tick the metrics to aim at, then Run.")
        self.status.setWordWrap(True)
        self.plot = pg.PlotWidget()
        style_plot(self.plot)
        self.plot.setLabel("left", "best error (log₁₀)")
        self.plot.setLabel("bottom", "generation")
        self.plot.setMinimumHeight(50)
        for table in (self.targets, self.params):
            table.setMinimumHeight(48)  # the panel must fit above the plots in a small window
        self.curve = self.plot.plot(pen=pg.mkPen(CAR, width=2))

        # two short rows, so the panel fits beside the car in a small window
        buttons, result_buttons = QHBoxLayout(), QHBoxLayout()
        buttons.addWidget(QLabel("seed"))
        buttons.addWidget(self.seed, 1)
        buttons.addWidget(self.run_button)
        buttons.addWidget(self.stop_button)
        result_buttons.addStretch(1)
        result_buttons.addWidget(self.apply_button)
        result_buttons.addWidget(self.discard_button)
        self.seed.setMinimumWidth(40)
        self.status.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.targets)
        split.addWidget(self.params)
        split.addWidget(self.plot)
        split.setSizes([300, 220, 110])
        layout = QVBoxLayout(self)
        layout.addWidget(split, 1)
        layout.addLayout(buttons)
        layout.addWidget(self.status)
        layout.addLayout(result_buttons)
        self._update_buttons()

    # --- the tables ---------------------------------------------------------------
    def set_model(self, model, tuning, hz: int) -> None:
        """Show targets and parameters for `model` (kept when only values change)."""
        self.tuning, self.hz = dict(tuning), hz
        meanings = effective_params(model.PARAMS, tuning)
        if model is self.model and meanings == self._meanings:
            return
        self.model, self._meanings = model, meanings
        self.stop()  # a search of the last model is of no use to this one (its result is dropped)
        for table in (self.targets, self.params):  # the last model's boxes go at once (not at the next idle turn)
            for row in range(table.rowCount()):
                for column in range(table.columnCount()):
                    widget = table.cellWidget(row, column)
                    if widget is not None:
                        widget.hide()
            table.setRowCount(0)
        now = compute(model, dict(tuning), hz)
        _, ref = reference_speed(model)
        self.targets.setRowCount(2 * len(METRICS))
        self.target_rows = {}
        for row, (name, metric) in enumerate(METRICS.items()):
            use = QCheckBox(metric.label.replace("100", ref))
            use.setToolTip(metric.how.replace("100", ref))
            value = float(now[name][0])
            shown = value if math.isfinite(value) else 0.0
            target, tolerance = _spin(DECIMALS[metric.kind]), _spin(DECIMALS[metric.kind] + 1)
            unit = unit_of(metric.kind, model)
            target.setSuffix(f" {unit}")
            tolerance.setPrefix("± ")
            target.setValue(shown)
            tolerance.setMinimum(10.0 ** -(DECIMALS[metric.kind] + 1))
            tolerance.setValue(max(abs(shown) * DEFAULT_TOLERANCE[metric.kind], tolerance.minimum()))
            # the name on a row of its own, across the table: the panel is narrow
            self.targets.setSpan(2 * row, 0, 1, 4)
            self.targets.setCellWidget(2 * row, 0, use)
            self.targets.setCellWidget(2 * row + 1, 1, target)
            self.targets.setCellWidget(2 * row + 1, 2, tolerance)
            self.targets.setItem(2 * row + 1, 3, QTableWidgetItem("—"))
            self.target_rows[name] = (use, target, tolerance)
        sliders = [p for p in meanings if not p.is_bool]
        self.params.setRowCount(2 * len(sliders))
        self.param_rows = {}
        for row, p in enumerate(sliders):
            lock = QCheckBox(p.label)
            lock.setToolTip(f"{p.name}: {p.help} Ticked: locked, the search leaves it as it is.")
            low, high = _spin(p.decimals, p.max, p.min), _spin(p.decimals, p.max, p.min)
            for box in (low, high):
                box.setSingleStep(p.step)
            low.setValue(p.min)
            high.setValue(p.max)
            self.params.setSpan(2 * row, 0, 1, 3)
            self.params.setCellWidget(2 * row, 0, lock)
            self.params.setCellWidget(2 * row + 1, 1, low)
            self.params.setCellWidget(2 * row + 1, 2, high)
            for box in (low, high):
                box.setSuffix(f" {p.unit}" if p.unit else "")
            self.param_rows[p.name] = (lock, low, high)
        self.result = None
        self._update_buttons()

    def set_target(self, metric: str, value: float, tolerance: float | None = None) -> None:
        """Tick `metric` with a target (and tolerance), as a user types them."""
        use, target, spread = self.target_rows[metric]
        use.setChecked(True)
        target.setValue(value)
        if tolerance is not None:
            spread.setValue(tolerance)

    def example(self) -> bool:
        """Aim the first metric with a value at 10 % more, and run (for screenshots)."""
        for name, (use, target, _) in self.target_rows.items():
            if target.value() > 0:
                self.set_target(name, 1.1 * target.value())
                return self.run()
        return False

    def settle(self, timeout_s: float = 120.0) -> None:
        """Process events until the search has ended and its result is shown."""
        import time

        from PySide6.QtWidgets import QApplication

        end = time.monotonic() + timeout_s
        while self.running and time.monotonic() < end:
            QApplication.processEvents()
            time.sleep(0.01)
        QApplication.processEvents()

    def lock(self, names: list[str], locked: bool = True) -> None:
        for name in names:
            self.param_rows[name][0].setChecked(locked)

    def chosen(self) -> tuple[list[Target], list[str], dict]:
        """The ticked targets, the free parameters and their search ranges."""
        targets = [Target(name, target.value(), spread.value())
                   for name, (use, target, spread) in self.target_rows.items() if use.isChecked()]
        names = [name for name, (lock, _, _) in self.param_rows.items() if not lock.isChecked()]
        declared = {p.name: p for p in self._meanings}
        ranges = {}
        for name in names:
            _, low, high = self.param_rows[name]
            ranges[name] = check_range(declared[name], low.value(), high.value())
        if not targets:
            raise UserError("Tick at least one metric to aim at")
        if not names:
            raise UserError("Every parameter is locked: unlock at least one for the search to move")
        return targets, names, ranges

    # --- the search ---------------------------------------------------------------
    def run(self) -> bool:
        if self.running or self.model is None:
            return False
        try:
            targets, names, ranges = self.chosen()
        except UserError as exc:
            self.status.setText(str(exc))
            return False
        self.result, self.running = None, True
        self.searched_model = self.model
        self.stop_event = threading.Event()
        self.curve.setData([], [])
        self.status.setText("Searching…")
        self._update_buttons()
        QThreadPool.globalInstance().start(_Job(self.model, dict(self.tuning), targets, names, ranges, self.hz,
                                                self.seed.value(), self.stop_event, self.signals))
        return True

    def stop(self) -> None:
        self.stop_event.set()

    def wait(self, timeout_ms: int = 120_000) -> None:
        """Block until the search ends (tests, closing the window)."""
        QThreadPool.globalInstance().waitForDone(timeout_ms)

    def _show_progress(self, progress: Progress) -> None:
        if not self.running:
            return
        history = [math.log10(max(score, 1e-12)) for score in progress.history]
        self.curve.setData(range(1, len(history) + 1), history)
        self.status.setText(f"generation {progress.generation} · {progress.evaluations} tunings · restarts "
                            f"{progress.restarts} · best error {progress.best_score:.3g}"
                            + (" · every target met" if progress.hit else ""))
        for name, value in progress.achieved.items():
            self.targets.item(2 * list(METRICS).index(name) + 1, 3).setText(format_value(value))
        if progress.best:
            self.candidate.emit({**self.tuning, **progress.best})

    def _finished(self, result) -> None:
        self.running = False
        self.candidate.emit(None)
        if self.searched_model is not self.model:
            self.status.setText("The model changed during the search: its result was dropped.")
            self._update_buttons()
            return
        if isinstance(result, str):
            self.status.setText(result)
            self._update_buttons()
            return
        self.result = result
        for target in result.targets:
            self.targets.item(2 * list(METRICS).index(target.metric) + 1, 3).setText(
                format_value(result.achieved[target.metric]))
        changed = [name for name in self.param_rows if result.tuning[name] != self.tuning[name]]
        if result.hit:
            text = f"Every target met ({result.evaluations} tunings); {len(changed)} parameters change."
        else:
            misses = "; ".join(f"{metric} off by {format_value(miss)}" for metric, miss in result.misses().items())
            text = (f"Not every target can be met: the closest tuning found misses {misses}."
                    + ("" if not result.binding else " What binds: " + "; ".join(result.binding) + "."))
        stopped = self.stop_event.is_set()
        self.status.setText(("Stopped: the best so far. " if stopped else "") + text + " Apply or Discard.")
        self._update_buttons()

    def apply(self) -> bool:
        if self.result is None:
            return False
        values = {name: self.result.tuning[name] for name in self.param_rows}
        text = "Auto-tune: " + ", ".join(t.metric for t in self.result.targets)
        self.result = None
        self.apply_requested.emit(values, text)
        self.status.setText("Applied (Ctrl+Z undoes it).")
        self._update_buttons()
        return True

    def discard(self) -> None:
        self.result = None
        self.status.setText("Discarded: nothing changed.")
        self._update_buttons()

    def _update_buttons(self) -> None:
        self.run_button.setEnabled(not self.running)
        self.stop_button.setEnabled(self.running)
        self.apply_button.setEnabled(self.result is not None and not self.running)
        self.discard_button.setEnabled(self.result is not None and not self.running)
