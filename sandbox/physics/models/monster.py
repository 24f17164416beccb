"""Dynamic car of Marco Monster's "Car Physics for Games" (seed 004).

Units: SI (m, kg, s, N, rad; rpm for the engine). y down, heading 0 along +x, positive
steer turns right. Defaults: the seed's Corvette C5 (1500 kg with driver, b = c =
1.25 m, CG 1.0 m high, wheel radius 0.34 m, gears 2.66 … 0.50, reverse 2.90,
differential 3.42, efficiency 0.7, Cdrag 0.4257, Crr 12.8, μ 1.0) and an LS1-like
torque curve through the seed's numbers (448 N·m at 2500 rpm, 475 at 4400).

One tick (car frame: x forward, y right), Euler as in the seed:
 - axle loads with weight transfer from last tick's acceleration a:
   Wf = (c/L)·W − (h/L)·M·a, Wr = (b/L)·W + (h/L)·M·a;
 - engine: rpm = ω_wheel·xg·xd·60/2π, at least the idle rpm; torque = throttle ×
   curve(rpm) (0 above the redline); drive torque = T·xg·xd·η on the rear axle;
 - rear wheels spin with their own inertia: slip ratio SR = (ω·R − v_long)/|v_long|,
   traction = Wr·min(Ct·SR, μ) (capped linear; option `pacejka` for a Magic-Formula
   shape), and the axle turns by (drive − traction·R − brake torque)/I. The wheel
   against the road is a stiff spring (hundreds per second), so the traction is
   solved with the slip it leaves at the end of the tick (backward Euler on the
   wheel's own equation, the car's other forces included): the slip settles on the
   tyre curve whatever the tick rate;
 - cornering: slip angles α_f = atan((v_lat + ω·b)/|v_long|) − δ·sign(v_long),
   α_r = atan((v_lat − ω·c)/|v_long|); lateral force F = −Cα·α·load, at most μ·load;
   cornering force F_lat,r + cos δ·F_lat,f, yaw torque b·cos δ·F_lat,f − c·F_lat,r;
 - resistance: −Cdrag·v·|v| − Crr·v; brakes, as the text splits them: the front
   −sign(v)·brake force (≤ μ·Wf) and a torque against the rear wheels' spin.
   Option `four_wheel_brakes` (off by default): one brake torque shared by the axles,
   `brake_bias` of it on the front (force = share/R, and past μ·Wf the front locks
   and slides at the curve's value); option `abs` keeps each axle at the curve's
   peak instead of locking (the rear wheel's slip ratio held at the peak's);
 - a = F/M in world coordinates, v += a·dt, p += v·dt; yaw rate += torque/I·dt.

Low speed (the common ports snap to zero below 0.5 m/s and still chatter): the seed's
formulas divide by the speed and their explicit steps are stiff there (the wheel
against the road at rest is a ~600/s spring). Here (1) slip ratio and slip angles
use max(|v_long|, LOW_SPEED) in the divisor; (2) below LOW_SPEED the car turns
kinematically, as the seed's low-speed section says (ω = v·sin δ/L, velocity along the
body, no tyre side forces), blended smoothly into the dynamic model up to 2·LOW_SPEED.
Slow means slow along the car and across it, max(|v_long|, |v_lat|): a car sliding
sideways stays dynamic. Turning the velocity along the body takes at most the side grip
the tyre forces leave, μ·(Wf + Wr·rear grip) − |F_lat|, so a slow sideways slide keeps
its momentum and loses it only as fast as its tyres could (every tick, the blended
car's sideways slowdown is at most μ·g);
(3) no force may overshoot what it removes in one tick: the traction is implicit
(above), brakes and resistance never reverse the velocity, a brake torque that would
reverse the wheel locks it instead (no jitter); (4) rolling resistance, Crr·v in the
seed, is held at Crr·LOW_SPEED below LOW_SPEED, so a coasting car stops in finite
time instead of creeping for minutes (Crr·v alone never reaches zero). A car at rest
stays exactly at rest. (5) No car goes faster than the sandbox's shared 500 m/s
(limits.SPEED_LIMIT_M): a long gearing with drag and rolling resistance at zero
would otherwise keep accelerating.

Correction on by default: the tutorial writes only the sideways part of the front tyre
force (cos δ·F_lat,f); this model also applies its part along the car, −sin δ·F_lat,f,
without which the steered tyre pushes the car forward and a car coasting at full lock
gains speed. Option `tutorial_cornering` drops it, as the text does.

Gears: automatic (up at shift_up rpm, down at shift_down) or manual (controls.shift).
Holding the brake at rest selects reverse, where the brake pedal drives and the
throttle brakes; the throttle at rest selects first again.
Handbrake: locks the rear wheels and scales the rear grip by handbrake_grip.

State after the common slots: the yaw rate `omega` (rad/s), the rear axle's spin
`wheel_omega` (rad/s), the `gear` (1…6, −1 reverse; a whole number kept as a float),
last tick's longitudinal acceleration `accel_long` (the next tick's weight transfer),
the telemetry of the last tick (slip angles, lateral forces, axle loads, traction,
the wheels' angles; the rpm and the slip ratio as they stand after it, with its
speed), and the body's unit heading vector (kept from
the tick that set it; NaN until the first tick, which then takes it from the heading).
A state made by hand starts in first gear with everything else at zero.
"""

from __future__ import annotations

import math
from typing import Callable, Mapping

import numpy as np

from ..kernel import kernel
from ..params import param_rows
from ..state import Layout, Slot, index_of
from .geometry import DEGREES, RADIANS, rotate, sign
from .limits import SPEED_LIMIT_M, limit_speed
from .monster_params import GEAR_NAMES, PARAMS, TORQUE_RPM

NAME = "monster"
TITLE = "Dynamic car (Monster, 2003)"
LENGTH_UNIT = "m"
REFERENCE_POINT = "the centre of gravity"
"""The point the state's position is (where path metrics are measured)."""
TOP_SPEED_FORMULA = "where the best gear's drive force meets drag and rolling resistance"
NO_TOP_SPEED = "none: with drag and rolling resistance at 0 nothing resists the motion"
G = 9.8
TOP_SPEED_GRID = np.linspace(0.0, 150.0, 3001)
"""m/s: the speeds `top_speed` looks for the first where the car no longer speeds up."""
LOW_SPEED = 2.0
"""m/s: below this the car turns kinematically; the divisor floor of slip formulas."""
STOP = 0.3
"""m/s: below this along the car and across it, holding the brake selects reverse (and
the throttle first gear)."""


# Live plot channels: group -> (unit, ((state.extra key, label, factor), ...))
TELEMETRY = {
    "rpm and gear": ("rpm", (("rpm", "rpm", 1.0), ("gear", "gear × 1000", 1000.0))),
    "slip angles": ("°", (("alpha_front", "front", DEGREES), ("alpha_rear", "rear", DEGREES))),
    "lateral forces": ("N", (("lat_front", "front", 1.0), ("lat_rear", "rear", 1.0))),
    "axle loads": ("N", (("load_front", "front", 1.0), ("load_rear", "rear", 1.0))),
    "slip ratio": ("", (("slip_ratio", "rear SR", 1.0),)),
    "yaw rate": ("°/s", (("omega", "ω", DEGREES),)),
}

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
        Slot("accel_long", "m/s²"),
        Slot("wheel_left", "rad"),
        Slot("wheel_right", "rad"),
        Slot("heading_x", "", math.nan),
        Slot("heading_y", "", math.nan),
    )
)
S = STATE.index
P = index_of(p.name for p in PARAMS)

KNOTS = tuple(float(rpm) for rpm in TORQUE_RPM)
"""rpm of the torque curve's points: parameters P.torque_1000 … P.torque_6000, in order."""


# One formula each, for the kernel (one car) and for the Python side (`_each`).


@kernel
def _gear_ratio(p, gear):
    """Ratio of gear number `gear` (1…6, above 6 the sixth; below 0 reverse; 0 neutral → 0)."""
    if gear > 0:
        return p[P.gear_1 + min(gear, 6) - 1]
    if gear < 0:
        return p[P.gear_reverse]
    return 0.0


@kernel
def _engine_rpm(p, wheel_omega, ratio):
    """rpm = wheel rotation rate · xg · xd · 60 / 2π (seed "How do we get the RPM?")."""
    return abs(wheel_omega) * ratio * p[P.differential] * 60 / (2 * math.pi)


@kernel
def _torque_curve(p, rpm):
    """Max engine torque (N·m) at `rpm`: linear between the curve's points, the end
    values beyond them, 0 above the redline. np.interp's arithmetic, slope·(rpm −
    knot) + value with slope = (next value − value)/(next knot − knot): its bits."""
    if rpm > p[P.redline_rpm]:
        return 0.0
    first, last = P.torque_1000, len(KNOTS) - 1
    if rpm <= KNOTS[0]:
        return p[first]
    if rpm >= KNOTS[last]:
        return p[first + last]
    j = 0
    while rpm >= KNOTS[j + 1]:  # KNOTS[j] <= rpm < KNOTS[j + 1]
        j += 1
    low, high = p[first + j], p[first + j + 1]
    return (high - low) / (KNOTS[j + 1] - KNOTS[j]) * (rpm - KNOTS[j]) + low


@kernel
def _drive_force(p, engine_torque, ratio):
    """F = T·xg·xd·η / Rw (seed "Engine Force")."""
    return engine_torque * ratio * p[P.differential] * p[P.efficiency] / p[P.wheel_radius]


@kernel
def _axle_loads(p, accel):
    """Front and rear axle loads (N) with weight transfer (seed "Weight Transfer")."""
    b, c, h, m = p[P.cg_to_front], p[P.cg_to_rear], p[P.cg_height], p[P.mass]
    L, W = b + c, m * G
    shift = h / L * m * accel
    front = min(max(c / L * W - shift, 0.0), W)
    return front, W - front


MAGIC_C, MAGIC_E = 1.65, 0.97
"""The Magic Formula's shape C and curvature E of option `pacejka`."""


@kernel
def _traction_ratio(p, slip_ratio):
    """Traction force / load for a slip ratio: Ct·SR capped at ±μ, or Pacejka."""
    mu, k = p[P.mu], p[P.traction_slope]
    if p[P.pacejka] == 0.0:
        return min(max(k * slip_ratio, -mu), mu)
    # Magic Formula D·sin(C·atan(B·x − E·(B·x − atan(B·x)))) with B from the same slope
    B, C, E = k / (MAGIC_C * max(mu, 1e-9)), MAGIC_C, MAGIC_E
    bx = B * slip_ratio
    return mu * math.sin(C * math.atan(bx - E * (bx - math.atan(bx))))


def _magic_peak_input() -> float:
    """B·x where the Magic Formula peaks: C·atan(φ) = π/2, φ = Bx − E·(Bx − atan Bx)
    (bisection once at import; φ rises with Bx)."""
    target, lo, hi = math.tan(math.pi / (2 * MAGIC_C)), 0.0, 100.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if mid - MAGIC_E * (mid - math.atan(mid)) < target:
            lo = mid
        else:
            hi = mid
    return lo


MAGIC_PEAK = _magic_peak_input()


@kernel
def _peak_slip_ratio(p):
    """Slip ratio of the traction curve's peak (μ reached): μ/Ct when capped linear;
    the Magic Formula's peak with `pacejka`."""
    mu, k = max(p[P.mu], 1e-9), p[P.traction_slope]
    if p[P.pacejka] == 0.0:
        return mu / k
    return MAGIC_PEAK * MAGIC_C * mu / k


@kernel
def _traction_slope(p, slip_ratio):
    """d(traction ratio)/d(slip ratio) of `_traction_ratio`, for Newton's method."""
    mu, k = p[P.mu], p[P.traction_slope]
    if p[P.pacejka] == 0.0:
        return k if abs(k * slip_ratio) < mu else 0.0
    B = k / (MAGIC_C * max(mu, 1e-9))
    bx = B * slip_ratio
    phi = bx - MAGIC_E * (bx - math.atan(bx))
    dphi = B - MAGIC_E * (B - B / (1 + bx * bx))
    return mu * math.cos(MAGIC_C * math.atan(phi)) * MAGIC_C / (1 + phi * phi) * dphi


@kernel
def _implicit_traction(p, slip_ahead, give, load, floor):
    """The traction T (N) that agrees with the slip it leaves at the end of the tick
    (backward Euler on the wheel's stiff equation): T = load·f((slip_ahead − give·T)/floor),
    `slip_ahead` the slip speed (m/s) the tick would end with without traction, `give`
    how far a newton of traction closes it (dt·(R²/Iw + 1/M), m/s per N). The slip
    then settles on the tyre curve at every tick rate. Capped linear: in closed form;
    Magic Formula: Newton's method kept inside the bracket [0, μ·load]."""
    mu = p[P.mu]
    if p[P.pacejka] == 0.0:
        stiffness = load * p[P.traction_slope] / floor  # N per m/s of slip
        linear = stiffness * slip_ahead / (1.0 + give * stiffness)
        return min(max(linear, -mu * load), mu * load)
    lo, hi = 0.0, mu * load * sign(slip_ahead)
    if hi < lo:
        lo, hi = hi, lo
    force = 0.0
    for _ in range(40):
        ratio = (slip_ahead - give * force) / floor
        error = force - load * _traction_ratio(p, ratio)
        if abs(error) <= 1e-9 * (1.0 + mu * load):
            break
        if error > 0:
            hi = force
        else:
            lo = force
        slope = 1.0 + load * _traction_slope(p, ratio) * give / floor
        step = force - error / slope if slope > 0 else lo - 1.0
        force = step if lo < step < hi else (lo + hi) / 2
    return force


@kernel
def _brakes(p, pedal, front_load, locked_ratio):
    """(front braking force N, rear brake torque N·m) at brake pedal `pedal`.

    The text's split: a fixed force on the front (here at most μ × front load) and a
    torque on the rear wheels. `four_wheel_brakes`: one torque, the front axle's share
    `brake_bias` of it acting through the wheel radius; braked past its peak grip the
    front locks and slides with the curve's value at slip ratio −`locked_ratio` (with
    `abs`, it stays at the peak instead)."""
    mu = p[P.mu]
    if p[P.four_wheel_brakes] == 0.0:
        return min(pedal * p[P.brake_force], mu * front_load), pedal * p[P.brake_torque]
    total = pedal * p[P.brake_total]
    front = total * p[P.brake_bias] / p[P.wheel_radius]
    peak = mu * front_load
    if front > peak:
        front = peak if p[P.abs] != 0.0 else abs(_traction_ratio(p, -locked_ratio)) * front_load
    return front, total * (1.0 - p[P.brake_bias])


@kernel
def _smooth(x):
    x = min(max(x, 0.0), 1.0)
    return x * x * (3 - 2 * x)


@kernel
def tick(s, c, p, dt):
    """Advance one car (state row `s`, controls `c`, tuning `p`) by `dt` s, in place."""
    steer_in, throttle, brake, handbrake, shift = c[0], c[1], c[2], c[3] > 0, c[4]
    m, inertia = p[P.mass], p[P.yaw_inertia]
    b, c_ = p[P.cg_to_front], p[P.cg_to_rear]  # the seed's b and c
    L, R, Iw, mu = b + c_, p[P.wheel_radius], p[P.wheel_inertia], p[P.mu]
    delta = steer_in * (p[P.max_steer] * RADIANS)
    sin_d, cos_d = math.sin(delta), math.cos(delta)

    h = s[S.heading]
    ch, sh = s[S.heading_x], s[S.heading_y]
    if math.isnan(ch) or math.isnan(sh):  # a car placed by hand: its heading vector from the angle
        ch, sh = math.cos(h), math.sin(h)
    vx, vy = s[S.vx], s[S.vy]
    v_long, v_lat = rotate(vx, vy, ch, -sh)  # into the car frame
    omega = s[S.omega]
    wheel = s[S.wheel_omega]
    gear = int(s[S.gear])
    front_load, rear_load = _axle_loads(p, s[S.accel_long])

    # gearbox: reverse from rest on the brake, first from rest on the throttle (at rest:
    # slow along the car and across it, not a spin passing through zero forward speed)
    still = max(abs(v_long), abs(v_lat)) < STOP
    if still and brake > 0 and throttle == 0:
        gear = -1
    if still and throttle > 0 and gear < 0:
        gear = 1
    ratio = _gear_ratio(p, gear)
    rpm = _engine_rpm(p, wheel, ratio)
    if p[P.manual_gears] == 0.0:
        up, down = rpm > p[P.shift_up], rpm < p[P.shift_down]
    else:
        up, down = shift > 0, shift < 0
    if up and 1 <= gear < 6:
        gear += 1
    elif down and gear > 1:
        gear -= 1
    ratio = _gear_ratio(p, gear)
    rpm = max(_engine_rpm(p, wheel, ratio), p[P.idle_rpm])
    pedal = brake if gear < 0 else throttle  # in reverse the brake pedal drives
    direction = -1.0 if gear < 0 else 1.0
    engine_torque = pedal * _torque_curve(p, rpm)
    drive_torque = direction * engine_torque * ratio * p[P.differential] * p[P.efficiency]

    braking = throttle if gear < 0 else brake  # in reverse the pedals swap: the throttle brakes
    floor = max(abs(v_long), LOW_SPEED)
    slip_speed = wheel * R - v_long
    slip_ratio = slip_speed / floor

    # cornering: slip angles and lateral forces, grip ≤ μ·load
    direction_sign = 1.0 if v_long >= 0 else -1.0
    alpha_f = math.atan2(v_lat + omega * b, floor) - delta * direction_sign
    alpha_r = math.atan2(v_lat - omega * c_, floor)
    rear_grip = p[P.handbrake_grip] if handbrake else 1.0
    # tyre side forces fade out when slow, along the car and across it (a car sliding
    # sideways is not slow, whatever its forward speed)
    dynamic_now = _smooth((max(abs(v_long), abs(v_lat)) - LOW_SPEED) / LOW_SPEED)
    lat_f = dynamic_now * min(max(-p[P.cornering_front] * alpha_f * front_load, -mu * front_load), mu * front_load)
    lat_r = dynamic_now * min(
        max(-p[P.cornering_rear] * alpha_r * rear_load, -mu * rear_load * rear_grip), mu * rear_load * rear_grip
    )

    # forces in the car frame other than the rear traction
    speed = math.sqrt(v_long * v_long + v_lat * v_lat)
    front_brake, rear_brake = _brakes(p, braking, front_load, abs(v_long) / floor)
    along_front = -sin_d * lat_f
    if p[P.tutorial_cornering] != 0.0:
        along_front = 0.0
    side_front = cos_d * lat_f
    fy = lat_r + side_front
    # drag and rolling resistance (held at Crr·LOW_SPEED when slower), and the front
    # brakes: never reverse the motion
    resist = p[P.c_drag] * speed + p[P.c_rr] * max(speed, LOW_SPEED) / max(speed, 1e-12)
    resist = min(resist, m / dt)
    other = along_front - resist * v_long - sign(v_long) * min(front_brake, abs(v_long) * m / dt)
    fy = fy - resist * v_lat

    # rear wheels: the traction that agrees with the slip it leaves (implicit), the
    # brake against the spin; a brake that would reverse the wheel locks it instead
    turning = sign(wheel) if wheel != 0.0 else sign(drive_torque - _traction_ratio(p, slip_ratio) * rear_load * R)
    brake_torque = rear_brake * turning
    slip_ahead = slip_speed + dt * (R * (drive_torque - brake_torque) / Iw - other / m)
    traction = _implicit_traction(p, slip_ahead, dt * (R * R / Iw + 1 / m), rear_load, floor)
    wheel_after = wheel + (drive_torque - traction * R - brake_torque) / Iw * dt
    if handbrake or (
        rear_brake > 0 and wheel_after * turning <= 0
    ):  # the wheel held still: only the car moves the slip
        wheel_after = 0.0
        traction = _implicit_traction(p, -v_long - dt * other / m, dt / m, rear_load, floor)
    travel = 1.0 if v_long >= 0 else -1.0
    if p[P.abs] != 0.0 and rear_brake > 0 and not handbrake:
        slip_after = wheel_after * R - (v_long + (traction + other) / m * dt)
        held = _peak_slip_ratio(p) * floor  # ABS: the braking slip stays at the curve's peak
        if slip_after * travel < -held:
            traction = -travel * mu * rear_load
            wheel_after = travel * max((v_long + (traction + other) / m * dt) * travel - held, 0.0) / R
    if braking > 0 and (v_long + (traction + other) / m * dt) * v_long < 0:  # guard: braking stops the car,
        traction = -other - v_long * m / dt  # never reverses it
    fx = traction + other
    torque = b * side_front - c_ * lat_r

    ax, ay = fx / m, fy / m
    # Euler in world coordinates, as the seed (a = F/M; v += a·dt): the velocity turns
    # only by the forces, not with the body
    world_ax, world_ay = rotate(ax, ay, ch, sh)
    vx_dynamic = vx + world_ax * dt
    vy_dynamic = vy + world_ay * dt
    new_long = v_long + ax * dt
    new_omega = omega + torque / inertia * dt
    # low speed: kinematic turning, blended into the dynamic model up to 2·LOW_SPEED
    # along the car or across it
    new_lat = v_lat + ay * dt
    dynamic = _smooth((max(abs(new_long), abs(new_lat)) - LOW_SPEED) / LOW_SPEED)
    kinematic_omega = new_long * sin_d / L
    new_omega = dynamic * new_omega + (1 - dynamic) * kinematic_omega
    heading = h + new_omega * dt
    chn, shn = math.cos(heading), math.sin(heading)
    # kinematic: the velocity follows the body, along the new heading. Across the car it
    # loses (1 − dynamic)·new_lat, but at most what the side grip μ·(Wf + Wr·rear grip)
    # left by this tick's tyre forces can take (m/s): a sideways slide keeps the rest
    grip_left = max(mu * front_load + mu * rear_load * rear_grip - abs(side_front + lat_r), 0.0) * dt / m
    lost = min(max((1 - dynamic) * new_lat, -grip_left), grip_left)
    kept = (1 - dynamic) * new_lat - lost
    new_vx = dynamic * vx_dynamic + (1 - dynamic) * chn * new_long - shn * kept
    new_vy = dynamic * vy_dynamic + (1 - dynamic) * shn * new_long + chn * kept
    new_vx, new_vy = limit_speed(new_vx, new_vy, SPEED_LIMIT_M)  # guard (5)
    # the tachometer and the slip ratio as they stand after the tick (with its speed)
    end_long, _ = rotate(new_vx, new_vy, chn, -shn)
    end_rpm = max(_engine_rpm(p, wheel_after, ratio), p[P.idle_rpm])
    end_slip = (wheel_after * R - end_long) / max(abs(end_long), LOW_SPEED)

    s[S.x] += new_vx * dt
    s[S.y] += new_vy * dt
    s[S.heading] = math.atan2(shn, chn)
    s[S.vx], s[S.vy] = new_vx, new_vy
    s[S.wheel_angle] = delta
    s[S.traction_fast] = 1.0 if abs(end_slip) > 0.2 else 0.0
    s[S.omega], s[S.wheel_omega], s[S.gear], s[S.rpm] = new_omega, wheel_after, float(gear), end_rpm
    s[S.slip_ratio], s[S.alpha_front], s[S.alpha_rear] = end_slip, alpha_f, alpha_r
    s[S.lat_front], s[S.lat_rear], s[S.load_front], s[S.load_rear] = lat_f, lat_r, front_load, rear_load
    s[S.traction], s[S.accel_long], s[S.wheel_left], s[S.wheel_right] = traction, ax, delta, delta
    s[S.heading_x], s[S.heading_y] = chn, shn


@kernel
def _gear_accelerations(p, gear, speeds, out):
    """out[i] = drive force / M at full throttle in `gear`, wheels rolling at speeds[i]."""
    ratio = _gear_ratio(p, gear)
    for i in range(speeds.shape[0]):
        rpm = _engine_rpm(p, speeds[i] / p[P.wheel_radius], ratio)
        out[i] = _drive_force(p, _torque_curve(p, max(rpm, p[P.idle_rpm])), ratio) / p[P.mass]


@kernel
def _net_acceleration(p, v):
    """force_curve's `net` at one speed: the best gear's drive minus the resistance."""
    speeds, out = np.array([v]), np.empty(1)
    best = -math.inf
    for gear in range(1, len(GEAR_NAMES) + 1):
        _gear_accelerations(p, gear, speeds, out)
        best = max(best, out[0])
    return best - (p[P.c_drag] * v * v + p[P.c_rr] * v) / p[P.mass]


@kernel
def _bisect_top_speed(p, lo, hi, steps):
    """The speed in [lo, hi] where `net` falls through zero, halving `steps` times."""
    for _ in range(steps):
        mid = (lo + hi) / 2
        if _net_acceleration(p, mid) > 0:
            lo = mid
        else:
            hi = mid
    return lo


@kernel
def _every_gear(p, speeds, out):
    """out[g - 1] = `_gear_accelerations` of gear g, for every forward gear."""
    for gear in range(1, out.shape[0] + 1):
        _gear_accelerations(p, gear, speeds, out[gear - 1])


@kernel
def _top_speed(p, grid):
    """The first speed of `grid` where `net` ≤ 0 (0 if the first, inf if none), then
    50 halvings between it and the speed before."""
    for i in range(grid.shape[0]):
        if _net_acceleration(p, grid[i]) <= 0:
            return 0.0 if i == 0 else _bisect_top_speed(p, grid[i - 1], grid[i], 50)
    return math.inf


def _each(helper: Callable, p: Mapping, *args):
    """helper(tuning row, *values) element by element, for the Python side (once per
    curve or test, not per tick): the arguments and any per-car parameter arrays
    broadcast together; a tuple result gives a tuple of arrays."""
    values = [np.asarray(a, dtype=np.float64) for a in args]
    columns = {q.name: np.asarray(p.get(q.name, q.default), dtype=np.float64) for q in PARAMS}
    shape = np.broadcast_shapes(*(v.shape for v in values), *(col.shape for col in columns.values()))
    n = math.prod(shape)
    flat = [np.broadcast_to(v, shape).reshape(n) for v in values]
    per_car = {k: (col if col.ndim == 0 else np.broadcast_to(col, shape).reshape(n)) for k, col in columns.items()}
    rows, which = param_rows(PARAMS, per_car, n)
    out = np.array([helper(rows[which[i]], *(v[i] for v in flat)) for i in range(n)], dtype=np.float64)
    if out.ndim == 2:
        return tuple(out[:, k].reshape(shape) for k in range(out.shape[1]))
    return out.reshape(shape)


def _int_gear(row, gear):
    return _gear_ratio(row, int(gear))


def gear_ratio(p: Mapping, gear) -> np.ndarray:
    """Ratio of gear number (1…6; −1 reverse; 0 neutral → 0), per car."""
    return _each(_int_gear, p, gear)


def engine_rpm(wheel_omega, gear_ratio_, p: Mapping) -> np.ndarray:
    """rpm = wheel rotation rate · xg · xd · 60 / 2π (seed "How do we get the RPM?")."""
    return _each(_engine_rpm, p, wheel_omega, gear_ratio_)


def torque_curve(rpm, p: Mapping) -> np.ndarray:
    """Max engine torque (N·m) at `rpm`: linear between the curve's points (one
    parameter each, per car), the end values beyond them, 0 above the redline."""
    return _each(_torque_curve, p, rpm)


def drive_force(engine_torque, gear_ratio_, p: Mapping) -> np.ndarray:
    """F = T·xg·xd·η / Rw (seed "Engine Force")."""
    return _each(_drive_force, p, engine_torque, gear_ratio_)


def axle_loads(p: Mapping, accel) -> tuple[np.ndarray, np.ndarray]:
    """Front and rear axle loads (N) with weight transfer (seed "Weight Transfer")."""
    return _each(_axle_loads, p, accel)


def traction_ratio(slip_ratio, p: Mapping) -> np.ndarray:
    """Traction force / load for a slip ratio: Ct·SR capped at ±μ, or Pacejka."""
    return _each(_traction_ratio, p, slip_ratio)


def body(p: Mapping[str, float]) -> dict[str, float]:
    b, c, w = float(p["cg_to_front"]), float(p["cg_to_rear"]), float(p["track_width"])
    return {"wheel_base": b + c, "track": w, "length": b + c + 1.6, "width": w + 0.25}


def force_curve(p: Mapping[str, float], speeds: np.ndarray, dt: float) -> dict[str, np.ndarray]:
    """Accelerations (m/s²) at full throttle in each gear, wheels rolling (rpm from the
    speed), and the resistance −(Cdrag·v² + Crr·v)/M; `net` is the best gear's."""
    v = np.ascontiguousarray(speeds, dtype=np.float64)
    m = float(p["mass"])
    (row,), _ = param_rows(PARAMS, p, 1)
    gears = np.empty((len(GEAR_NAMES), v.size))
    _every_gear(row, v.reshape(-1), gears)  # one compiled call: the worker drawing it rarely waits for Python's lock
    terms = {f"gear {name}": gears[i].reshape(v.shape) for i, name in enumerate(GEAR_NAMES)}
    resistance = (float(p["c_drag"]) * v * v + float(p["c_rr"]) * v) / m
    terms["resistance"] = -resistance
    terms["net"] = np.max(gears, axis=0).reshape(v.shape) - resistance
    return terms


def gear_top_speeds(p: Mapping[str, float]) -> dict[str, float]:
    """Top speed (m/s) in each forward gear held: the first speed of TOP_SPEED_GRID
    where that gear's drive force no longer beats drag and rolling resistance (above
    the redline the engine gives nothing, so a short gear stops at its redline speed,
    redline·2π/60·Rw/(xg·xd)); inf if it beats them everywhere on the grid."""
    v = TOP_SPEED_GRID
    net = force_curve(p, v, 0.0)
    out = {}
    for name in GEAR_NAMES:
        above = np.nonzero(net[f"gear {name}"] + net["resistance"] <= 0)[0]
        out[name] = float(v[above[0]]) if above.size else math.inf
    return out


def top_speed(p: Mapping[str, float], dt: float) -> float:
    """Fastest steady speed (m/s) of any gear within the rpm range: the first of 3001
    speeds from 0 to 150 m/s where `net` ≤ 0, then bisection (`_top_speed`)."""
    (row,), _ = param_rows(PARAMS, p, 1)
    return float(_top_speed(row, TOP_SPEED_GRID))
