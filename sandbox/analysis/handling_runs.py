"""The standard handling tests as compiled code for one car (metrics.py's handling
figures): steady circles held by a closed-loop driver (ISO 4138), and a step steer
(ISO 7401). Each run starts at rest at the origin on the open field; `model` is a
compile-time constant and nothing here enters Python.

The driver: the throttle is (v* − v)/(THROTTLE_BAND·v*) within 0…1, v* the target
speed, plus on the circles the integral of that over THROTTLE_RESET_S (a full-
throttle tick on and off would rock the dynamic car's load between its axles); the
steer input u (0…1, a right turn) is multiplied each tick by (κ*/κ)^(STEER_GAIN·dt),
κ* the circle's curvature and κ the car's turn of heading over the distance its
reference point went that tick (its yaw rate / speed: in steady state the path's
curvature, and quicker to follow the steer than the velocity's turn), the ratio kept
within [1/4, 4]: an integrator on log u, so a car whose curvature follows its steer
settles on the steer the circle needs whatever its units. The steer is adjusted only
while the speed is within HELD_SHARE of its target (speeding up moves the dynamic
car's load rearward, which a steer adjusted meanwhile would have to undo). The road-
wheel angle δ is the state's `wheel_angle`, as the model applied it.

A step is held when, over its last window of AVERAGE_S, the mean path curvature is within
HELD_SHARE of the circle's, the mean speed within HELD_SHARE of the target, and the
steer short of full lock. Lateral acceleration a_y = v̄²·κ̄ (means of that window).
"""

from __future__ import annotations

import math

import numpy as np
from numba import literally, prange

from ..physics.kernel import kernel
from ..physics.state import GENERIC
from .run_walls import tick_on
from .straight_runs import HEADING, VX, VY, X, Y, controls_row, speed_of, start_state

WHEEL_ANGLE = GENERIC.offset["wheel_angle"]
"""Column of the common `wheel_angle` slot, the same in every model's layout."""
STEER_GAIN = 4.0
"""1/s: the driver's steer integrator (log u per second per unit of log curvature error),
below the dynamic car's yaw mode (about 5 rad/s) so the loop does not ring."""
THROTTLE_BAND = 0.05
"""The driver's throttle goes from full to none over this share of the target speed."""
THROTTLE_RESET_S = 0.5
"""s: on the circles, the driver's throttle also integrates the speed error within the
band (reset time of a PI controller): the arcade's friction takes a third of its
throttle, which the band alone would leave a few percent short of the speed."""
START_STEER = 0.05
"""The driver's first steer input (a share of full lock)."""
REACH_S = 20.0
"""s: the longest a step may take to reach its speed; it gives up sooner when a second
adds under REACH_GAIN of the target speed (then it is not held)."""
REACH_GAIN = 0.005
HOLD_S = 4.0
"""s: the longest a step is held once its speed is reached: it ends sooner, at the end
of a window of AVERAGE_S over which the curvature was within SETTLED of the circle's
and the steer moved by under SETTLED (the steps past the gradient's, which give only
the drift angle: HELD_SHARE)."""
SETTLED = 0.003
AVERAGE_S = 0.5
"""s: the windows a held step is judged by; its figures are its last window's."""
HELD_SHARE = 0.02
"""A step counts as held within this share of its curvature and speed."""
STEP_SHARE = 0.1
"""The constant-radius steps' lateral acceleration: k × this share of 1 g (500 px/s²)."""
LINEAR_STEPS = 3
"""The understeer gradient is the slope over steps 1…3: 0.1, 0.2 and 0.3 g (50…150 px/s²)."""
MAX_STEPS = 15
"""The steps stop at 1.5 g (750 px/s²), a tyre that never saturates."""
GAIN_SHARE = 0.2
"""The yaw-gain circles' and the step steer's steady lateral acceleration: 0.2 g (100 px/s²)."""
STRAIGHT_S = 0.5
"""s: the step steer's straight run at its speed before the steer."""
RAMP_S = 0.1
"""s: the step steer's ramp from straight to its steer (ISO 7401 asks for a fast ramp)."""
STEP_S = 2.0
"""s: the step steer's run after the ramp (its last STEADY_S is the steady yaw rate)."""
STEADY_S = 0.5
OVERSHOOT_MIN = 1.0
"""%: a yaw rate above its steady value by less than this has no peak to time."""
RADIANS_TO_DEGREES = 180.0 / math.pi

(K_GRADIENT, GAIN_1, GAIN_2, GAIN_3, RESPONSE, PEAK, OVERSHOOT, DRIFT) = range(8)
"""Slots of `car_handling`'s out."""
HANDLING_SLOTS = 8
(MEAN_SPEED, MEAN_CURVATURE, MEAN_DELTA, MEAN_YAW, MEAN_SLIP, HELD, STEER) = range(7)
"""Slots of `hold_circle`'s stats."""


@kernel
def wrapped(angle):
    """`angle` within (-π, π]."""
    return math.atan2(math.sin(angle), math.cos(angle))


@kernel
def throttle(now, speed):
    """The driver's throttle at speed `now` for the target `speed`."""
    return min(max((speed - now) / (THROTTLE_BAND * speed), 0.0), 1.0)


@kernel
def hold_circle(model, s, p, dt, speed, curvature, u, settle, stats):
    """Drive from `s` (in place) at `speed` on a path of `curvature` (1/length, a
    right turn), steer input starting at `u`: until the speed is reached (at most
    REACH_S), then until settled within `settle` (at most HOLD_S). Fills `stats` (slots above) from the last window:
    mean speed, path curvature, δ (rad), yaw rate (rad/s), slip angle β (rad, the
    velocity's angle from the heading), whether held (1.0/0.0), the steer input at
    the end; returns that input."""
    literally(model)
    c = controls_row(0.0, 0.0, 0.0)
    hold = int(HOLD_S / dt)
    average = max(1, int(AVERAGE_S / dt))
    reach = int(REACH_S / dt)
    second = max(1, int(1.0 / dt))
    reached = -1
    second_ago = speed_of(s)
    travelled, turned, delta, yaw, slip, fastest, speeds = 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    n = 0
    settled = False
    window_steer = u
    held_throttle = 0.0
    for tick in range(reach + hold):
        now = speed_of(s)
        if reached < 0 and now >= speed * (1.0 - HELD_SHARE / 2):
            reached = tick
        if reached < 0 and tick % second == second - 1:
            if tick >= reach or now - second_ago < REACH_GAIN * speed:
                break
            second_ago = now
        if reached >= 0 and (tick >= reached + hold or settled):
            break
        error = (speed - now) / (THROTTLE_BAND * speed)
        if abs(error) < 1.0:  # within the band, either side
            held_throttle = min(max(held_throttle + error * dt / THROTTLE_RESET_S, 0.0), 1.0)
        c[0], c[1] = u, min(max(error + held_throttle, 0.0), 1.0)
        x, y, heading = s[X], s[Y], s[HEADING]
        direction = math.atan2(s[VY], s[VX])
        tick_on(model, s, c, p, dt, None)
        step = math.hypot(s[X] - x, s[Y] - y)
        turn = wrapped(math.atan2(s[VY], s[VX]) - direction)
        if abs(now - speed) <= HELD_SHARE * speed and step > 0.0:
            bent = wrapped(s[HEADING] - heading) / step
            ratio = 4.0 if bent <= curvature / 4.0 else min(curvature / bent, 4.0)
            u = min(u * ratio ** (STEER_GAIN * dt), 1.0)
        if reached >= 0:
            if n == average:  # a new window
                travelled, turned, delta, yaw, slip, fastest, speeds = 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
                n = 0
                window_steer = u
            n += 1
            travelled += step
            turned += turn
            speeds += speed_of(s)
            delta += s[WHEEL_ANGLE]
            yaw += wrapped(s[HEADING] - heading) / dt
            slip += wrapped(math.atan2(s[VY], s[VX]) - s[HEADING])
            fastest = max(fastest, u)
            if n == average and travelled > 0.0:
                off = abs(turned / travelled / curvature - 1.0)
                settled = off <= settle and abs(u / window_steer - 1.0) <= settle
    stats[:] = math.nan
    stats[HELD] = 0.0
    stats[STEER] = u
    if n == 0:
        return u
    stats[MEAN_SPEED], stats[MEAN_DELTA], stats[MEAN_YAW], stats[MEAN_SLIP] = speeds / n, delta / n, yaw / n, slip / n
    stats[MEAN_CURVATURE] = turned / travelled if travelled > 0.0 else math.nan
    held = (
        abs(stats[MEAN_CURVATURE] / curvature - 1.0) <= HELD_SHARE
        and abs(stats[MEAN_SPEED] / speed - 1.0) <= HELD_SHARE
        and fastest < 1.0
    )
    stats[HELD] = 1.0 if held else 0.0
    return u


@kernel
def constant_radius(model, p, dt, defaults, radius, base, scale, wheel_base, out):
    """ISO 4138's constant-radius method, the speed raised in steps held steady: step
    k (1…MAX_STEPS) at a_y = k·STEP_SHARE·base on a circle of `radius`, until a step
    is not held. out[K_GRADIENT]: the least-squares slope of δ − L·κ̄ against a_y over
    the held steps up to LINEAR_STEPS (at least two; L the `wheel_base`, κ̄ the step's
    mean path curvature: δ = L·κ + K·a_y with the driver's last fraction of a percent
    off the circle taken out), in degrees per `scale` of a_y (NaN: fewer held);
    out[DRIFT]: the largest |β| of the held steps (°; NaN: none held)."""
    literally(model)
    s = start_state(defaults, np.empty(0))
    stats = np.empty(7)
    u = START_STEER
    before = u
    sx, sy, sxx, sxy, m = 0.0, 0.0, 0.0, 0.0, 0
    drift = math.nan
    for k in range(1, MAX_STEPS + 1):
        a = k * STEP_SHARE * base
        guess = 2.0 * u - before if k > 2 else u  # the steer a straight line through the last two steps gives
        before = u
        settle = SETTLED if k <= LINEAR_STEPS else HELD_SHARE
        u = hold_circle(model, s, p, dt, math.sqrt(a * radius), 1.0 / radius, min(max(guess, 0.0), 1.0), settle, stats)
        if stats[HELD] == 0.0:
            break
        beta = abs(stats[MEAN_SLIP]) * RADIANS_TO_DEGREES
        drift = beta if drift != drift else max(drift, beta)
        if k <= LINEAR_STEPS:
            ay = stats[MEAN_SPEED] * stats[MEAN_SPEED] * stats[MEAN_CURVATURE]
            extra = stats[MEAN_DELTA] - wheel_base * stats[MEAN_CURVATURE]
            sx, sy, sxx, sxy, m = sx + ay, sy + extra, sxx + ay * ay, sxy + ay * extra, m + 1
    out[K_GRADIENT] = math.nan
    spread = m * sxx - sx * sx
    if m >= 2 and spread > 0.0:
        out[K_GRADIENT] = (m * sxy - sx * sy) / spread * scale * RADIANS_TO_DEGREES
    out[DRIFT] = drift


@kernel
def step_steer(model, p, dt, defaults, speed, steer, out):
    """ISO 7401's step steer at `speed`: straight up to it and STRAIGHT_S on, then the
    steer input ramped from 0 to `steer` over RAMP_S and held STEP_S, the speed held
    by the throttle. Time zero is when δ passes half its final value. The steady yaw
    rate is the mean of the last STEADY_S. out[RESPONSE]: time to 90 % of it (s);
    out[PEAK]: time of the largest yaw rate (s; NaN when it overshoots by under
    OVERSHOOT_MIN); out[OVERSHOOT]: (largest / steady − 1) × 100 (%, at least 0)."""
    literally(model)
    out[RESPONSE], out[PEAK], out[OVERSHOOT] = math.nan, math.nan, math.nan
    if not steer > 0.0:
        return
    s = start_state(defaults, np.empty(0))
    c = controls_row(0.0, 1.0, 0.0)
    for _ in range(int(REACH_S / dt)):
        if speed_of(s) >= speed:
            break
        tick_on(model, s, c, p, dt, None)
    if speed_of(s) < speed * (1.0 - HELD_SHARE):
        return
    for _ in range(int(STRAIGHT_S / dt)):
        c[1] = throttle(speed_of(s), speed)
        tick_on(model, s, c, p, dt, None)
    ramp = max(1, int(np.rint(RAMP_S / dt)))
    ticks = ramp + int(STEP_S / dt)
    rates = np.empty(ticks)
    deltas = np.empty(ticks)
    for tick in range(ticks):
        c[0] = steer * min(1.0, (tick + 1) / ramp)
        c[1] = throttle(speed_of(s), speed)
        heading = s[HEADING]
        tick_on(model, s, c, p, dt, None)
        rates[tick] = wrapped(s[HEADING] - heading) / dt
        deltas[tick] = s[WHEEL_ANGLE]
    last = max(1, int(STEADY_S / dt))
    steady = 0.0
    for tick in range(ticks - last, ticks):
        steady += rates[tick]
    steady /= last
    final = deltas[ticks - 1]
    if not steady > 0.0 or not final > 0.0:
        return
    start = crossing(deltas, 0.5 * final, dt)
    out[RESPONSE] = crossing(rates, 0.9 * steady, dt) - start
    top = 0
    for tick in range(ticks):
        if rates[tick] > rates[top]:
            top = tick
    overshoot = (rates[top] / steady - 1.0) * 100.0
    out[OVERSHOOT] = max(overshoot, 0.0)
    if overshoot >= OVERSHOOT_MIN:
        out[PEAK] = (top + 1) * dt - start


@kernel
def crossing(values, level, dt):
    """The time (s) at which `values` (one per tick, the state after tick k at
    (k + 1)·dt, 0 before the first) first reach `level`, linear between ticks; NaN
    if never."""
    before = 0.0
    for tick in range(values.shape[0]):
        if values[tick] >= level:
            share = (level - before) / (values[tick] - before) if values[tick] > before else 1.0
            return (tick + share) * dt
        before = values[tick]
    return math.nan


@kernel
def car_handling(model, p, dt, defaults, radius, base, scale, wheel_base, speeds, step_at, out):
    """One car's handling figures into out (slots K_GRADIENT … DRIFT): the
    constant-radius steps on `radius` (`base`: 1 g or 500 px/s², the steps' unit; `scale`: 1 g or
    1000 px/s², the gradient's; `wheel_base` L); the yaw gain
    (mean yaw rate / mean δ, 1/s) at each of `speeds` on circles of a_y =
    GAIN_SHARE·base, one run raising the speed from one to the next (NaN where not
    held); the step steer at speeds[step_at] to the steer input that circle held."""
    literally(model)
    constant_radius(model, p, dt, defaults, radius, base, scale, wheel_base, out)
    s = start_state(defaults, np.empty(0))
    stats = np.empty(7)
    u = START_STEER
    steer = math.nan
    for j in range(speeds.shape[0]):
        v = speeds[j]
        if j > 0:  # the steer δ = L·κ + K·a_y gives the new circle (K of the constant radius)
            was, now = wheel_base / (speeds[j - 1] * speeds[j - 1]), wheel_base / (v * v)
            known = out[K_GRADIENT] == out[K_GRADIENT]
            gradient = out[K_GRADIENT] / (scale * RADIANS_TO_DEGREES) if known else 0.0  # rad per length/s²
            ratio = (now + gradient) / (was + gradient)
            u = min(u * ratio, 1.0) if ratio > 0.0 else u
        u = hold_circle(model, s, p, dt, v, GAIN_SHARE * base / (v * v), u, SETTLED, stats)
        held = stats[HELD] == 1.0 and stats[MEAN_DELTA] != 0.0
        out[GAIN_1 + j] = stats[MEAN_YAW] / stats[MEAN_DELTA] if held else math.nan
        if j == step_at and held:
            steer = stats[STEER]
        if not held:
            for rest in range(j + 1, speeds.shape[0]):
                out[GAIN_1 + rest] = math.nan
            break
    step_steer(model, p, dt, defaults, speeds[step_at], steer, out)


@kernel
def handling_rows(model, rows, dt, defaults, radius, base, scale, wheel_bases, speeds, step_at, out):
    """`car_handling` of each tuning row of `rows` (k, P) into out (k, HANDLING_SLOTS);
    wheel_bases (k,) each row's."""
    literally(model)
    for i in range(rows.shape[0]):
        car_handling(model, rows[i], dt, defaults, radius, base, scale, wheel_bases[i], speeds, step_at, out[i])


@kernel(parallel=True)
def handling_rows_parallel(model, rows, dt, defaults, radius, base, scale, wheel_bases, speeds, step_at, out):
    """`handling_rows` spread over the cores (each car runs alone: the same bits)."""
    literally(model)
    for i in prange(rows.shape[0]):
        car_handling(model, rows[i], dt, defaults, radius, base, scale, wheel_bases[i], speeds, step_at, out[i])
