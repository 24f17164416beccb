"""Multiple shooting: a batch of tunings replaying a recorded drive, each car put back
on the recorded path every `segment` ticks; the compiled driver of the fit's objective.

A recording's row k holds the controls the car read in tick k and its pose after that
tick. Each candidate tuning runs segment after segment (`segments`): at its anchor row
a it is put back on the recording: x, y and heading from row a; vx, vy from the recording
or, when it has none, from the pose differences as the model's integrator moves the
car (`velocities`); the state values the recording holds (`columns`); the body's unit
heading vector, where the model keeps one, from the heading; every other slot (wheel
spin, gear, speed, …) carried over from the car's own run (at rest at the first
anchor, which is row 1 when the velocities come from the pose differences: row 0 has no
row before it). Then it drives rows a+1 … to the segment's end with their controls
through the model's own kernel, and each tick's pose is compared with the recorded one.
A segment starts every `segment` rows, and anew after each tick lost from the
recording (the car never drives across a gap: the lost tick's controls are unknown);
the first anchor after a gap is the first row after it, or the second when the
velocities come from the pose differences (never taken across the gap); the slots the
recording does not hold carry over the gap from the car's run before it.

Python enters once per batch (`kernels.call(shoot, …)`), never once per tick. The last
argument, `walls`, is the world of the recording (walls.Walls; left out, the open field).
"""

from __future__ import annotations

import math

import numpy as np
from numba import literally, prange

from .kernel import kernel
from .kernels import tick_in
from .state import GENERIC
from .walls import Walls
from .world import World

C = GENERIC.index
"""The common slots' columns (x, y, heading, vx, vy), the same in every model's layout."""
END_VELOCITY, MIDPOINT = 0, 1
"""How a model's integrator moves the car in a tick, position += velocity·dt with the
velocity at the tick's end (every model as its source writes it), or with the mean of
the tick's start and end velocities (the arcade's `rate_independent`)."""


def velocities(pose: np.ndarray, dt: float, gaps: np.ndarray | None = None) -> np.ndarray:
    """(n, 2) velocities after each tick from the positions, position += velocity·dt
    (END_VELOCITY): v_k = (p_k − p_{k−1})/dt; row 0, with no row before it, and the
    rows after a gap (`gaps`) have none (NaN): a recording without velocities is
    anchored at the row after."""
    out = np.full((len(pose), 2), np.nan)
    out[1:] = np.diff(pose[:, :2], axis=0) / dt
    if gaps is not None:
        out[gaps] = np.nan
    return out


def segments(n: int, segment: int, first: int, gaps: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(anchors, ends, fresh) of the segments over n rows: one anchored every `segment`
    rows from row `first` of each run of rows between gaps (`gaps`: the rows after a
    lost tick), driving rows anchor+1 … end; `fresh` where the car's velocity before
    the anchor is unknown (a run after a gap)."""
    anchors, ends, fresh = [], [], []
    starts = np.concatenate([[0], gaps]).astype(np.int64)
    stops = np.concatenate([gaps - 1, [n - 1]]).astype(np.int64)
    for run, (start, stop) in enumerate(zip(starts, stops)):
        for a in range(int(start) + first, int(stop), segment):
            anchors.append(a)
            ends.append(min(a + segment, int(stop)))
            fresh.append(run > 0)
    return np.array(anchors, dtype=np.int64), np.array(ends, dtype=np.int64), np.array(fresh, dtype=np.bool_)


@kernel
def wrapped(angle: float) -> float:
    """`angle` (rad) brought into [−π, π)."""
    return angle - 2.0 * math.pi * math.floor((angle + math.pi) / (2.0 * math.pi))


@kernel
def _anchor(s, a, pose, velocity, columns, values, heading_vector, integrator, fresh, before_x, before_y, dt):
    """Car row `s` put on recording row `a` (in place). With MIDPOINT and derived
    velocities, v_a = 2·(p_a − p_{a−1})/dt − v_{a−1}, v_{a−1} the car's own velocity
    before its last tick (before_x, before_y), unless `fresh` (after a gap: the car
    has no last tick there; `velocity` holds the estimate)."""
    s[C.x], s[C.y], s[C.heading] = pose[a, 0], pose[a, 1], pose[a, 2]
    if integrator == MIDPOINT and a > 0 and not fresh:
        s[C.vx] = 2.0 * (pose[a, 0] - pose[a - 1, 0]) / dt - before_x
        s[C.vy] = 2.0 * (pose[a, 1] - pose[a - 1, 1]) / dt - before_y
    else:
        s[C.vx], s[C.vy] = velocity[a, 0], velocity[a, 1]
    for j in range(columns.shape[0]):
        s[columns[j]] = values[a, j]
    if heading_vector[0] >= 0:
        s[heading_vector[0]], s[heading_vector[1]] = math.cos(pose[a, 2]), math.sin(pose[a, 2])


@kernel
def _one(
    model,
    start,
    controls,
    pose,
    velocity,
    columns,
    values,
    heading_vector,
    p,
    dt,
    anchors,
    ends,
    fresh,
    integrator,
    sums,
    out,
    walls=None,
):
    """One candidate (tuning row `p`) through the whole recording: sums[0] = Σ position
    error² (length²), sums[1] = Σ heading error² (rad², wrapped); out[t − 1] = (dx, dy,
    dheading) of row t when `out` has rows."""
    literally(model)
    s = start.copy()
    sums[0], sums[1] = 0.0, 0.0
    before_x, before_y = 0.0, 0.0
    for i in range(anchors.shape[0]):
        a = anchors[i]
        _anchor(s, a, pose, velocity, columns, values, heading_vector, integrator, fresh[i], before_x, before_y, dt)
        for t in range(a + 1, ends[i] + 1):
            before_x, before_y = s[C.vx], s[C.vy]
            tick_in(model, s, controls[t], p, dt, walls)
            dx, dy = s[C.x] - pose[t, 0], s[C.y] - pose[t, 1]
            dh = wrapped(s[C.heading] - pose[t, 2])
            sums[0] += dx * dx + dy * dy
            sums[1] += dh * dh
            if out.shape[0] > 0:
                out[t - 1, 0], out[t - 1, 1], out[t - 1, 2] = dx, dy, dh


@kernel
def shoot(
    model,
    start,
    controls,
    pose,
    velocity,
    columns,
    values,
    heading_vector,
    params,
    dt,
    anchors,
    ends,
    fresh,
    integrator,
    sums,
    out,
    walls=None,
):
    """Every tuning row of `params` through the recording's segments (`segments`; see
    the module's text): sums (k, 2), and out (k, n − 1, 3) the per-tick errors when it
    has rows (else (k, 0, 3)); the rows of ticks no segment drives are left as they are."""
    literally(model)
    for i in range(params.shape[0]):
        _one(
            model, start, controls, pose, velocity, columns, values, heading_vector, params[i], dt, anchors, ends,
            fresh, integrator, sums[i], out[i], walls,
        )  # fmt: skip


@kernel(parallel=True)
def shoot_parallel(
    model,
    start,
    controls,
    pose,
    velocity,
    columns,
    values,
    heading_vector,
    params,
    dt,
    anchors,
    ends,
    fresh,
    integrator,
    sums,
    out,
):
    """`shoot` spread over the cores, one tuning at a time (each runs alone: the same bits)."""
    literally(model)
    for i in prange(params.shape[0]):
        _one(
            model, start, controls, pose, velocity, columns, values, heading_vector, params[i], dt, anchors, ends,
            fresh, integrator, sums[i], out[i], None,
        )  # fmt: skip


@kernel(parallel=True)
def shoot_parallel_walls(
    model,
    start,
    controls,
    pose,
    velocity,
    columns,
    values,
    heading_vector,
    params,
    dt,
    anchors,
    ends,
    fresh,
    integrator,
    sums,
    out,
    floats,
    ints,
    scale,
    restitution,
    friction,
):
    """`shoot_parallel` among walls given as their arrays (kernels.walls_arguments: numba's
    parallel loop cannot take a tuple holding arrays)."""
    literally(model)
    for i in prange(params.shape[0]):
        walls = Walls(World(floats, ints), scale, restitution, friction)
        _one(
            model, start, controls, pose, velocity, columns, values, heading_vector, params[i], dt, anchors, ends,
            fresh, integrator, sums[i], out[i], walls,
        )  # fmt: skip


def integrator_of(model, tuning) -> int:
    """How `model` under `tuning` moves the car in a tick: MIDPOINT for the arcade's
    `rate_independent` (not with the 2020 recipe, which has no such form), else END_VELOCITY."""
    if tuning.get("rate_independent", False) and not tuning.get("recipe_2020", False):
        return MIDPOINT
    return END_VELOCITY
