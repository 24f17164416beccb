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

 4. walls (on a track with walls; none on the open field): the body turned to the new
    heading, the tick's motion p_old → p goes through move_and_slide of the tuning's
    engine (`godot_engine`, walls.py; the collision shape from the tuning) as the
    exported script does, and what it returns is fed back: p where the slides left it,
    the returned velocity (Godot 3) or the body's own (Godot 4: get_real_velocity()),
    and the speed becomes that velocity's component along d (a car pushed
    into a wall comes to rest instead of keeping its pedal speed).

Guard: α is limited to keep β below MAX_INNER (89°); wider locks would put the centre
inside the car. State after the common slots: speed (m/s, signed), alpha, beta,
wheel_left, wheel_right (rad), omega (rad/s), icr_x, icr_y (m; NaN going straight),
wall_contacts (the walls the last tick met, step 4).
"""

from __future__ import annotations

import math
from typing import Mapping

from ..car_shape import contact_slots, engine_param, shape_params
from ..channels import Channel
from ..kernel import kernel
from ..params import Param
from ..state import Layout, Slot, index_of
from ..steer_feel import feel_params
from ..walls import slide_pose
from . import speed_control
from .geometry import DEGREES, RADIANS, rotate_about, sign, wrap

NAME = "ackermann"
TITLE = "Ackermann kinematics (Zorin)"
LENGTH_UNIT = "m"
REFERENCE_POINT = "the car's centre, midway between the axles"
"""The point the state's position is (where path metrics are measured)."""
TOP_SPEED_FORMULA, NO_TOP_SPEED = speed_control.TOP_SPEED_FORMULA, speed_control.NO_TOP_SPEED
MAX_INNER = 89.0 * RADIANS
SHAPE = shape_params("m", "rectangle", 3.8, 1.8)
"""The collision shape: the body the window draws at the defaults (l + 1.2 by w + 0.3)."""

PARAMS = (
    Param(
        name="wheel_base",
        label="Wheel base",
        unit="m",
        default=2.6,
        min=0.5,
        max=10,
        step=0.05,
        help="l: distance between the front and rear axles.",
        group="Chassis",
    ),
    Param(
        name="track_width",
        label="Track width",
        unit="m",
        default=1.5,
        min=0.3,
        max=5,
        step=0.05,
        help="w: distance between the left and right wheels.",
        group="Chassis",
    ),
    Param(
        name="max_steer",
        label="Outer wheel angle",
        unit="°",
        default=30,
        min=1,
        max=60,
        step=0.5,
        help="α at full steer: the outer front wheel's angle. The inner wheel turns further (β).",
        group="Steering",
    ),
) + (*speed_control.PARAMS, *SHAPE, engine_param(), *feel_params("m", assists=False))


# Live plot channels: group -> (unit, ((state.extra key, label, factor), ...))
CHANNELS = (
    Channel("wheel_outer", "outer wheel angle α", "°", DEGREES, slot="alpha"),
    Channel("wheel_inner", "inner wheel angle β", "°", DEGREES, slot="beta"),
    Channel("signed_speed", "signed speed", "m/s", slot="speed"),
)
"""What the car produces per tick besides the common channels (physics/channels.py)."""
PRESETS = {"front wheel angles": ("wheel_outer", "wheel_inner"), "yaw rate": ("yaw_rate",)}
"""The plots' channel presets: name -> channel names."""

# What the HUD and the status line show besides speed and slip (read by sandbox/session/hud.py):
# "regimes": the status line's regime, the first (test, text) whose test holds;
# "gauges": the dashboard's engine gauges, gauge -> state slot
HUD = {"regimes": (), "gauges": {}}

STATE = Layout(
    (
        Slot("speed", "m/s"),
        Slot("alpha", "rad"),
        Slot("beta", "rad"),
        Slot("omega", "rad/s"),
        Slot("wheel_left", "rad"),
        Slot("wheel_right", "rad"),
        Slot("icr_x", "m", math.nan),
        Slot("icr_y", "m", math.nan),
        Slot("wall_contacts", "count"),
    )
)
S = STATE.index
P = index_of(p.name for p in PARAMS)
SHAPE_AT = contact_slots(PARAMS)
"""The tuning's shape parameters start here (body_shape.of_tuning), its engine option after them."""
FEEL_SPEED = "speed"
"""The steering feel's speed (steer_feel.py): the size of this signed speed slot."""
MEETS_WALLS = True
"""Its tick takes the world (`walls.Walls`, or None) as a fifth argument."""


@kernel
def _inner_angle(alpha: float, track_width: float, wheel_base: float) -> float:
    """β (rad) from cot β = cot α − w/l, for α > 0."""
    cot_beta = 1 / math.tan(alpha) - track_width / wheel_base
    return math.atan2(1.0, cot_beta)


def inner_angle(alpha: float, p: Mapping[str, float]) -> float:
    """β (rad) of outer angle α under tuning `p`, from Python (the kernel's own helper)."""
    return _inner_angle(float(alpha), float(p["track_width"]), float(p["wheel_base"]))


@kernel
def outer_limit(track_width: float, wheel_base: float) -> float:
    """Largest α (rad) whose inner angle stays at MAX_INNER or below."""
    return math.atan2(1.0, 1 / math.tan(MAX_INNER) + track_width / wheel_base)


@kernel(inline=True)
def tick(s, c, p, dt, walls):
    """Advance one car (state row `s`, controls `c`, tuning `p`) by `dt` s among
    `walls` (walls.Walls, or None: the open field), in place."""
    x0, y0, h = s[S.x], s[S.y], s[S.heading]
    steer_in = c[0]
    # the pedals' speed; speed_control.PARAMS sit in `p` from max_speed on
    speed = speed_control.next_speed(s[S.speed], c[1], c[2], p, P.max_speed, dt)
    side = sign(steer_in)  # +1: centre on the right
    l, w = p[P.wheel_base], p[P.track_width]
    alpha = min(abs(steer_in) * (p[P.max_steer] * RADIANS), outer_limit(w, l))
    turning = alpha > 1e-9
    beta = _inner_angle(alpha, w, l) if turning else 0.0

    dx, dy = math.cos(h), math.sin(h)
    omega = 0.0
    if turning:  # 1.-3.: about the centre
        ex, ey = -dy * side, dx * side  # towards the centre
        reach = l / math.tan(alpha)  # l·cot α
        rear_x, rear_y = x0 - l / 2 * dx - w / 2 * ex, y0 - l / 2 * dy - w / 2 * ey
        cx, cy = rear_x + reach * ex, rear_y + reach * ey
        omega = side * speed / reach
        x, y = rotate_about(x0, y0, cx, cy, omega * dt)
    else:  # straight along d
        cx, cy = math.nan, math.nan
        x, y = x0 + speed * dt * dx, y0 + speed * dt * dy
    heading = wrap(h + omega * dt)

    # walls: move_and_slide of the tick's motion, its returned velocity fed back
    x, y, vx, vy, contacts = slide_pose(walls, p, SHAPE_AT, x0, y0, x, y, heading, dt)
    if contacts != 0.0:  # the speed along the heading after the wall
        speed = vx * math.cos(heading) + vy * math.sin(heading)
    s[S.x], s[S.y], s[S.heading] = x, y, heading
    s[S.vx], s[S.vy] = vx, vy
    s[S.wall_contacts] = contacts
    s[S.wheel_angle] = side * alpha
    s[S.traction_fast] = 0.0
    s[S.speed], s[S.alpha], s[S.beta], s[S.omega] = speed, alpha, beta, omega
    right_turn = side > 0
    s[S.wheel_left] = side * (alpha if right_turn else beta)  # outer on a right turn
    s[S.wheel_right] = side * (beta if right_turn else alpha)  # inner on a right turn
    s[S.icr_x], s[S.icr_y] = cx, cy


def body(p: Mapping[str, float]) -> dict[str, float]:
    """Drawing sizes (m): wheels at ±l/2 along and ±w/2 across, as in the notes."""
    l, w = float(p["wheel_base"]), float(p["track_width"])
    return {"wheel_base": l, "track": w, "length": l + 1.2, "width": w + 0.3}


force_curve = speed_control.force_curve
top_speed = speed_control.top_speed
