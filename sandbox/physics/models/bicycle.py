"""Kinematic bicycle of "Simple 2D car steering physics in games" (seed 000).

Units: m, s, rad (angles in degrees on the sliders). Godot conventions: y down,
heading 0 along +x, positive steer turns right (heading increases).

Default, the blog's six lines, every tick: put a back and a front wheel wheel_base
apart about the centre (rebuilt from centre and heading each tick, so the wheel base
never drifts), move the back wheel speed·dt along the heading and the front wheel
speed·dt along heading + steer angle, then centre = their midpoint and heading = the
angle from back to front. The speed comes from the pedals (speed_control.py).

Which point the speed drives, and the path (L wheel base, δ steer angle; the limit of
small dt): in the default, `speed` is how far EACH wheel moves in a tick before the
wheel base is rebuilt, so no point of the car keeps it in a turn: the yaw rate is
speed·sin δ/L, the rear axle travels at speed·(1 + cos δ)/2 on a circle of radius
L/(2·tan(δ/2)), the centre at speed·cos(δ/2) on radius L/(2·sin(δ/2)). (The blog's
front wheel advances r where a rigid car's would advance r/cos δ: that is where the
wheel base shrinks before the rebuild.) Going straight every point moves at `speed`.

Options from the comment thread, all off by default:
- exact_arc: a rigid bicycle whose FRONT wheel rolls at `speed`, rotated about the
  instantaneous centre (where the wheel axes meet, L/tan δ out from the rear axle) at
  ω = speed·sin δ/L: the default's yaw rate, but not its path; the rear axle travels
  at speed·cos δ on radius L/tan δ (the exact kinematic circle, 7.7 % tighter than the
  default's at 30°), the centre on √((L/tan δ)² + (L/2)²). The pose is the same for
  any dt while the steering is constant.
- keep_wheel_base (Christopher Night): the front wheel travels √(B²+C)−B with
  B = (b−r)·cos(steer), C = r·(2b−r), r = speed·dt, b = wheel_base, so the wheels
  end the tick exactly wheel_base apart.
- steer_rate > 0: the wheels turn towards the input at that rate instead of at once,
  and return to centre at return_rate when no steering key is held (optionally
  scaled by speed/top speed, so a parked car keeps its wheels turned).
- Drift ILLUSIONS, not physics: drift_delay moves the wheels along the heading of
  that many seconds ago while the body is drawn at the current one; drift_overrotate
  draws the body turned further by steer·(speed/top speed)·drift_overrotate.

Walls (on a track with walls; none on the open field), a step after the six lines:
the car's body turned to the new heading, the tick's motion (from the old centre to
the new) goes through move_and_slide of the tuning's engine (`godot_engine`, walls.py;
the collision shape from the tuning) as the exported script does, and what it returns
is fed back: the centre where the slides left it, the velocity it returned (Godot 3),
or the body's own (Godot 4: `get_real_velocity()`), and `speed` becomes that
velocity's component along the heading (a car pushed head-on into a wall is brought
to rest, not left at its pedal speed while its body stands still; along a wall it
keeps the share of its speed the wall lets through). `wall_contacts` counts the
tick's contacts (0: it touched no wall).

State after the common slots: speed (m/s, signed), steer (rad), display_heading
(rad), wheel_gap (m, back-to-front distance after the move, before the rebuild),
ticks (count), icr_x, icr_y (m: the instantaneous centre; NaN going straight), and
heading_history (HISTORY ticks, a ring indexed by ticks) for drift_delay: kept only
while drift_delay is on; its first slot holds UNSET while there is none (a fresh car,
or the delay off the tick before), and the next tick with the delay fills it with the
current heading; wall_contacts (count).
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
from .geometry import DEGREES, RADIANS, rotate_about, wrap

NAME = "bicycle"
TITLE = "Kinematic bicycle (blog, 2010)"
LENGTH_UNIT = "m"
REFERENCE_POINT = "the wheel-base midpoint"
"""The point the state's position is (where path metrics are measured)."""
TOP_SPEED_FORMULA, NO_TOP_SPEED = speed_control.TOP_SPEED_FORMULA, speed_control.NO_TOP_SPEED
HISTORY = 128
"""ticks of heading kept for drift_delay (0.5 s needs 120 at 240 Hz)."""
UNSET = 1e9
"""rad: heading_history[0] while the history is unset. Finite (every extra but the
centre stays finite) and far outside (-π, π], where every heading a tick writes lies."""

PARAMS = (
    (
        Param(
            name="wheel_base",
            label="Wheel base",
            unit="m",
            default=2.5,
            min=0.5,
            max=10,
            step=0.05,
            help="Distance between the back and the front wheel.",
            group="Chassis",
        ),
        Param(
            name="max_steer",
            label="Steering angle",
            unit="°",
            default=30,
            min=1,
            max=60,
            step=0.5,
            help="Front wheel angle at full steer.",
            group="Steering",
        ),
    )
    + speed_control.PARAMS
    + (
        Param.switch(
            name="exact_arc",
            label="Exact arc",
            default=False,
            help="Off (the blog): each wheel moves the speed × the tick, then the wheel base is rebuilt; the rear "
            "axle ends up at speed·(1+cos δ)/2 on a circle of L/(2·tan(δ/2)). On: a rigid car whose front "
            "wheel rolls at the speed, rotated about the instantaneous centre: the same yaw rate, the rear "
            "axle on the exact L/tan δ (7.7 % tighter at 30°), the same path at any tick rate.",
        ),
        Param.switch(
            name="keep_wheel_base",
            label="Front wheel keeps wheel base",
            default=False,
            help="The comment thread's correction: the front wheel travels the extra distance that keeps "
            "the wheels exactly one wheel base apart.",
        ),
        Param(
            name="steer_rate",
            label="Steering speed",
            unit="°/s",
            default=0,
            min=0,
            max=720,
            step=5,
            help="How fast the wheels turn while a steering key is held; 0 = at once (the blog).",
            group="Steering",
        ),
        Param(
            name="return_rate",
            label="Return to centre",
            unit="°/s",
            default=180,
            min=0,
            max=1440,
            step=5,
            help="How fast the wheels straighten with no steering key (when steering speed > 0).",
            group="Steering",
        ),
        Param.switch(
            name="return_with_speed",
            label="Return scales with speed",
            default=False,
            help="Return to centre at return rate × speed / top speed (a parked car keeps its wheels turned).",
            group="Steering",
        ),
        Param(
            name="drift_delay",
            label="Drift illusion: delay",
            unit="s",
            default=0,
            min=0,
            max=0.5,
            step=0.01,
            help="ILLUSION: the wheels move along the heading of this long ago; the body is drawn at today's.",
            group="Drift illusion",
        ),
        Param(
            name="drift_overrotate",
            label="Drift illusion: over-rotate",
            unit="×",
            default=0,
            min=0,
            max=2,
            step=0.05,
            help="ILLUSION: draw the body turned further by steer × speed/top speed × this.",
            group="Drift illusion",
        ),
    )
    + shape_params("m", "rectangle", 3.7, 1.8)  # the drawn body at the defaults: wb + 1.2, 0.6 wb + 0.3
    + (engine_param(),)
    + feel_params("m", assists=False)
)


# Live plot channels: group -> (unit, ((state.extra key, label, factor), ...))
CHANNELS = (
    Channel("wheel_angle", "front wheel angle", "°", DEGREES, slot="steer"),
    Channel("signed_speed", "signed speed", "m/s", slot="speed"),
    Channel("drawn_heading", "drawn heading", "°", DEGREES, slot="display_heading"),
    Channel("path_heading", "path heading", "°", DEGREES, slot="heading"),
)
"""What the car produces per tick besides the common channels (physics/channels.py)."""
PRESETS = {
    "wheel angle": ("wheel_angle",),
    "speed": ("signed_speed",),
    "drawn vs path heading": ("drawn_heading", "path_heading"),
}
"""The plots' channel presets: name -> channel names."""

# What the HUD and the status line show besides speed and slip (read by sandbox/session/hud.py):
# "regimes": the status line's regime, the first (test, text) whose test holds;
# "gauges": the dashboard's engine gauges, gauge -> state slot
HUD = {"regimes": (), "gauges": {}}

STATE = Layout(
    (
        Slot("speed", "m/s"),
        Slot("steer", "rad"),
        Slot("display_heading", "rad"),  # 0 = the heading of a car at rest at the origin
        Slot("wheel_gap", "m"),
        Slot("ticks", "count"),
        Slot("icr_x", "m", math.nan),
        Slot("icr_y", "m", math.nan),
        Slot("heading_history", "rad", UNSET, HISTORY),
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
def _steer(steer_in: float, current: float, speed: float, p, dt: float) -> float:
    """Front wheel angle (rad) after this tick, from the input and the current angle."""
    target = steer_in * (p[P.max_steer] * RADIANS)
    if not p[P.steer_rate] > 0:
        return target
    if steer_in != 0:  # holding a key: towards the target at steer_rate
        goal, step = target, p[P.steer_rate] * RADIANS * dt
    else:  # back to centre at return_rate, optionally scaled by speed / top speed
        scale = 1.0
        if p[P.return_with_speed] != 0.0:
            scale = abs(speed) / max(p[P.max_speed], 1e-9)
        goal, step = 0.0, p[P.return_rate] * RADIANS * dt * scale
    return current + min(max(goal - current, -step), step)  # never past the goal


@kernel
def _motion_heading(s, p, dt: float) -> float:
    """Heading to move the wheels along: the current one, or with drift_delay the one
    of that many ticks ago from the history (filled with the current heading when
    unset; marked unset while the delay is off)."""
    h = s[S.heading]
    ring = S.heading_history
    if not p[P.drift_delay] > 0:
        s[ring] = UNSET
        return h
    if s[ring] == UNSET:
        for k in range(HISTORY):
            s[ring + k] = h
    ticks = int(s[S.ticks])
    lag = min(round(min(p[P.drift_delay] / dt, float(HISTORY))), HISTORY - 1, ticks)
    if lag > 0:
        return s[ring + (ticks - lag) % HISTORY]
    return h


@kernel(inline=True)
def tick(s, c, p, dt, walls):
    """Advance one car (state row `s`, controls `c`, tuning `p`) by `dt` s among
    `walls` (walls.Walls, or None: the open field), in place."""
    x0, y0, h = s[S.x], s[S.y], s[S.heading]
    steer_in = c[0]
    # the pedals' speed; speed_control.PARAMS sit in `p` from max_speed on
    speed = speed_control.next_speed(s[S.speed], c[1], c[2], p, P.max_speed, dt)
    steer = _steer(steer_in, s[S.steer], speed, p, dt)
    motion = _motion_heading(s, p, dt)
    L = p[P.wheel_base]
    r = speed * dt
    ch, sh = math.cos(h), math.sin(h)
    cm, sm = ch, sh
    if motion != h:
        cm, sm = math.cos(motion), math.sin(motion)
    half = L / 2

    # the blog's six lines (front distance: the same r, or Night's correction)
    bx, by = x0 - half * ch, y0 - half * sh
    fx, fy = x0 + half * ch, y0 + half * sh
    front = r
    if p[P.keep_wheel_base] != 0.0:
        B = (L - r) * math.cos(steer)
        front = math.sqrt(max(B * B + r * (2 * L - r), 0.0)) - B
    bx, by = bx + r * cm, by + r * sm
    wheel_direction = motion + steer
    fx, fy = fx + front * math.cos(wheel_direction), fy + front * math.sin(wheel_direction)
    x, y = (fx + bx) / 2, (fy + by) / 2
    gx, gy = fx - bx, fy - by
    heading = math.atan2(gy, gx)
    gap = math.sqrt(gx * gx + gy * gy)

    # the instantaneous centre (on the back axle line, L/tan(steer) out), and with
    # exact_arc the exact rotation about it
    sin_steer = math.sin(steer)
    turning = abs(sin_steer) > 1e-12
    radius = L / math.tan(steer) if turning else 0.0
    back_x, back_y = x0 - half * cm, y0 - half * sm
    cx, cy = back_x - radius * sm, back_y + radius * cm
    if p[P.exact_arc] != 0.0:
        turn = speed * sin_steer / L * dt
        if turning:
            x, y = rotate_about(x0, y0, cx, cy, turn)
        else:
            x, y = x0 + r * cm, y0 + r * sm
        heading = wrap(h + turn)
        gap = L

    ticks = s[S.ticks] + 1
    # walls: move_and_slide of the tick's motion, its returned velocity fed back
    x, y, vx, vy, contacts = slide_pose(walls, p, SHAPE_AT, x0, y0, x, y, heading, dt)
    if contacts != 0.0:  # the speed along the heading after the wall
        speed = vx * math.cos(heading) + vy * math.sin(heading)
    s[S.x], s[S.y], s[S.heading] = x, y, heading
    s[S.vx], s[S.vy] = vx, vy
    s[S.wall_contacts] = contacts
    s[S.wheel_angle] = steer
    s[S.traction_fast] = 0.0
    s[S.speed], s[S.steer] = speed, steer
    s[S.display_heading] = heading + steer * (speed / max(p[P.max_speed], 1e-9)) * p[P.drift_overrotate]
    s[S.wheel_gap] = gap
    s[S.ticks] = ticks
    s[S.icr_x], s[S.icr_y] = (cx, cy) if turning else (math.nan, math.nan)
    if p[P.drift_delay] > 0:
        s[S.heading_history + int(ticks) % HISTORY] = heading


def body(p: Mapping[str, float]) -> dict[str, float]:
    """Drawing sizes (m) around the two virtual wheels; the track is for looks only."""
    wb = float(p["wheel_base"])
    return {"wheel_base": wb, "track": 0.6 * wb, "length": wb + 1.2, "width": 0.6 * wb + 0.3}


force_curve = speed_control.force_curve
top_speed = speed_control.top_speed
