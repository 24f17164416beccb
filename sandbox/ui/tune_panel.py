"""Tune tab: targets for the metrics, locks and search ranges for the sliders, and the
auto-tune's search (analysis/tune.py) on a worker thread, with live progress, a Stop
that keeps the best so far (in every phase), the parameters it changes, and Try it
(drive it; Back puts back what you had), Apply (one undo step) or Discard. A result is
only ever applied to the tuning it was searched from."""

from __future__ import annotations

import copy
import math
import threading
from typing import Callable

import pyqtgraph as pg
from PySide6.QtCore import QObject, QRunnable, Qt, QThreadPool, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..analysis.metrics import DECIMALS, METRICS, compute, format_value, reference_speed, unit_of
from ..analysis.tune import DEFAULT_TOLERANCE, Progress, Target, TuneResult, check_range, conflicts, search
from ..errors import UserError
from ..physics.params import effective_params
from . import qt  # noqa: F401  (binding choice before pyqtgraph)
from .latest_job import background
from .palette import CAR
from .plot_style import style_plot

SPIN_MAX = 1e7
"""The largest target a box takes (far above any metric in either unit)."""
SPIN_WIDTH = 84
"""px: a number box (the names get the rest of the panel's width)."""


class _Signals(QObject):
    progress = Signal(object)  # a copy of the search's Progress
    phase = Signal(str)  # what the job does now, when it is no longer the search
    finished = Signal(object)  # TuneResult, or a UserError's text


class _Job(QRunnable):
    def __init__(
        self,
        model,
        tuning: dict,
        targets: list,
        names: list,
        ranges: dict,
        hz: int,
        seed: int,
        stop: threading.Event,
        signals: _Signals,
    ):
        super().__init__()
        self.args = (model, tuning, targets, names, hz, seed, ranges)
        self.stop, self.signals = stop, signals

    def _report(self, progress: Progress) -> None:
        self.signals.progress.emit(copy.deepcopy(progress))  # the search goes on changing its own

    def run(self) -> None:
        background()
        model, tuning, targets, names, hz, seed, ranges = self.args
        try:
            result = search(model, tuning, targets, names, hz, seed, ranges, on_generation=self._report, stop=self.stop)
            if not result.hit and not self.stop.is_set() and len(targets) > 1:  # which targets pull against each other
                self.signals.phase.emit(
                    "Not every target met: searching again without each target in turn, to "
                    "find what stands in the way… (Stop ends it)"
                )
                result.binding += conflicts(model, tuning, targets, names, hz, seed, ranges, stop=self.stop)
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
        self.now: Callable[[], tuple] | None = None
        """The window's (model, tuning) at this moment: what a result may be applied to."""
        self.undo_stack = None
        """The window's QUndoStack: Back takes the trial's step off it."""
        self.searched_model, self.searched_from, self.searched_params = None, {}, {}
        self.trial: dict | None = None
        """The whole tuning while the result is being tried (None when not trying)."""
        self._trial_index = -1
        self._own_tolerance: set[str] = set()  # metrics whose tolerance the user typed
        self._said_stale = False
        self._following = False
        self.result: TuneResult | None = None
        self.stop_event = threading.Event()
        self.running = False
        self.signals = _Signals()
        self.signals.progress.connect(self._show_progress)
        self.signals.phase.connect(lambda text: self.running and self.status.setText(text))
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
        self.params.setToolTip(
            "Ticked parameters are locked: they stay as they are; the others are searched "
            "between from and to (the slider's range unless narrowed). Options never change."
        )
        self.seed = QSpinBox()
        self.seed.setRange(0, 2**31 - 1)
        self.seed.setValue(1)
        self.seed.setToolTip(
            "The search's random seed: the same seed and targets give the same tuning (as `car-sandbox tune --seed`)"
        )
        self.run_button, self.stop_button = QPushButton("&Run"), QPushButton("S&top")
        self.apply_button, self.discard_button = QPushButton("&Apply"), QPushButton("&Discard")
        self.try_button, self.back_button = QPushButton("Tr&y it"), QPushButton("&Back")
        self.run_button.setToolTip("Search for the tuning nearest this one that hits every ticked target")
        self.stop_button.setToolTip("Stop the search and keep the best tuning found so far")
        self.try_button.setToolTip(
            "Load the tuning found into your car to drive it: Apply keeps it (one undo step), "
            "Back puts back exactly what you had"
        )
        self.back_button.setToolTip(
            "Stop trying: put back the values you had before Try it (while the car has "
            "the tuning tried; after other changes, Ctrl+Z steps back through them)"
        )
        self.apply_button.setToolTip("Make the tuning found the current one (one undo step)")
        self.discard_button.setToolTip("Forget the tuning found; nothing changes (while trying, Back first)")
        self.run_button.clicked.connect(self.run)
        self.stop_button.clicked.connect(self.stop)
        self.try_button.clicked.connect(self.try_it)
        self.back_button.clicked.connect(self.back)
        self.apply_button.clicked.connect(self.apply)
        self.discard_button.clicked.connect(self.discard)
        self.status = QLabel("Tick the metrics to aim at, then Run.")
        self.status.setWordWrap(True)
        self.changes = QLabel()
        self.changes.setWordWrap(True)
        self.changes.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.changes.setToolTip("The parameters the tuning found changes: the value you had → the value found")
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
        result_buttons.addWidget(self.try_button)
        result_buttons.addWidget(self.back_button)
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
        layout.addWidget(self.changes)
        layout.addLayout(result_buttons)
        self._update_buttons()

    # --- the tables ---------------------------------------------------------------
    def set_model(self, model, tuning, hz: int) -> None:
        """Show targets and parameters for `model` (kept when only values change)."""
        self.tuning, self.hz = dict(tuning), hz
        meanings = effective_params(model.PARAMS, tuning)
        if model is self.model and meanings == self._meanings:
            self._update_buttons()  # a result is usable only on the tuning it was searched from
            return
        self.model, self._meanings = model, meanings
        self.stop()  # a search of the last model is of no use to this one (its result is dropped)
        self.trial, self._own_tolerance = None, set()
        self.changes.setText("")
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
            tolerance.setToolTip(
                f"How far from the target still counts as met. It follows the target "
                f"({DEFAULT_TOLERANCE[metric.kind]:.0%} of it) until you type your own."
            )
            target.valueChanged.connect(lambda value, name=name: self._follow_target(name, value))
            tolerance.valueChanged.connect(lambda _, name=name: self._tolerance_typed(name))
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

    def _follow_target(self, name: str, value: float) -> None:
        """A new target brings its tolerance along (the default share of it), unless the
        user typed a tolerance of their own."""
        if name in self._own_tolerance:
            return
        _, _, spread = self.target_rows[name]
        self._following = True
        spread.setValue(max(abs(value) * DEFAULT_TOLERANCE[METRICS[name].kind], spread.minimum()))
        self._following = False

    def _tolerance_typed(self, name: str) -> None:
        if not self._following:
            self._own_tolerance.add(name)

    def set_target(self, metric: str, value: float, tolerance: float | None = None) -> None:
        """Tick `metric` with a target (and tolerance), as a user types them."""
        use, target, spread = self.target_rows[metric]
        use.setChecked(True)
        target.setValue(value)
        if tolerance is not None:
            spread.setValue(tolerance)

    def example(self) -> bool:
        """Aim the first metric with a value at 10 % more, and run (for screenshots)."""
        for name, (_use, target, _) in self.target_rows.items():
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
        targets = [
            Target(name, target.value(), spread.value())
            for name, (use, target, spread) in self.target_rows.items()
            if use.isChecked()
        ]
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
        model, tuning = self._current()
        if model is not self.model:
            self.status.setText("The model changed: show this tab again to search it.")
            return False
        self.result, self.running, self.trial = None, True, None
        self.searched_model, self.searched_from = model, tuning
        self.searched_params = {p.name: p for p in self._meanings if p.name in names}
        self.stop_event = threading.Event()
        self.curve.setData([], [])
        self.status.setText("Searching…")
        self.changes.setText("")
        self._update_buttons()
        QThreadPool.globalInstance().start(
            _Job(
                self.model,
                dict(tuning),
                targets,
                names,
                ranges,
                self.hz,
                self.seed.value(),
                self.stop_event,
                self.signals,
            )
        )
        return True

    def _current(self) -> tuple:
        """The model and tuning (a dict) on screen now: the window's, when it says."""
        model, tuning = self.now() if self.now is not None else (self.model, self.tuning)
        return model, dict(tuning)

    def changed(self) -> dict[str, tuple[float, float]]:
        """name -> (value searched from, value found), for each parameter the result changes."""
        if self.result is None:
            return {}
        return {
            name: (self.searched_from[name], self.result.tuning[name])
            for name in self.searched_params
            if self.result.tuning[name] != self.searched_from[name]
        }

    def stale(self) -> str:
        """Why the result cannot be applied to the tuning on screen now ("" when it can)."""
        if self.result is None or self.trial is not None:
            return ""
        model, tuning = self._current()
        if model is not self.searched_model:
            return "the model changed"
        if tuning != self.searched_from:
            return "the tuning changed since the search started (another preset loaded, or a slider moved)"
        return ""

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
        self.status.setText(
            f"generation {progress.generation} · {progress.evaluations} tunings · restarts "
            f"{progress.restarts} · best error {progress.best_score:.3g}"
            + (" · every target met" if progress.hit else "")
        )
        for name, value in progress.achieved.items():
            self.targets.item(2 * list(METRICS).index(name) + 1, 3).setText(format_value(value))
        if progress.best:
            self.candidate.emit({**self.searched_from, **progress.best})

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
                format_value(result.achieved[target.metric])
            )
        changed = self.changed()
        count = f"{len(changed)} parameter{'' if len(changed) == 1 else 's'} change{'s' if len(changed) == 1 else ''}"
        if result.hit:
            text = f"Every target met ({result.evaluations} tunings); {count}" + (" (below)." if changed else ".")
        else:
            unit = {t.metric: unit_of(METRICS[t.metric].kind, self.searched_model) for t in result.targets}
            misses = "; ".join(
                f"{metric} off by {format_value(miss)} {unit[metric]}"
                if math.isfinite(miss)
                else f"{metric} not measured (the manoeuvre never reaches its mark)"
                for metric, miss in result.misses().items()
            )
            text = (
                f"Not every target can be met: the closest tuning found misses {misses}."
                + ("" if not result.binding else " What binds: " + "; ".join(result.binding) + ".")
                + f" {count}"
                + (" (below)." if changed else ".")
            )
        stopped = self.stop_event.is_set()
        stale = self.stale()
        after = (
            f" But {stale}: this result is for the tuning it was searched from and cannot be applied to "
            "another. Run again."
            if stale
            else " Try it, Apply or Discard."
            if changed
            else " Discard."
        )
        self.status.setText(("Stopped: the best so far. " if stopped else "") + text + after)
        self._said_stale = bool(stale)
        self.changes.setText("\n".join(self._change_line(name, old, new) for name, (old, new) in changed.items()))
        self._update_buttons()

    def _change_line(self, name: str, old: float, new: float) -> str:
        p = self.searched_params[name]
        unit = f" {p.unit}" if p.unit else ""
        return f"{p.label}: {old:.{p.decimals}f} → {new:.{p.decimals}f}{unit}"

    def _undo_text(self) -> str:
        return "Auto-tune: " + ", ".join(t.metric for t in self.result.targets)

    def _refused(self, what: str) -> bool:
        """Say why the result cannot be used on the tuning on screen, if it cannot."""
        stale = self.stale()
        if stale:
            self.status.setText(f"{what}: {stale}. This result is for the tuning it was searched from; Run again.")
            self._update_buttons()
        return bool(stale)

    def _trial_ended(self) -> None:
        """A trial is over once the car's tuning is no longer the one tried (Ctrl+Z, a
        slider, a preset): Back no longer applies, and Apply is judged afresh."""
        if self.trial is not None and self._current()[1] != self.trial:
            self.trial = None

    def try_it(self) -> bool:
        """Load the result into the car as one undo step, to drive before deciding."""
        self._trial_ended()
        if self.result is None or self.running or self.trial is not None:
            return False
        if self._refused("Not tried"):
            return False
        changed = self.changed()
        if not changed:
            self.status.setText("Nothing to try: the tuning found is the one you have.")
            return False
        self.apply_requested.emit({name: new for name, (_, new) in changed.items()}, self._undo_text())
        _, self.trial = self._current()
        self._trial_index = self.undo_stack.index() if self.undo_stack is not None else -1
        self.status.setText(
            "Trying the tuning found: drive it. Apply keeps it (Ctrl+Z undoes it later); Back puts back what you had."
        )
        self._update_buttons()
        return True

    def back(self) -> bool:
        """End a trial, every value as it was before Try it: its undo step taken back (or,
        when other steps came after it, a step putting the values back)."""
        self._trial_ended()
        if self.trial is None:
            self._update_buttons()
            return False
        self.trial = None
        if self.undo_stack is not None and self.undo_stack.index() == self._trial_index:
            self.undo_stack.undo()
        else:
            self.apply_requested.emit(
                {name: old for name, (old, _) in self.changed().items()}, "Back from the auto-tune's trial"
            )
        self.status.setText("Back to the tuning you had. The result is still here: Try it, Apply or Discard.")
        self._update_buttons()
        return True

    def apply(self) -> bool:
        """Make the result the tuning (one undo step); while trying, keep the trial as it is."""
        self._trial_ended()
        if self.result is None or self.running:
            return False
        if self.trial is not None:
            self.result, self.trial = None, None
            self.status.setText("Kept: the tuning you tried is yours now (Ctrl+Z undoes it).")
            self.changes.setText("")
            self._update_buttons()
            return True
        if self._refused("Not applied"):
            return False
        changed = self.changed()
        text = self._undo_text()
        self.result = None
        if changed:
            self.apply_requested.emit({name: new for name, (_, new) in changed.items()}, text)
        self.status.setText(
            "Applied (Ctrl+Z undoes it)." if changed else "Nothing to apply: the tuning found is the one you have."
        )
        self.changes.setText("")
        self._update_buttons()
        return True

    def discard(self) -> None:
        """Forget the result; while trying, Back first."""
        backed = self.trial is not None and self.back()
        self.result, self.trial = None, None
        self.status.setText("Discarded: back to the tuning you had." if backed else "Discarded: nothing changed.")
        self.changes.setText("")
        self._update_buttons()

    def _update_buttons(self) -> None:
        self._trial_ended()
        usable = self.result is not None and not self.running
        stale = self.stale() if usable and self.trial is None else ""
        if stale and not self._said_stale:  # the tuning changed while the result was shown
            self.status.setText(
                f"Try it and Apply wait: {stale}. This result is for the tuning it was searched "
                "from: undo back to it, or Run again."
            )
        elif self._said_stale and usable and not stale:
            self.status.setText("Back at the tuning the search started from: Try it, Apply or Discard.")
        self._said_stale = bool(stale)
        fresh = usable and self.trial is None and not stale
        self.run_button.setEnabled(not self.running)
        self.stop_button.setEnabled(self.running)
        self.try_button.setEnabled(fresh and bool(self.changed()))
        self.back_button.setEnabled(self.trial is not None)
        self.apply_button.setEnabled(fresh or (usable and self.trial is not None))
        self.discard_button.setEnabled(usable)
