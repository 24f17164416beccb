"""Rigid body with tyre patches, from M. Kincaid's "2D Car Physics" (seed 003).

Units: m, kg, s, rad (degrees on the sliders). Vehicle frame: +x forward, +y to the
right (y down on screen, as everywhere in the sandbox); heading increases turning right.

Chassis (seed phase two): forces and torques accumulate (AddForce: F += f,
τ += offset × f with the 2D cross offset.x·f.y − offset.y·f.x), then Euler with the
new velocity: a = F/m, v += a·dt, p += v·dt; α = τ/I, ω += α·dt, θ += ω·dt.
Inertia, as the seed writes it: I = (1/12)·hx²·hy²·m (half sizes multiplied, a known
slip); option `box_inertia` uses a box's m·(L² + W²)/12 instead.

Four wheels at the chassis corners (seed phase three), each tick:
 1. forward and side axes of the wheel (front wheels rotated by the steer angle);
 2. ground velocity of the wheel's point (PointVel: v + ω × offset) in vehicle space;
    patch velocity = −forward·wheel_speed·radius; difference = ground + patch;
 3. project the difference onto the side and forward axes;
 4. response force = −side·side_grip − forward·forward_grip (the seed's "super fake
    friction", constants 2 and 1), applied to the chassis at the wheel;
 5. wheel torque += forward component·radius, plus drive and brake torques;
 6. wheel_speed += torque / wheel_inertia · dt.
Option `grip_limit` caps each wheel's response force at `max_grip` N (a saturating
friction: past it the tyre slides).

The seed gives no vehicle numbers; the defaults (a 1 kg, 3 m × 1.5 m toy-scale car)
are chosen so its friction constants make a drivable car. Like the seed, nothing resists rolling: the car keeps speeding
up under throttle (top speed: none), up to the sandbox's shared guard of 500 m/s
(batch_math.SPEED_LIMIT; its wheels' spin is held to the same ground speed).

Guards, where the explicit step is unstable (they never act at the defaults): a
tyre's response force removes at most its own slip in one tick (grip capped at
m_eff/(4·dt) per axis, m_eff the chassis mass felt at the patch, 1/m_eff = 1/m +
lever²/I), and the road torque never spins a wheel past the ground speed in one tick
(capped at wheel_inertia·slip/(radius·dt)). The pedals are the sandbox's: throttle = drive torque on the rear
wheels; brake = brake torque on all wheels while rolling forward, and drive backwards
once nearly stopped. State extras: omega (rad/s), wheel_speed (n × 4, rad/s; order
front-left, front-right, rear-left, rear-right), wheel_left, wheel_right (rad),
slip_front, slip_rear (rad, tyre slip angles), side_force_front, side_force_rear (N).
"""

from __future__ import annotations

from typing import Mapping

import numpy as np

from ..params import Param
from .batch_math import SPEED_LIMIT, limit_speed
from .geometry import DEGREES, rotate, wrap
from ..state import Controls, State

NAME = "rigid_body"
TITLE = "Rigid body, tyre patches (Kincaid)"
LENGTH_UNIT = "m"
REVERSE_BELOW = 0.5
"""m/s: below this forward speed, the brake pedal drives backwards."""

PARAMS = (
    Param("mass", "Mass", "kg", 1, 0.1, 2000, 0.1, "Chassis mass."),
    Param("half_length", "Half length", "m", 1.5, 0.5, 4, 0.05, "Half the body length; the wheels sit at the corners."),
    Param("half_width", "Half width", "m", 0.75, 0.3, 2, 0.05, "Half the body width."),
    Param("wheel_radius", "Wheel radius", "m", 0.5, 0.1, 1, 0.01, "Radius of every wheel."),
    Param("wheel_inertia", "Wheel inertia", "kg·m²", 0.05, 0.01, 50, 0.01, "Spin inertia of one wheel."),
    Param("drive_torque", "Drive torque", "N·m", 2, 0, 5000, 0.1, "Torque on each rear wheel at full throttle."),
    Param("brake_torque", "Brake torque", "N·m", 4, 0, 10000, 0.1, "Braking torque on each wheel at full brake."),
    Param("max_steer", "Steering angle", "°", 25, 1, 60, 0.5, "Front wheel angle at full steer."),
    Param("side_grip", "Side grip", "N·s/m", 2, 0, 20000, 0.5,
          "Response force per m/s of sideways patch slip (the seed's constant 2)."),
    Param("forward_grip", "Forward grip", "N·s/m", 1, 0, 20000, 0.5,
          "Response force per m/s of forward patch slip (the seed's constant 1)."),
    Param.switch("grip_limit", "Grip limit", False, "Cap each tyre's force at max grip: past it the tyre slides."),
    Param("max_grip", "Max grip", "N", 3, 0.1, 50000, 0.1, "Largest force one tyre can give (with grip limit)."),
    Param.switch("box_inertia", "Box inertia m(L²+W²)/12", False,
                 "Fix the seed's inertia formula, which multiplies the half sizes."),
)

# wheel corners in units of (half_length, half_width): front-left, front-right, rear-left, rear-right
CORNERS = np.array([[1.0, -1.0], [1.0, 1.0], [-1.0, -1.0], [-1.0, 1.0]])
FRONT = np.array([True, True, False, False])


# Live plot channels: group -> (unit, ((state.extra key, label, factor), ...))
TELEMETRY = {
    "slip angles": ("°", (("slip_front", "front", DEGREES), ("slip_rear", "rear", DEGREES))),
    "lateral forces": ("N", (("side_force_front", "front", 1.0), ("side_force_rear", "rear", 1.0))),
    "yaw rate": ("°/s", (("omega", "ω", DEGREES),)),
}

def inertia(p: Mapping) -> np.ndarray:
    """Yaw inertia (kg·m²): the seed's formula, or a box's with `box_inertia`."""
    hx, hy, m = np.asarray(p["half_length"]), np.asarray(p["half_width"]), np.asarray(p["mass"])
    seed = (1.0 / 12.0) * (hx * hx) * (hy * hy) * m
    box = m * ((2 * hx) ** 2 + (2 * hy) ** 2) / 12.0
    return np.where(p["box_inertia"], box, seed)


def add_force(force: np.ndarray, torque: np.ndarray, world_force: np.ndarray, world_offset: np.ndarray):
    """The seed's AddForce: F + f and τ + offset × f (arrays (..., 2) and (...,))."""
    cross = world_offset[..., 0] * world_force[..., 1] - world_offset[..., 1] * world_force[..., 0]
    return force + world_force, torque + cross


def integrate(state: State, force: np.ndarray, torque: np.ndarray, p: Mapping, dt: float) -> tuple:
    """Euler with the new velocity (seed RigidBody.Update): returns x, y, heading, vx, vy, omega."""
    m = np.asarray(p["mass"], dtype=np.float64)
    vx = state.vx + force[:, 0] / m * dt
    vy = state.vy + force[:, 1] / m * dt
    omega = state.get("omega") + torque / inertia(p) * dt
    heading = state.heading + omega * dt
    return state.x + vx * dt, state.y + vy * dt, wrap(heading), vx, vy, omega


def _grip_cap(ox, oy, ax, ay, p: Mapping, dt: float) -> np.ndarray:
    """Largest grip (N·s/m) that removes no more than a patch's own slip along axis
    (ax, ay) in one tick, shared by the four wheels: m_eff / (4·dt)."""
    lever = ox * ay - oy * ax
    m = np.asarray(p["mass"], dtype=np.float64)[..., None]
    m_eff = 1.0 / (1.0 / m + lever * lever / inertia(p)[..., None])
    return m_eff / (4 * dt)


def step(state: State, controls: Controls, p: Mapping[str, np.ndarray | float], dt: float) -> State:
    """Advance every car one tick of `dt` seconds; returns a new State."""
    n = len(state)
    steer_in = np.broadcast_to(np.asarray(controls.steer, dtype=np.float64), (n,))
    throttle = np.broadcast_to(np.asarray(controls.throttle, dtype=np.float64), (n,))
    brake = np.broadcast_to(np.asarray(controls.brake, dtype=np.float64), (n,))
    steer = steer_in * np.radians(p["max_steer"])
    radius = np.asarray(p["wheel_radius"], dtype=np.float64)[..., None]
    wheel_speed = state.extra.get("wheel_speed")
    if wheel_speed is None:
        wheel_speed = np.zeros((n, 4))
    omega = state.get("omega")

    c, s = np.cos(state.heading), np.sin(state.heading)
    forward_speed = c * state.vx + s * state.vy
    # wheel offsets in the vehicle frame (n, 4), and in the world
    ox = CORNERS[:, 0] * np.asarray(p["half_length"], dtype=np.float64)[..., None]
    oy = CORNERS[:, 1] * np.asarray(p["half_width"], dtype=np.float64)[..., None]
    ox, oy = np.broadcast_to(ox, (n, 4)), np.broadcast_to(oy, (n, 4))
    wx, wy = rotate(ox, oy, c[:, None], s[:, None])

    # 1. wheel axes (vehicle frame): forward (cos δ, sin δ), side (−sin δ, cos δ)
    delta = np.where(FRONT, steer[:, None], 0.0)
    fx, fy = np.cos(delta), np.sin(delta)
    sx, sy = -fy, fx
    # 2. ground velocity of each wheel point (PointVel), into the vehicle frame
    gx = state.vx[:, None] - omega[:, None] * wy
    gy = state.vy[:, None] + omega[:, None] * wx
    gx, gy = rotate(gx, gy, c[:, None], -s[:, None])
    dx = gx - fx * wheel_speed * radius
    dy = gy - fy * wheel_speed * radius
    # 3. projections
    side_mag = dx * sx + dy * sy
    forward_mag = dx * fx + dy * fy
    # 4. response force (vehicle frame), optionally saturated
    side_grip = np.minimum(np.asarray(p["side_grip"])[..., None], _grip_cap(ox, oy, sx, sy, p, dt))
    forward_grip = np.minimum(np.asarray(p["forward_grip"])[..., None], _grip_cap(ox, oy, fx, fy, p, dt))
    rx = -sx * side_mag * side_grip - fx * forward_mag * forward_grip
    ry = -sy * side_mag * side_grip - fy * forward_mag * forward_grip
    size = np.hypot(rx, ry)
    cap = np.asarray(p["max_grip"], dtype=np.float64)[..., None]
    shrink = np.where(np.asarray(p["grip_limit"])[..., None] & (size > cap), cap / np.maximum(size, 1e-12), 1.0)
    rx, ry = rx * shrink, ry * shrink
    # 5. wheel torques: road + drive (rear) + brake (against the spin, never past zero)
    reverse = (brake > 0) & (forward_speed < REVERSE_BELOW)
    drive = np.where(reverse, -brake, throttle)[:, None] * np.asarray(p["drive_torque"])[..., None]
    inertia_w = np.asarray(p["wheel_inertia"], dtype=np.float64)[..., None]
    road = forward_mag * radius * np.minimum(1.0, inertia_w / (radius * radius * dt))  # guard: no overshoot
    torque = road + np.where(FRONT, 0.0, drive)
    spin_after = wheel_speed + torque / inertia_w * dt
    braking = np.where(reverse, 0.0, brake)[:, None] * np.asarray(p["brake_torque"])[..., None]
    stop_spin = braking / inertia_w * dt
    spin_after = np.sign(spin_after) * np.maximum(np.abs(spin_after) - stop_spin, 0.0)
    # 6. chassis: accumulate the world forces and torques, then integrate
    world_x, world_y = rotate(rx, ry, c[:, None], s[:, None])
    force, tau = add_force(np.zeros((n, 4, 2)), np.zeros((n, 4)), np.stack([world_x, world_y], -1),
                           np.stack([wx, wy], -1))
    x, y, heading, vx, vy, omega_new = integrate(state, force.sum(axis=1), tau.sum(axis=1), p, dt)
    # guard: the seed has no drag, so a held throttle never stops accelerating
    vx, vy = limit_speed(vx, vy, LENGTH_UNIT)
    top_spin = SPEED_LIMIT[LENGTH_UNIT] / np.asarray(p["wheel_radius"], dtype=np.float64)
    spin_after = np.clip(spin_after, -np.expand_dims(top_spin, -1), np.expand_dims(top_spin, -1))

    slip = np.arctan2(side_mag, np.maximum(np.abs(gx * fx + gy * fy), 1e-6))
    extra = {"omega": omega_new, "wheel_speed": spin_after, "wheel_left": steer, "wheel_right": steer,
             "slip_front": slip[:, :2].mean(axis=1), "slip_rear": slip[:, 2:].mean(axis=1),
             "side_force_front": (rx * sx + ry * sy)[:, :2].sum(axis=1),
             "side_force_rear": (rx * sx + ry * sy)[:, 2:].sum(axis=1)}
    return State(x, y, heading, vx, vy, wheel_angle=steer, traction_fast=np.zeros(n, dtype=bool), extra=extra)


def body(p: Mapping[str, float]) -> dict[str, float]:
    """Drawing sizes (m): the chassis box, wheels at its corners."""
    hx, hy = float(p["half_length"]), float(p["half_width"])
    return {"wheel_base": 2 * hx, "track": 2 * hy, "length": 2 * hx, "width": 2 * hy}


def force_curve(p: Mapping[str, float], speeds: np.ndarray, dt: float) -> dict[str, np.ndarray]:
    """Accelerations (m/s²) driving straight at full throttle, wheels rolling at the
    ground speed: the rear drive torque reaches the road through the patches
    (2·drive_torque/radius/mass); the seed models no rolling resistance or drag."""
    v = np.asarray(speeds, dtype=np.float64)
    drive = np.full_like(v, 2 * float(p["drive_torque"]) / float(p["wheel_radius"]) / float(p["mass"]))
    return {"drive": drive, "net": drive}


def top_speed(p: Mapping[str, float], dt: float) -> float:
    return float("inf")  # nothing in the seed resists rolling
