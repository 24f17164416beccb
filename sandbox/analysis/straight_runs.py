"""The straight-line runs of the standard manoeuvres as compiled code for one car (see
manoeuvres.py): full throttle until the speed settles, a distance under given pedals,
braking, reverse, a standing start; and the small helpers on a state row they share.
Each run changes the state row `s` in place; `model` is a compile-time constant; `world`
(left out: the open field) is the track a run drives on (run_walls.py)."""

from __future__ import annotations

import math

import numpy as np
from numba import literally

from ..physics.kernel import kernel
from ..physics.state import GENERIC
from .run_walls import tick_on

SETTLE_LIMIT_S = 120.0
"""s: the longest straight run of a model with a top speed (then the top speed is inf)."""
SETTLE_GAP = 0.01
"""An extrapolated top speed counts once it is within this fraction of the speed: from
further out, a torque curve's kinks bend the approach (the Corvette's read 0.6 % high
from 5 % out)."""
UNLIMITED_RUN_S = 10.0
"""s: the straight run of a model that declares no top speed (time to 100 still counts)."""
REVERSE_S = 20.0
"""s: the longest reverse run (then the last second's mean)."""
STOP_LIMIT_S = 30.0
"""s: the longest braking run of the metrics (then NaN)."""

X, Y, HEADING, VX, VY = (GENERIC.offset[name] for name in ("x", "y", "heading", "vx", "vy"))
"""Columns of the common state slots, the same in every model's layout."""


@kernel
def rest_state(defaults):
    """A fresh state row at rest at the origin (the layout's defaults)."""
    s = np.empty(defaults.shape[0])
    s[:] = defaults
    return s


@kernel
def start_state(defaults, start):
    """A fresh state row at rest at pose `start` (x, y, heading; empty: the origin)."""
    s = rest_state(defaults)
    if start.shape[0] == 3:
        s[X], s[Y], s[HEADING] = start[0], start[1], start[2]
    return s


@kernel
def controls_row(steer, throttle, brake):
    c = np.zeros(5)
    c[0], c[1], c[2] = steer, throttle, brake
    return c


@kernel
def speed_of(s):
    """|velocity| (length/s)."""
    return math.hypot(s[VX], s[VY])


@kernel
def forward_of(s):
    """Velocity along the heading (length/s)."""
    return math.cos(s[HEADING]) * s[VX] + math.sin(s[HEADING]) * s[VY]


@kernel
def second_ticks(dt):
    """Ticks in the ring of the last second's speeds (at least 2)."""
    return max(2, int(np.rint(1.0 / dt)))


@kernel
def mean_of(ring):
    total = 0.0
    for v in ring:
        total += v
    return total / ring.shape[0]


@kernel
def second_shape(last, tick):
    """(steady, rises, falls) of the ring `last` written at tick % len: steady when its
    speeds vary by under 1 % and show no trend (the means of its halves within
    0.01 %); rises/falls when a tick on tick goes up/down."""
    w = last.shape[0]
    oldest = (tick + 1) % w
    half = w // 2
    low, high = math.inf, -math.inf
    early, late = 0.0, 0.0
    rises, falls, nan = False, False, False
    previous = 0.0
    for k in range(w):
        v = last[(oldest + k) % w]
        nan = nan or v != v
        low, high = min(low, v), max(high, v)
        if k < half:
            early += v
        else:
            late += v
        if k > 0:
            rises = rises or v > previous
            falls = falls or v < previous
        previous = v
    if nan:
        return False, rises, falls
    early, late = early / half, late / (w - half)
    scale = max(high, 1.0)
    steady = (high - low <= 0.01 * scale) and abs(late - early) <= 1e-4 * scale
    return steady, rises, falls


@kernel
def straight_run(model, s, p, dt, ticks, ref, exact, history, world=None, standing=None, at_ref=None):
    """Full throttle from state `s` (in place) until the speed settles, at most `ticks`.

    Settled: a geometric approach (each step r times the last, 0 < r < 1) whose
    Aitken extrapolation speed + step·r/(1−r) is within SETTLE_GAP of the speed and
    steady (1e-6) while the speed changes by under 1 % a second, after the first
    second; or, checked once a second, a rev-limiter sawtooth (a steady second that
    rises and falls), taken as the second's mean. With `exact` the run goes on from
    an extrapolated figure to the speed's exact fixed point where it reaches one
    (within `ticks`), and that speed is the figure. Speeds are kept in `history`
    (unless it is empty). Returns (top speed or inf, first time at `ref` or NaN,
    ticks run, how it settled: 0 no, 1 extrapolated, 2 fixed point, 3 sawtooth).
    With `standing` (two slots: a distance, then NaN) standing[1] becomes the time (s)
    the run first covers that distance from where it started, as `standing_start`
    times it from the same state (the same ticks: the standing start is the straight
    run's beginning); NaN while it has not. With `at_ref` (a state row) the state at
    the first time at `ref` is copied into it.
    """
    literally(model)
    c = controls_row(0.0, 1.0, 0.0)
    window = second_ticks(dt)
    last = np.zeros(window)
    keep = history.shape[0] > 0
    t_ref = math.nan
    previous, step_before, estimate_before = 0.0, 0.0, math.nan
    top = math.inf
    how = 0
    ran = 0
    x0, y0, gone_before = s[X], s[Y], 0.0
    for tick in range(1, ticks + 1):
        tick_on(model, s, c, p, dt, world)
        if standing is not None and standing[1] != standing[1]:
            gone = math.hypot(s[X] - x0, s[Y] - y0)
            if gone >= standing[0]:
                standing[1] = (tick - 1 + (standing[0] - gone_before) / (gone - gone_before)) * dt
            gone_before = gone
        ran = tick
        speed = speed_of(s)
        if keep:
            history[tick - 1] = speed
        last[tick % window] = speed
        if t_ref != t_ref and speed >= ref:
            t_ref = tick * dt
            if at_ref is not None:
                at_ref[:] = s
        step = speed - previous
        if how == 1:  # `exact`: from an extrapolated figure on to the fixed point
            if step == 0:
                top, how = speed, 2
                break
            previous = speed
            continue
        # near a top speed each step is r times the last (0 < r < 1): the steps still to
        # come add up to step·r/(1−r) (Aitken's Δ²), so slow cars need not run for minutes
        ratio = step / step_before if step_before != 0 else 0.0
        geometric = 0 < ratio < 1
        estimate = speed + step * ratio / (1 - ratio) if geometric else speed
        scale = max(speed, 1.0)
        if (
            tick * dt > 1.0
            and (geometric or step == 0)
            and abs(step) <= 1e-2 * scale * dt  # under 1 % of the speed per second
            and abs(estimate - speed) <= SETTLE_GAP * scale  # and close
            and abs(estimate - estimate_before) <= 1e-6 * scale
        ):  # and the estimate is steady
            top = estimate
            how = 2 if step == 0 else 1
            if not exact or how == 2:
                break
        elif tick % window == 0:  # once a second: on a rev limiter the speed saws for ever
            steady, rises, falls = second_shape(last, tick)
            if steady and rises and falls:
                top, how = mean_of(last), 3
                break
        previous, step_before, estimate_before = speed, step, estimate
    return top, t_ref, ran, how


@kernel
def distance_run(model, s, c, p, dt, ticks, forward, world=None):
    """Distance (length) covered from state `s` (in place) under controls `c` until
    the car no longer moves forward (`forward`) or stops (else), at most `ticks`.
    Returns (distance, still moving)."""
    literally(model)
    travelled = 0.0
    going = forward_of(s) > 0 if forward else speed_of(s) > 0
    for _ in range(ticks):
        if not going:
            break
        x, y = s[X], s[Y]
        tick_on(model, s, c, p, dt, world)
        travelled += math.hypot(s[X] - x, s[Y] - y)
        going = forward_of(s) > 0 if forward else speed_of(s) > 0
    return travelled, going


@kernel
def braking_from_ref(model, s, p, dt, ref, world=None):
    """Full throttle from `s` (in place) to `ref`, then full brake until the car no
    longer moves forward (`brake_to_stop`; both within `brake_ref_ticks`): the braking
    distance, NaN if not stopped in time."""
    literally(model)
    c = controls_row(0.0, 1.0, 0.0)
    ticks = brake_ref_ticks(dt)
    for tick in range(ticks):
        tick_on(model, s, c, p, dt, world)
        if speed_of(s) >= ref:
            return brake_to_stop(model, s, p, dt, ticks - tick - 1, world)
    return math.nan


@kernel
def brake_ref_ticks(dt):
    """Ticks of the run from rest to `ref` and the braking after it, together."""
    return int((SETTLE_LIMIT_S + STOP_LIMIT_S) / dt)


@kernel
def brake_to_stop(model, s, p, dt, ticks, world=None):
    """Full brake from `s` (in place) until the car no longer moves forward, at most
    `ticks`: the distance, NaN if not stopped in time."""
    literally(model)
    c = controls_row(0.0, 0.0, 1.0)
    travelled = 0.0
    for _ in range(ticks):
        x, y = s[X], s[Y]
        tick_on(model, s, c, p, dt, world)
        travelled += math.hypot(s[X] - x, s[Y] - y)
        if forward_of(s) <= 0:
            return travelled
    return math.nan


@kernel
def reverse_run(model, s, p, dt, world=None):
    """Brake held from `s` (in place), the sandbox's reverse, at most REVERSE_S: the
    speed once it stops changing. Settled: a fixed point (a tick changes it by under
    1e-12, after half a second), that speed; or a steady second (`second_shape`:
    the dynamic car reverses on its rev limiter, a sawtooth), its mean. Not settled:
    the last second's mean."""
    literally(model)
    c = controls_row(0.0, 0.0, 1.0)
    window = second_ticks(dt)
    last = np.zeros(window)
    before = speed_of(s)
    for tick in range(int(REVERSE_S / dt)):
        tick_on(model, s, c, p, dt, world)
        speed = speed_of(s)
        last[tick % window] = speed
        if tick * dt > 0.5 and abs(speed - before) <= 1e-12 * max(speed, 1.0):
            return speed
        if tick >= window and second_shape(last, tick)[0]:
            return mean_of(last)
        before = speed
    return mean_of(last)


@kernel
def standing_start(model, s, p, dt, distance, ticks, world=None):
    """Full throttle straight from rest (`s`, in place) until the car is `distance` from
    where it started, at most `ticks`: the time (s), interpolated within the tick that
    crosses it; NaN if it never gets there."""
    literally(model)
    c = controls_row(0.0, 1.0, 0.0)
    x0, y0 = s[X], s[Y]
    before = 0.0
    for tick in range(1, ticks + 1):
        tick_on(model, s, c, p, dt, world)
        gone = math.hypot(s[X] - x0, s[Y] - y0)
        if gone >= distance:
            return (tick - 1 + (distance - before) / (gone - before)) * dt
        before = gone
    return math.nan


@kernel
def up_to(model, s, p, dt, speed, world=None):
    """Full throttle straight from `s` (in place) until it goes at `speed`, at most
    SETTLE_LIMIT_S; whether it got there."""
    literally(model)
    c = controls_row(0.0, 1.0, 0.0)
    for _ in range(int(SETTLE_LIMIT_S / dt)):
        if speed_of(s) >= speed:
            return True
        tick_on(model, s, c, p, dt, world)
    return speed_of(s) >= speed
