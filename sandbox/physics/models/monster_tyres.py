"""The dynamic car's tyres (seed 004): the rear wheels' traction from their slip ratio
("Slip ratio and traction force") and each axle's lateral force from its slip angle
("High Speed Turning"), both scaled by the load on the axle and capped at μ × load.

Kernels of one car, `p` its tuning row (read by name through `P`). Forces in N,
speeds in m/s, angles in rad; a slip ratio has no unit.
"""

from __future__ import annotations

import math

from ..kernel import kernel
from .geometry import sign
from .monster_params import P

LOW_SPEED = 2.0
"""m/s: the divisor floor of the slip formulas (and below it the car turns kinematically)."""
MAGIC_C, MAGIC_E = 1.65, 0.97
"""The Magic Formula's shape C and curvature E of option `pacejka`."""


@kernel
def slip_divisor(v_long):
    """|v_long| in the slip formulas, at least LOW_SPEED (m/s). Departure: the text
    divides by the speed itself, which is 0 at rest (the common ports snap to zero
    below 0.5 m/s and still chatter)."""
    return max(abs(v_long), LOW_SPEED)


@kernel
def slip_ratio(p, wheel_omega, v_long, divisor):
    """SR = (ω·Rw − v_long) / |v_long| ("Slip ratio and traction force"), |v_long| as
    `slip_divisor` gives it."""
    return (wheel_omega * p[P.wheel_radius] - v_long) / divisor


# "Slip ratio and traction force": Flong = Fn,long(SR) · Fz, the curve normalised by the load


@kernel
def traction_ratio(p, sr):
    """Fn,long: traction force / load at a slip ratio. "Flong = Ct · slip ratio", capped
    at ±μ ("Cap the force to a maximum value"); option `pacejka`: the Magic Formula the
    text points to, with the same slope Ct at 0 and the peak μ."""
    mu, k = p[P.mu], p[P.traction_slope]
    if p[P.pacejka] == 0.0:
        return min(max(k * sr, -mu), mu)
    # Magic Formula D·sin(C·atan(B·x − E·(B·x − atan(B·x)))) with B from the same slope
    B, C, E = k / (MAGIC_C * max(mu, 1e-9)), MAGIC_C, MAGIC_E
    bx = B * sr
    return mu * math.sin(C * math.atan(bx - E * (bx - math.atan(bx))))


def _magic_peak_input() -> float:
    """B·x where the Magic Formula peaks: C·atan(φ) = π/2, φ = Bx − E·(Bx − atan Bx)
    (bisection once at import; φ rises with Bx)."""
    target, lo, hi = math.tan(math.pi / (2 * MAGIC_C)), 0.0, 100.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if mid - MAGIC_E * (mid - math.atan(mid)) < target:
            lo = mid
        else:
            hi = mid
    return lo


MAGIC_PEAK = _magic_peak_input()


@kernel
def peak_slip_ratio(p):
    """Slip ratio of the traction curve's peak (μ reached): μ/Ct when capped linear;
    the Magic Formula's peak with `pacejka`."""
    mu, k = max(p[P.mu], 1e-9), p[P.traction_slope]
    if p[P.pacejka] == 0.0:
        return mu / k
    return MAGIC_PEAK * MAGIC_C * mu / k


@kernel
def traction_slope(p, sr):
    """d(traction ratio)/d(slip ratio) of `traction_ratio`, for Newton's method."""
    mu, k = p[P.mu], p[P.traction_slope]
    if p[P.pacejka] == 0.0:
        return k if abs(k * sr) < mu else 0.0
    B = k / (MAGIC_C * max(mu, 1e-9))
    bx = B * sr
    phi = bx - MAGIC_E * (bx - math.atan(bx))
    dphi = B - MAGIC_E * (B - B / (1 + bx * bx))
    return mu * math.cos(MAGIC_C * math.atan(phi)) * MAGIC_C / (1 + phi * phi) * dphi


@kernel
def implicit_traction(p, slip_ahead, give, load, divisor):
    """Departure from the text's explicit step ("The Chicken and the Egg"): the traction
    T (N) that agrees with the slip it leaves at the end of the tick, backward Euler on
    the wheel's stiff equation (the wheel against the road is a spring of hundreds per
    second): T = load·Fn,long((slip_ahead − give·T)/divisor), `slip_ahead` the slip
    speed (m/s) the tick would end with without traction, `give` how far a newton of
    traction closes it (m/s per N). The slip then settles on the tyre curve at every
    tick rate. Capped linear: in closed form; Magic Formula: Newton's method kept inside
    the bracket [0, μ·load]."""
    mu = p[P.mu]
    if p[P.pacejka] == 0.0:
        stiffness = load * p[P.traction_slope] / divisor  # N per m/s of slip
        linear = stiffness * slip_ahead / (1.0 + give * stiffness)
        return min(max(linear, -mu * load), mu * load)
    lo, hi = 0.0, mu * load * sign(slip_ahead)
    if hi < lo:
        lo, hi = hi, lo
    force = 0.0
    for _ in range(40):
        ratio = (slip_ahead - give * force) / divisor
        error = force - load * traction_ratio(p, ratio)
        if abs(error) <= 1e-9 * (1.0 + mu * load):
            break
        if error > 0:
            hi = force
        else:
            lo = force
        slope = 1.0 + load * traction_slope(p, ratio) * give / divisor
        step = force - error / slope if slope > 0 else lo - 1.0
        force = step if lo < step < hi else (lo + hi) / 2
    return force


# "High Speed Turning": slip angles, then Flateral = Fn,lat(α) · Fz, at most μ·Fz


@kernel
def slip_angles(v_long, v_lat, omega, b, c, delta, divisor):
    """(α_front, α_rear), rad: α_f = atan((v_lat + ω·b)/v_long) − δ·sgn(v_long),
    α_r = atan((v_lat − ω·c)/v_long) ("the slip angle equations"; "If the car is
    reversing, the effect of the steering is also reversed"). atan2 over `divisor`, the
    floored |v_long|, keeps the angles within ±90° when reversing."""
    direction = 1.0 if v_long >= 0 else -1.0
    return math.atan2(v_lat + omega * b, divisor) - delta * direction, math.atan2(v_lat - omega * c, divisor)


@kernel
def lateral_force(cornering, alpha, load, mu, grip):
    """Flateral = −Ca·α·load (N), linear below the peak, capped at the friction limit
    μ·load ("Fmax = mu * W", seed "Weight Transfer") × `grip` (the handbrake's share on
    the rear). The sign: the force opposes the slip."""
    limit = mu * load * grip
    return min(max(-cornering * alpha * load, -limit), limit)
