"""Recording the controls of every tick and replaying control traces in the window:
the toolbar's and the Traces menu's commands over the drive session's recording and
replay (sandbox/session/drive.py). A mixin for MainWindow."""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import Qt

from ..files.traces import list_traces, load_trace, save_trace
from .menus import add_action
from .replay_bar import ReplayBar

REPLAY_LIMIT = 500_000
"""ticks: the longest trace the window replays (2 h 19 min at 60 Hz): seeking re-runs
it, and each tick's state is kept while it does (about 100–250 MB at this length).
`car-sandbox simulate` takes any trace the file limit allows, a chunk at a time."""


class ReplayMixin:
    """Record (Ctrl+R), save, load, play, pause, step and scrub traces."""

    @property
    def last_recording(self):
        """The rows of the last recording (the drive session keeps them)."""
        return self.drive.last_recording

    @last_recording.setter
    def last_recording(self, rows) -> None:
        self.drive.last_recording = rows

    def _add_replay_bar(self) -> None:
        """The record and replay toolbar, wired to the drive session."""
        bar = self.replay_bar = ReplayBar(self)
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, bar)
        bar.record_action.toggled.connect(self.set_recording)
        bar.play_action.triggered.connect(lambda on: self.set_playing(on))
        bar.step_action.triggered.connect(self.step_replay)
        bar.live_action.triggered.connect(self.stop_replay)
        bar.scrubbed.connect(self.scrub)
        bar.speed.currentIndexChanged.connect(lambda _: setattr(self.drive, "speed", bar.speed.currentData()))

    def set_recording(self, on: bool) -> None:
        """Start (from a fresh start: a trace replays from rest at the origin) or stop."""
        if on:
            self.drive.start_recording()
            self.reset_car()
            self.statusBar().showMessage("Recording: drive, then Ctrl+R again to stop", 5000)
        else:
            rows = self.drive.stop_recording()
            if rows is not None:
                self.statusBar().showMessage(
                    f"Recorded {len(rows)} ticks: Play (F6) replays it, Traces → Save recording as… keeps it",
                    8000,
                )
                self._show_replay()
        self.replay_bar.record_action.blockSignals(True)
        self.replay_bar.record_action.setChecked(on)
        self.replay_bar.record_action.blockSignals(False)

    def save_recording_to(self, path) -> bool:
        return self.files.attempt(lambda: save_trace(path, self.last_recording), f"Saved {path}")

    def _fill_traces_menu(self) -> None:
        menu = self.traces_menu
        menu.clear()
        for path, builtin in list_traces():
            label = path.stem.replace("_", " ") + ("" if builtin else "  (yours)")
            add_action(menu, label, lambda _=False, p=path: self.open_trace_file(p), None, str(path))

    def open_trace_file(self, path) -> bool:
        """Load a trace and replay it from rest with the current tuning."""
        rows = self.files.read(lambda name: load_trace(name, REPLAY_LIMIT), path)
        if rows is None:
            return False
        self.play_trace(rows, Path(path).stem)
        return True

    def play_trace(self, rows, name: str) -> None:
        """Replay `rows` (steer, throttle, brake per tick) from rest, playing."""
        self.set_recording(False)
        self.drive.play_trace(rows, name)
        self.set_playing(True)

    def set_playing(self, on: bool) -> None:
        """Play or pause the trace; Play with none loaded plays the recording just made."""
        self.drive.set_playing(on)
        self._last_frame = time.perf_counter()
        self._replay_moved()

    def step_replay(self) -> None:
        """One tick of the trace (pauses)."""
        if self.drive.step():
            self._show_replay()
            self._refresh_views()

    def scrub(self, tick: int) -> None:
        """Show the replay at `tick` (re-simulated from rest: the same as playing there)."""
        if self.drive.replay is not None:
            self.drive.seek(tick)
            self._replay_moved()

    def stop_replay(self) -> None:
        """Back to the keyboard."""
        if self.drive.replay is not None:
            self.drive.stop_replay()
            self._replay_moved()

    def _replay_moved(self) -> None:
        self._show_replay()
        self._refresh_views()

    def _show_replay(self) -> None:
        replay, drive = self.drive.replay, self.drive
        recorded = drive.last_recording is not None and len(drive.last_recording) > 0
        self.replay_bar.show_trace(
            replay.name if replay is not None else None, len(replay or ()), drive.playing, recorded
        )
        if replay is not None:
            self.replay_bar.show_position(replay.name, drive.replay_tick, len(replay), self.sim.hz)
