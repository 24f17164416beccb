"""Arcade controller of the Godot recipe "Car steering" (seed 001, all five parts).

Units: px, s, rad inside (the `steering_angle` parameter is in degrees, as in the
recipe). Integrator: the recipe's own semi-implicit Euler at a fixed tick `dt`.

One tick, in the recipe's order (`_physics_process`):
 1. get_input: steer angle = steer * steering_angle; acceleration = heading *
    engine_power on throttle, overwritten by heading * braking on brake (brake wins).
 2. apply_friction: with no acceleration and |v| < 50 px/s the car stops; then
    acceleration += v * friction * dt + v * |v| * drag * dt. Quirk kept: these are
    multiplied by dt here and again when integrated, so the feel depends on the tick.
 3. calculate_steering: move a rear and a front wheel (wheel_base apart) by v*dt and
    by v rotated by the steer angle; the new heading points rear -> front. Forward
    (heading . v > 0): v = lerp(v, heading*|v|, traction*dt) with traction_fast above
    slip_speed, else traction_slow. Backward: v = -heading * min(|v|, max_speed_reverse).
 4. v += acceleration * dt; position += v * dt (move_and_slide without collisions).

Option `rate_independent` (default off: the recipe as written). On, the tick rate
stops changing the feel, calibrated so that at 60 Hz it drives like the recipe:
 - friction and drag are rates taken at the recipe's 60 Hz strength,
   v·(friction + drag·|v|)·(1/60) px/s², applied once per tick by the midpoint rule
   (the balance with the engine, hence the top speed, is the same at every rate);
 - position advances by the mean of the tick's start and end velocities;
 - the traction lerp compounds: weight = 1 - (1 - traction/60)^(60·dt), exactly
   traction/60 at 60 Hz and never above 1 (the recipe's traction·dt is above 1
   when dt > 1/traction).
"""

from __future__ import annotations

from typing import Mapping

import numpy as np

from ..params import Param
from .geometry import DEGREES
from .state import Controls, State

NAME = "arcade"
TITLE = "Arcade (Godot recipe)"
LENGTH_UNIT = "px"

STOP_SPEED = 50.0
"""px/s: below this, with no throttle or brake, the recipe sets velocity to zero."""
REFERENCE_DT = 1.0 / 60.0
"""s: the tick the recipe was tuned at; `rate_independent` keeps its feel at any rate."""

PARAMS = (
    Param("wheel_base", "Wheel base", "px", 70, 10, 300, 1,
          "Distance from rear to front wheel. Longer turns wider."),
    Param("steering_angle", "Steering angle", "°", 15, 1, 60, 0.5,
          "How far the front wheels turn at full steer."),
    Param("engine_power", "Engine power", "px/s²", 900, 0, 4000, 10,
          "Forward acceleration while the throttle is held."),
    Param("friction", "Friction", "1/s²", -55, -400, 0, 1,
          "Ground friction, proportional to speed (the recipe multiplies it by "
          "the tick length twice). More negative = stickier ground."),
    Param("drag", "Drag", "1/(px·s)", -0.06, -1, 0, 0.001,
          "Air drag, proportional to speed squared (also applied with the tick "
          "length twice). Mostly sets the top speed."),
    Param("braking", "Braking", "px/s²", -450, -4000, 0, 10,
          "Deceleration while the brake is held; past zero it drives in reverse."),
    Param("max_speed_reverse", "Reverse speed limit", "px/s", 250, 0, 2000, 5,
          "Reverse speed is clamped to this before each tick's acceleration."),
    Param("slip_speed", "Slip speed", "px/s", 400, 0, 3000, 5,
          "Above this speed the tyres use traction_fast and the car slides."),
    Param("traction_fast", "Traction fast", "1/s", 2.5, 0, 60, 0.1,
          "Grip above slip speed: how fast the velocity turns toward the heading. "
          "Low values drift."),
    Param("traction_slow", "Traction slow", "1/s", 10, 0, 60, 0.1,
          "Grip below slip speed."),
    Param.switch("rate_independent", "Rate independent", False,
                 "Off: the recipe as written (friction, drag and traction change with the "
                 "tick rate). On: the same feel at every tick rate, equal to the recipe at 60 Hz.",
                 since=2),
)


# Live plot channels: group -> (unit, ((state.extra key, label, factor), ...))
TELEMETRY = {
    "wheel angle": ("°", (("wheel_angle", "front wheels", DEGREES),)),
}

def _inner_dt(rate_independent, dt: float):
    """The recipe's second delta on friction and drag: the tick, or 1/60 s with
    `rate_independent`."""
    return np.where(rate_independent, REFERENCE_DT, dt)


def step(state: State, controls: Controls, p: Mapping[str, np.ndarray | float], dt: float) -> State:
    """Advance every car one tick of `dt` seconds; returns a new State."""
    hx, hy = np.cos(state.heading), np.sin(state.heading)
    vx, vy = state.vx, state.vy
    throttle = np.asarray(controls.throttle, dtype=np.float64)
    brake = np.asarray(controls.brake, dtype=np.float64)

    # 1. get_input
    steer_angle = np.asarray(controls.steer, dtype=np.float64) * np.radians(p["steering_angle"])
    push = np.where(brake > 0, p["braking"] * brake, np.where(throttle > 0, p["engine_power"] * throttle, 0.0))
    ax, ay = hx * push, hy * push

    # 2. apply_friction
    speed = np.hypot(vx, vy)
    stop = (push == 0) & (speed < STOP_SPEED)
    vx, vy, speed = np.where(stop, 0.0, vx), np.where(stop, 0.0, vy), np.where(stop, 0.0, speed)
    steady = np.asarray(p.get("rate_independent", False), dtype=bool)
    inner_dt = _inner_dt(steady, dt)
    floor = -1.0 / dt  # guard: never more than the whole velocity in one tick
    resist = np.maximum(p["friction"] * inner_dt + p["drag"] * inner_dt * speed, floor)
    # rate_independent: midpoint rule, the resistance at v + (push + resist) dt/2
    mid_x = vx + (ax + vx * resist) * (dt / 2)
    mid_y = vy + (ay + vy * resist) * (dt / 2)
    mid_resist = np.maximum(p["friction"] * inner_dt + p["drag"] * inner_dt * np.hypot(mid_x, mid_y), floor)
    ax = ax + np.where(steady, mid_x * mid_resist, vx * resist)
    ay = ay + np.where(steady, mid_y * mid_resist, vy * resist)
    start_x, start_y = vx, vy

    # 3. calculate_steering: only the difference front - rear matters
    half = np.asarray(p["wheel_base"], dtype=np.float64) / 2.0
    cs, sn = np.cos(steer_angle), np.sin(steer_angle)
    fvx, fvy = vx * cs - vy * sn, vx * sn + vy * cs  # Vector2.rotated
    dx = 2 * half * hx + (fvx - vx) * dt
    dy = 2 * half * hy + (fvy - vy) * dt
    length = np.hypot(dx, dy)
    safe = length > 0  # Godot's normalized() of a zero vector is zero; keep the heading then
    nhx = np.where(safe, dx / np.where(safe, length, 1.0), hx)
    nhy = np.where(safe, dy / np.where(safe, length, 1.0), hy)

    fast = speed > p["slip_speed"]
    traction = np.where(fast, p["traction_fast"], p["traction_slow"])
    compounded = 1.0 - (1.0 - np.minimum(traction * REFERENCE_DT, 1.0)) ** (dt / REFERENCE_DT)
    weight = np.where(steady, compounded, np.minimum(traction * dt, 1.0))  # guard: no overshoot
    along = nhx * vx + nhy * vy  # same sign as heading . v.normalized()
    forward, backward = along > 0, along < 0
    back_speed = np.minimum(speed, p["max_speed_reverse"])
    vx = np.where(forward, vx + (nhx * speed - vx) * weight, np.where(backward, -nhx * back_speed, vx))
    vy = np.where(forward, vy + (nhy * speed - vy) * weight, np.where(backward, -nhy * back_speed, vy))
    heading = np.arctan2(nhy, nhx)

    # 4. integrate
    vx, vy = vx + ax * dt, vy + ay * dt
    step_x = np.where(steady, (start_x + vx) / 2, vx) * dt
    step_y = np.where(steady, (start_y + vy) / 2, vy) * dt
    return State(state.x + step_x, state.y + step_y, heading, vx, vy,
                 wheel_angle=np.broadcast_to(steer_angle, heading.shape).copy(),
                 traction_fast=forward & fast)


def body(p: Mapping[str, float]) -> dict[str, float]:
    """Drawing sizes (px): the recipe's wheel base, a body around it."""
    wb = float(p["wheel_base"])
    return {"wheel_base": wb, "track": 0.4 * wb + 12, "length": wb + 30, "width": 0.4 * wb + 20}


def force_curve(p: Mapping[str, float], speeds: np.ndarray, dt: float) -> dict[str, np.ndarray]:
    """Accelerations (px/s²) along the heading at full throttle, driving straight.

    What the recipe adds to the velocity each tick, divided by dt: engine_power,
    friction * v * dt, drag * v² * dt (the tick length appears once more than a
    physicist would write, hence the dependence on the tick rate), and their sum.
    With `rate_independent` the inner dt is 1/60 s at every rate.
    """
    v = np.asarray(speeds, dtype=np.float64)
    inner_dt = _inner_dt(p.get("rate_independent", False), dt)
    engine = np.full_like(v, float(p["engine_power"]))
    friction = p["friction"] * inner_dt * v
    drag = p["drag"] * inner_dt * v * v
    return {"engine": engine, "friction": friction, "drag": drag, "net": engine + friction + drag}


def top_speed(p: Mapping[str, float], dt: float) -> float:
    """Speed (px/s) where the net acceleration of `force_curve` is zero; inf if none.

    Root of drag*dt*v² + friction*dt*v + engine_power = 0 with v > 0 (dt = 1/60 s
    with `rate_independent`).
    """
    inner_dt = _inner_dt(p.get("rate_independent", False), dt)
    a, b, c = p["drag"] * inner_dt, p["friction"] * inner_dt, float(p["engine_power"])
    if c <= 0:
        return 0.0
    if a == 0:
        return c / -b if b < 0 else float("inf")
    return float((-b - np.sqrt(b * b - 4 * a * c)) / (2 * a))
