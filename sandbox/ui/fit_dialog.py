"""The Fit dialog: which tuning drives a recording from the game? The recording (the
one replayed by default), the model (the window's, another, or all), the free and
locked parameters, the segment length; the fit runs on a worker thread with progress
and Cancel; per model the residual, each value ± its uncertainty, what the recording
cannot tell, the stretches it cannot explain (left out, shaded on the divergence plot),
the verdict and the best model. The fitted tuning drives as a ghost over
the recording before Apply makes it the window's (one undo step; another model's fit
switches the model, asking about unsaved work as every model switch does)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QFileDialog,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from ..analysis.fit import FitResult
from ..analysis.fit_switches import on_off
from ..errors import UserError
from ..files.presets import Preset, declared_preset, fitted_precision, reference_preset
from ..files.recordings import Recording, load_recording
from ..physics.models import MODELS
from ..physics.params import Tuning, effective_params
from ..session.recorded import divergence, recorded_drive
from .fit_job import FitRun, best_of, fit_job, result_html, switches_html
from .worker import Worker

ALL = "all"
GHOST_PREFIX = "fit: "
LEFT_OUT_TIP = "Left out of the fit: the model cannot explain what the car does here (a wall, a collision?)"


def start_preset(model) -> Preset:
    """The tuning a fit of `model` starts from when the window drives another model: its
    reference preset, as `car-sandbox fit` starts from (else, that file damaged, its defaults)."""
    try:
        return reference_preset(model)
    except UserError:
        return declared_preset(model, f"{model.TITLE} defaults")


class FitDialog(QDialog):
    """A fit of the recording for `window` (a MainWindow); not modal: the car and the
    ghost drive on while it is open."""

    def __init__(self, window):
        super().__init__(window)
        self.window = w = window
        self.setWindowTitle("Fit to a game recording")
        self.setObjectName("fit_dialog")
        self.recording: Recording | None = None
        self.path: Path | None = None
        self.results: list = []
        self._runs: list[FitRun] = []
        self.running = False
        self._cancelled = False
        self.job = Worker(self, "fit")
        self.job.progress.connect(lambda share: self.progress.setValue(round(1000 * share)))
        self.job.finished.connect(lambda results, _seconds: self._finished(results))
        self.job.failed.connect(lambda why: self._finished([f"The fit could not go on ({why})."]))

        self.file_label = QLabel()
        self.file_label.setWordWrap(True)
        choose = QPushButton("Choose…")
        choose.clicked.connect(self.choose_file)
        self.model_box = QComboBox()
        self.model_box.currentIndexChanged.connect(self._model_chosen)
        self.start_label = QLabel()
        self.start_label.setWordWrap(True)
        self.segment = QSpinBox()
        self.segment.setRange(1, 100_000)
        self.segment.setSuffix(" ticks")
        self.segment.setToolTip(
            "The car is put back on the recorded path this often (a long drive parts chaotically "
            "otherwise); the default is one second's ticks"
        )
        self.params_box = QWidget()
        self.params_grid = QGridLayout(self.params_box)
        self.params_grid.setContentsMargins(0, 0, 0, 0)
        self.checks: dict[str, QCheckBox] = {}
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.params_box)
        scroll.setMinimumHeight(120)
        self.params_note = QLabel()
        self.params_note.setWordWrap(True)

        self.run_button, self.cancel_button = QPushButton("&Run"), QPushButton("&Cancel")
        self.apply_button, self.close_button = QPushButton("&Apply"), QPushButton("Close")
        self.run_button.clicked.connect(self.run)
        self.cancel_button.clicked.connect(self.cancel)
        self.apply_button.clicked.connect(self.apply)
        self.close_button.clicked.connect(self.close)
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.progress.setTextVisible(False)
        self.status = QLabel("Choose what to fit, then Run.")
        self.status.setWordWrap(True)
        self.report = QTextBrowser()
        self.report.setMinimumHeight(160)
        self.choice = QComboBox()
        self.choice.setToolTip("The fit that drives as a ghost, and that Apply uses")
        self.choice.currentIndexChanged.connect(self._show_ghost)

        file_row = QHBoxLayout()
        file_row.addWidget(self.file_label, 1)
        file_row.addWidget(choose)
        form = QFormLayout()
        form.addRow("Recording", file_row)
        form.addRow("Model", self.model_box)
        form.addRow("Starts from", self.start_label)
        form.addRow("Segment", self.segment)
        buttons = QHBoxLayout()
        buttons.addWidget(self.run_button)
        buttons.addWidget(self.cancel_button)
        buttons.addWidget(self.progress, 1)
        result_row = QHBoxLayout()
        result_row.addWidget(QLabel("Ghost and Apply:"))
        result_row.addWidget(self.choice, 1)
        result_row.addWidget(self.apply_button)
        result_row.addWidget(self.close_button)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(QLabel("Free parameters (ticked) are fitted; the others stay as they start:"))
        layout.addWidget(scroll, 1)
        layout.addWidget(self.params_note)
        layout.addLayout(buttons)
        layout.addWidget(self.status)
        layout.addWidget(self.report, 2)
        layout.addLayout(result_row)
        self.resize(560, 720)

        self.model_box.addItem(f"{w.model.TITLE} (the window's)", w.model.NAME)
        for name, model in MODELS.items():
            if model is not w.model:
                self.model_box.addItem(model.TITLE, name)
        self.model_box.addItem(f"All models in {w.model.LENGTH_UNIT} (which fits best?)", ALL)
        if w.recordings.recording is not None:
            self.set_recording(w.recordings.recording, w.recordings.path)
        else:
            self.file_label.setText("none yet: choose one")
        self._model_chosen()
        self._update_buttons()

    # --- what to fit --------------------------------------------------------------
    def choose_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Recording to fit", "", "Recordings (*.csv);;All files (*)")
        if path:
            self.open_file(path)

    def open_file(self, path) -> bool:
        """Take the recording at `path` (a bad one: its message, nothing changes)."""
        recording = self.window.files.read(load_recording, path)
        if recording is None:
            return False
        self.set_recording(recording, Path(path))
        return True

    def set_recording(self, recording: Recording, path: Path | None) -> None:
        self.recording, self.path = recording, path
        name = path.name if path is not None else "the recording"
        stated = f"; the game's switches: {on_off(recording.switches)}" if recording.switches else ""
        self.file_label.setText(f"{name}: {recording.seconds:.1f} s at {recording.hz:g} Hz{stated}")
        self.segment.setValue(max(1, round(recording.hz)))  # the fit's own default: one second

    def chosen_models(self) -> list:
        name = self.model_box.currentData()
        if name == ALL:  # a recording is in one unit: the models in another cannot drive it
            return [m for m in MODELS.values() if m.LENGTH_UNIT == self.window.model.LENGTH_UNIT]
        return [MODELS[name]]

    def start_of(self, model) -> dict:
        """The window's tuning for its model; another model's reference preset."""
        w = self.window
        return dict(w.tuning) if model is w.model else dict(start_preset(model).tuning)

    def _model_chosen(self) -> None:
        """The parameter checkboxes of the model chosen (all models: every slider free)."""
        for check in self.checks.values():  # gone now, not at the next idle turn
            check.hide()
            self.params_grid.removeWidget(check)
            check.deleteLater()
        self.checks = {}
        w = self.window
        models = self.chosen_models()
        if len(models) > 1:
            self.start_label.setText(
                f"your tuning for the {w.model.TITLE}; each other model's reference preset (its values are searched)"
            )
            self.params_note.setText("Every slider of each model is free.")
            self.params_box.setEnabled(False)
            return
        model = models[0]
        start = self.start_of(model)
        self.start_label.setText(
            f"your tuning ({w.preset.name})"
            if model is w.model
            else f"{start_preset(model).name} (its reference preset, as car-sandbox fit starts from)"
        )
        locked = self._tune_locks() if model is w.model else set()
        sliders = [p for p in effective_params(model.PARAMS, start) if p.moves_motion]
        for i, p in enumerate(sliders):
            check = QCheckBox(p.label)
            check.setChecked(p.name not in locked and p.searched)  # the steering feel: kept unless ticked
            check.setToolTip(f"{p.help}\nTicked: fitted within {p.range_text()}; unticked: kept at {start[p.name]:g}")
            check.toggled.connect(self._update_buttons)
            self.params_grid.addWidget(check, i // 2, i % 2)
            self.checks[p.name] = check
        self.params_box.setEnabled(True)
        self.params_note.setText(
            "Ticked as the sliders the Tune tab leaves free."
            if locked
            else "Every slider starts ticked but the steering feel's (how the input is shaped)."
        )
        self._update_buttons()

    def _tune_locks(self) -> set[str]:
        """The sliders the Tune tab locks (for the window's model)."""
        tune = self.window.tune
        if tune.model is not self.window.model:
            return set()
        return {name for name, (lock, *_rest) in tune.param_rows.items() if lock.isChecked()}

    def free(self) -> list[str]:
        return [name for name, check in self.checks.items() if check.isChecked()]

    # --- the fit --------------------------------------------------------------------
    def run(self) -> bool:
        if self.running or self.recording is None:
            return False
        models = self.chosen_models()
        if len(models) == 1:
            runs = [FitRun(models[0], self.start_of(models[0]), self.free())]
            if not runs[0].free:
                self.status.setText("Tick at least one parameter to fit.")
                return False
        else:
            runs = []
            for model in models:
                start = self.start_of(model)
                free = [p.name for p in effective_params(model.PARAMS, start) if p.moves_motion and p.searched]
                runs.append(FitRun(model, start, free))
        self._remove_ghost()
        self.window.recordings.plot.mark_spans([])  # the last fit's stretches: this one names its own
        self.results, self.running = [], True
        self.choice.clear()
        self.report.setHtml("")
        self.progress.setValue(0)
        what = runs[0].model.TITLE if len(runs) == 1 else f"{len(runs)} models"
        self.status.setText(f"Fitting {what} to the recording… (Cancel keeps the best found so far)")
        recording, segment = replace(self.recording, track=self.window.world.track), self.segment.value()
        self._runs = runs  # the switch search's words come back on them
        self.job.request(lambda task: fit_job(runs, recording, segment, task))
        self._update_buttons()
        return True

    def cancel(self) -> None:
        """Stop the fit: the running model delivers its best so far."""
        self._cancelled = self.running
        self.job.cancel()

    def wait(self) -> None:
        self.job.wait()

    def _finished(self, results: list) -> None:
        self.running = False
        self.results = results
        fits = [r for r in results if isinstance(r, FitResult)]
        best = best_of(results)
        parts = [r if isinstance(r, FitResult) else None for r in results]
        runs = self._runs + [FitRun(None, {}, [])] * len(results)
        html = "".join(
            result_html(r, r is best and len(fits) > 1, run.search) + switches_html(run.switches)
            if r is not None
            else f"<p>{text}</p>"
            for r, text, run in zip(parts, results, runs)
        )
        if len(fits) > 1 and best is not None:
            html = f"<p><b>Best: {best.model.TITLE}</b> (the least error per tick).</p>" + html
        elif fits and best is None:
            html = (
                "<p><b>No model explains this drive</b>: each one's position error is larger than the distance "
                "driven per segment. A recording of another kind of car, in other units, at another tick rate, "
                "or of a car that hit walls?</p>" + html
            )
        self.report.setHtml(html)
        self.progress.setValue(1000)
        stopped, self._cancelled = self._cancelled, False
        self.status.setText(
            ("Stopped: the best so far. " if stopped else "")
            + (
                "The fitted tuning drives as a ghost over the recording: Apply makes it yours."
                if fits
                else "No fit to show."
            )
        )
        self.choice.blockSignals(True)
        self.choice.clear()
        for r in sorted(fits, key=lambda r: r.score):
            self.choice.addItem(r.model.TITLE, r)
        self.choice.blockSignals(False)
        self._show_ghost()
        self._update_buttons()

    @property
    def chosen(self) -> FitResult | None:
        return self.choice.currentData()

    # --- the ghost and Apply ------------------------------------------------------
    def _ghost_name(self, result: FitResult) -> str:
        return f"{GHOST_PREFIX}{result.model.TITLE}"

    def _remove_ghost(self) -> None:
        """The fit's ghost leaves; the car and the other ghosts drive on undisturbed."""
        w = self.window
        ghosts = [g for g in w.drive.ghosts if g.name.startswith(GHOST_PREFIX)]
        for ghost in ghosts:
            w.drive.drop_ghost(ghost)
        if ghosts:
            w.plots.set_ghost_names([g.name for g in w.drive.ghosts])
            w._request_metrics()
            w.drive_view.refresh()

    def _show_ghost(self) -> None:
        """The chosen fit drives as a ghost over the recording (replayed from its start),
        with how far it gets from the recording unanchored."""
        w = self.window
        self._remove_ghost()
        result = self.chosen
        if result is None:
            return
        preset = Preset(result.model, Tuning(result.model.PARAMS, result.tuning), self._ghost_name(result), hz=w.sim.hz)
        recordings = w.recordings
        if self.recording is not None and not (recordings.replaying and recordings.recording is self.recording):
            recordings.play(self.recording, self.path or Path("recording.csv"))  # the ghost drives over it
        w.compare.add(preset, preset.name)
        if recordings.replaying and recordings.recording is self.recording:
            recordings.plot.mark_spans(result.left_out_spans, LEFT_OUT_TIP)
        if self.recording is not None:
            drive = recorded_drive(result.model, self.recording, "fit")
            whole = divergence(result.model, result.tuning, self.recording.hz, drive, self.window.world.track)
            unit = result.model.LENGTH_UNIT
            self.status.setText(
                self.status.text()
                + f" Replayed from the start without being put back on the path, the fitted car is at most "
                f"{float(whole.distance.max()):.3g} {unit} from the recorded one (RMS {whole.rms:.3g} {unit})."
            )
        self._update_buttons()

    def apply(self) -> bool:
        """The chosen fit's values into the window as one undo step; another model's
        fit switches the model (asking about unsaved work first)."""
        w = self.window
        result = self.chosen
        if result is None or self.running:
            return False
        name = self.path.stem if self.path is not None else "recording"
        precision = fitted_precision(result.uncertainty)
        if result.model is not w.model:
            preset = Preset(
                result.model,
                Tuning(result.model.PARAMS, result.tuning),
                f"fit to {name}",
                hz=w.sim.hz,
                precision=precision,
            )
            self._remove_ghost()
            if not w.apply_preset(preset):
                self._show_ghost()
                return False
        else:
            changed = {k: v for k, v in result.tuning.items() if w.tuning[k] != v}
            self._remove_ghost()
            if changed:
                w.panel.set_values(changed, f"Fit to {name}")
            w.fitted.update({n: (result.tuning[n], u) for n, u in precision.items()})  # written to the fit's ±
            if w.recordings.replaying:  # the car where the fitted tuning has it at this tick, not the old one
                w.replay.scrub(w.drive.replay_tick)
        self.status.setText(f"Applied the {result.model.TITLE} fit (Ctrl+Z undoes it).")
        self._update_buttons()
        return True

    def _update_buttons(self) -> None:
        can_run = self.recording is not None and not self.running
        if can_run and len(self.chosen_models()) == 1:
            can_run = bool(self.free())
        self.run_button.setEnabled(can_run)
        self.cancel_button.setEnabled(self.running)
        result = self.chosen if not self.running else None
        self.apply_button.setEnabled(result is not None)
        if result is not None and result.model is not self.window.model:
            self.apply_button.setText(f"Switch to {result.model.TITLE} and &apply")
        else:
            self.apply_button.setText("&Apply")

    def done(self, result: int) -> None:
        """Closed (Close, Esc, the title bar's button): the fit stops, its ghost goes."""
        self.job.cancel()
        self._remove_ghost()
        super().done(result)
