"""Dynamic car of Marco Monster's "Car Physics for Games" (seed 004).

Units: SI (m, kg, s, N, rad; rpm for the engine). y down, heading 0 along +x, positive
steer turns right. Defaults: the seed's Corvette C5 (1500 kg with driver, b = c =
1.25 m, CG 1.0 m high, wheel radius 0.34 m, gears 2.66 … 0.50, reverse 2.90,
differential 3.42, efficiency 0.7, Cdrag 0.4257, Crr 12.8, μ 1.0) and an LS1-like
torque curve through the seed's numbers (448 N·m at 2500 rpm, 475 at 4400).

`tick` reads like the text, one step a line, each named by the section it implements
(car frame: x forward, y right; Euler as in the seed, last tick's values where the text
says so in "The Chicken and the Egg"):
 - "Weight Transfer": Wf = (c/L)·W − (h/L)·M·a, Wr = (b/L)·W + (h/L)·M·a, with last
   tick's acceleration a (`monster_body.weight_transfer`);
 - "Gear Ratios", "How do we get the RPM?", "Drive wheel acceleration": rpm =
   ω_wheel·xg·xd·60/2π, at least the idle rpm; engine torque = throttle ×
   LookupTorqueCurve(rpm) (0 above the redline); Tdrive = Tengine·xg·xd·n on the rear
   axle (`monster_drivetrain`);
 - "Slip ratio and traction force": SR = (ω·Rw − v_long)/|v_long|, traction =
   Wr·min(Ct·SR, μ) (capped linear; option `pacejka` for a Magic-Formula shape)
   (`monster_tyres`);
 - "High Speed Turning": slip angles α_f = atan((v_lat + ω·b)/|v_long|) − δ·sign(v_long),
   α_r = atan((v_lat − ω·c)/|v_long|); lateral force F = −Cα·α·load, at most μ·load;
   cornering force F_lat,r + cos δ·F_lat,f;
 - "Straight line physics" and "Braking": drag and rolling resistance −Cdrag·v·|v| −
   Crr·v; the brakes as the text splits them: the front −sign(v)·brake force (≤ μ·Wf)
   and a torque against the rear wheels' spin. Option `four_wheel_brakes` (off by
   default): one brake torque shared by the axles, `brake_bias` of it on the front
   (force = share/R, and past μ·Wf the front locks and slides at the curve's value);
   option `abs` keeps each axle at the curve's peak instead of locking (the rear
   wheel's slip ratio held at the peak's);
 - "Torque on the drive wheels": the axle turns by (drive − traction·R − brake
   torque)/I;
 - a = F/M in world coordinates, v += a·dt, p += v·dt; yaw torque b·cos δ·F_lat,f −
   c·F_lat,r, yaw rate += torque/I·dt ("High Speed Turning").

Departures, each a named step right after the text's step it modifies:
(1) The wheel against the road is a stiff spring (hundreds per second), so the
traction is solved with the slip it leaves at the end of the tick (backward Euler on
the wheel's own equation, the car's other forces included: `rear_traction`): the slip
settles on the tyre curve whatever the tick rate.
(2) Low speed (the common ports snap to zero below 0.5 m/s and still chatter): the
seed's formulas divide by the speed and their explicit steps are stiff there (the
wheel against the road at rest is a ~600/s spring). Slip ratio and slip angles use
max(|v_long|, LOW_SPEED) in the divisor (`slip_divisor`); below LOW_SPEED the car turns
kinematically, as the seed's low-speed section ("Curves") says (ω = v·sin δ/L,
velocity along the body, no tyre side forces), blended smoothly into the dynamic
model up to 2·LOW_SPEED (`dynamic_share`, `low_speed_yaw_rate`, `low_speed_velocity`).
Slow means slow along the car and across it, max(|v_long|, |v_lat|): a car sliding
sideways stays dynamic. Turning the velocity along the body takes at most the side grip
the tyre forces leave, μ·(Wf + Wr·rear grip) − |F_lat|, so a slow sideways slide keeps
its momentum and loses it only as fast as its tyres could (every tick, the blended
car's sideways slowdown is at most μ·g).
(3) No force may overshoot what it removes in one tick: the traction is implicit
(1), brakes and resistance never reverse the velocity (`braking_force`, `resistance`,
`braking_stops`), a brake torque that would reverse the wheel locks it instead (no
jitter: `locked_wheels`).
(4) Rolling resistance, Crr·v in the seed, is held at Crr·LOW_SPEED below LOW_SPEED, so
a coasting car stops in finite time instead of creeping for minutes (Crr·v alone
never reaches zero). A car at rest stays exactly at rest.
(5) No car goes faster than the sandbox's shared 500 m/s (limits.SPEED_LIMIT_M): a
long gearing with drag and rolling resistance at zero would otherwise keep
accelerating.
(6) Walls (on a track with walls; none on the open field): the body at its new
heading moves by the tick's motion with Godot 3's move_and_collide, and at the contact
point an impulse with the track's restitution and friction changes the velocity and
the yaw rate (`contact_impulse`; the collision shape from the tuning, the mass and
`yaw_inertia`). `wall_contacts` is 1 on a tick that met a wall, else 0.

Correction on by default: the tutorial writes only the sideways part of the front tyre
force (cos δ·F_lat,f); this model also applies its part along the car, −sin δ·F_lat,f,
without which the steered tyre pushes the car forward and a car coasting at full lock
gains speed (`front_tyre_along`). Option `tutorial_cornering` drops it, as the text does.

Gears (the text gives the ratios, not the gearbox): automatic (up at shift_up rpm,
down at shift_down) or manual (controls.shift). Holding the brake at rest selects
reverse, where the brake pedal drives and the throttle brakes; the throttle at rest
selects first again. Handbrake: locks the rear wheels and scales the rear grip by
handbrake_grip.

State after the common slots: the yaw rate `omega` (rad/s), the rear axle's spin
`wheel_omega` (rad/s), the `gear` (1…6, −1 reverse; a whole number kept as a float),
last tick's longitudinal acceleration `accel_long` (the next tick's weight transfer),
the telemetry of the last tick (slip angles, lateral forces, axle loads, traction,
the wheels' angles; the rpm and the slip ratio as they stand after it, with its
speed), the body's unit heading vector (kept from
the tick that set it; NaN until the first tick, which then takes it from the heading),
and wall_contacts (departure (6)).
A state made by hand starts in first gear with everything else at zero.

The kernels live by subject: `monster_drivetrain` (engine, gears, brakes, the rear
axle), `monster_tyres` (slip ratio, traction, slip angles, lateral forces),
`monster_body` (weight transfer, resistance, cornering, yaw, low speed),
`monster_curves` (the Python side: force curves, top speeds), `monster_params` (the
parameters).
"""

from __future__ import annotations

import math

from ..car_shape import first_shape_slot
from ..channels import Channel
from ..contact_impulse import bounce
from ..kernel import kernel
from ..state import Layout, Slot
from .geometry import DEGREES, RADIANS, rotate
from .limits import SPEED_LIMIT_M, limit_speed
from .monster_body import (
    G,
    braking_force,
    cornering_force,
    dynamic_share,
    front_tyre_along,
    heading_vector,
    low_speed_velocity,
    low_speed_yaw_rate,
    resistance,
    weight_transfer,
    yaw_torque,
)
from .monster_curves import (
    TOP_SPEED_GRID,
    axle_loads,
    body,
    drive_force,
    engine_rpm,
    force_curve,
    gear_ratio,
    gear_top_speeds,
    has_top_speeds,
    top_speed,
    torque_curve,
    traction_ratio,
)
from .monster_drivetrain import (
    KNOTS,
    STOP,
    abs_rear,
    brakes,
    braking_stops,
    drive_torque,
    engine_torque,
    gear_from_rest,
    locked_wheels,
    pedals,
    ratio_of_gear,
    rear_traction,
    rpm_from_wheel,
    shift_gear,
    wheel_spin,
    wheel_turning,
)
from .monster_drivetrain_params import GEAR_NAMES, TORQUE_RPM
from .monster_params import PARAMS, P
from .monster_tyres import LOW_SPEED, MAGIC_C, MAGIC_E, MAGIC_PEAK, lateral_force, slip_angles, slip_divisor, slip_ratio

NAME = "monster"
TITLE = "Dynamic car (Monster, 2003)"
LENGTH_UNIT = "m"
REFERENCE_POINT = "the centre of gravity"
"""The point the state's position is (where path metrics are measured)."""
TOP_SPEED_FORMULA = "where the best gear's drive force meets drag and rolling resistance"
NO_TOP_SPEED = "none: with drag and rolling resistance at 0 nothing resists the motion"
GRIP_PARAMS = ("mu",)
"""What a track surface's grip factor multiplies (physics/surfaces.py): the tyres' μ."""


# Live plot channels: group -> (unit, ((state.extra key, label, factor), ...))
CHANNELS = (
    Channel("rpm", "engine speed", "rpm"),
    Channel("gear", "gear", ""),
    Channel("wheel_spin", "rear wheel spin", "rad/s", slot="wheel_omega"),
    Channel("slip_ratio", "rear slip ratio", ""),
    Channel("slip_front", "slip angle front", "°", DEGREES, slot="alpha_front"),
    Channel("slip_rear", "slip angle rear", "°", DEGREES, slot="alpha_rear"),
    Channel("lat_front", "lateral force front", "N"),
    Channel("lat_rear", "lateral force rear", "N"),
    Channel("load_front", "axle load front", "N"),
    Channel("load_rear", "axle load rear", "N"),
    Channel("traction", "rear traction", "N"),
    Channel("brake_front", "brake force front", "N"),
)
"""What the car produces per tick besides the common channels (physics/channels.py)."""
PRESETS = {
    "rpm and gear": ("rpm", "gear"),
    "slip angles": ("slip_front", "slip_rear"),
    "lateral forces": ("lat_front", "lat_rear"),
    "axle loads": ("load_front", "load_rear"),
    "slip ratio": ("slip_ratio",),
    "yaw rate": ("yaw_rate",),
}
"""The plots' channel presets: name -> channel names."""

# What the HUD and the status line show besides speed and slip (read by sandbox/session/hud.py):
# the engine's rpm and gear on the dashboard
HUD = {"regimes": (), "gauges": {"rpm": "rpm", "gear": "gear"}}


STATE = Layout(
    (
        Slot("omega", "rad/s"),
        Slot("wheel_omega", "rad/s"),
        Slot("gear", "", 1.0),
        Slot("rpm", "rpm"),
        Slot("slip_ratio", ""),
        Slot("alpha_front", "rad"),
        Slot("alpha_rear", "rad"),
        Slot("lat_front", "N"),
        Slot("lat_rear", "N"),
        Slot("load_front", "N"),
        Slot("load_rear", "N"),
        Slot("traction", "N"),
        Slot("brake_front", "N"),
        Slot("accel_long", "m/s²"),
        Slot("wheel_left", "rad"),
        Slot("wheel_right", "rad"),
        Slot("heading_x", "", math.nan),
        Slot("heading_y", "", math.nan),
        Slot("wall_contacts", "count"),
    )
)
S = STATE.index
SHAPE_AT = first_shape_slot(PARAMS)
"""The tuning's shape parameters start here (body_shape.of_tuning)."""
MEETS_WALLS = True
"""Its tick takes the world (`walls.Walls`, or None) as a fifth argument."""
WALL_IMPULSE = True
"""It bounces off walls with an impulse (`contact_impulse`), not move_and_slide's slide."""


@kernel
def tick(s, c, p, dt, walls):
    """Advance one car (state row `s`, controls `c`, tuning `p`) by `dt` s among
    `walls` (walls.Walls, or None: the open field), in place.

    The text's sections in its order, each departure a step of its own after the step
    it modifies. Three moves: the gearbox (not in the text) comes first, as "Braking"
    needs the pedals; the forces are added up ("Straight line physics") once the rear
    traction is known; and the lateral forces ("High Speed Turning") come before the
    drive wheels, whose traction is solved with every other force on the car."""
    steer, throttle, brake, handbrake, shift = c[0], c[1], c[2], c[3] > 0, c[4]
    m, mu, R = p[P.mass], p[P.mu], p[P.wheel_radius]
    delta = steer * (p[P.max_steer] * RADIANS)  # the steering angle δ
    sin_d, cos_d = math.sin(delta), math.cos(delta)
    hx, hy = heading_vector(s[S.heading], s[S.heading_x], s[S.heading_y])  # u
    vx, vy, omega, wheel = s[S.vx], s[S.vy], s[S.omega], s[S.wheel_omega]
    v_long, v_lat = rotate(vx, vy, hx, -hy)  # into the car frame
    # the gearbox and the pedals, which "Braking" needs (departure: the text gives the
    # gear ratios, not the gearbox)
    gear = gear_from_rest(int(s[S.gear]), v_long, v_lat, throttle, brake)
    gear = shift_gear(p, gear, wheel, shift)
    driving, braking, direction = pedals(gear, throttle, brake)

    # "Straight line physics": Fdrag + Frr = −k·v, departures (3) and (4) inside
    k = resistance(p, math.sqrt(v_long * v_long + v_lat * v_lat), dt)

    # "Weight Transfer", with last tick's acceleration ("The Chicken and the Egg")
    front_load, rear_load = weight_transfer(p, s[S.accel_long])

    # "Braking": a force on the car (the front wheels) and a torque on the rear wheels
    front_brake, rear_brake = brakes(p, braking, front_load, v_long)
    f_braking = braking_force(p, front_brake, v_long, dt)

    # "Engine Force", "Gear Ratios", "Drive wheel acceleration", "How do we get the RPM?"
    xg = ratio_of_gear(p, gear)
    rpm = max(rpm_from_wheel(p, wheel, xg), p[P.idle_rpm])  # "if( rpm < 1000 ) rpm = 1000"
    t_drive = drive_torque(p, direction * engine_torque(p, driving, rpm), xg)

    # "Slip ratio and traction force": SR = (ω·Rw − v_long)/|v_long|
    divisor = slip_divisor(v_long)  # departure (2): |v_long| ≥ LOW_SPEED in the slip formulas
    slip_speed = wheel * R - v_long
    sr = slip_ratio(p, wheel, v_long, divisor)

    # "High Speed Turning": slip angles, lateral forces ≤ μ·load, the cornering force
    alpha_f, alpha_r = slip_angles(v_long, v_lat, omega, p[P.cg_to_front], p[P.cg_to_rear], delta, divisor)
    rear_grip = p[P.handbrake_grip] if handbrake else 1.0
    fade = dynamic_share(v_long, v_lat)  # departure (2): no tyre side forces when slow
    lat_f = fade * lateral_force(p[P.cornering_front], alpha_f, front_load, mu, 1.0)
    lat_r = fade * lateral_force(p[P.cornering_rear], alpha_r, rear_load, mu, rear_grip)
    f_cornering = cornering_force(lat_f, lat_r, cos_d)

    # the forces on the car besides the rear traction, along it (the front tyre's part,
    # a correction; drag and rolling resistance; braking) and across it
    other = front_tyre_along(p, lat_f, sin_d) - k * v_long + f_braking
    f_lat = f_cornering - k * v_lat

    # "Torque on the drive wheels": traction, the brake torque against the spin, the spin
    turning = wheel_turning(p, wheel, t_drive, sr, rear_load)
    t_brake = rear_brake * turning
    traction = rear_traction(p, slip_speed, t_drive, t_brake, other, rear_load, divisor, dt)  # departure (1)
    wheel_after = wheel_spin(p, wheel, t_drive, traction, t_brake, dt)
    traction, wheel_after = locked_wheels(  # departure (3)
        p, traction, wheel_after, handbrake, rear_brake, turning, v_long, other, rear_load, divisor, dt
    )
    traction, wheel_after = abs_rear(  # departure: ABS
        p, traction, wheel_after, rear_brake, handbrake, v_long, other, rear_load, divisor, dt
    )
    traction = braking_stops(p, traction, braking, v_long, other, dt)  # "Braking": never reverse

    # "Straight line physics": Flong = Ftraction + the rest, a = F/M, v = v + dt·a (in
    # world coordinates: the velocity turns only by the forces, not with the body);
    # "High Speed Turning": the yaw torque, angular acceleration = torque / inertia
    ax, ay = (traction + other) / m, f_lat / m
    world_ax, world_ay = rotate(ax, ay, hx, hy)
    vx_dynamic, vy_dynamic = vx + world_ax * dt, vy + world_ay * dt
    omega_dynamic = omega + yaw_torque(p, lat_f, lat_r, cos_d) / p[P.yaw_inertia] * dt

    # departure (2): "Curves", the low-speed turning, blended in up to 2·LOW_SPEED
    new_long, new_lat = v_long + ax * dt, v_lat + ay * dt
    dynamic = dynamic_share(new_long, new_lat)
    new_omega = low_speed_yaw_rate(p, dynamic, omega_dynamic, new_long, sin_d)
    heading = s[S.heading] + new_omega * dt
    hx, hy = math.cos(heading), math.sin(heading)
    new_vx, new_vy = low_speed_velocity(
        p, dynamic, vx_dynamic, vy_dynamic, new_long, new_lat, hx, hy, f_cornering, rear_grip, front_load, rear_load, dt
    )
    new_vx, new_vy = limit_speed(new_vx, new_vy, SPEED_LIMIT_M)  # departure (5)

    # "Straight line physics": p = p + dt·v; walls: move_and_collide of that motion,
    # an impulse at the contact point (departure (6))
    x0, y0 = s[S.x], s[S.y]
    x, y, new_vx, new_vy, new_omega, contacts = bounce(
        walls, p, SHAPE_AT, x0, y0, x0 + new_vx * dt, y0 + new_vy * dt, heading, new_vx, new_vy, new_omega, m,
        p[P.yaw_inertia],
    )  # fmt: skip
    s[S.x], s[S.y] = x, y
    s[S.heading] = math.atan2(hy, hx)
    s[S.vx], s[S.vy] = new_vx, new_vy
    s[S.wall_contacts] = contacts

    # telemetry: the tachometer and the slip ratio as they stand after the tick
    end_long, _ = rotate(new_vx, new_vy, hx, -hy)
    end_slip = slip_ratio(p, wheel_after, end_long, slip_divisor(end_long))
    s[S.wheel_angle] = delta
    s[S.traction_fast] = 1.0 if abs(end_slip) > 0.2 else 0.0
    s[S.omega], s[S.wheel_omega], s[S.gear] = new_omega, wheel_after, float(gear)
    s[S.rpm] = max(rpm_from_wheel(p, wheel_after, xg), p[P.idle_rpm])
    s[S.slip_ratio], s[S.alpha_front], s[S.alpha_rear] = end_slip, alpha_f, alpha_r
    s[S.lat_front], s[S.lat_rear], s[S.load_front], s[S.load_rear] = lat_f, lat_r, front_load, rear_load
    s[S.traction], s[S.accel_long], s[S.wheel_left], s[S.wheel_right] = traction, ax, delta, delta
    s[S.brake_front], s[S.heading_x], s[S.heading_y] = f_braking, hx, hy


__all__ = [
    "G",
    "GEAR_NAMES",
    "KNOTS",
    "LOW_SPEED",
    "MAGIC_C",
    "MAGIC_E",
    "MAGIC_PEAK",
    "PARAMS",
    "STOP",
    "TOP_SPEED_GRID",
    "TORQUE_RPM",
    "axle_loads",
    "body",
    "drive_force",
    "engine_rpm",
    "force_curve",
    "gear_ratio",
    "gear_top_speeds",
    "has_top_speeds",
    "tick",
    "top_speed",
    "torque_curve",
    "traction_ratio",
]
