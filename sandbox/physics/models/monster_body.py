"""The dynamic car's body (seed 004): the forces on it besides the rear traction
("Straight line physics", "Braking"), the axle loads ("Weight Transfer"), the cornering
force and the yaw torque ("High Speed Turning"), and the low-speed turning of "Curves",
blended into the dynamic model (a departure, described at `dynamic_share`).

Kernels of one car, `p` its tuning row (read by name through `P`). Car frame: x
forward, y right; forces in N, speeds in m/s.
"""

from __future__ import annotations

import math

from ..kernel import kernel
from .geometry import sign
from .monster_params import P
from .monster_tyres import LOW_SPEED

G = 9.8
"""m/s²: gravity, the seed's "1 G = 9.8 m/s2"."""


@kernel
def heading_vector(heading, hx, hy):
    """The body's unit heading vector (u, "the car's heading") as the state keeps it; a
    car placed by hand (NaN) takes it from the heading angle."""
    if math.isnan(hx) or math.isnan(hy):
        return math.cos(heading), math.sin(heading)
    return hx, hy


@kernel
def weight_transfer(p, accel):
    """(Wf, Wr), N: Wf = (c/L)·W − (h/L)·M·a and Wr = W − Wf = (b/L)·W + (h/L)·M·a
    ("Weight Transfer"), W = M·g; the front load is kept within [0, W]."""
    b, c, h, m = p[P.cg_to_front], p[P.cg_to_rear], p[P.cg_height], p[P.mass]
    L, W = b + c, m * G
    shift = h / L * m * accel
    front = min(max(c / L * W - shift, 0.0), W)
    return front, W - front


@kernel
def resistance(p, speed, dt):
    """k (N per m/s) with Fdrag + Frr = −k·v ("Straight line physics": Fdrag = −Cdrag·v·|v|,
    Frr = −Crr·v, so k = Cdrag·|v| + Crr). Departures: the rolling resistance is held at
    Crr·LOW_SPEED below LOW_SPEED (Crr·v alone never stops a coasting car: it creeps for
    minutes), and k ≤ M/dt, so the resistance never reverses the velocity in a tick."""
    k = p[P.c_drag] * speed + p[P.c_rr] * max(speed, LOW_SPEED) / max(speed, 1e-12)
    return min(k, p[P.mass] / dt)


@kernel
def braking_force(p, front_brake, v_long, dt):
    """Fbraking = −u·Cbraking ("Braking", N along the car): `front_brake` against the
    motion, and no more than stops it this tick ("stop applying the braking force as
    soon as the speed is reduced to zero")."""
    return -sign(v_long) * min(front_brake, abs(v_long) * p[P.mass] / dt)


@kernel
def front_tyre_along(p, lat_front, sin_delta):
    """The steered front tyre's force along the car, −sin δ·Flat,front (N). Correction:
    the text applies only its sideways part (`cornering_force`), and without this one
    the steered tyre pushes the car forward: a car coasting at full lock gains speed.
    Option `tutorial_cornering` drops it, as the text does."""
    if p[P.tutorial_cornering] != 0.0:
        return 0.0
    return -sin_delta * lat_front


@kernel
def cornering_force(lat_front, lat_rear, cos_delta):
    """Fcornering = Flat,rear + cos(δ)·Flat,front ("High Speed Turning", N across the car)."""
    return lat_rear + cos_delta * lat_front


@kernel
def yaw_torque(p, lat_front, lat_rear, cos_delta):
    """Torque = cos(δ)·Flat,front·b − Flat,rear·c ("High Speed Turning", N·m)."""
    return p[P.cg_to_front] * (cos_delta * lat_front) - p[P.cg_to_rear] * lat_rear


# Departure: low speed. The text turns a slow car kinematically ("Curves") and a fast one
# by its tyre forces ("High Speed Turning") and leaves the switch between them to the
# reader; its formulas divide by the speed and their explicit steps are stiff near rest
# (the wheel against the road at rest is a ~600/s spring).


@kernel
def dynamic_share(v_long, v_lat):
    """How much of the dynamic model acts (0…1): 0 below LOW_SPEED, 1 from 2·LOW_SPEED,
    a smoothstep between. Slow means slow along the car and across it, max(|v_long|,
    |v_lat|): a car sliding sideways stays dynamic whatever its forward speed."""
    x = (max(abs(v_long), abs(v_lat)) - LOW_SPEED) / LOW_SPEED
    x = min(max(x, 0.0), 1.0)
    return x * x * (3 - 2 * x)


@kernel
def low_speed_yaw_rate(p, dynamic, omega, v_long, sin_delta):
    """The yaw rate (rad/s): the dynamic one `omega`, blended by `dynamic` with the
    kinematic ω = v/R, R = L/sin δ ("Curves": low speed cornering)."""
    L = p[P.cg_to_front] + p[P.cg_to_rear]
    return dynamic * omega + (1 - dynamic) * (v_long * sin_delta / L)


@kernel
def low_speed_velocity(p, dynamic, vx, vy, v_long, v_lat, hx, hy, side_force, rear_grip, front_load, rear_load, dt):
    """The world velocity (m/s): the dynamic one (vx, vy), blended by `dynamic` with the
    kinematic one, which follows the body ("the velocity vector just rotates to match
    the car's orientation", "Curves") along the new heading (hx, hy). Across the car
    the kinematic part loses (1 − dynamic)·v_lat, but at most what the side grip
    μ·(Wf + Wr·rear grip) left by this tick's tyre forces `side_force` can take: a slow
    sideways slide keeps its momentum and loses it only as fast as its tyres could
    (every tick, the blended car's sideways slowdown is at most μ·g)."""
    mu, m = p[P.mu], p[P.mass]
    grip_left = max(mu * front_load + mu * rear_load * rear_grip - abs(side_force), 0.0) * dt / m
    lost = min(max((1 - dynamic) * v_lat, -grip_left), grip_left)
    kept = (1 - dynamic) * v_lat - lost
    return (
        dynamic * vx + (1 - dynamic) * hx * v_long - hy * kept,
        dynamic * vy + (1 - dynamic) * hy * v_long + hx * kept,
    )
