"""Tune tab: targets for the metrics, locks and search ranges for the sliders, and the
auto-tune's search (analysis/tune.py) on a worker thread, with live progress, a Stop
that keeps the best so far (in every phase), the parameters it changes, and Try it
(drive it; Back puts back what you had), Apply (one undo step) or Discard. A result is
only ever applied to the tuning it was searched from."""

from __future__ import annotations

import math
import time
from typing import Callable

import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSpinBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from ..analysis.kernel_prep import is_prepared, prepare
from ..analysis.metrics import compute
from ..analysis.tune import Progress, TuneResult
from ..errors import UserError
from ..physics.models import MODELS
from ..physics.params import effective_params
from . import qt  # noqa: F401  (binding choice before pyqtgraph)
from .narrow import fit_to_text
from .palette import CAR
from .plot_style import style_plot
from .tune_job import outcome_text, search_job
from .tune_tables import TuneTables
from .worker import Worker

TABLES_MIN_HEIGHT = 590
"""px: the least height of the targets' and parameters' tables with the plot (each table
two rows of boxes); a shorter tab scrolls them."""
CHANGES_LINES = 6
"""Lines of the tuning found's changes shown at once (more scroll)."""
READY = "Tick the metrics to aim at, then Run."
PREPARING = "Preparing the metrics (compiled once, the first time a model is measured)…"


class TunePanel(QWidget):
    """Targets, locks, the search and its result for the tuning on screen."""

    apply_requested = Signal(dict, str)  # values, undo text
    candidate = Signal(object)  # the best tuning so far (dict) while searching; None when it ends

    def __init__(self, parent=None):
        super().__init__(parent)
        self.model, self.tuning, self.hz = None, {}, 60
        self.now: Callable[[], tuple] | None = None
        """The window's (model, tuning) at this moment: what a result may be applied to."""
        self.undo_stack = None
        """The window's QUndoStack: Back takes the trial's step off it."""
        self.searched_model, self.searched_from, self.searched_params = None, {}, {}
        self.trial: dict | None = None
        """The whole tuning while the result is being tried (None when not trying)."""
        self._trial_index = -1
        self._said_stale = False
        self.result: TuneResult | None = None
        self.running = False
        self.job = Worker(self, "auto-tune")
        self.job.progress.connect(self._show_progress)
        self.job.finished.connect(lambda done, _seconds: self._finished(*done))
        self.job.failed.connect(lambda why: self._finished(f"The search could not go on ({why}).", False))

        # the targets start at the metrics of the tuning now, computed off the window's thread
        self.targets_job = Worker(self, "tune targets")
        self.targets_job.finished.connect(self._targets_arrived)
        self.targets_job.failed.connect(lambda why: self.status.setText(f"Could not compute the metrics ({why})."))
        self.tables = TuneTables(rows_ahead=max(sum(p.moves_motion for p in m.PARAMS) for m in MODELS.values()))
        self.targets, self.params = self.tables.targets, self.tables.params
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
        self.status = QLabel(READY)
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
        self.curve = self.plot.plot(pen=pg.mkPen(CAR, width=2))

        # two short rows, so the panel fits beside the car in a small window
        buttons, result_buttons = QHBoxLayout(), QHBoxLayout()
        buttons.addWidget(QLabel("seed"))
        buttons.addWidget(self.seed, 1)
        buttons.addWidget(fit_to_text(self.run_button))
        buttons.addWidget(fit_to_text(self.stop_button))
        result_buttons.addStretch(1)
        for button in (self.try_button, self.back_button, self.apply_button, self.discard_button):
            result_buttons.addWidget(fit_to_text(button))  # four in a row, in a panel 300 px wide
        self.seed.setMinimumWidth(40)
        self.status.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.targets)
        split.addWidget(self.params)
        split.addWidget(self.plot)
        split.setSizes([300, 220, 110])
        # on a small screen the tables and the plot scroll rather than squeezing the
        # tables below two rows; the search's buttons, progress and result stay in sight
        split.setMinimumHeight(TABLES_MIN_HEIGHT)
        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        self.scroll.setWidget(split)
        layout = QVBoxLayout(self)
        layout.addWidget(self.scroll, 1)
        layout.addLayout(buttons)
        layout.addWidget(self.status)
        layout.addWidget(self._changes_box())
        layout.addLayout(result_buttons)
        self._update_buttons()

    def _changes_box(self) -> QScrollArea:
        """The list of changes, CHANGES_LINES high at most (a longer list scrolls), so the
        tables keep their room above it on a small screen."""
        box = QScrollArea()
        box.setWidgetResizable(True)
        box.setFrameShape(QScrollArea.Shape.NoFrame)
        box.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # the lines wrap
        box.setWidget(self.changes)
        box.setMaximumHeight(CHANGES_LINES * self.changes.fontMetrics().lineSpacing() + 4)
        box.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        return box

    # --- the tables ---------------------------------------------------------------
    def set_model(self, model, tuning, hz: int) -> None:
        """Show targets and parameters for `model` (kept when only values change)."""
        self.tuning, self.hz = dict(tuning), hz
        meanings = effective_params(model.PARAMS, tuning)
        if model is self.model and meanings == self.tables.meanings:
            self._update_buttons()  # a result is usable only on the tuning it was searched from
            return
        self.model = model
        self.stop()  # a search of the last model is of no use to this one (its result is dropped)
        self.trial = None
        self.changes.setText("")
        self.tables.fill(model, meanings)
        tuning = dict(tuning)
        if not is_prepared(model, "metrics"):
            self.status.setText(PREPARING)
        self.targets_job.request(lambda _task: (model, prepare(model, "metrics") or compute(model, tuning, hz)))
        self.result = None
        self._update_buttons()

    def _targets_arrived(self, result, _seconds: float) -> None:
        model, now = result
        if model is self.model:  # else the tables are another model's already
            self.tables.set_now(now)
            if self.status.text() == PREPARING:
                self.status.setText(READY)
            self._update_buttons()

    def settle_targets(self) -> None:
        """Block until the targets show the metrics of the tuning now."""
        self.targets_job.settle()

    @property
    def target_rows(self) -> dict:
        return self.tables.target_rows

    @property
    def param_rows(self) -> dict:
        return self.tables.param_rows

    def set_target(self, metric: str, value: float, tolerance: float | None = None) -> None:
        """Tick `metric` with a target (and tolerance), as a user types them."""
        self.tables.set_target(metric, value, tolerance)

    def example(self) -> bool:
        """Aim the first metric with a value at 10 % more, and run (for screenshots)."""
        for name, (_use, target, _) in self.target_rows.items():
            if target.value() > 0:
                self.set_target(name, 1.1 * target.value())
                return self.run()
        return False

    def settle(self, timeout_s: float = 120.0) -> None:
        """Process events until the search has ended and its result is shown."""
        end = time.monotonic() + timeout_s
        while self.running and time.monotonic() < end:
            QApplication.processEvents()
            time.sleep(0.01)
        QApplication.processEvents()

    def lock(self, names: list[str], locked: bool = True) -> None:
        self.tables.lock(names, locked)

    # --- the search ---------------------------------------------------------------
    def run(self) -> bool:
        if self.running or self.model is None:
            return False
        if not self.tables.ready:  # only a script gets here (Run waits, disabled, for the targets)
            self.settle_targets()
        try:
            targets, names, ranges = self.tables.chosen()
        except UserError as exc:
            self.status.setText(str(exc))
            return False
        model, tuning = self._current()
        if model is not self.model:
            self.status.setText("The model changed: show this tab again to search it.")
            return False
        self.result, self.running, self.trial = None, True, None
        self.searched_model, self.searched_from = model, tuning
        self.searched_params = {p.name: p for p in self.tables.meanings if p.name in names}
        self.curve.setData([], [])
        self.status.setText("Searching…")
        self.changes.setText("")
        self._update_buttons()
        model, hz, seed = self.model, self.hz, self.seed.value()
        tuning = dict(tuning)

        def work(task):
            prepare(model, "everything")  # a first use compiles in a separate process (kernel_prep.py)
            return search_job(model, tuning, targets, names, ranges, hz, seed, task)

        self.job.request(work)
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
        """End the search: it delivers the best found so far."""
        self.job.cancel()

    def wait(self) -> None:
        """Block until the search ends (tests, closing the window)."""
        self.job.wait()
        self.targets_job.wait()

    def _show_progress(self, progress: Progress | str) -> None:
        if not self.running:
            return
        if isinstance(progress, str):  # the job is no longer the search: what it does now
            self.status.setText(progress)
            return
        history = [math.log10(max(score, 1e-12)) for score in progress.history]
        self.curve.setData(range(1, len(history) + 1), history)
        self.status.setText(
            f"generation {progress.generation} · {progress.evaluations} tunings · restarts "
            f"{progress.restarts} · best error {progress.best_score:.3g}"
            + (" · every target met" if progress.hit else "")
        )
        for name, value in progress.achieved.items():
            self.tables.show_achieved(name, value)
        if progress.best:
            self.candidate.emit({**self.searched_from, **progress.best})

    def _finished(self, result: TuneResult | str, stopped: bool) -> None:
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
            self.tables.show_achieved(target.metric, result.achieved[target.metric])
        changed = self.changed()
        text = outcome_text(result, len(changed), self.searched_model)
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
        self.run_button.setEnabled(not self.running and self.tables.ready)
        self.stop_button.setEnabled(self.running)
        self.try_button.setEnabled(fresh and bool(self.changed()))
        self.back_button.setEnabled(self.trial is not None)
        self.apply_button.setEnabled(fresh or (usable and self.trial is not None))
        self.discard_button.setEnabled(usable)
