"""Replaying a drive recorded in a game: its controls through the sandbox car (a trace
replay that starts where the recording starts), its own path and car drawn in the
view, and the divergence plot (how far the sandbox car is from the recorded one, per
tick) in a dock beside the plots: "does the sandbox drive like my game?"."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QFileDialog, QMessageBox, QStatusBar

from ..analysis.metrics import format_value
from ..files.recordings import Recording, load_recording, replayable
from ..files.traces import is_recording, user_trace_dir
from ..physics.sim import TICK_RATES
from ..session.drive import DriveSession
from ..session.recorded import Divergence, ReplayedRecording, divergence, recorded_drive, summary, units_note
from ..session.tuning import LiveTuning, TuningChange
from .fit_dialog import FitDialog
from .recording_overlay import RecordingOverlay
from .replay_control import REPLAY_LIMIT

FOLLOW_MS = 100
"""ms between moves of the divergence plot's line to the replay's tick."""


class RecordingHost(Protocol):
    """What a replayed game recording uses of the window that owns it (a QWidget: the
    timer and the dialogs are its children). It needs many of its parts, so they are
    named here rather than handed over one by one."""

    panels: object  # `recording_dock`: the Recording tab, a DivergencePlot in a dock
    tuning: LiveTuning  # followed: the divergence for each tuning, model and tick rate
    drive: DriveSession  # the replay (`replay`, `replay_tick`) and the car's tick rate
    replay: object  # the ReplayControl: `play_trace(rows, name, start)`, `scrub(tick)`
    track: object  # the TrackView: `world_overlays` (the recording's path) and `update()`
    world: object  # the WorldTracks: `track`, the world driven in, and `follow_named(path)`
    files: object  # FileActions' `read(load, path)`: a bad file's message, once
    menus: object  # `refresh()`
    switcher: object  # the PresetSwitcher's `set_rate(hz)` (the recording's tick rate)

    def show_error(self, message: str, title: str = ...) -> None: ...
    def statusBar(self) -> QStatusBar: ...


class RecordingControl:
    """The game recording replayed in `window` (the RecordingHost, which owns this):
    `recording` (as loaded), `drive` (as replayed with the window's model), `result`
    (its divergence for the window's tuning); `new_fit_dialog()` makes the Fit dialog."""

    def __init__(self, window: RecordingHost, new_fit_dialog: Callable[[], FitDialog]):
        self.window = w = window
        self.new_fit_dialog = new_fit_dialog
        self.recording = None
        self.path: Path | None = None
        self.drive: ReplayedRecording | None = None
        self.result: Divergence | None = None
        self.units_note = ""
        self.overlay: RecordingOverlay | None = None
        self._source = None  # the replay's TraceSource while it is this recording's
        self.dock = w.panels.recording_dock  # the Recording tab beside the Plots (panels.py)
        self.plot = self.dock.widget()  # a DivergencePlot
        self.plot.seek.connect(self.seek_time)
        self.timer = QTimer(w)
        self.timer.timeout.connect(self.follow)
        self.fit: FitDialog | None = None
        w.tuning.changed.connect(self.tuning_changed)

    # --- opening ----------------------------------------------------------------
    def open_dialog(self) -> None:
        folder = user_trace_dir()
        path, _ = QFileDialog.getOpenFileName(
            self.window,
            "Open game recording",
            str(folder if folder.is_dir() else Path.home()),
            "Recordings (*.csv);;All files (*)",
        )
        if path:
            self.open_file(path)

    @staticmethod
    def is_recording(path) -> bool:
        """Whether the file's header is a recording's (a trace with the car's pose)."""
        try:
            with open(path, encoding="utf-8-sig") as f:
                line = f.readline(4096)
        except (OSError, UnicodeDecodeError):
            return False  # the trace reader says what is wrong with it
        return is_recording(tuple(h.strip() for h in line.split(",")))

    def open_file(self, path, hz: float | None = None) -> bool:
        """Load a recording and replay it with the window's tuning; a bad file: the
        loader's message in a dialog, and nothing changes. A recording at another tick
        rate than the window's: asked first (switch the rate, replay anyway, or not)."""
        w = self.window
        recording = w.files.read(lambda name: replayable(load_recording(name, hz)), path)
        return recording is not None and w.world.follow_named(path) and self.play(recording, Path(path))

    def play(self, recording: Recording, path: Path) -> bool:
        """Replay `recording` (loaded from `path`) from its start, playing; False if the
        user cancelled at the tick-rate question."""
        w = self.window
        if len(recording) > REPLAY_LIMIT:
            w.show_error(
                f"{path.name}: {len(recording):,d} ticks is more than the {REPLAY_LIMIT:,d} the window replays; "
                "fit it with `car-sandbox fit` instead"
            )
            return False
        if not self._rate_agreed(recording, path.name):
            return False
        self.recording, self.path = recording, path
        self.plot.mark_spans([])  # a fit's marks belong to the recording it fitted
        self.drive = recorded_drive(w.tuning.model, recording, path.stem)
        w.replay.play_trace(self.drive.controls, self.drive.name, self.drive.start)
        self._source = w.drive.replay
        self.overlay = RecordingOverlay(self.drive.x, self.drive.y, self.drive.heading, self.replay_tick)
        w.track.world_overlays = [o for o in w.track.world_overlays if not isinstance(o, RecordingOverlay)]
        w.track.world_overlays.append(self.overlay)
        self.dock.show()
        self.dock.raise_()
        self.refresh()
        self.timer.start(FOLLOW_MS)
        w.menus.refresh()
        w.statusBar().showMessage(self.units_note or f"Replaying the recording {path.name}", 10000)
        return True

    def _rate_agreed(self, recording, name: str) -> bool:
        """The recording's tick rate is the window's, or the user chose: switch the
        window to it (one undo step), replay at the window's rate anyway, or cancel."""
        w = self.window
        hz, mine = float(recording.hz), w.drive.sim.hz
        if abs(hz - mine) < 1e-6:
            return True
        buttons = QMessageBox.StandardButton
        can_switch = any(abs(hz - rate) < 1e-6 for rate in TICK_RATES)
        box = QMessageBox(
            QMessageBox.Icon.Question,
            "Another tick rate",
            f"{name} was recorded at {hz:g} Hz; the sandbox ticks at {mine} Hz.\n"
            f"Replayed at {mine} Hz, each recorded tick's controls last 1/{mine} s instead of 1/{hz:g} s, "
            "so the sandbox car parts from the recording for that reason alone. Nothing is resampled.",
            (buttons.Yes if can_switch else buttons.NoButton) | buttons.No | buttons.Cancel,
            w,
        )
        if can_switch:
            box.button(buttons.Yes).setText(f"Switch to {hz:g} Hz")
            box.setDefaultButton(buttons.Yes)
        else:
            box.setInformativeText(f"The window ticks at {', '.join(map(str, TICK_RATES))} Hz only.")
        box.button(buttons.No).setText(f"Replay at {mine} Hz anyway")
        answer = box.exec()
        if answer == buttons.Yes:
            w.switcher.set_rate(int(round(hz)))
            return True
        return answer == buttons.No

    def fit_dialog(self) -> FitDialog:
        """The Fit dialog, shown (the one open, or a new one for the model driven now)."""
        name = self.window.tuning.model.NAME
        if self.fit is None or not self.fit.isVisible() or self.fit.model_box.itemData(0) != name:
            if self.fit is not None:
                self.fit.close()
                self.fit.deleteLater()
            self.fit = self.new_fit_dialog()
        self.fit.show()
        self.fit.raise_()
        return self.fit

    def shutdown(self) -> None:
        """The window closes: a fit still running stops (its best so far is dropped)."""
        self.timer.stop()
        if self.fit is not None:
            self.fit.job.cancel()
            self.fit.job.wait()

    # --- following the window -----------------------------------------------------
    @property
    def replaying(self) -> bool:
        """The window replays this recording now (not another trace, not live driving)."""
        return self.drive is not None and self._source is not None and self.window.drive.replay is self._source

    def replay_tick(self) -> int | None:
        """The replay's tick while this recording is replayed, else None (nothing drawn)."""
        return self.window.drive.replay_tick if self.replaying else None

    def tuning_changed(self, change: TuningChange) -> None:
        """The divergence for the tuning (and model, and tick rate) on screen now."""
        w = self.window
        if self.recording is None or self.drive is None:
            return
        if self.drive.start.layout is not w.tuning.model.STATE:  # the model changed: its start again
            self.drive = recorded_drive(w.tuning.model, self.recording, self.drive.name)
            if self.replaying:
                self._source.start = self.drive.start
        self.refresh()

    def refresh(self) -> None:
        """Compute the divergence and show it."""
        w = self.window
        drive = self.drive
        if drive is None:
            return
        self.result = divergence(w.tuning.model, w.tuning, w.drive.sim.hz, drive, w.world.track)
        unit = w.tuning.model.LENGTH_UNIT
        text = f"<b>{drive.name}</b>: {summary(self.result, drive, unit)}"
        if abs(drive.hz - w.drive.sim.hz) > 1e-6:
            text += f" · <b>recorded at {drive.hz:g} Hz, replayed at {w.drive.sim.hz} Hz</b>"
        self.units_note = units_note(unit, drive, self.result)
        if self.units_note:
            text += f" · <b>{self.units_note}</b>"
        if drive.first:
            text += (
                " · no velocity in the recording: the sandbox car starts at its second tick, "
                "moving as its first two poses say"
            )
        self.plot.show_divergence(drive.times, self.result.distance, unit, text, drive.rows)
        self.follow()

    def follow(self) -> None:
        """The plot's line at the replay's tick; once the window replays something else
        (or drives live), the recording leaves the view."""
        tick = self.replay_tick()
        if tick is None:
            if self.drive is not None and self._source is not None and self.window.drive.replay is not self._source:
                self.close()
            return
        text = ""
        if self.result is not None and tick < len(self.result.distance):
            text = f"now {format_value(float(self.result.distance[tick]))} {self.window.tuning.model.LENGTH_UNIT}"
        self.plot.show_time((tick + self.drive.first) / self.drive.hz, text)

    def seek_time(self, seconds: float) -> None:
        """The replay at `seconds` into the recording (a click on the plot)."""
        if not self.replaying:
            return
        tick = max(0, min(round(seconds * self.drive.hz) - self.drive.first, self.drive.ticks))
        self.window.replay.scrub(tick)
        self.follow()

    def close(self) -> None:
        """The recording is no longer replayed (another trace, or driving live): its
        drawing leaves the view; the plot keeps the last divergence."""
        w = self.window
        self._source = None
        self.timer.stop()
        w.track.world_overlays = [o for o in w.track.world_overlays if o is not self.overlay]
        w.track.update()
