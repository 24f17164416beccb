"""The drive session: the live car, its controls source, the ghosts, recording and
replay, the odometers, and the frame clock; no window (sandbox.ui draws it)."""

from __future__ import annotations

import math
from types import ModuleType
from typing import Callable, Mapping

import numpy as np

from ..analysis.force_curves import time_to_cover
from ..files.recording_columns import DEVICE_COLUMNS
from ..files.traces import TRACE_COLUMNS
from ..physics.sim import Simulation, seek_states
from ..physics.state import Controls, State
from ..physics.track import Track
from .clock import FrameClock
from .ghosts import MAX_GHOSTS, Gap, Ghost, step_length
from .lap_ghost import drop_lap_ghost, restart_lap_ghost
from .laps_live import LiveLaps, timing_course
from .sources import ControlSource, HeldControls, TraceSource
from .tuning import LiveTuning, TuningChange

UNKNOWN_DEVICE = (math.nan,) * len(DEVICE_COLUMNS)
"""A tick's raw device values when its source has none (a driver, a run of rows)."""

Shadows = list[tuple[State, float]]
"""Each ghost's state and its scale into the car's length unit."""


class DriveSession:
    """Everything driven: `sim` (the car), `live` (where its controls come from when no
    trace is replayed), `ghosts` (driven with the car's controls, tick for tick), the
    recording and the replay, the odometers and the frame clock.

    A window observes it through three hooks: `on_reset()` after a reset,
    `on_tick(state, shadows)` after each tick, and `on_run(car, runs, first)` after
    `drive_through` ran many ticks at once (`car` and each of `runs`: the states after
    each tick; `first`: the car's tick count before)."""

    def __init__(self, model: ModuleType, tuning: Mapping[str, object], hz: int, live: ControlSource | None = None):
        self._track: Track | None = None
        self.sim = Simulation(model, tuning, n=1, hz=hz)
        self.live: ControlSource = live or HeldControls()
        self.ghosts: list[Ghost] = []
        self.controls = Controls()  # the latest tick's (the dashboard shows them)
        self.px_per_metre = 25.0  # how a ghost in metres is compared with a car in px
        self.clock = FrameClock()
        self.travelled = 0.0  # the car's path length since reset
        self.recording: list | None = None  # controls of every tick while recording
        self.last_recording: np.ndarray | None = None
        self.recording_device: list = []  # the raw device values of every tick recorded (NaN: unknown)
        self.last_device: np.ndarray | None = None  # (n, 3) those of the last recording
        self.recording_states: list = []  # the car's state row after every tick recorded (its channels)
        self.last_states: np.ndarray | None = None  # (n + 1, state size): the last recording's, its start first
        self.ran_rows = np.zeros((0, 5))  # the controls of the last run (`drive_through`)
        self.replay: TraceSource | None = None
        self.playing = False
        self.speed = 1.0  # replay speed: wall seconds × speed is played
        self.distances: np.ndarray | None = None  # per replay tick: the car's and each ghost's odometer
        self.laps = LiveLaps()  # the car's laps, timed live on a track a lap can be timed on
        self.on_reset: Callable[[], None] = lambda: None
        self.on_tick: Callable[[State, Shadows], None] = lambda state, shadows: None
        self.on_run: Callable[[State, list[State], int], None] = lambda car, runs, first: None

    # --- the car -------------------------------------------------------------------
    @property
    def model(self) -> ModuleType:
        return self.sim.model

    @property
    def state(self) -> State:
        return self.sim.state

    def follow(self, tuning: LiveTuning) -> None:
        """Drive `tuning` from now on: each change it announces reaches the car at its
        next tick (another model: from rest; another rate: the ghosts' too)."""
        self.set_car(tuning.model, tuning, tuning.hz)

        def changed(change: TuningChange) -> None:
            if change.model:
                self.set_car(tuning.model, tuning, tuning.hz)
                return
            if change.hz is not None:
                self.set_hz(tuning.hz)
            if change.names:
                self.sim.retune()
            self.laps.restart()  # laps of one tuning at one rate are compared, never across a change
            drop_lap_ghost(self)

        tuning.changed.connect(changed)

    @property
    def track(self) -> Track | None:
        """The world: where a reset puts the car and every ghost, and the walls the
        models that meet walls (`MEETS_WALLS`) meet; None: the open field."""
        return self._track

    @track.setter
    def track(self, track: Track | None) -> None:
        self._track = track
        drop_lap_ghost(self)
        for sim in [self.sim] + [g.sim for g in self.ghosts]:
            sim.set_track(track)
        self.laps.set_course(timing_course(track, self.model.LENGTH_UNIT))

    def set_car(self, model: ModuleType, tuning: Mapping[str, object], hz: int) -> None:
        """Drive another model (or tuning object) from rest; the ghosts tick at `hz` too."""
        self.sim = Simulation(model, tuning, n=1, hz=hz, track=self._track)
        self.laps.set_course(timing_course(self._track, model.LENGTH_UNIT))
        self.set_hz(hz)
        self.reset()

    def set_hz(self, hz: int) -> None:
        """The tick rate of the car and every ghost (the drive goes on from where it is)."""
        for sim in [self.sim] + [g.sim for g in self.ghosts]:
            sim.hz = hz

    @property
    def source(self) -> ControlSource:
        """Where the next tick's controls come from: the replayed trace, else the live source."""
        return self.replay if self.replay is not None else self.live

    def reset(self) -> None:
        """The car and every ghost at rest at the track's spawn (the origin without a
        track; a replay with a start: at its start); odometers at 0; a replay at its start."""
        drop_lap_ghost(self)  # back when the car starts its next lap
        self.sim.reset()
        self.laps.placed_again()
        self.clock.reset()
        self.travelled = 0.0
        self._put_at_start(self.sim, 1.0)
        for ghost in self.ghosts:
            ghost.sim.reset()
            ghost.travelled = 0.0
            self._put_at_start(ghost.sim, self.ghost_scale(ghost))
        # distance travelled after each tick of a replay: the car's, then each ghost's
        self.distances = None if self.replay is None else np.zeros((1 + len(self.ghosts), len(self.replay) + 1))
        self.on_reset()

    def _put_at_start(self, sim: Simulation, scale: float) -> None:
        """A replay that starts elsewhere than at rest at the origin (a recording from a
        game starts where the game's car was): `sim`'s car there, its position and
        velocity divided by `scale` (its length unit into the car's)."""
        start = self.replay.start if self.replay is not None else None
        if start is None:
            self._put_at_spawn(sim, scale)
            return
        state = start.bound(sim.model.STATE).copy()
        for name in ("x", "y", "vx", "vy"):
            state.data[:, state.layout.offset[name]] /= scale
        sim.state = state

    def _put_at_spawn(self, sim: Simulation, scale: float) -> None:
        """`sim`'s car at the track's spawn, heading its way: the spawn in the car's length
        unit (at the track's own px per metre), divided by `scale` (into `sim`'s unit)."""
        if self.track is None:
            return
        spawn = self.track.in_unit(self.sim.model.LENGTH_UNIT).spawn
        state = sim.state
        for name, value in (("x", spawn.x / scale), ("y", spawn.y / scale), ("heading", spawn.heading)):
            state.data[:, state.layout.offset[name]] = value
        if "display_heading" in state.layout.offset:
            state.data[:, state.layout.offset["display_heading"]] = spawn.heading

    # --- ticks -----------------------------------------------------------------------
    def tick(self) -> State:
        """One tick of the car and every ghost, with the source's controls for it."""
        controls = self.controls = self.source.controls_for_tick(self.sim.ticks)
        if self.recording is not None:
            c = controls
            row = (c.steer, c.throttle, c.brake, c.handbrake, c.shift)
            self.recording.append(tuple(float(v) for v in row))
            device = getattr(self.source, "device", None)  # the controller's raw values, where the source has them
            self.recording_device.append(UNKNOWN_DEVICE if device is None else tuple(device))
        before = self.sim.state
        state = self.sim.tick(controls)
        if self.recording is not None:
            self._record_states(before.data[:1], state.data)
        self.travelled += step_length(before, state)
        c, lap = controls, self.laps.lap
        self.laps.after_ticks(before, state, [[c.steer, c.throttle, c.brake, c.handbrake, c.shift]], self.sim.dt)
        if self.laps.lap not in (0, lap):
            restart_lap_ghost(self, 0)  # the best lap's ghost starts it with the car, from this tick
        shadows = []
        for ghost in self.ghosts:
            before = ghost.sim.state
            after = ghost.sim.tick(ghost.controls(controls))  # the car's controls, or its own trace's
            ghost.travelled += step_length(before, after)
            shadows.append((after, self.ghost_scale(ghost)))
        if self.distances is not None and self.replay_tick < self.distances.shape[1]:
            self.distances[:, self.replay_tick] = [self.travelled] + [g.travelled for g in self.ghosts]
        self.on_tick(state, shadows)
        return state

    def run_for(self, elapsed: float) -> int:
        """The ticks due after `elapsed` wall seconds (scaled by the replay speed, none
        while a replay is paused, never past its end); a replay that reaches its end
        stops playing. Returns the ticks run."""
        limit = None
        if self.replay is not None:
            elapsed = elapsed * self.speed if self.playing else 0.0
            limit = len(self.replay) - self.replay_tick
        ran = self.clock.ticks_due(elapsed, self.sim.dt, limit)
        for _ in range(ran):
            self.tick()
        if self.replay is not None and self.playing and self.replay_tick >= len(self.replay):
            self.playing = False
        return ran

    def drive_through(self, rows, replaying: bool = False) -> None:
        """The car and each ghost through the control `rows` from where they are, one
        compiled call each; odometers, the recording and (`replaying`: rows that end at
        the replay's tick) the replay's distances are left as if each tick had run."""
        done = self.sim.ticks
        rows = np.asarray(rows, dtype=np.float64)
        start = self.sim.state.data[:1].copy()
        sims = [self.sim] + [g.sim for g in self.ghosts]
        given = [rows] + [g.rows(rows) for g in self.ghosts]
        runs = [
            seek_states(sim.model, sim.params, mine, sim.hz, start=sim.state, walls=sim.walls)
            for sim, mine in zip(sims, given)
        ]
        lap = self.laps.lap
        self.laps.after_ticks(self.sim.state, runs[0], rows, self.sim.dt)
        odometers = []
        for sim, states in zip(sims, runs):
            x0, y0 = float(sim.state.x[0]), float(sim.state.y[0])
            sim.state = State.of(states.layout, states.data[-1:].copy())
            sim.ticks += len(rows)
            steps = np.hypot(np.diff(states.x, prepend=x0), np.diff(states.y, prepend=y0))
            odometers.append(np.cumsum(np.concatenate([[0.0], steps]))[1:])  # added in tick order, as ticking does
        self.travelled += float(odometers[0][-1])
        if replaying and self.distances is not None:
            start = self.replay_tick - len(rows)
            before = list(self.distances[:, start])
            self.distances[:, start + 1 : self.replay_tick + 1] = np.array(odometers) + np.array(before)[:, None]
        for ghost, odometer in zip(self.ghosts, odometers[1:]):
            ghost.travelled += float(odometer[-1])
        self.controls = Controls(*rows[-1])
        self.ran_rows = rows  # the run's controls (the plots' input groups)
        if self.laps.lap not in (0, lap):  # the best lap's ghost as far into it as the car's lap has come
            restart_lap_ghost(self, math.ceil(self.laps.elapsed / self.sim.dt - 1e-6))
        if self.recording is not None:
            self.recording.extend(tuple(row) + (0.0,) * (len(TRACE_COLUMNS) - len(row)) for row in rows.tolist())
            self.recording_device.extend([UNKNOWN_DEVICE] * len(rows))
            self._record_states(start, runs[0].data)
        self.on_run(runs[0], runs[1:], done)

    # --- ghosts ----------------------------------------------------------------------
    def add_ghost(self, model: ModuleType, tuning: Mapping[str, object], name: str) -> Ghost:
        """Drive `tuning` of `model` beside the car with the same controls; all restart
        together. ValueError beyond MAX_GHOSTS."""
        drop_lap_ghost(self)  # it gives way (and comes back at the next lap start if there is room)
        if len(self.ghosts) >= MAX_GHOSTS:
            raise ValueError(f"at most {MAX_GHOSTS} ghosts")
        ghost = Ghost(
            Simulation(model, tuning, n=1, hz=self.sim.hz, track=self._track),
            model.body(tuning),
            name,
            len(self.ghosts),
        )
        self.ghosts.append(ghost)
        self.reset()
        return ghost

    def remove_ghosts(self) -> None:
        self.ghosts.clear()
        self.reset()

    def drop_ghost(self, ghost: Ghost) -> None:
        """Take one ghost away; the car and the others drive on undisturbed."""
        index = self.ghosts.index(ghost)
        del self.ghosts[index]
        if self.distances is not None:
            self.distances = np.delete(self.distances, 1 + index, axis=0)

    def unit_scale(self, model: ModuleType) -> float:
        """Screen px per unit of `model` at zoom 1."""
        return 1.0 if model.LENGTH_UNIT == "px" else self.px_per_metre

    def ghost_scale(self, ghost: Ghost | None = None) -> float:
        """Factor from a ghost's length unit (default: the first's) to the car's (px ↔ m
        via px per metre)."""
        ghost = ghost or (self.ghosts[0] if self.ghosts else None)
        return self.unit_scale(ghost.sim.model) / self.unit_scale(self.sim.model) if ghost else 1.0

    def gaps(self) -> list[Gap]:
        """Each ghost against the car, in the car's length unit."""
        car = self.sim.state
        x, y = float(car.x[0]), float(car.y[0])
        out = []
        for ghost in self.ghosts:
            scale = self.ghost_scale(ghost)
            g = ghost.sim.state
            gap = math.hypot(float(g.x[0]) * scale - x, float(g.y[0]) * scale - y)
            ahead = ghost.travelled * scale - self.travelled  # along the road, not as the crow flies
            out.append(Gap(ghost, g, scale, float(g.speed[0]) * scale, gap, ahead, self.end_of_trace(ghost)))
        return out

    def end_of_trace(self, ghost: Ghost) -> float | None:
        """Once a replay has finished: how much earlier (−) or later (s) the ghost reached
        the point, along the road, where the car ended the trace; else None."""
        if self.replay is None or self.distances is None or self.replay_tick < len(self.replay):
            return None
        scale = self.ghost_scale(ghost)
        row = self.distances[1 + self.ghosts.index(ghost)] * scale
        speed = float(ghost.sim.state.speed[0]) * scale
        reached = time_to_cover(row, float(self.distances[0, -1]), self.sim.dt, speed)
        return reached - len(self.replay) * self.sim.dt

    # --- recording and replay --------------------------------------------------------
    @property
    def replay_tick(self) -> int:
        """The replay's position: ticks run since its start (0 when none is loaded)."""
        return self.sim.ticks if self.replay is not None else 0

    def start_recording(self) -> None:
        """Record from a fresh start (a trace replays from rest at the origin)."""
        self.stop_replay()
        self.reset()
        self.recording, self.recording_device = [], []
        self.recording_states = []

    def _record_states(self, before: np.ndarray, after: np.ndarray) -> None:
        """The car's state rows `after` ticks recorded; `before` (the row they started
        from) first when they are the recording's first."""
        if not self.recording_states:
            self.recording_states.append(before[0].copy())
        self.recording_states.extend(after.copy())

    def stop_recording(self) -> np.ndarray | None:
        """The rows recorded (steer, throttle, brake, handbrake, shift per tick), kept as
        `last_recording`; None if nothing was being recorded."""
        if self.recording is None:
            return None
        self.last_recording = np.array(self.recording, dtype=np.float64).reshape(-1, len(TRACE_COLUMNS))
        self.last_device = np.array(self.recording_device, dtype=np.float64).reshape(-1, len(UNKNOWN_DEVICE))
        try:  # None when the car changed model on the way (its rows' sizes differ)
            self.last_states = np.array(self.recording_states, dtype=np.float64).reshape(
                len(self.last_recording) + 1, -1
            )
        except ValueError:
            self.last_states = None
        self.recording_states = []
        self.recording = None
        return self.last_recording

    def play_trace(self, rows, name: str, start: State | None = None, device=None) -> None:
        """Replay `rows` (steer, throttle, brake[, handbrake, shift] per tick) from rest
        at the origin, or from `start` (a state in the car's model units), playing;
        `device`: the raw device values recorded with them (n, 3), or None."""
        self.stop_recording()
        self.replay = TraceSource(rows, name, start, device)
        self.seek(0)
        self.set_playing(True)

    def set_playing(self, on: bool) -> None:
        """Play or pause the trace; Play with none loaded plays the last recording."""
        if on and self.replay is None and self.last_recording is not None and len(self.last_recording):
            self.play_trace(self.last_recording, "recording", device=self.last_device)
            return
        self.playing = bool(on) and self.replay is not None and self.replay_tick < len(self.replay)

    def step(self) -> bool:
        """One tick of the trace (pauses); False at its end or with none loaded."""
        if self.replay is None or self.replay_tick >= len(self.replay):
            return False
        self.set_playing(False)
        self.tick()
        return True

    def seek(self, tick: int) -> None:
        """The replay at `tick`: re-simulated from rest, so it is the same as playing
        there; the car and each ghost in one compiled call each, whatever the tick."""
        if self.replay is None:
            return
        tick = max(0, min(int(tick), len(self.replay)))
        self.reset()
        if tick:
            self.drive_through(self.replay.rows[:tick], replaying=True)

    def stop_replay(self) -> None:
        """Back to the live source, from rest."""
        if self.replay is None:
            return
        self.replay, self.playing = None, False
        self.reset()
