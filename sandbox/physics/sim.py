"""Fixed-tick simulation runner shared by the window, the CLI and the tests.

Physics advances in whole ticks of 1/hz seconds; wall-clock time only decides how
many ticks run (the drive session's frame clock, sandbox/session/clock.py), never
what a tick computes, so the same controls give the same trajectory whatever the
frame rate. Every tick is a model's compiled kernel, reached through the drivers in
`kernels.py`.

A track: its `walls.Walls` (`walls.walls_for(track, model.LENGTH_UNIT)`, built once per
track) go to every driver as its last argument; None (the default) is the open field.
`Simulation(..., track=…)` builds them and starts the cars at the track's spawn.
"""

from __future__ import annotations

from types import ModuleType
from typing import Mapping

import numpy as np

from . import kernels
from .channels import channel_values
from .params import param_rows
from .state import Controls, State, as_engine_controls, slip_angle
from .track import Pose, Track
from .walls import Walls, walls_for

DEFAULT_HZ = 60
TICK_RATES = (30, 60, 120, 144, 240)
"""Hz offered in the window and allowed in presets (the CLI takes any 10-1000)."""
PARALLEL_FROM = 512
"""cars: from this many a batch is spread over the cores (below, starting the
threads costs more than it saves; `car-sandbox bench` measures both)."""


def model_number(model: ModuleType) -> int:
    """The model's number in the compiled drivers."""
    return kernels.ORDER.index(model)


def tuning_rows(model: ModuleType, params: Mapping[str, object], n: int) -> tuple[np.ndarray, np.ndarray]:
    """(rows, which): the tuning of n cars as the kernels take it (params.param_rows)."""
    return param_rows(model.PARAMS, params, n)


def step(
    model: ModuleType,
    state: State,
    controls: Controls,
    params: Mapping[str, object],
    dt: float,
    packed: tuple[np.ndarray, np.ndarray] | None = None,
    ticks: int = 1,
    walls: Walls | None = None,
) -> State:
    """Every car of `state` `ticks` ticks of `dt` seconds with `controls` held; returns
    a new State (the old one is left as it was). One compiled call for the whole batch;
    `packed` is the tuning as `tuning_rows` gives it, when the caller keeps it; `walls`
    the world (None: the open field)."""
    more = () if walls is None else (walls,)
    after = state.bound(model.STATE)
    after = after.copy() if after is state else after
    n = len(after)
    rows, which = packed or tuning_rows(model, params, n)
    if n == 1:  # the live car: its own tick, tick after tick (kernels.run_one)
        kernels.call(
            kernels.run_one,
            model_number(model),
            after.data[0],
            controls.rows(1)[0],
            rows[which[0]],
            float(dt),
            int(ticks),
            *more,
        )
        return after
    run, more = _batch_driver(kernels.run_held, n, walls)
    kernels.call(run, model_number(model), after.data, controls.rows(n), rows, which, float(dt), int(ticks), *more)
    return after


_PARALLEL = {
    kernels.run_held: (kernels.run_held_parallel, kernels.run_held_parallel_walls),
    kernels.run_trace_cars: (kernels.run_trace_cars_parallel, kernels.run_trace_cars_parallel_walls),
}


def _batch_driver(serial, n: int, walls: Walls | None) -> tuple:
    """(the driver, its arguments after the batch's own) for `n` cars among `walls`:
    `serial`, or from PARALLEL_FROM cars its parallel form (for walls, its `_walls`
    twin, which takes them as arrays)."""
    if n < PARALLEL_FROM:
        return serial, (() if walls is None else (walls,))
    parallel, among_walls = _PARALLEL[serial]
    return (parallel, ()) if walls is None else (among_walls, kernels.walls_arguments(walls))


class Simulation:
    """A batch of cars under one model, stepped at a fixed rate, on the open field or
    on `track` (see `set_track`)."""

    def __init__(
        self,
        model: ModuleType,
        params: Mapping[str, float],
        n: int = 1,
        hz: int = DEFAULT_HZ,
        track: Track | None = None,
    ):
        self.model = model
        self.params = params
        self.hz = hz
        self.n = n
        self.set_track(track)

    def set_track(self, track: Track | None, start: Pose | None = None) -> None:
        """Drive on `track` (None: the open field), converted to the model's unit at
        the track's pixels_per_metre; the cars start again, at `start` (in the model's
        unit) or else the track's spawn."""
        self.track = None if track is None else track.in_unit(self.model.LENGTH_UNIT)
        self.walls = walls_for(self.track, self.model.LENGTH_UNIT)
        self.start = start if start is not None else (None if self.track is None else self.track.spawn)
        self.reset()

    @property
    def dt(self) -> float:
        return 1.0 / self.hz

    @property
    def time(self) -> float:
        """Simulated seconds since the last reset."""
        return self.ticks / self.hz

    def reset(self) -> None:
        self.state = at_rest(self.model, self.n, self.start)
        self.retune()
        self.ticks = 0

    def retune(self) -> None:
        """`params` changed in place: the next tick packs them again. Whoever changes
        them says so (the drive session follows the window's tuning's announcements);
        a tick never compares the values to find out."""
        self._packed = None

    def tick(self, controls: Controls) -> State:
        """Advance exactly one physics tick."""
        if self._packed is None:
            self._packed = tuning_rows(self.model, self.params, self.n)
        self.state = step(self.model, self.state, controls, self.params, self.dt, self._packed, walls=self.walls)
        self.ticks += 1
        return self.state


def at_rest(model: ModuleType, n: int = 1, start: Pose | None = None) -> State:
    """`n` cars at rest, at the origin or at pose `start` (in the model's unit)."""
    state = State.at_rest(n, model.STATE)
    if start is not None:
        columns = model.STATE.offset
        state.data[:, columns["x"]], state.data[:, columns["y"]] = start.x, start.y
        state.data[:, columns["heading"]] = start.heading
    return state


TRAJECTORY_SLOTS = ("x", "y", "heading", "vx", "vy")


def _record(
    model: ModuleType,
    params: Mapping[str, object],
    trace: np.ndarray,
    hz: float,
    columns: np.ndarray,
    start: State | None,
    ticks: int | None,
    carry: bool = False,
    walls: Walls | None = None,
) -> np.ndarray:
    """`record`'s rows; with `carry`, `start` itself goes on through the trace (in place)."""
    controls = np.zeros((len(trace), 5))
    given = np.asarray(trace, dtype=np.float64).reshape(len(trace), -1)
    controls[:, : given.shape[1]] = as_engine_controls(given)
    if carry:
        state = start
    else:
        state = start.bound(model.STATE).copy() if start is not None else State.at_rest(1, model.STATE)
    out = np.empty((len(controls) if ticks is None else min(ticks, len(controls)), len(columns)))
    rows, _ = tuning_rows(model, params, 1)
    kernels.call(
        kernels.record_trace,
        model_number(model),
        state.data[0],
        controls,
        rows[0],
        1.0 / hz,
        np.asarray(columns, dtype=np.int64),
        out,
        *(() if walls is None else (walls,)),
    )
    return out


def record(
    model: ModuleType,
    params: Mapping[str, object],
    trace: np.ndarray,
    hz: float,
    names: tuple[str, ...],
    start: State | None = None,
    ticks: int | None = None,
    walls: Walls | None = None,
) -> np.ndarray:
    """One car from `start` (rest at the origin) through the control rows of `trace`
    (steer, throttle, brake[, handbrake, shift]); returns the state values `names`
    after each tick, one row per tick, in one compiled call. `ticks` stops early;
    `walls`: the world (None: the open field)."""
    columns = [model.STATE.offset[name] for name in names]
    return _record(model, params, trace, hz, columns, start, ticks, walls=walls)


def seek_states(
    model: ModuleType,
    params: Mapping[str, object],
    trace: np.ndarray,
    hz: float,
    ticks: int | None = None,
    start: State | None = None,
    walls: Walls | None = None,
) -> State:
    """The whole state after each of the first `ticks` ticks of `trace` from `start`
    (rest at the origin), as a State of one row per tick (a replay's seek: one
    compiled call); `walls`: the world (None: the open field)."""
    rows = _record(model, params, trace, hz, np.arange(model.STATE.size), start, ticks, walls=walls)
    return State.of(model.STATE, rows)


def run_trace(model: ModuleType, params: Mapping[str, float], trace: np.ndarray, hz: int = DEFAULT_HZ) -> np.ndarray:
    """Replay a control trace (rows of steer, throttle, brake[, handbrake, shift]) from
    rest at the origin.

    Returns an array of rows `t, x, y, heading, vx, vy, speed, slip_angle`, one per
    tick, each the state after that tick.
    """
    return next(trace_trajectory(model, params, iter([trace]), hz))


def trace_trajectory(
    model: ModuleType,
    params: Mapping[str, float],
    chunks,
    hz: int = DEFAULT_HZ,
    track: Track | None = None,
    start: Pose | None = None,
    contacts: bool = False,
    channels: tuple = (),
):
    """`run_trace` of a trace given as consecutive chunks of rows: yields each chunk's
    rows of the trajectory, the car carried on from one to the next (the same numbers,
    bit for bit, as one run of the whole trace; memory bounded by a chunk). On `track`
    (None: the open field) from `start` (model's unit; else the track's spawn); with
    `contacts` each row ends with the tick's wall contacts (0: none) and the cones
    the car has knocked so far; then the values of `channels` (physics/channels.py),
    the throttle and brake received being the trace's."""
    track = None if track is None else track.in_unit(model.LENGTH_UNIT)
    walls = walls_for(track, model.LENGTH_UNIT)
    start = start if start is not None or track is None else track.spawn
    state = at_rest(model, 1, start)
    drawn = ("display_heading",) if "display_heading" in model.STATE.offset else ("heading",)
    touched = ("wall_contacts", "cones_hit") if contacts else ()
    columns = [model.STATE.offset[name] for name in TRAJECTORY_SLOTS + drawn]
    columns += [model.STATE.offset[name] if name in model.STATE.offset else -1 for name in touched]
    whole = len(columns)  # with channels, the whole state row follows the trajectory's columns
    columns += list(range(model.STATE.size)) if channels else []
    done, before = 0, state.data[0].copy()
    for chunk in chunks:
        values = _record(model, params, chunk, hz, [max(c, 0) for c in columns], state, None, True, walls)
        x, y, heading, vx, vy, display = values.T[:6]
        t = np.arange(done + 1, done + len(values) + 1) / hz
        done += len(values)
        rows = [t, x, y, heading, vx, vy, np.hypot(vx, vy), slip_angle(display, vx, vy)]
        if contacts:  # a model that meets no walls: none
            rows.append(values[:, 6] if columns[6] >= 0 else np.zeros(len(values)))
            rows.append(values[:, 7])
        if channels:
            states = values[:, whole:]
            given = as_engine_controls(np.asarray(chunk, dtype=np.float64).reshape(len(chunk), -1))
            inputs = {"throttle_received": given[:, 1], "brake_received": given[:, 2]}
            rows += [channel_values(c, model.STATE, states, before, 1.0 / hz, inputs) for c in channels]
            before = states[-1].copy()
        yield np.column_stack(rows)


def run_batch(
    model: ModuleType,
    params: Mapping[str, object],
    n: int,
    controls: Controls | np.ndarray,
    ticks: int,
    hz: float = DEFAULT_HZ,
    walls: Walls | None = None,
    start: Pose | None = None,
) -> State:
    """`n` cars from rest (at the origin, or at `start`) for `ticks` ticks; returns
    their final state. `controls` are held (scalars or arrays of length n), or a trace
    of rows, one per tick, that every car follows; `walls`: the world (None: the open
    field)."""
    state = at_rest(model, n, start)
    rows, which = tuning_rows(model, params, n)
    number, dt = model_number(model), 1.0 / hz
    if isinstance(controls, Controls):
        run, more = _batch_driver(kernels.run_held, n, walls)
        kernels.call(run, number, state.data, controls.rows(n), rows, which, dt, int(ticks), *more)
    else:
        trace = np.zeros((int(ticks), 5))
        given = np.asarray(controls, dtype=np.float64)[:ticks]
        trace[:, : given.shape[1]] = as_engine_controls(given)
        run, more = _batch_driver(kernels.run_trace_cars, n, walls)
        kernels.call(run, number, state.data, trace, rows, which, dt, *more)
    return state


def warm_up(model: ModuleType, everything: bool = False) -> None:
    """Compile (first start after an install) or load from the cache the drivers of
    `model`: the live step; with `everything`, the replay seek and the batch drivers
    too. Runs one scratch tick each; nothing is kept."""
    tuning = {p.name: p.default for p in model.PARAMS}
    step(model, State.at_rest(1, model.STATE), Controls(), tuning, 1 / DEFAULT_HZ)
    if everything:
        seek_states(model, tuning, np.zeros((1, 5)), DEFAULT_HZ)
        for n in (1, PARALLEL_FROM):
            run_batch(model, tuning, n, Controls(), 1)
            run_batch(model, tuning, n, np.zeros((1, 5)), 1)
