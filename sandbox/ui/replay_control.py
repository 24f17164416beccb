"""Recording the controls of every tick and replaying control traces in the window:
the toolbar's and the Traces menu's commands over the drive session's recording and
replay (sandbox/session/drive.py)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from ..files.recorded_track import track_ref
from ..files.traces import list_traces, load_trace_and_device, save_trace
from ..session.input_channels import recorded_channels
from .menus import add_action
from .replay_bar import ReplayBar
from .world_tracks import GAME

REPLAY_LIMIT = 500_000
"""ticks: the longest trace the window replays (2 h 19 min at 60 Hz): seeking re-runs
it, and each tick's state is kept while it does (about 100–250 MB at this length).
`car-sandbox simulate` takes any trace the file limit allows, a chunk at a time."""


class ReplayControl:
    """Record (Ctrl+R), save, load, play, pause, step and scrub traces in `window` (a
    MainWindow, which owns this), with its record and replay toolbar (`bar`)."""

    def __init__(self, window):
        self.window = w = window
        bar = self.bar = ReplayBar(w)
        w.addToolBar(Qt.ToolBarArea.TopToolBarArea, bar)
        bar.record_action.toggled.connect(self.set_recording)
        bar.play_action.triggered.connect(lambda on: self.set_playing(on))
        bar.step_action.triggered.connect(self.step)
        bar.live_action.triggered.connect(self.stop)
        bar.scrubbed.connect(self.scrub)
        bar.speed.currentIndexChanged.connect(lambda _: setattr(w.drive, "speed", bar.speed.currentData()))
        self.recorded_on = ""  # the window's track source when the last recording started ("": open field)

    def set_recording(self, on: bool) -> None:
        """Start (from a fresh start: a trace replays from rest at the origin) or stop."""
        w = self.window
        if on:
            self.recorded_on = w.world.source  # the track the drive is on: named when it is saved
            w.drive.start_recording()
            w.drive_view.reset_car()
            w.statusBar().showMessage("Recording: drive, then Ctrl+R again to stop", 5000)
        else:
            rows = w.drive.stop_recording()
            if rows is not None:
                w.statusBar().showMessage(
                    f"Recorded {len(rows)} ticks: Play (F6) replays it, Traces → Save recording as… keeps it",
                    8000,
                )
                self.show()
        self.bar.record_action.blockSignals(True)
        self.bar.record_action.setChecked(on)
        self.bar.record_action.blockSignals(False)

    def save_recording_to(self, path) -> bool:
        """The last recording as a trace file naming the track it was driven on; a level
        pulled from the game is no file to name, so the file names none and the status
        bar says how to keep the level with it."""
        w = self.window
        on_game_level = self.recorded_on.startswith(GAME)
        ref = track_ref(self.recorded_on) if self.recorded_on and not on_game_level else None
        said = f"Saved {path}"
        if on_game_level:
            said += " (driven on the game's level: Track → Save track as… keeps the level to open with it)"
        drive = w.drive
        states, model = drive.last_states, drive.sim.model
        kept = states is not None and states.shape[1] == model.STATE.size  # the model it was driven with
        channels = recorded_channels(model, states, drive.last_recording, drive.sim.hz) if kept else None
        return w.files.attempt(lambda: save_trace(path, drive.last_recording, ref, drive.last_device, channels), said)

    def fill_traces_menu(self, menu) -> None:
        menu.clear()
        for path, builtin in list_traces():
            label = path.stem.replace("_", " ") + ("" if builtin else "  (yours)")
            add_action(menu, label, lambda _=False, p=path: self.open_trace_file(p), None, str(path))

    def open_trace_file(self, path) -> bool:
        """Load a trace and replay it from rest with the current tuning (a game recording:
        from where it starts, its path and divergence shown)."""
        if self.window.recordings.is_recording(path):
            return self.window.recordings.open_file(path)
        read = self.window.files.read(lambda name: load_trace_and_device(name, REPLAY_LIMIT), path)
        if read is None or not self.window.world.follow_named(path):
            return False
        self.play_trace(read[0], Path(path).stem, device=read[1])
        return True

    def play_trace(self, rows, name: str, start=None, device=None) -> None:
        """Replay `rows` (steer, throttle, brake per tick) from rest (or from `start`, a
        state: a game recording's first), playing; `device` the raw device values
        recorded with them (the input plots), or None."""
        self.set_recording(False)
        self.window.drive.play_trace(rows, name, start, device)
        self.set_playing(True)

    def set_playing(self, on: bool) -> None:
        """Play or pause the trace; Play with none loaded plays the recording just made."""
        self.window.drive.set_playing(on)
        self.window.drive_view.start_clock()  # the time paused is not driven
        self._moved()

    def step(self) -> None:
        """One tick of the trace (pauses)."""
        if self.window.drive.step():
            self._moved()

    def scrub(self, tick: int) -> None:
        """Show the replay at `tick` (re-simulated from rest: the same as playing there)."""
        if self.window.drive.replay is not None:
            self.window.drive.seek(tick)
            self._moved()

    def stop(self) -> None:
        """Back to the keyboard."""
        if self.window.drive.replay is not None:
            self.window.drive.stop_replay()
            self._moved()

    def _moved(self) -> None:
        self.show()
        self.window.drive_view.refresh()
        self.window.recordings.follow()  # a game recording's divergence plot: its line at the tick

    def show(self) -> None:
        """The toolbar shows the trace loaded, whether it plays, and where it is."""
        drive = self.window.drive
        replay = drive.replay
        recorded = drive.last_recording is not None and len(drive.last_recording) > 0
        self.bar.show_trace(replay.name if replay is not None else None, len(replay or ()), drive.playing, recorded)
        if replay is not None:
            self.bar.show_position(replay.name, drive.replay_tick, len(replay), drive.sim.hz)
