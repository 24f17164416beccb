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

Guards (never acting at the recipe's defaults): one tick of friction and drag removes
at most the whole velocity; the traction lerp's weight is at most 1; no car goes
faster than batch_math.SPEED_LIMIT (20 000 px/s).
"""

from __future__ import annotations

from typing import Mapping

import numpy as np

from ..params import Param
from .batch_math import SPEED_LIMIT, any_, heading_vector, held, limit_speed, norm, per_car
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


def _sin_cos_m1(angle):
    """(sin, cos - 1) of a steer angle. |angle| <= 60°, so cos = sqrt(1 - sin²) (one
    trig call), and cos - 1 = -sin²/(1 + cos), free of the cancellation of subtracting 1."""
    sn = np.sin(angle)
    sn2 = sn * sn
    return sn, -sn2 / (1.0 + np.sqrt(1.0 - sn2))


def _resistance(p, scale, speed, floor):
    """friction·scale + drag·scale·|v|, never below `floor` (guard: no more than the
    whole velocity in one tick). scale = the recipe's inner dt gives the resistance
    rate (1/s, floor -1/dt); scale = dt·dt its share of the velocity in one tick
    (floor -1)."""
    return np.maximum(p["friction"] * scale + p["drag"] * scale * speed, floor)


def _lerp_weight(traction, steady, dt: float):
    """The traction lerp's weight: traction·dt (guard: at most 1, no overshoot), or
    with `rate_independent` 1 - (1 - traction/60)^(60·dt)."""
    recipe = np.minimum(traction * dt, 1.0)
    if not any_(steady):
        return recipe
    compounded = 1.0 - (1.0 - np.minimum(traction * REFERENCE_DT, 1.0)) ** (dt / REFERENCE_DT)
    return np.where(steady, compounded, recipe)


def _recipe_velocity(vx, vy, hx, hy, nhx, nhy, speed, weight, forward, along, push_dt, rate, p):
    """Velocity after steps 3 and 4 as the recipe writes them: the traction lerp (or
    the reverse clamp), then += (heading·push + v·resist)·dt, with rate = resist·dt.
    Forward cars, nearly all of them, take it in one expression:
    v·(1 - w + rate) + heading_new·|v|·w + heading·push·dt."""
    keep, grip = 1.0 - weight + rate, speed * weight
    # summed in place, left to right as one expression would: the same bits, and
    # fewer temporary arrays (20 µs less a tick at 16 384 cars)
    new_x = vx * keep
    new_x += nhx * grip
    new_x += hx * push_dt
    new_y = vy * keep
    new_y += nhy * grip
    new_y += hy * push_dt
    if not forward.all():
        backward = along < 0
        back_speed = np.minimum(speed, p["max_speed_reverse"])
        slide = 1.0 + rate  # neither way (v ⟂ heading): v unchanged by the lerp
        new_x = np.where(forward, new_x, np.where(backward, vx * rate - nhx * back_speed, vx * slide) + hx * push_dt)
        new_y = np.where(forward, new_y, np.where(backward, vy * rate - nhy * back_speed, vy * slide) + hy * push_dt)
    return new_x, new_y


def _steady_velocity(vx, vy, hx, hy, nhx, nhy, speed, weight, forward, along, push, dt, p):
    """Velocity and position step with `rate_independent`: the resistance by the
    midpoint rule at 60 Hz strength, the lerp or clamp, += acceleration·dt; the car
    moves by the mean of the start and end velocities."""
    floor = -1.0 / dt
    resist = _resistance(p, REFERENCE_DT, speed, floor)
    mid_x = vx + (hx * push + vx * resist) * (dt / 2)
    mid_y = vy + (hy * push + vy * resist) * (dt / 2)
    mid_resist = _resistance(p, REFERENCE_DT, norm(mid_x, mid_y), floor)
    ax, ay = hx * push + mid_x * mid_resist, hy * push + mid_y * mid_resist
    backward = along < 0
    back_speed = np.minimum(speed, p["max_speed_reverse"])
    lerp_x = np.where(forward, vx + (nhx * speed - vx) * weight, np.where(backward, -nhx * back_speed, vx))
    lerp_y = np.where(forward, vy + (nhy * speed - vy) * weight, np.where(backward, -nhy * back_speed, vy))
    new_x, new_y = lerp_x + ax * dt, lerp_y + ay * dt
    return new_x, new_y, (vx + new_x) / 2 * dt, (vy + new_y) / 2 * dt


def step(state: State, controls: Controls, p: Mapping[str, np.ndarray | float], dt: float) -> State:
    """Advance every car one tick of `dt` seconds; returns a new State.

    Work a batch does not need is skipped (the stop rule while every car has a pedal
    down, the brake while none brakes, the other mode); each car's arithmetic is the
    same whatever the others do, so a batch equals its cars run one by one.
    """
    hx, hy = heading_vector(state)
    vx, vy = state.vx, state.vy
    throttle, brake = np.asarray(controls.throttle, dtype=np.float64), np.asarray(controls.brake, dtype=np.float64)

    # 1. get_input
    steer_angle = np.asarray(controls.steer, dtype=np.float64) * np.radians(p["steering_angle"])
    push = p["engine_power"] * throttle  # throttle in [0, 1]: no throttle, no push
    braked = brake > 0
    if any_(braked):
        push = np.where(braked, p["braking"] * brake, push)

    # 2. apply_friction (the resistance itself is taken with step 4 below)
    speed = norm(vx, vy)
    idle = push == 0
    if any_(idle):
        stop = idle & (speed < STOP_SPEED)
        vx, vy, speed = np.where(stop, 0.0, vx), np.where(stop, 0.0, vy), np.where(stop, 0.0, speed)
    steady = np.asarray(p.get("rate_independent", False), dtype=bool)

    # 3. calculate_steering: only the front wheel's step minus the rear's matters,
    # wheel_base·heading + (v.rotated(steer) - v)·dt
    wheel_base = np.asarray(p["wheel_base"], dtype=np.float64)
    sn, cos_m1 = held(state, ("steer_sin", "steer_cos_m1"), steer_angle, state.wheel_angle, _sin_cos_m1)
    cos_m1_dt, sin_dt = cos_m1 * dt, sn * dt
    dx = wheel_base * hx  # summed in place (the same bits as the one expression)
    dx += vx * cos_m1_dt
    dx -= vy * sin_dt
    dy = wheel_base * hy
    dy += vx * sin_dt
    dy += vy * cos_m1_dt
    length = norm(dx, dy)
    safe = length > 0  # Godot's normalized() of a zero vector is zero; keep the heading then
    if safe.all():
        nhx, nhy = dx / length, dy / length
    else:
        nhx = np.where(safe, dx / np.where(safe, length, 1.0), hx)
        nhy = np.where(safe, dy / np.where(safe, length, 1.0), hy)
    fast = speed > p["slip_speed"]
    # weights per tuning first (scalars unless swept), then picked per car
    weight = np.where(fast, _lerp_weight(p["traction_fast"], steady, dt), _lerp_weight(p["traction_slow"], steady, dt))
    along = nhx * vx  # same sign as heading . v.normalized()
    along += nhy * vy
    forward = along > 0
    heading = np.arctan2(nhy, nhx)

    # 4. integrate
    if not steady.all():
        rate = _resistance(p, dt * dt, speed, -1.0)  # resist·dt: the share friction and drag take
        new_x, new_y = _recipe_velocity(vx, vy, hx, hy, nhx, nhy, speed, weight, forward, along, push * dt, rate, p)
        step_x, step_y = new_x * dt, new_y * dt
    if steady.any():
        moved = _steady_velocity(vx, vy, hx, hy, nhx, nhy, speed, weight, forward, along, push, dt, p)
        if steady.all():
            new_x, new_y, step_x, step_y = moved
        else:
            new_x, new_y, step_x, step_y = (np.where(steady, a, b) for a, b in zip(moved, (new_x, new_y, step_x, step_y)))
    # guard: zero friction and drag never stop accelerating. One tick leaves a car at most
    # 2·speed + push·dt fast (recipe: |keep| ≤ 1, rate ≥ -1), 2.5·speed + 1.5·push·dt with
    # the midpoint rule; so while every car is well below the limit the check is skipped
    if 3.0 * float(speed.max()) + 2.0 * float(np.abs(push).max()) * dt > SPEED_LIMIT[LENGTH_UNIT]:
        new_x, new_y = limit_speed(new_x, new_y, LENGTH_UNIT)
    shape = heading.shape
    return State(state.x + step_x, state.y + step_y, heading, new_x, new_y,
                 wheel_angle=per_car(steer_angle, shape), traction_fast=forward & fast,
                 extra={"heading_x": per_car(nhx, shape), "heading_y": per_car(nhy, shape),
                        "steer_sin": per_car(sn, shape), "steer_cos_m1": per_car(cos_m1, shape)})


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
