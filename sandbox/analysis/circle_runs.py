"""The turning runs of the standard manoeuvres as compiled code for one car (see
manoeuvres.py): the full-lock circle (path radius, slip angle, lateral acceleration)
and the kerb-to-kerb turning circle. Each run changes the state row `s` in place."""

from __future__ import annotations

import math

import numpy as np
from numba import literally

from ..physics.kernel import kernel
from .run_walls import tick_on
from .straight_runs import VX, VY, X, Y, controls_row, speed_of, up_to

CIRCLE_S = 4.0
"""s: each full-lock circle (the radius is taken over its last second)."""
LATERAL_WINDOW_S = 0.25
"""s: the window of the lateral acceleration's turn rate."""
RADIANS_TO_DEGREES = 180.0 / math.pi


@kernel
def larger(a, b):
    """np.maximum of two floats: NaN if either is."""
    if a != a or b != b:
        return math.nan
    return b if b > a else a


@kernel
def unwrapped(previous, angle):
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
def circle_run(model, s, p, dt, target, display, peaks, world=None):
    """Full lock from `s` (in place) for CIRCLE_S, throttle held below `target` speed
    (inf: always). Returns the path radius over the last second (the chords: each
    tick's is 2R·sin(θ/2), θ the turn of the velocity; inf if it did not turn);
    raises peaks[0] to the largest |slip angle| (°, from `display` column, the drawn
    heading) and peaks[1] to the largest lateral acceleration, speed × the velocity's
    turn rate over LATERAL_WINDOW_S (length/s²), both while moving, and peaks[2] to the
    steady lateral acceleration of the last second, v²/R (v its mean speed, R the
    radius returned; length/s²)."""
    literally(model)
    c = controls_row(1.0, 0.0, 0.0)
    ticks = int(CIRCLE_S / dt)
    last = int(1.0 / dt)
    window = max(1, int(np.rint(LATERAL_WINDOW_S / dt)))
    directions = np.empty(max(ticks, 1))  # velocity direction per tick, unwrapped
    heading_of_v = math.atan2(s[VY], s[VX])
    turned, travelled = 0.0, 0.0
    peak_slip, peak_lat = 0.0, 0.0
    for tick in range(ticks):
        c[1] = 1.0 if speed_of(s) < target else 0.0
        x, y = s[X], s[Y]
        tick_on(model, s, c, p, dt, world)
        vx, vy = s[VX], s[VY]
        speed = math.hypot(vx, vy)
        moving = speed > 1e-9
        heading_before, heading_of_v = heading_of_v, math.atan2(vy, vx)
        directions[tick] = unwrapped(directions[tick - 1], heading_of_v) if tick > 0 else heading_of_v
        if tick >= window:
            rate = abs(directions[tick] - directions[tick - window]) / (window * dt)
            peak_lat = larger(peak_lat, speed * rate if moving else 0.0)
        h = s[display]
        hx, hy = math.cos(h), math.sin(h)
        slip = math.atan2(hx * vy - hy * vx, hx * vx + hy * vy)
        peak_slip = larger(peak_slip, abs(slip) * RADIANS_TO_DEGREES if moving else 0.0)
        if tick >= ticks - last:
            turn = heading_of_v - heading_before
            theta = abs(math.atan2(math.sin(turn), math.cos(turn)))
            turned += 2 * math.sin(theta / 2)
            travelled += math.hypot(s[X] - x, s[Y] - y)
    peaks[0] = larger(peaks[0], peak_slip)
    peaks[1] = larger(peaks[1], peak_lat)
    radius = travelled / max(turned, 1e-15) if turned > 1e-12 else math.inf
    mean_speed = travelled / (last * dt)
    peaks[2] = larger(peaks[2], mean_speed * mean_speed / radius if math.isfinite(radius) else 0.0)
    return radius


@kernel
def circumcentre(ax, ay, bx, by, cx, cy):
    """Centre of the circle through three points; (nan, nan) when they lie on a line."""
    bx, by, cx, cy = bx - ax, by - ay, cx - ax, cy - ay
    d = 2.0 * (bx * cy - by * cx)
    if abs(d) <= 1e-12 * (bx * bx + by * by + cx * cx + cy * cy):
        return math.nan, math.nan
    b2, c2 = bx * bx + by * by, cx * cx + cy * cy
    return ax + (cy * b2 - by * c2) / d, ay + (bx * c2 - cx * b2) / d


@kernel
def kerb_circle(model, s, p, dt, pace, display, half_length, half_width, world=None):
    """Kerb-to-kerb turning circle (length): straight up to `pace` from `s` (in
    place), then CIRCLE_S at full lock with the speed held there. The circle's centre
    comes from three points of the last second's path; the diameter is twice the
    distance from it to the farthest corner of the body (a half_length × half_width
    rectangle about the state's point, along the `display` heading). NaN if the car
    never reaches the pace; inf if it does not turn."""
    literally(model)
    if not up_to(model, s, p, dt, pace, world):
        return math.nan
    c = controls_row(1.0, 0.0, 0.0)
    ticks = int(CIRCLE_S / dt)
    last = max(2, int(1.0 / dt))
    ax, ay, bx, by = 0.0, 0.0, 0.0, 0.0
    for tick in range(ticks):
        c[1] = 1.0 if speed_of(s) < pace else 0.0
        tick_on(model, s, c, p, dt, world)
        if tick == ticks - 1 - last:
            ax, ay = s[X], s[Y]
        elif tick == ticks - 1 - last // 2:
            bx, by = s[X], s[Y]
    ox, oy = circumcentre(ax, ay, bx, by, s[X], s[Y])
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
