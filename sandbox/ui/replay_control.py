"""Recording the controls of every tick and replaying control traces, for MainWindow
(a mixin: it uses the window's simulation, keys, toolbar and views)."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from ..files.traces import TRACE_COLUMNS, list_traces, load_trace, save_trace
from ..physics.sim import seek_states
from ..physics.state import Controls, State

REPLAY_LIMIT = 500_000
"""ticks: the longest trace the window replays (2 h 19 min at 60 Hz): seeking re-runs
it, and each tick's state is kept while it does (about 100–250 MB at this length).
`car-sandbox simulate` takes any trace the file limit allows, a chunk at a time."""


class ReplayMixin:
    """Record (Ctrl+R), save, load, play, pause, step and scrub traces."""

    def set_recording(self, on: bool) -> None:
        """Start (from a fresh start: a trace replays from rest at the origin) or stop."""
        if on:
            self.stop_replay()
            self.reset_car()
            self.recording = []
            self.statusBar().showMessage("Recording: drive, then Ctrl+R again to stop", 5000)
        elif self.recording is not None:
            self.last_recording = np.array(self.recording, dtype=np.float64).reshape(-1, len(TRACE_COLUMNS))
            self.recording = None
            self.statusBar().showMessage(
                f"Recorded {len(self.last_recording)} ticks: Play (F6) replays it, "
                "Traces → Save recording as… keeps it",
                8000,
            )
            self._show_replay()
        self.replay_bar.record_action.blockSignals(True)
        self.replay_bar.record_action.setChecked(on)
        self.replay_bar.record_action.blockSignals(False)

    def save_recording_to(self, path) -> bool:
        return self._attempt(lambda: save_trace(path, self.last_recording), f"Saved {path}")

    def _fill_traces_menu(self) -> None:
        menu = self.traces_menu
        menu.clear()
        for path, builtin in list_traces():
            label = path.stem.replace("_", " ") + ("" if builtin else "  (yours)")
            self._action(menu, label, lambda _=False, p=path: self.open_trace_file(p), None, str(path))

    def open_trace_file(self, path) -> bool:
        """Load a trace and replay it from rest with the current tuning."""
        rows = self._read(lambda name: load_trace(name, REPLAY_LIMIT), path)
        if rows is None:
            return False
        self.play_trace(rows, Path(path).stem)
        return True

    def play_trace(self, rows, name: str) -> None:
        """Replay `rows` (steer, throttle, brake per tick) from rest, playing."""
        self.set_recording(False)
        self.replay, self.replay_name = rows, name
        self.scrub(0)
        self.set_playing(True)

    def set_playing(self, on: bool) -> None:
        """Play or pause the trace; Play with none loaded plays the recording just made."""
        if on and self.replay is None and self.last_recording is not None and len(self.last_recording):
            self.play_trace(self.last_recording, "recording")
            return
        self.replay_playing = bool(on) and self.replay is not None and self.replay_tick < len(self.replay)
        self._last_frame = time.perf_counter()
        self._show_replay()

    def step_replay(self) -> None:
        """One tick of the trace (pauses)."""
        if self.replay is None or self.replay_tick >= len(self.replay):
            return
        self.set_playing(False)
        self.sim.tick(self._controls_for_tick())
        self._on_tick(self.sim.state)
        self._refresh_views()

    def scrub(self, tick: int) -> None:
        """Show the replay at `tick`: re-simulated from rest, so it is the same as playing
        there; the car and each ghost in one compiled call each, whatever the tick."""
        if self.replay is None:
            return
        tick = max(0, min(int(tick), len(self.replay)))
        self.reset_car()
        if tick:
            self._jump_to(tick)
        self._refresh_views()

    def _jump_to(self, tick: int) -> None:
        """From rest to the replay's `tick`, as playing there would have left it."""
        self.replay_tick = tick
        self._drive_through(self.replay[:tick], replaying=True)

    def _drive_through(self, rows, replaying: bool = False) -> None:
        """The car and each ghost through the control `rows` from where they are, one
        compiled call each; the trail, the plots' window and (`replaying`: rows that
        end at `replay_tick`) the replay's distances are left as if each tick had been
        played and drawn."""
        hz, done = self.sim.hz, self.sim.ticks
        rows = np.asarray(rows, dtype=np.float64)
        sims = [self.sim] + [g.sim for g in self.ghosts]
        runs = [seek_states(sim.model, sim.params, rows, hz, start=sim.state) for sim in sims]
        odometers = []
        for sim, states in zip(sims, runs):
            x0, y0 = float(sim.state.x[0]), float(sim.state.y[0])
            sim.state = State.of(states.layout, states.data[-1:].copy())
            sim.ticks += len(rows)
            steps = np.hypot(np.diff(states.x, prepend=x0), np.diff(states.y, prepend=y0))
            odometers.append(np.cumsum(np.concatenate([[0.0], steps]))[1:])  # added in tick order, as playing does
        self.travelled += float(odometers[0][-1])
        self._last_xy = (float(self.sim.state.x[0]), float(self.sim.state.y[0]))
        if replaying and self.distances is not None:
            start = self.replay_tick - len(rows)
            before = list(self.distances[:, start])
            self.distances[:, start + 1 : self.replay_tick + 1] = np.array(odometers) + np.array(before)[:, None]
        for ghost, odometer in zip(self.ghosts, odometers[1:]):
            ghost.travelled += float(odometer[-1])
        self._tick_controls = Controls(*rows[-1])
        if self.recording is not None:
            self.recording.extend(tuple(row) + (0.0,) * (len(TRACE_COLUMNS) - len(row)) for row in rows.tolist())
        keep = self.plots.buffer.capacity
        recent = lambda s: State.of(s.layout, s.data[-keep:])  # noqa: E731
        car = runs[0]
        self.track.record(State.of(car.layout, car.data[-self.track.trail.capacity :]), self.body)
        shown = len(recent(car))
        self.plots.record(
            np.arange(done + len(rows) - shown + 1, done + len(rows) + 1) / hz,
            recent(car),
            [(recent(states), self.ghost_scale(g)) for g, states in zip(self.ghosts, runs[1:])],
        )

    def stop_replay(self) -> None:
        """Back to the keyboard."""
        if self.replay is None:
            return
        self.replay, self.replay_playing = None, False
        self.reset_car()

    def _show_replay(self) -> None:
        length = 0 if self.replay is None else len(self.replay)
        recorded = self.last_recording is not None and len(self.last_recording) > 0
        self.replay_bar.show_trace(
            self.replay_name if self.replay is not None else None, length, self.replay_playing, recorded
        )
        if self.replay is not None:
            self.replay_bar.show_position(self.replay_name, self.replay_tick, length, self.sim.hz)
