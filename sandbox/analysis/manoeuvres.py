"""The standard manoeuvres as compiled code for one car (metrics.py's figures, the
`rates` command's drives).

A car is a state row of its model's layout (from `defaults`, at rest at the origin),
its tuning row `p` and the tick `dt` (s); `model` is its number in `kernels.ORDER`,
a compile-time constant (`numba.literally`): everything here is compiled once per
model. Every run starts from rest or from the state another one ended in; nothing
here enters Python. Speeds and distances are in the model's units.

`car_metrics` fills one car's thirteen figures in metrics.METRICS order (slots below);
`metrics_rows` / `metrics_rows_parallel` do it for each row of a (k, P) tuning
array. `car_drive` / `drive_rows` give the `rates` drives (top speed, coast-down,
braking) with the same straight run.
"""

from __future__ import annotations

import math

import numpy as np
from numba import literally, prange

from ..physics import kernels
from ..physics.kernel import kernel
from ..physics.state import GENERIC

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
CIRCLE_S = 4.0
"""s: each full-lock circle (the radius is taken over its last second)."""
STOP_LIMIT_S = 30.0
"""s: the longest braking run of the metrics (then NaN)."""
LATERAL_WINDOW_S = 0.25
"""s: the window of the lateral acceleration's turn rate."""

(
    TOP,
    TIME_REF,
    TIME_90,
    BRAKE_TOP,
    BRAKE_REF,
    REVERSE,
    RADIUS_LOW,
    RADIUS_TOP,
    KERB,
    SLIP,
    LATERAL,
    STANDING,
    STEADY_LATERAL,
) = range(13)
"""Slots of `car_metrics`' out (metrics.METRICS order)."""
DRIVE_TOP, DRIVE_COAST, DRIVE_BRAKE = range(3)
"""Slots of `car_drive`'s out: top speed, coast-down and braking distance."""

X, Y, HEADING, VX, VY = (GENERIC.offset[name] for name in ("x", "y", "heading", "vx", "vy"))
"""Columns of the common state slots, the same in every model's layout."""
RADIANS_TO_DEGREES = 180.0 / math.pi


@kernel
def _rest(defaults):
    """A fresh state row at rest at the origin (the layout's defaults)."""
    s = np.empty(defaults.shape[0])
    s[:] = defaults
    return s


@kernel
def _controls(steer, throttle, brake):
    c = np.zeros(5)
    c[0], c[1], c[2] = steer, throttle, brake
    return c


@kernel
def _speed(s):
    """|velocity| (length/s)."""
    return math.hypot(s[VX], s[VY])


@kernel
def _forward(s):
    """Velocity along the heading (length/s)."""
    return math.cos(s[HEADING]) * s[VX] + math.sin(s[HEADING]) * s[VY]


@kernel
def _larger(a, b):
    """np.maximum of two floats: NaN if either is."""
    if a != a or b != b:
        return math.nan
    return b if b > a else a


@kernel
def _last_second(dt):
    """Ticks in the ring of the last second's speeds (at least 2)."""
    return max(2, int(np.rint(1.0 / dt)))


@kernel
def _mean(ring):
    total = 0.0
    for v in ring:
        total += v
    return total / ring.shape[0]


@kernel
def _second_shape(last, tick):
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
def _straight(model, s, p, dt, ticks, ref, exact, history):
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
    """
    literally(model)
    c = _controls(0.0, 1.0, 0.0)
    window = _last_second(dt)
    last = np.zeros(window)
    keep = history.shape[0] > 0
    t_ref = math.nan
    previous, step_before, estimate_before = 0.0, 0.0, math.nan
    top = math.inf
    how = 0
    ran = 0
    for tick in range(1, ticks + 1):
        kernels.tick(model, s, c, p, dt)
        ran = tick
        speed = _speed(s)
        if keep:
            history[tick - 1] = speed
        last[tick % window] = speed
        if t_ref != t_ref and speed >= ref:
            t_ref = tick * dt
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
            steady, rises, falls = _second_shape(last, tick)
            if steady and rises and falls:
                top, how = _mean(last), 3
                break
        previous, step_before, estimate_before = speed, step, estimate
    return top, t_ref, ran, how


@kernel
def _distance(model, s, c, p, dt, ticks, forward):
    """Distance (length) covered from state `s` (in place) under controls `c` until
    the car no longer moves forward (`forward`) or stops (else), at most `ticks`.
    Returns (distance, still moving)."""
    literally(model)
    travelled = 0.0
    going = _forward(s) > 0 if forward else _speed(s) > 0
    for _ in range(ticks):
        if not going:
            break
        x, y = s[X], s[Y]
        kernels.tick(model, s, c, p, dt)
        travelled += math.hypot(s[X] - x, s[Y] - y)
        going = _forward(s) > 0 if forward else _speed(s) > 0
    return travelled, going


@kernel
def _braking_from_ref(model, s, p, dt, ref):
    """Full throttle from `s` (in place) to `ref`, then full brake until the car no
    longer moves forward: the braking distance, NaN if not stopped in time."""
    literally(model)
    c = _controls(0.0, 1.0, 0.0)
    braking, done = False, False
    travelled = 0.0
    for _ in range(int((SETTLE_LIMIT_S + STOP_LIMIT_S) / dt)):
        c[1], c[2] = (0.0, 1.0) if braking else (1.0, 0.0)
        x, y = s[X], s[Y]
        kernels.tick(model, s, c, p, dt)
        if braking:
            travelled += math.hypot(s[X] - x, s[Y] - y)
            done = _forward(s) <= 0
        braking = braking or _speed(s) >= ref
        if done:
            break
    return travelled if done else math.nan


@kernel
def _reverse(model, s, p, dt):
    """Brake held from `s` (in place), the sandbox's reverse, at most REVERSE_S: the
    speed once it stops changing. Settled: a fixed point (a tick changes it by under
    1e-12, after half a second), that speed; or a steady second (`_second_shape`:
    the dynamic car reverses on its rev limiter, a sawtooth), its mean. Not settled:
    the last second's mean."""
    literally(model)
    c = _controls(0.0, 0.0, 1.0)
    window = _last_second(dt)
    last = np.zeros(window)
    before = _speed(s)
    for tick in range(int(REVERSE_S / dt)):
        kernels.tick(model, s, c, p, dt)
        speed = _speed(s)
        last[tick % window] = speed
        if tick * dt > 0.5 and abs(speed - before) <= 1e-12 * max(speed, 1.0):
            return speed
        if tick >= window and _second_shape(last, tick)[0]:
            return _mean(last)
        before = speed
    return _mean(last)


@kernel
def _unwrapped(previous, angle):
    """`angle` plus the multiple of 2π that puts it within π of `previous` (np.unwrap
    of the pair)."""
    step = angle - previous
    if abs(step) < math.pi:
        return angle
    wrapped = (step + math.pi) % (2 * math.pi) - math.pi  # Python's % is np.mod's
    if wrapped == -math.pi and step > 0:
        wrapped = math.pi
    return angle + (wrapped - step)


@kernel
def _circle(model, s, p, dt, target, display, peaks):
    """Full lock from `s` (in place) for CIRCLE_S, throttle held below `target` speed
    (inf: always). Returns the path radius over the last second (the chords: each
    tick's is 2R·sin(θ/2), θ the turn of the velocity; inf if it did not turn);
    raises peaks[0] to the largest |slip angle| (°, from `display` column, the drawn
    heading) and peaks[1] to the largest lateral acceleration, speed × the velocity's
    turn rate over LATERAL_WINDOW_S (length/s²), both while moving, and peaks[2] to the
    steady lateral acceleration of the last second, v²/R (v its mean speed, R the
    radius returned; length/s²)."""
    literally(model)
    c = _controls(1.0, 0.0, 0.0)
    ticks = int(CIRCLE_S / dt)
    last = int(1.0 / dt)
    window = max(1, int(np.rint(LATERAL_WINDOW_S / dt)))
    directions = np.empty(max(ticks, 1))  # velocity direction per tick, unwrapped
    heading_of_v = math.atan2(s[VY], s[VX])
    turned, travelled = 0.0, 0.0
    peak_slip, peak_lat = 0.0, 0.0
    for tick in range(ticks):
        c[1] = 1.0 if _speed(s) < target else 0.0
        x, y = s[X], s[Y]
        kernels.tick(model, s, c, p, dt)
        vx, vy = s[VX], s[VY]
        speed = math.hypot(vx, vy)
        moving = speed > 1e-9
        heading_before, heading_of_v = heading_of_v, math.atan2(vy, vx)
        directions[tick] = _unwrapped(directions[tick - 1], heading_of_v) if tick > 0 else heading_of_v
        if tick >= window:
            rate = abs(directions[tick] - directions[tick - window]) / (window * dt)
            peak_lat = _larger(peak_lat, speed * rate if moving else 0.0)
        h = s[display]
        hx, hy = math.cos(h), math.sin(h)
        slip = math.atan2(hx * vy - hy * vx, hx * vx + hy * vy)
        peak_slip = _larger(peak_slip, abs(slip) * RADIANS_TO_DEGREES if moving else 0.0)
        if tick >= ticks - last:
            turn = heading_of_v - heading_before
            theta = abs(math.atan2(math.sin(turn), math.cos(turn)))
            turned += 2 * math.sin(theta / 2)
            travelled += math.hypot(s[X] - x, s[Y] - y)
    peaks[0] = _larger(peaks[0], peak_slip)
    peaks[1] = _larger(peaks[1], peak_lat)
    radius = travelled / max(turned, 1e-15) if turned > 1e-12 else math.inf
    mean_speed = travelled / (last * dt)
    peaks[2] = _larger(peaks[2], mean_speed * mean_speed / radius if math.isfinite(radius) else 0.0)
    return radius


@kernel
def _standing(model, s, p, dt, distance, ticks):
    """Full throttle straight from rest (`s`, in place) until the car is `distance` from
    where it started, at most `ticks`: the time (s), interpolated within the tick that
    crosses it; NaN if it never gets there."""
    literally(model)
    c = _controls(0.0, 1.0, 0.0)
    x0, y0 = s[X], s[Y]
    before = 0.0
    for tick in range(1, ticks + 1):
        kernels.tick(model, s, c, p, dt)
        gone = math.hypot(s[X] - x0, s[Y] - y0)
        if gone >= distance:
            return (tick - 1 + (distance - before) / (gone - before)) * dt
        before = gone
    return math.nan


@kernel
def _up_to(model, s, p, dt, speed):
    """Full throttle straight from `s` (in place) until it goes at `speed`, at most
    SETTLE_LIMIT_S; whether it got there."""
    literally(model)
    c = _controls(0.0, 1.0, 0.0)
    for _ in range(int(SETTLE_LIMIT_S / dt)):
        if _speed(s) >= speed:
            return True
        kernels.tick(model, s, c, p, dt)
    return _speed(s) >= speed


@kernel
def _circumcentre(ax, ay, bx, by, cx, cy):
    """Centre of the circle through three points; (nan, nan) when they lie on a line."""
    bx, by, cx, cy = bx - ax, by - ay, cx - ax, cy - ay
    d = 2.0 * (bx * cy - by * cx)
    if abs(d) <= 1e-12 * (bx * bx + by * by + cx * cx + cy * cy):
        return math.nan, math.nan
    b2, c2 = bx * bx + by * by, cx * cx + cy * cy
    return ax + (cy * b2 - by * c2) / d, ay + (bx * c2 - cx * b2) / d


@kernel
def _kerb_circle(model, s, p, dt, pace, display, half_length, half_width):
    """Kerb-to-kerb turning circle (length): straight up to `pace` from `s` (in
    place), then CIRCLE_S at full lock with the speed held there. The circle's centre
    comes from three points of the last second's path; the diameter is twice the
    distance from it to the farthest corner of the body (a half_length × half_width
    rectangle about the state's point, along the `display` heading). NaN if the car
    never reaches the pace; inf if it does not turn."""
    literally(model)
    if not _up_to(model, s, p, dt, pace):
        return math.nan
    c = _controls(1.0, 0.0, 0.0)
    ticks = int(CIRCLE_S / dt)
    last = max(2, int(1.0 / dt))
    ax, ay, bx, by = 0.0, 0.0, 0.0, 0.0
    for tick in range(ticks):
        c[1] = 1.0 if _speed(s) < pace else 0.0
        kernels.tick(model, s, c, p, dt)
        if tick == ticks - 1 - last:
            ax, ay = s[X], s[Y]
        elif tick == ticks - 1 - last // 2:
            bx, by = s[X], s[Y]
    ox, oy = _circumcentre(ax, ay, bx, by, s[X], s[Y])
    if ox != ox:
        return math.inf
    h = s[display]
    ch, sh = math.cos(h), math.sin(h)
    rx, ry = ox - s[X], oy - s[Y]
    cx, cy = ch * rx + sh * ry, -sh * rx + ch * ry  # the centre in the car's frame
    far = 0.0
    for corner_x in (-half_length, half_length):
        for corner_y in (-half_width, half_width):
            far = max(far, math.hypot(corner_x - cx, corner_y - cy))
    return 2.0 * far


@kernel
def car_metrics(model, p, dt, has_top, ref, pace, body, defaults, display, standing, out):
    """One car's thirteen figures into out (slots TOP … STEADY_LATERAL): tuning row `p`, tick
    `dt` (s), `has_top` whether the model declares a finite top speed for it (else the
    straight run lasts UNLIMITED_RUN_S and reverse is inf when nothing settles),
    `ref` the speed "100" and `pace` walking pace (length/s), `body` the drawn body's
    (length, width), `defaults` the state row at rest, `display` the state column
    slip angles are measured from (-1: the heading), `standing` the distance of the
    standing start (length)."""
    literally(model)
    if display < 0:
        display = HEADING
    # the straight run: top speed, times to 100 and to 90 % of top
    cruising = _rest(defaults)
    ticks = int((SETTLE_LIMIT_S if has_top else UNLIMITED_RUN_S) / dt)
    history = np.empty(ticks)
    top, t_ref, ran, _ = _straight(model, cruising, p, dt, ticks, ref, False, history)
    t90 = math.nan
    for k in range(ran):
        if history[k] >= 0.9 * top:
            t90 = (k + 1) * dt
            break
    settled = math.isfinite(top)
    out[TOP], out[TIME_REF], out[TIME_90] = top, t_ref, t90
    # braking: from the top speed, and from 100
    out[BRAKE_TOP] = math.nan
    if settled:
        distance, going = _distance(
            model, cruising.copy(), _controls(0.0, 0.0, 1.0), p, dt, int(STOP_LIMIT_S / dt), True
        )
        out[BRAKE_TOP] = math.nan if going else distance
    out[BRAKE_REF] = math.nan if top < ref else _braking_from_ref(model, _rest(defaults), p, dt, ref)
    # reverse: none when the model has no top speed and nothing settled
    out[REVERSE] = math.inf if (math.isinf(top) and not has_top) else _reverse(model, _rest(defaults), p, dt)
    # the circles: from 25 % of top speed (straight up to it), speed held there; from top speed
    low = 0.25 * (top if settled else _speed(cruising))
    slow = _rest(defaults)
    _up_to(model, slow, p, dt, low)
    peaks = np.zeros(3)
    out[RADIUS_LOW] = _circle(model, slow, p, dt, low, display, peaks)
    radius_top = _circle(model, cruising, p, dt, math.inf, display, peaks)
    out[RADIUS_TOP] = radius_top if settled else math.nan
    out[KERB] = _kerb_circle(model, _rest(defaults), p, dt, pace, display, body[0] / 2, body[1] / 2)
    out[SLIP], out[LATERAL], out[STEADY_LATERAL] = peaks[0], peaks[1], peaks[2]
    out[STANDING] = _standing(model, _rest(defaults), p, dt, standing, int(SETTLE_LIMIT_S / dt))


@kernel
def metrics_rows(model, rows, dt, has_top, ref, pace, bodies, defaults, display, standing, out):
    """`car_metrics` of each tuning row of `rows` (k, P) into out (k, 13), one after
    another (one tuning: no threads to start); bodies (k, 2) each row's drawn body."""
    literally(model)
    for i in range(rows.shape[0]):
        car_metrics(model, rows[i], dt, has_top[i], ref, pace, bodies[i], defaults, display, standing, out[i])


@kernel(parallel=True)
def metrics_rows_parallel(model, rows, dt, has_top, ref, pace, bodies, defaults, display, standing, out):
    """`metrics_rows` spread over the cores (each car runs alone: the same bits)."""
    literally(model)
    for i in prange(rows.shape[0]):
        car_metrics(model, rows[i], dt, has_top[i], ref, pace, bodies[i], defaults, display, standing, out[i])


@kernel
def car_drive(model, p, dt, ticks, defaults, out):
    """The `rates` drives of one car, each at most `ticks`: full throttle from rest
    until the speed settles (`_straight` with `exact`: the fixed point where the run
    reaches one; inf if it never settles) → out[DRIVE_TOP] (length/s); then from there
    no pedals until it stops → out[DRIVE_COAST], and full brake until it no longer
    moves forward → out[DRIVE_BRAKE] (length; inf when the car still moves when the
    time is up: a car that nothing slows never stops, however long the run)."""
    literally(model)
    s = _rest(defaults)
    out[DRIVE_TOP] = _straight(model, s, p, dt, ticks, math.inf, True, np.empty(0))[0]
    coast, moving = _distance(model, s.copy(), _controls(0.0, 0.0, 0.0), p, dt, ticks, False)
    out[DRIVE_COAST] = math.inf if moving else coast
    braking, moving = _distance(model, s, _controls(0.0, 0.0, 1.0), p, dt, ticks, True)
    out[DRIVE_BRAKE] = math.inf if moving else braking


@kernel
def drive_rows(model, rows, dt, ticks, defaults, out):
    """`car_drive` of each tuning row of `rows` (k, P) into out (k, 3)."""
    literally(model)
    for i in range(rows.shape[0]):
        car_drive(model, rows[i], dt, ticks, defaults, out[i])
