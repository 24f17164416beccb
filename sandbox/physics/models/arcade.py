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

Option `recipe_2020` (default off: the recipe's Godot 4 text, the seed). On, the
recipe's Godot 3 version (2020), as that text writes it: apply_friction() without
`delta` (friction in 1/s and drag in 1/px act once, through `velocity +=
acceleration * delta`), friction tripled below 100 px/s, the car stopped below 5 px/s
whatever the pedals, traction a share of the turn taken each tick (lerp weight
`traction`, not `traction * delta`), and the steering keys read as pressed or not.
friction, drag and the two tractions then have their own units and ranges
(`Param.variant`); `rate_independent` does not apply to it.

Option `analog_pedals` (default off: the recipe's `is_action_pressed`, so any press of
accelerate gives the whole engine_power and any press of brake the whole braking). On:
both scaled by the pedal's strength (a gamepad trigger). Presets written before the
option existed load with it on: they drove that way.

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
faster than limits.SPEED_LIMIT_PX (20 000 px/s).

State after the common slots: the body's unit heading vector (`transform.x`, kept
from the tick that set it, as Godot keeps the node's transform; NaN until the first
tick, which then takes it from the heading).
"""

from __future__ import annotations

import math
from typing import Mapping

import numpy as np

from ..kernel import kernel
from ..state import Layout, Slot, index_of
from .arcade_params import PARAMS
from .geometry import DEGREES, RADIANS
from .limits import SPEED_LIMIT_PX, limit_speed

NAME = "arcade"
TITLE = "Arcade (Godot recipe)"
LENGTH_UNIT = "px"
REFERENCE_POINT = "the car's centre, midway between its wheels"
"""The point the state's position is (where path metrics are measured)."""
TOP_SPEED_FORMULA = "where the engine power meets friction and drag"
NO_TOP_SPEED = "none: with friction and drag at 0 nothing resists the motion"

STOP_SPEED = 50.0
"""px/s: below this, with no throttle or brake, the recipe sets velocity to zero."""
STOP_SPEED_2020 = 5.0
"""px/s: below this the 2020 recipe sets velocity to zero, pedals or not."""
SLOW_FRICTION_BELOW = 100.0
"""px/s: below this the 2020 recipe triples the friction (`friction_force *= 3`)."""
SLOW_FRICTION_FACTOR = 3.0
REFERENCE_DT = 1.0 / 60.0
"""s: the tick the recipe was tuned at; `rate_independent` keeps its feel at any rate."""


# Live plot channels: group -> (unit, ((state.extra key, label, factor), ...))
TELEMETRY = {
    "wheel angle": ("°", (("wheel_angle", "front wheels", DEGREES),)),
}

# What the HUD and the status line show besides speed and slip (read by sandbox/session/hud.py):
# the recipe's two traction regimes (slow: steering lerp; fast: drift above slip_speed)
HUD = {
    "regimes": (
        ("traction_fast", "traction FAST (drift, above {slip_speed:g} {unit}/s)"),
        ("at_rest", "at rest"),
        ("reversing", "reversing (speed clamp, no traction lerp)"),
        ("always", "traction slow"),
    ),
    "gauges": {},
}

STATE = Layout((Slot("heading_x", "", math.nan), Slot("heading_y", "", math.nan)))
S = STATE.index
P = index_of(p.name for p in PARAMS)


@kernel
def _resistance(friction: float, drag: float, scale: float, speed: float, floor: float) -> float:
    """friction·scale + drag·scale·|v|, never below `floor` (guard: no more than the
    whole velocity in one tick). scale = the recipe's inner dt gives the resistance
    rate (1/s, floor -1/dt); scale = dt·dt its share of the velocity in one tick
    (floor -1)."""
    return max(friction * scale + drag * scale * speed, floor)


@kernel
def _lerp_weight(traction: float, steady: bool, per_tick: bool, dt: float) -> float:
    """The traction lerp's weight: traction·dt (guard: at most 1, no overshoot); with
    `rate_independent` 1 - (1 - traction/60)^(60·dt); in the 2020 recipe traction
    itself (a share per tick, at most 1)."""
    if per_tick:
        return min(traction, 1.0)
    if steady:
        return 1.0 - (1.0 - min(traction * REFERENCE_DT, 1.0)) ** (dt / REFERENCE_DT)
    return min(traction * dt, 1.0)


@kernel
def _pressed(strength: float) -> float:
    """An action read with is_action_pressed: 1 when pressed at all, else 0."""
    return 1.0 if strength > 0 else 0.0


@kernel
def _friction_2020(friction: float, speed: float) -> float:
    """The 2020 recipe's friction (1/s): tripled below SLOW_FRICTION_BELOW px/s."""
    return friction * SLOW_FRICTION_FACTOR if speed < SLOW_FRICTION_BELOW else friction


@kernel
def tick(s, c, p, dt):
    """Advance one car (state row `s`, controls `c`, tuning `p`) by `dt` s, in place."""
    hx, hy = s[S.heading_x], s[S.heading_y]
    if math.isnan(hx):  # a car placed by hand: its transform from the rotation
        hx, hy = math.cos(s[S.heading]), math.sin(s[S.heading])
    vx, vy = s[S.vx], s[S.vy]
    steer, throttle, brake = c[0], c[1], c[2]
    recipe_2020 = p[P.recipe_2020] != 0.0
    steady = p[P.rate_independent] != 0.0 and not recipe_2020

    # 1. get_input: is_action_pressed pedals (and, in 2020, steering keys) unless analog;
    # the brake overwrites the throttle
    if p[P.analog_pedals] == 0.0:
        throttle, brake = _pressed(throttle), _pressed(brake)
        if recipe_2020:
            steer = _pressed(steer) - _pressed(-steer)
    steer_angle = steer * (p[P.steering_angle] * RADIANS)
    push = p[P.engine_power] * throttle
    if brake > 0:
        push = p[P.braking] * brake

    # 2. apply_friction: a slow car with no pedal stops, in 2020 any car below 5 px/s
    # (the resistance is taken in 4.)
    speed = math.sqrt(vx * vx + vy * vy)
    if (speed < STOP_SPEED_2020) if recipe_2020 else (push == 0 and speed < STOP_SPEED):
        vx, vy, speed = 0.0, 0.0, 0.0

    # 3. calculate_steering: only the front wheel's step minus the rear's matters,
    # wheel_base·heading + (v.rotated(steer) - v)·dt; cos - 1 as -sin²/(1 + cos),
    # free of the cancellation of subtracting 1
    sn = math.sin(steer_angle)
    sn2 = sn * sn
    cos_m1 = -sn2 / (1.0 + math.sqrt(1.0 - sn2))
    cos_m1_dt, sin_dt = cos_m1 * dt, sn * dt
    wheel_base = p[P.wheel_base]
    dx = wheel_base * hx + vx * cos_m1_dt - vy * sin_dt
    dy = wheel_base * hy + vx * sin_dt + vy * cos_m1_dt
    length = math.sqrt(dx * dx + dy * dy)
    nhx, nhy = hx, hy  # Godot's normalized() of a zero vector is zero: keep the heading then
    if length > 0:
        nhx, nhy = dx / length, dy / length
    fast = speed > p[P.slip_speed]
    weight = _lerp_weight(p[P.traction_fast] if fast else p[P.traction_slow], steady, recipe_2020, dt)
    along = nhx * vx + nhy * vy  # same sign as heading . v.normalized()
    back_speed = min(speed, p[P.max_speed_reverse])

    # 4. integrate
    if not steady:
        if recipe_2020:  # friction and drag once, through velocity += acceleration * delta
            rate = _resistance(_friction_2020(p[P.friction], speed), p[P.drag], dt, speed, -1.0)
        else:  # the share taken this tick: the recipe's delta, and the integration's
            rate = _resistance(p[P.friction], p[P.drag], dt * dt, speed, -1.0)
        push_dt = push * dt
        if along > 0:  # v·(1 - w + rate) + heading_new·|v|·w + heading·push·dt
            keep, grip = 1.0 - weight + rate, speed * weight
            new_x = vx * keep + nhx * grip + hx * push_dt
            new_y = vy * keep + nhy * grip + hy * push_dt
        elif along < 0:
            new_x = vx * rate - nhx * back_speed + hx * push_dt
            new_y = vy * rate - nhy * back_speed + hy * push_dt
        else:  # neither way (v ⟂ heading): v unchanged by the lerp
            new_x = vx * (1.0 + rate) + hx * push_dt
            new_y = vy * (1.0 + rate) + hy * push_dt
        step_x, step_y = new_x * dt, new_y * dt
    else:  # the resistance by the midpoint rule at 60 Hz strength; move by the mean velocity
        floor = -1.0 / dt
        resist = _resistance(p[P.friction], p[P.drag], REFERENCE_DT, speed, floor)
        mid_x = vx + (hx * push + vx * resist) * (dt / 2)
        mid_y = vy + (hy * push + vy * resist) * (dt / 2)
        mid_speed = math.sqrt(mid_x * mid_x + mid_y * mid_y)
        mid_resist = _resistance(p[P.friction], p[P.drag], REFERENCE_DT, mid_speed, floor)
        ax, ay = hx * push + mid_x * mid_resist, hy * push + mid_y * mid_resist
        if along > 0:
            lerp_x, lerp_y = vx + (nhx * speed - vx) * weight, vy + (nhy * speed - vy) * weight
        elif along < 0:
            lerp_x, lerp_y = -nhx * back_speed, -nhy * back_speed
        else:
            lerp_x, lerp_y = vx, vy
        new_x, new_y = lerp_x + ax * dt, lerp_y + ay * dt
        step_x, step_y = (vx + new_x) / 2 * dt, (vy + new_y) / 2 * dt
    new_x, new_y = limit_speed(new_x, new_y, SPEED_LIMIT_PX)  # guard: zero friction and drag

    s[S.x] += step_x
    s[S.y] += step_y
    s[S.heading] = math.atan2(nhy, nhx)
    s[S.vx], s[S.vy] = new_x, new_y
    s[S.wheel_angle] = steer_angle
    s[S.traction_fast] = 1.0 if (along > 0 and fast) else 0.0
    s[S.heading_x], s[S.heading_y] = nhx, nhy


def _inner_dt(p: Mapping[str, float], dt: float) -> float:
    """The recipe's second delta on friction and drag: the tick, or 1/60 s with
    `rate_independent`; the 2020 recipe has none (1)."""
    if p.get("recipe_2020", False):
        return 1.0
    return REFERENCE_DT if p.get("rate_independent", False) else dt


def _friction_at(p: Mapping[str, float], v):
    """Friction per px/s at speeds `v`: tripled below 100 px/s in the 2020 recipe."""
    if p.get("recipe_2020", False):
        return np.where(np.asarray(v) < SLOW_FRICTION_BELOW, SLOW_FRICTION_FACTOR, 1.0) * p["friction"]
    return p["friction"]


def body(p: Mapping[str, float]) -> dict[str, float]:
    """Drawing sizes (px): the recipe's wheel base, a body around it."""
    wb = float(p["wheel_base"])
    return {"wheel_base": wb, "track": 0.4 * wb + 12, "length": wb + 30, "width": 0.4 * wb + 20}


def force_curve(p: Mapping[str, float], speeds: np.ndarray, dt: float) -> dict[str, np.ndarray]:
    """Accelerations (px/s²) along the heading at full throttle, driving straight.

    What the recipe adds to the velocity each tick, divided by dt: engine_power,
    friction * v * dt, drag * v² * dt (the tick length appears once more than a
    physicist would write, hence the dependence on the tick rate), and their sum.
    With `rate_independent` the inner dt is 1/60 s at every rate; the 2020 recipe
    has none, and triples the friction below 100 px/s.
    """
    v = np.asarray(speeds, dtype=np.float64)
    inner_dt = _inner_dt(p, dt)
    engine = np.full_like(v, float(p["engine_power"]))
    friction = _friction_at(p, v) * inner_dt * v
    drag = p["drag"] * inner_dt * v * v
    return {"engine": engine, "friction": friction, "drag": drag, "net": engine + friction + drag}


def top_speed(p: Mapping[str, float], dt: float) -> float:
    """Speed (px/s) where the net acceleration of `force_curve` is zero; inf if none.

    Root of drag*dt*v² + friction*dt*v + engine_power = 0 with v > 0 (dt = 1/60 s
    with `rate_independent`). The 2020 recipe has no inner dt and triples the friction
    below 100 px/s: a car held below 100 px/s by the tripled friction settles there,
    else it goes on to the plain balance; and one whose first tick of engine from rest,
    engine_power·dt, stays under the 5 px/s stop never starts (that speed is its top).
    """
    inner_dt = _inner_dt(p, dt)
    engine = float(p["engine_power"])
    if p.get("recipe_2020", False):
        if engine * dt < STOP_SPEED_2020:
            return engine * dt
        slow = _balance(p["drag"], p["friction"] * SLOW_FRICTION_FACTOR, engine)
        if slow < SLOW_FRICTION_BELOW:
            return slow
    return _balance(p["drag"] * inner_dt, p["friction"] * inner_dt, engine)


def _balance(a: float, b: float, c: float) -> float:
    """The positive root of a·v² + b·v + c = 0 (a, b ≤ 0 < c); 0 for c ≤ 0, inf for none."""
    if c <= 0:
        return 0.0
    if a == 0:
        return float(c / -b) if b < 0 else float("inf")
    return float((-b - math.sqrt(b * b - 4 * a * c)) / (2 * a))
