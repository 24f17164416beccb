"""Arcade controller of the Godot recipe "Car steering" (seed 001, all five parts).

Units: px, s, rad inside (the `steering_angle` parameter is in degrees, as in the
recipe). Integrator: the recipe's own semi-implicit Euler at a fixed tick `dt`.

The tick is the recipe's `_physics_process`, one small function per function of the
text, in its order (the recipe's line beside each line of code):
 1. `get_input`: steer_direction = turn * deg_to_rad(steering_angle); acceleration =
    transform.x * engine_power on accelerate, overwritten by transform.x * braking on
    brake.
 2. `apply_friction`: with no acceleration and |v| < 50 px/s the car stops; then
    acceleration += v * friction * delta + v * |v| * drag * delta. Quirk kept: these
    are multiplied by delta here and again in `velocity += acceleration * delta`, so
    the feel depends on the tick.
 3. `calculate_steering`: a rear and a front wheel wheel_base apart move by v*delta
    and by v.rotated(steer_direction)*delta; new_heading points rear -> front.
    Forward (d > 0): v = lerp(v, new_heading*|v|, traction*delta) with traction_fast
    above slip_speed, else traction_slow. Backward: v = -new_heading *
    min(|v|, max_speed_reverse). rotation = new_heading.angle().
 4. `velocity += acceleration * delta`; `move_and_slide()`: position += v * delta
    on the open field.

The heading is kept as the recipe keeps it, the unit vector `transform.x` (state
slots heading_x, heading_y); `rotation`, the angle in the state's `heading` slot, is
written by `show` from it. What stays the same while the controls and the tuning are
held (get_input's values, the sine and cosine of steer_direction, the lerp weights)
is taken by `held`: a batch driver takes it once per call when the controls are
held (once per tick from a trace) and runs `advance` tick after tick across a chunk
of cars, then `show` once at the end; `tick` is `settle`, `held`, `advance` and `show`
in a row, so each car of a batch gets the same bits as the one-car kernel.

Departures, each a named step after the text's step it changes:

Step 4a, walls (on a track with walls; none on the open field): `move_and_slide`
is the tuning's engine's (`godot_engine`, walls.py; the car's collision shape from its
tuning). Godot 3, as the recipe's Godot 3 text writes it, `velocity =
move_and_slide(velocity)`: the position where the slides left the car and the velocity
they returned go back into the state (a car driven into a wall stops there; along a
wall it keeps v − n(v·n)). Godot 4 (the default), as the recipe's Godot 4 text:
`move_and_slide()` moves the car and leaves `velocity` as it was (4.4's floating mode
changes nothing in it: pressed into a wall it keeps its speed). The body is
at the tick's new rotation (calculate_steering sets it first). With
`rate_independent` the motion is the mean velocity's, and on a contact the state's
velocity becomes what move_and_slide returned for it. `wall_contacts` counts the
tick's contacts (0: it touched no wall).

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
stops changing the feel, calibrated so that at 60 Hz it drives like the recipe
(`integrate_midpoint` in place of the recipe's step 4):
 - friction and drag are rates taken at the recipe's 60 Hz strength,
   v·(friction + drag·|v|)·(1/60) px/s², applied once per tick by the midpoint rule
   (the balance with the engine, hence the top speed, is the same at every rate);
 - position advances by the mean of the tick's start and end velocities;
 - the traction lerp compounds: weight = 1 - (1 - traction/60)^(60·dt), exactly
   traction/60 at 60 Hz and never above 1 (the recipe's traction·dt is above 1
   when dt > 1/traction).

Guards (never acting at the recipe's defaults): one tick of friction and drag removes
at most the whole velocity; the traction lerp's weight is at most 1; a zero
rear-to-front vector (Godot's normalized() gives zero, and rotation 0) keeps the
heading; no car goes faster than limits.SPEED_LIMIT_PX (20 000 px/s).

State after the common slots: the body's unit heading vector (`transform.x`, kept
from the tick that set it, as Godot keeps the node's transform; NaN until the first
tick, which then takes it from the `heading` angle: a car placed by hand), and
`wall_contacts`, the walls the last tick met (step 4a).
"""

from __future__ import annotations

import math
from typing import Mapping

import numpy as np

from ..car_shape import contact_slots
from ..channels import Channel
from ..kernel import kernel
from ..state import Layout, Slot, index_of
from ..walls import slide
from .arcade_params import PARAMS
from .geometry import DEGREES, RADIANS, rotate
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
CHANNELS = (
    Channel("wheel_angle", "front wheel angle", "°", DEGREES),
    Channel("traction_fast", "fast traction (drift)", "0/1"),
)
"""What the car produces per tick besides the common channels (physics/channels.py)."""
PRESETS = {"wheel angle": ("wheel_angle",)}
"""The plots' channel presets: name -> channel names."""

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

MEETS_WALLS = True
"""Its tick takes the world (`walls.Walls`, or None) as a fifth argument."""
STATE = Layout((Slot("heading_x", "", math.nan), Slot("heading_y", "", math.nan), Slot("wall_contacts", "count")))
S = STATE.index
P = index_of(p.name for p in PARAMS)
SHAPE_AT = contact_slots(PARAMS)
"""The tuning's shape parameters start here (body_shape.of_tuning), its engine option after them."""
HELD = index_of(("steer_direction", "cos_steer", "sin_steer", "push", "weight_slow", "weight_fast"))
"""What `held` takes once while the controls and the tuning are held (see `held`)."""
MOVES = ("x", "y", "vx", "vy", "heading_x", "heading_y")
"""The state slots `advance` takes, in its order; it returns them and then MOVED's last."""
MOVED = MOVES + ("traction_fast", "wall_contacts")


@kernel
def _pressed(strength: float) -> float:
    """An action read with is_action_pressed: 1 when pressed at all, else 0."""
    return 1.0 if strength > 0 else 0.0


@kernel(inline=True)
def steer_input(turn: float, p) -> float:
    """The steer input as get_input() reads it, taken by the drivers before the steering
    feel (steer_feel.py), so a steer time ramps a key read pressed or not: the 2020 text
    with the recipe's on/off pedals reads the steering keys that way too (departure)."""
    if p[P.analog_pedals] == 0.0 and p[P.recipe_2020] != 0.0:
        return _pressed(turn) - _pressed(-turn)
    return turn


@kernel
def get_input(c, p) -> tuple[float, float]:
    """The recipe's get_input(): (steer_direction in rad, push in px/s²), the
    acceleration being transform.x * push. The steer `c[0]` is `steer_input`'s, after
    the steering feel."""
    turn, accelerate, brake = c[0], c[1], c[2]  # turn = Input.get_axis("steer_left", "steer_right")
    if p[P.analog_pedals] == 0.0:  # Input.is_action_pressed: all or nothing
        accelerate, brake = _pressed(accelerate), _pressed(brake)
    steer_direction = turn * (p[P.steering_angle] * RADIANS)  # turn * deg_to_rad(steering_angle)
    push = 0.0  # acceleration = Vector2.ZERO
    if accelerate > 0:
        push = p[P.engine_power] * accelerate  # acceleration = transform.x * engine_power
    if brake > 0:  # checked second: the brake wins
        push = p[P.braking] * brake  # acceleration = transform.x * braking
    return steer_direction, push


@kernel
def _lerp_weight(traction: float, p, dt: float) -> float:
    """The traction lerp's weight: traction * delta (guard: at most 1, no overshoot);
    with `rate_independent` 1 - (1 - traction/60)^(60·dt); in the 2020 recipe traction
    itself (a share per tick, at most 1)."""
    if p[P.recipe_2020] != 0.0:
        return min(traction, 1.0)
    if p[P.rate_independent] != 0.0:
        return 1.0 - (1.0 - min(traction * REFERENCE_DT, 1.0)) ** (dt / REFERENCE_DT)
    return min(traction * dt, 1.0)


@kernel(inline=True)
def settle(s):
    """A car placed by hand (state row `s` whose transform.x is still NaN) gets its
    transform.x from its rotation."""
    if math.isnan(s[S.heading_x]):
        s[S.heading_x], s[S.heading_y] = math.cos(s[S.heading]), math.sin(s[S.heading])


@kernel(inline=True)
def held(c, p, dt: float) -> tuple[float, float, float, float, float, float]:
    """What stays the same while controls `c` and tuning `p` are held, laid out by
    HELD: get_input's values, the sine and cosine of steer_direction (for
    velocity.rotated) and the lerp weights."""
    steer_direction, push = get_input(c, p)
    weight_slow = _lerp_weight(p[P.traction_slow], p, dt)
    weight_fast = _lerp_weight(p[P.traction_fast], p, dt)
    return steer_direction, math.cos(steer_direction), math.sin(steer_direction), push, weight_slow, weight_fast


@kernel
def _resistance(speed: float, p, inner_dt: float, dt: float) -> float:
    """friction * inner_dt + |v| * drag * inner_dt, the resistance rate (1/s) that
    apply_friction adds to the acceleration as v * rate; never below -1/dt (guard: no
    more than the whole velocity in one tick). The 2020 recipe triples the friction
    below SLOW_FRICTION_BELOW px/s (and calls it with inner_dt 1)."""
    friction = p[P.friction]
    if p[P.recipe_2020] != 0.0 and speed < SLOW_FRICTION_BELOW:
        friction *= SLOW_FRICTION_FACTOR  # friction_force *= 3
    return max(friction * inner_dt + speed * p[P.drag] * inner_dt, -1.0 / dt)


@kernel
def apply_friction(vx: float, vy: float, push: float, p, dt: float) -> tuple[float, float, float, float]:
    """The recipe's apply_friction(delta): (vx, vy) after the stop of a slow car, its
    length, and the resistance rate (1/s): acceleration += velocity * rate."""
    speed = math.sqrt(vx * vx + vy * vy)
    if p[P.recipe_2020] != 0.0:  # departure (2020 text): below 5 px/s, pedals or not
        stop = speed < STOP_SPEED_2020
    else:  # if acceleration == Vector2.ZERO and velocity.length() < 50
        stop = push == 0.0 and speed < STOP_SPEED
    if stop:
        vx, vy, speed = 0.0, 0.0, 0.0  # velocity = Vector2.ZERO
    inner_dt = dt  # friction_force = velocity * friction * delta; drag_force = ... * drag * delta
    if p[P.recipe_2020] != 0.0:
        inner_dt = 1.0  # departure (2020 text): no delta
    elif p[P.rate_independent] != 0.0:
        inner_dt = REFERENCE_DT  # departure (rate_independent): the 60 Hz strength
    return vx, vy, speed, _resistance(speed, p, inner_dt, dt)


@kernel
def _normalized(x: float, y: float, keep_x: float, keep_y: float) -> tuple[float, float]:
    """(x, y).normalized(); a zero vector gives (keep_x, keep_y) (guard: Godot's
    zero, and a rotation of 0, would turn the car)."""
    length = math.sqrt(x * x + y * y)
    if length > 0:
        return x / length, y / length
    return keep_x, keep_y


@kernel
def _lerp(a: float, b: float, weight: float) -> float:
    """Godot's lerp(a, b, weight) = a + (b - a) * weight."""
    return a + (b - a) * weight


@kernel(inline=True)
def traction_weight(speed, u, p):
    """(fast, the traction lerp's weight) at `speed` px/s: above slip_speed the fast
    traction, else the slow one, each a weight of `held` (u)."""
    fast = speed > p[P.slip_speed]  # if velocity.length() > slip_speed: traction = traction_fast
    return fast, u[HELD.weight_fast] if fast else u[HELD.weight_slow]  # traction * delta (guarded)


@kernel
def calculate_steering(x, y, hx, hy, vx, vy, speed, u, p, dt):
    """The recipe's calculate_steering(delta) (Part 5): (new_heading, velocity after
    the traction lerp or the reverse clamp, whether it slid: the fast traction and
    d > 0). `speed` is velocity.length(), as apply_friction took it."""
    wheel_base = p[P.wheel_base]
    # 1. Find the wheel positions
    rear_x, rear_y = x - hx * wheel_base / 2.0, y - hy * wheel_base / 2.0  # position - transform.x * wheel_base / 2.0
    front_x, front_y = x + hx * wheel_base / 2.0, y + hy * wheel_base / 2.0  # position + transform.x * wheel_base / 2.0
    # 2. Move the wheels forward
    rear_x, rear_y = rear_x + vx * dt, rear_y + vy * dt  # rear_wheel += velocity * delta
    turned_x, turned_y = rotate(vx, vy, u[HELD.cos_steer], u[HELD.sin_steer])  # velocity.rotated(steer_direction)
    front_x, front_y = front_x + turned_x * dt, front_y + turned_y * dt  # front_wheel += ... * delta
    # 3. var new_heading = (front_wheel - rear_wheel).normalized()
    nhx, nhy = _normalized(front_x - rear_x, front_y - rear_y, hx, hy)
    # choose which traction value to use - at lower speeds, slip should be low
    fast, weight = traction_weight(speed, u, p)
    d = nhx * vx + nhy * vy  # new_heading.dot(velocity.normalized()), the same sign
    if d > 0:  # velocity = lerp(velocity, new_heading * velocity.length(), traction * delta)
        vx, vy = _lerp(vx, nhx * speed, weight), _lerp(vy, nhy * speed, weight)
    elif d < 0:  # velocity = -new_heading * min(velocity.length(), max_speed_reverse)
        back = min(speed, p[P.max_speed_reverse])
        vx, vy = -nhx * back, -nhy * back
    return nhx, nhy, vx, vy, fast and d > 0


@kernel(inline=True)
def integrate(x, y, vx, vy, ax, ay, hx, hy, p, dt, walls):
    """The recipe's step 4: velocity += acceleration * delta, then move_and_slide()
    moves by velocity * delta (among `walls`, step 4a, the body along (hx, hy)); (x, y,
    vx, vy, wall contacts) after the tick."""
    vx, vy = vx + ax * dt, vy + ay * dt  # velocity += acceleration * delta
    vx, vy = limit_speed(vx, vy, SPEED_LIMIT_PX)  # guard: zero friction and drag
    return slide(walls, p, SHAPE_AT, x, y, hx, hy, vx, vy, dt)  # velocity = move_and_slide(velocity)


@kernel(inline=True)
def integrate_midpoint(x, y, start_x, start_y, start_rate, vx, vy, hx, hy, nhx, nhy, push, p, dt, walls):
    """Departure (`rate_independent`) in place of step 4: the engine and the
    resistance at the 60 Hz strength by the midpoint rule from the tick's start
    velocity (start_x, start_y, after the stop; its resistance rate start_rate),
    added to the steered velocity (vx, vy); the car moves by the mean of the start
    and end velocities (among `walls`, step 4a, the body along (nhx, nhy)): (x, y,
    vx, vy, wall contacts)."""
    mid_x = start_x + (hx * push + start_x * start_rate) * (dt / 2)
    mid_y = start_y + (hy * push + start_y * start_rate) * (dt / 2)
    mid_rate = _resistance(math.sqrt(mid_x * mid_x + mid_y * mid_y), p, REFERENCE_DT, dt)
    vx, vy = vx + (hx * push + mid_x * mid_rate) * dt, vy + (hy * push + mid_y * mid_rate) * dt
    vx, vy = limit_speed(vx, vy, SPEED_LIMIT_PX)  # guard: zero friction and drag
    x, y, mean_x, mean_y, contacts = slide(
        walls, p, SHAPE_AT, x, y, nhx, nhy, (start_x + vx) / 2, (start_y + vy) / 2, dt
    )
    if contacts != 0.0:  # step 4a: the velocity move_and_slide returned
        vx, vy = mean_x, mean_y
    return x, y, vx, vy, contacts


@kernel(inline=True)
def advance(moves, u, p, dt, walls):
    """One tick of `_physics_process(delta)` from `moves`, laid out by MOVES: position
    (x, y), velocity (vx, vy) and transform.x (hx, hy); with `u` what `held` took for
    the held controls and tuning, among `walls` (None: the open field): (x, y, vx, vy,
    hx, hy) after it, 1.0 if it slid (else 0.0) and its wall contacts: MOVED."""
    x, y, vx, vy, hx, hy = moves
    push = u[HELD.push]
    ax, ay = hx * push, hy * push  # get_input(): acceleration = transform.x * engine_power (or braking)
    vx, vy, speed, rate = apply_friction(vx, vy, push, p, dt)
    ax, ay = ax + vx * rate, ay + vy * rate  # acceleration += drag_force + friction_force
    start_x, start_y = vx, vy
    nhx, nhy, vx, vy, slid = calculate_steering(x, y, hx, hy, vx, vy, speed, u, p, dt)
    if p[P.rate_independent] != 0.0 and p[P.recipe_2020] == 0.0:  # departure: its own step 4
        x, y, vx, vy, contacts = integrate_midpoint(
            x, y, start_x, start_y, rate, vx, vy, hx, hy, nhx, nhy, push, p, dt, walls
        )
    else:  # velocity += acceleration * delta; velocity = move_and_slide(velocity)
        x, y, vx, vy, contacts = integrate(x, y, vx, vy, ax, ay, nhx, nhy, p, dt, walls)
    # rotation = new_heading.angle(): kept as transform.x
    return x, y, vx, vy, nhx, nhy, 1.0 if slid else 0.0, contacts


@kernel(inline=True)
def show(s, u):
    """What is drawn and read back: rotation = new_heading.angle() in the `heading`
    slot, and the wheels' angle."""
    s[S.heading] = math.atan2(s[S.heading_y], s[S.heading_x])  # Vector2.angle()
    s[S.wheel_angle] = u[HELD.steer_direction]


@kernel(inline=True)
def tick(s, c, p, dt, walls):
    """Advance one car (state row `s`, controls `c`, tuning `p`) by `dt` s among
    `walls` (walls.Walls, or None: the open field), in place."""
    settle(s)
    u = held(c, p, dt)
    moves = (s[S.x], s[S.y], s[S.vx], s[S.vy], s[S.heading_x], s[S.heading_y])
    x, y, vx, vy, hx, hy, slid, contacts = advance(moves, u, p, dt, walls)
    s[S.x], s[S.y], s[S.vx], s[S.vy], s[S.heading_x], s[S.heading_y] = x, y, vx, vy, hx, hy
    s[S.traction_fast], s[S.wall_contacts] = slid, contacts
    show(s, u)


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
