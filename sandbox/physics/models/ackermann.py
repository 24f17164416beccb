"""Ackermann kinematics from D. Zorin's notes on a turning car (seed 002).

Units: m, s, rad (degrees on the sliders); y down, heading 0 along +x, positive steer
turns right. The car: centre p, unit heading d, wheel base l, track width w.

The steer input sets the OUTER front wheel's angle α (the wheel further from the
centre of rotation); the inner one turns by β with cot β = cot α − w/l, so the axes of
all four wheels meet in one centre (the exercise the notes leave open). Each tick:
 1. outer rear wheel p_r = p − (l/2)·d − (w/2)·e, e the unit normal towards the centre;
    centre c = p_r + l·cot α·e;
 2. ω = s / (l·cot α), s the speed of the outer rear wheel (the car's speed here);
 3. p ← c + R(ω·dt)(p − c), d ← R(ω·dt)·d: exact for any dt while α is constant.
Going straight (α = 0) the car moves s·dt along d. The speed comes from the pedals
(speed_control.py).

Guard: α is limited to keep β below MAX_INNER (89°); wider locks would put the centre
inside the car. State extras: speed, alpha, beta, wheel_left, wheel_right (rad),
omega (rad/s), icr_x, icr_y (m; NaN going straight).
"""

from __future__ import annotations

from typing import Mapping

import numpy as np

from ..params import Param
from . import speed_control
from .geometry import DEGREES, rotate_about, wrap
from ..state import Controls, State

NAME = "ackermann"
TITLE = "Ackermann kinematics (Zorin)"
LENGTH_UNIT = "m"
MAX_INNER = np.radians(89.0)

PARAMS = (
    Param("wheel_base", "Wheel base", "m", 2.6, 0.5, 10, 0.05, "l: distance between the front and rear axles."),
    Param("track_width", "Track width", "m", 1.5, 0.3, 5, 0.05, "w: distance between the left and right wheels."),
    Param("max_steer", "Outer wheel angle", "°", 30, 1, 60, 0.5,
          "α at full steer: the outer front wheel's angle. The inner wheel turns further (β)."),
) + speed_control.PARAMS


# Live plot channels: group -> (unit, ((state.extra key, label, factor), ...))
TELEMETRY = {
    "front wheel angles": ("°", (("alpha", "outer α", DEGREES), ("beta", "inner β", DEGREES))),
    "yaw rate": ("°/s", (("omega", "ω", DEGREES),)),
}

def inner_angle(alpha: np.ndarray, p: Mapping) -> np.ndarray:
    """β (rad) from cot β = cot α − w/l, for α > 0."""
    cot_beta = 1 / np.tan(alpha) - p["track_width"] / p["wheel_base"]
    return np.arctan2(1.0, cot_beta)


def outer_limit(p: Mapping) -> np.ndarray:
    """Largest α (rad) whose inner angle stays at MAX_INNER or below."""
    return np.arctan2(1.0, 1 / np.tan(MAX_INNER) + p["track_width"] / p["wheel_base"])


def step(state: State, controls: Controls, p: Mapping[str, np.ndarray | float], dt: float) -> State:
    """Advance every car one tick of `dt` seconds; returns a new State."""
    n = len(state)
    steer_in = np.broadcast_to(np.asarray(controls.steer, dtype=np.float64), (n,))
    speed = speed_control.next_speed(state.get("speed"), controls.throttle, controls.brake, p, dt)
    side = np.sign(steer_in)  # +1: centre on the right
    alpha = np.minimum(np.abs(steer_in) * np.radians(p["max_steer"]), outer_limit(p))
    turning = alpha > 1e-9
    safe_alpha = np.where(turning, alpha, 1.0)
    beta = np.where(turning, inner_angle(safe_alpha, p), 0.0)
    l, w = np.asarray(p["wheel_base"], dtype=np.float64), np.asarray(p["track_width"], dtype=np.float64)

    h = state.heading
    dx, dy = np.cos(h), np.sin(h)
    ex, ey = -dy * side, dx * side  # towards the centre
    reach = l / np.tan(safe_alpha)  # l·cot α
    rear_x, rear_y = state.x - l / 2 * dx - w / 2 * ex, state.y - l / 2 * dy - w / 2 * ey
    cx, cy = rear_x + reach * ex, rear_y + reach * ey
    omega = np.where(turning, side * speed / reach, 0.0)
    turn = omega * dt
    arc_x, arc_y = rotate_about(state.x, state.y, cx, cy, turn)
    x = np.where(turning, arc_x, state.x + speed * dt * dx)
    y = np.where(turning, arc_y, state.y + speed * dt * dy)
    heading = wrap(h + turn)

    right_turn = side > 0
    extra = {"speed": speed, "alpha": alpha, "beta": beta, "omega": omega,
             "wheel_left": side * np.where(right_turn, alpha, beta),   # outer on a right turn
             "wheel_right": side * np.where(right_turn, beta, alpha),  # inner on a right turn
             "icr_x": np.where(turning, cx, np.nan), "icr_y": np.where(turning, cy, np.nan)}
    return State(x, y, heading, (x - state.x) / dt, (y - state.y) / dt, wheel_angle=side * alpha,
                 traction_fast=np.zeros(n, dtype=bool), extra=extra)


def body(p: Mapping[str, float]) -> dict[str, float]:
    """Drawing sizes (m): wheels at ±l/2 along and ±w/2 across, as in the notes."""
    l, w = float(p["wheel_base"]), float(p["track_width"])
    return {"wheel_base": l, "track": w, "length": l + 1.2, "width": w + 0.3}


force_curve = speed_control.force_curve
top_speed = speed_control.top_speed
