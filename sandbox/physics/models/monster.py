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
   shape), and the axle turns by (drive − traction·R − brake torque)/I;
 - cornering: slip angles α_f = atan((v_lat + ω·b)/|v_long|) − δ·sign(v_long),
   α_r = atan((v_lat − ω·c)/|v_long|); lateral force F = −Cα·α·load, at most μ·load;
   cornering force F_lat,r + cos δ·F_lat,f, yaw torque b·cos δ·F_lat,f − c·F_lat,r;
 - resistance: −Cdrag·v·|v| − Crr·v; front brakes −sign(v)·brake force (≤ μ·Wf);
 - a = F/M in world coordinates, v += a·dt, p += v·dt; yaw rate += torque/I·dt.

Low speed (the common ports snap to zero below 0.5 m/s and still chatter): the seed's
formulas divide by the speed and their explicit steps are stiff there (the wheel
against the road at rest is a ~600/s spring). Here (1) slip ratio and slip angles
use max(|v_long|, LOW_SPEED) in the divisor; (2) below LOW_SPEED the car turns
kinematically, as the seed's low-speed section says (ω = v·sin δ/L, velocity along the
body, no tyre side forces), blended smoothly into the dynamic model up to 2·LOW_SPEED;
(3) no force may overshoot what it removes in one tick: traction never more than
zeroes the wheel's slip, brakes and resistance never reverse the velocity, the brake
torque never reverses the wheel (no jitter); (4) rolling resistance, Crr·v in the
seed, is held at Crr·LOW_SPEED below LOW_SPEED, so a coasting car stops in finite
time instead of creeping for minutes (Crr·v alone never reaches zero). A car at rest
stays exactly at rest. (5) No car goes faster than the sandbox's shared 500 m/s
(batch_math.SPEED_LIMIT): a long gearing with drag and rolling resistance at zero
would otherwise keep accelerating.

Correction on by default: the tutorial writes only the sideways part of the front tyre
force (cos δ·F_lat,f); this model also applies its part along the car, −sin δ·F_lat,f,
without which the steered tyre pushes the car forward and a car coasting at full lock
gains speed. Option `tutorial_cornering` drops it, as the text does.

Gears: automatic (up at shift_up rpm, down at shift_down) or manual (controls.shift).
Holding the brake at rest selects reverse, where the brake pedal drives and the
throttle brakes; the throttle at rest selects first again.
Handbrake: locks the rear wheels and scales the rear grip by handbrake_grip.
"""

from __future__ import annotations

import math
from typing import Mapping

import numpy as np

from ..params import Param
from .batch_math import any_, heading_vector, held, limit_speed, norm, per_car
from .geometry import DEGREES, rotate
from ..state import Controls, State

NAME = "monster"
TITLE = "Dynamic car (Monster, 2003)"
LENGTH_UNIT = "m"
G = 9.8
LOW_SPEED = 2.0
"""m/s: below this the car turns kinematically; the divisor floor of slip formulas."""
STOP = 0.3
"""m/s: below this, holding the brake selects reverse (and the throttle first gear)."""
TORQUE_RPM = (1000, 2000, 2500, 3500, 4400, 5000, 5600, 6000)
TORQUE_NM = (390, 430, 448, 465, 475, 462, 438, 400)
"""LS1-like curve: 475 N·m peak at 4400 rpm and 448 at 2500 as the seed says; 438 at
5600 rpm is the seed's 257 kW power peak. Editable: one parameter per point."""
GEAR_NAMES = ("1", "2", "3", "4", "5", "6")

PARAMS = (
    Param("mass", "Mass", "kg", 1500, 300, 5000, 10, "Car and driver."),
    Param("cg_to_front", "CG to front axle (b)", "m", 1.25, 0.3, 3, 0.05, "Distance from the centre of gravity to the front axle."),
    Param("cg_to_rear", "CG to rear axle (c)", "m", 1.25, 0.3, 3, 0.05, "Distance from the centre of gravity to the rear axle."),
    Param("cg_height", "CG height (h)", "m", 1.0, 0.1, 2, 0.05, "Height of the CG: more = more weight transfer."),
    Param("track_width", "Track width", "m", 1.6, 1, 2.5, 0.05, "For drawing only."),
    Param("yaw_inertia", "Yaw inertia", "kg·m²", 2500, 100, 20000, 50, "Resistance to turning about the CG."),
    Param("wheel_radius", "Wheel radius", "m", 0.34, 0.2, 0.6, 0.01, "Rw: drive force = torque / Rw."),
    Param("wheel_inertia", "Rear axle inertia", "kg·m²", 8.2, 0.5, 50, 0.1,
          "Both rear wheels (the seed: 2 × 75 kg·0.33²/2 = 8.2)."),
    Param("c_drag", "Drag constant", "kg/m", 0.4257, 0, 3, 0.0001, "Cdrag: F = −Cdrag·v·|v| (0.5·0.30·2.2·1.29)."),
    Param("c_rr", "Rolling resistance", "kg/s", 12.8, 0, 100, 0.1, "Crr: F = −Crr·v (30 × Cdrag; the seed doubts it)."),
    Param("mu", "Tyre friction μ", "coeff.", 1.0, 0.1, 2, 0.01, "Grip limit per axle = μ × load (street 1.0, racing 1.5)."),
    Param("traction_slope", "Traction slope", "/SR", 16.7, 1, 50, 0.1,
          "Ct normalised by load: traction/load per unit slip ratio (peak μ at about 6 % slip)."),
    Param("cornering_front", "Cornering stiffness front", "/rad", 5.0, 0.5, 20, 0.1,
          "Cα front, normalised by load: lateral force/load per radian of slip angle."),
    Param("cornering_rear", "Cornering stiffness rear", "/rad", 5.2, 0.5, 20, 0.1,
          "Cα rear, normalised by load. More than the front: stable; less: oversteer."),
    Param("max_steer", "Steering angle", "°", 30, 1, 50, 0.5, "Front wheel angle at full steer."),
    Param("brake_torque", "Rear brake torque", "N·m", 3000, 0, 20000, 50, "Constant torque against the rear wheels' spin."),
    Param("brake_force", "Front brake force", "N", 6000, 0, 40000, 100, "Braking force of the front axle (≤ μ·front load)."),
    Param("handbrake_grip", "Handbrake rear grip", "×", 0.5, 0, 1, 0.05, "Rear lateral grip while the handbrake locks the rear."),
    Param("gear_1", "Gear 1", "ratio", 2.66, 0.5, 6, 0.01, "Gear ratio xg (Corvette C5)."),
    Param("gear_2", "Gear 2", "ratio", 1.78, 0.3, 5, 0.01, "Gear ratio."),
    Param("gear_3", "Gear 3", "ratio", 1.30, 0.3, 4, 0.01, "Gear ratio."),
    Param("gear_4", "Gear 4", "ratio", 1.00, 0.3, 3, 0.01, "Gear ratio."),
    Param("gear_5", "Gear 5", "ratio", 0.74, 0.2, 3, 0.01, "Gear ratio."),
    Param("gear_6", "Gear 6", "ratio", 0.50, 0.2, 3, 0.01, "Gear ratio."),
    Param("gear_reverse", "Reverse gear", "ratio", 2.90, 0.5, 6, 0.01, "Reverse ratio."),
    Param("differential", "Differential", "ratio", 3.42, 1, 6, 0.01, "xd: multiplies every gear."),
    Param("efficiency", "Transmission efficiency", "fraction", 0.7, 0.3, 1, 0.01, "η: the seed's guess of 70 %."),
    Param("idle_rpm", "Idle rpm", "rpm", 1000, 500, 2000, 50, "rpm floor: the engine drives from standstill."),
    Param("redline_rpm", "Redline", "rpm", 6000, 3000, 9000, 100, "No torque above this (rev limiter)."),
    Param("shift_up", "Shift up at", "rpm", 5500, 2000, 9000, 100, "Automatic gearbox: next gear above this."),
    Param("shift_down", "Shift down at", "rpm", 2500, 1000, 6000, 100, "Automatic gearbox: lower gear below this."),
) + tuple(Param(f"torque_{rpm}", f"Torque at {rpm} rpm", "N·m", nm, 0, 1500, 1, "A point of the engine's torque curve.")
          for rpm, nm in zip(TORQUE_RPM, TORQUE_NM)) + (
    Param.switch("manual_gears", "Manual gearbox", False, "Shift with Q/E (controls.shift) instead of automatically."),
    Param.switch("pacejka", "Pacejka traction curve", False,
                 "Slip ratio → traction through a Magic-Formula shape (peak, then falling) instead of capped linear."),
    Param.switch("tutorial_cornering", "Tutorial cornering (literal)", False,
                 "Drop the front tyre force's part along the car, as the text does (a car at full lock can then gain speed)."),
)


# Live plot channels: group -> (unit, ((state.extra key, label, factor), ...))
TELEMETRY = {
    "rpm and gear": ("rpm", (("rpm", "rpm", 1.0), ("gear", "gear × 1000", 1000.0))),
    "slip angles": ("°", (("alpha_front", "front", DEGREES), ("alpha_rear", "rear", DEGREES))),
    "lateral forces": ("N", (("lat_front", "front", 1.0), ("lat_rear", "rear", 1.0))),
    "axle loads": ("N", (("load_front", "front", 1.0), ("load_rear", "rear", 1.0))),
    "slip ratio": ("", (("slip_ratio", "rear SR", 1.0),)),
    "yaw rate": ("°/s", (("omega", "ω", DEGREES),)),
}

def _arr(p: Mapping, name: str) -> np.ndarray:
    return np.asarray(p[name], dtype=np.float64)


def gear_ratio(p: Mapping, gear) -> np.ndarray:
    """Ratio of gear number (1…6; −1 reverse; 0 neutral → 0), per car."""
    g = np.asarray(gear, dtype=int)
    ratios = [_arr(p, f"gear_{i}") for i in range(1, 7)]
    reverse = _arr(p, "gear_reverse")
    if reverse.ndim == 0 and all(r.ndim == 0 for r in ratios):  # one gearbox for all: a plain lookup
        return np.array([reverse, 0.0] + ratios)[np.clip(g + 1, 0, 7)]
    forward = np.choose(np.clip(g - 1, 0, 5), np.broadcast_arrays(*ratios, g)[:6])
    return np.where(g > 0, forward, np.where(g < 0, reverse, 0.0))


def engine_rpm(wheel_omega, gear_ratio_, p: Mapping) -> np.ndarray:
    """rpm = wheel rotation rate · xg · xd · 60 / 2π (seed "How do we get the RPM?")."""
    return np.abs(wheel_omega) * gear_ratio_ * _arr(p, "differential") * 60 / (2 * math.pi)


def torque_curve(rpm, p: Mapping) -> np.ndarray:
    """Max engine torque (N·m) at `rpm`: linear between the curve's points (one
    parameter each, per car), the end values beyond them, 0 above the redline.

    One curve for every car: np.interp, one C call (the whole lookup 39 → 16 µs on one
    car, 530 → 180 µs on 16 384). Curves per car: the same formula written out,
    slope·(rpm − knot) + value with np.interp's slope, so a car gives the same bits in
    any batch."""
    rpm = np.asarray(rpm, dtype=np.float64)
    knots = np.asarray(TORQUE_RPM, dtype=np.float64)
    points = [_arr(p, f"torque_{r}") for r in TORQUE_RPM]
    if all(v.ndim == 0 for v in points):
        curve = np.interp(rpm, knots, np.array(points))
    else:
        values = np.broadcast_arrays(*points, rpm)[:-1]
        j = np.clip(np.searchsorted(knots, rpm, side="right") - 1, 0, len(knots) - 2)  # knots[j] <= rpm
        low, high = np.choose(j, values), np.choose(j + 1, values)
        curve = (high - low) / (knots[j + 1] - knots[j]) * (rpm - knots[j]) + low
        curve = np.where(rpm <= knots[0], values[0], np.where(rpm >= knots[-1], values[-1], curve))
    return np.where(rpm > _arr(p, "redline_rpm"), 0.0, curve)


def drive_force(engine_torque, gear_ratio_, p: Mapping) -> np.ndarray:
    """F = T·xg·xd·η / Rw (seed "Engine Force")."""
    return engine_torque * gear_ratio_ * _arr(p, "differential") * _arr(p, "efficiency") / _arr(p, "wheel_radius")


def axle_loads(p: Mapping, accel) -> tuple[np.ndarray, np.ndarray]:
    """Front and rear axle loads (N) with weight transfer (seed "Weight Transfer")."""
    b, c, h, m = _arr(p, "cg_to_front"), _arr(p, "cg_to_rear"), _arr(p, "cg_height"), _arr(p, "mass")
    L, W = b + c, m * G
    shift = h / L * m * np.asarray(accel, dtype=np.float64)
    front = np.clip(c / L * W - shift, 0.0, W)
    return front, W - front


def traction_ratio(slip_ratio, p: Mapping) -> np.ndarray:
    """Traction force / load for a slip ratio: Ct·SR capped at ±μ, or Pacejka."""
    mu, k = _arr(p, "mu"), _arr(p, "traction_slope")
    pacejka = np.asarray(p["pacejka"], dtype=bool)
    linear = np.clip(k * slip_ratio, -mu, mu)
    if not pacejka.any():
        return linear
    # Magic Formula D·sin(C·atan(B·x − E·(B·x − atan(B·x)))) with B from the same slope
    B, C, E = k / (1.65 * np.maximum(mu, 1e-9)), 1.65, 0.97
    bx = B * slip_ratio
    magic = mu * np.sin(C * np.arctan(bx - E * (bx - np.arctan(bx))))
    return np.where(pacejka, magic, linear)


def _smooth(x):
    x = np.clip(x, 0.0, 1.0)
    return x * x * (3 - 2 * x)


def step(state: State, controls: Controls, p: Mapping[str, np.ndarray | float], dt: float) -> State:
    """Advance every car one tick of `dt` seconds; returns a new State."""
    n = len(state)
    shape = (n,)
    steer_in = per_car(np.asarray(controls.steer, dtype=np.float64), shape)
    throttle = per_car(np.asarray(controls.throttle, dtype=np.float64), shape)
    brake = per_car(np.asarray(controls.brake, dtype=np.float64), shape)
    handbrake = per_car(np.asarray(controls.handbrake, dtype=np.float64), shape) > 0
    shift = per_car(np.asarray(controls.shift, dtype=np.float64), shape)
    m, inertia = _arr(p, "mass"), _arr(p, "yaw_inertia")
    b, c = _arr(p, "cg_to_front"), _arr(p, "cg_to_rear")
    L, R, Iw, mu = b + c, _arr(p, "wheel_radius"), _arr(p, "wheel_inertia"), _arr(p, "mu")
    delta = steer_in * np.radians(p["max_steer"])
    sin_d, cos_d = held(state, ("steer_sin", "steer_cos"), delta, state.wheel_angle, lambda a: (np.sin(a), np.cos(a)))

    h = state.heading
    ch, sh = heading_vector(state)
    v_long, v_lat = rotate(state.vx, state.vy, ch, -sh)  # into the car frame
    omega = state.get("omega")
    wheel = state.get("wheel_omega")
    gear = state.get("gear", 1.0).astype(int)
    front_load, rear_load = axle_loads(p, state.get("accel_long"))

    # gearbox: reverse from rest on the brake, first from rest on the throttle
    still = np.abs(v_long) < STOP
    gear = np.where(still & (brake > 0) & (throttle == 0), -1, gear)
    gear = np.where(still & (throttle > 0) & (gear < 0), 1, gear)
    ratio = gear_ratio(p, gear)
    rpm = engine_rpm(wheel, ratio, p)
    auto = ~np.asarray(p["manual_gears"], dtype=bool)
    up = np.where(auto, rpm > _arr(p, "shift_up"), shift > 0) & (gear >= 1) & (gear < 6)
    down = np.where(auto, rpm < _arr(p, "shift_down"), shift < 0) & (gear > 1)
    gear = np.where(up, gear + 1, np.where(down, gear - 1, gear))
    ratio = gear_ratio(p, gear)
    rpm = np.maximum(engine_rpm(wheel, ratio, p), _arr(p, "idle_rpm"))
    pedal = np.where(gear < 0, brake, throttle)  # in reverse the brake pedal drives
    direction = np.where(gear < 0, -1.0, 1.0)
    engine_torque = pedal * torque_curve(rpm, p)
    drive_torque = direction * engine_torque * ratio * _arr(p, "differential") * _arr(p, "efficiency")

    # rear wheels: slip ratio → traction, never more than zeroes the slip this tick
    floor = np.maximum(np.abs(v_long), LOW_SPEED)
    slip_ratio = (wheel * R - v_long) / floor
    traction = traction_ratio(slip_ratio, p) * rear_load
    slip_speed = wheel * R - v_long
    zeroing = np.abs(slip_speed) / (dt * (R * R / Iw + 1 / m))
    traction = np.clip(traction, -zeroing, zeroing)
    braking = np.where(gear < 0, throttle, brake)  # in reverse the pedals swap: the throttle brakes
    braking_rear = braking
    wheel_after = wheel + (drive_torque - traction * R) / Iw * dt
    stop_spin = _arr(p, "brake_torque") * braking_rear / Iw * dt
    wheel_after = np.sign(wheel_after) * np.maximum(np.abs(wheel_after) - stop_spin, 0.0)
    wheel_after = np.where(handbrake, 0.0, wheel_after)

    # cornering: slip angles and lateral forces, grip ≤ μ·load
    sign = np.where(v_long >= 0, 1.0, -1.0)
    alpha_f = np.arctan2(v_lat + omega * b, floor) - delta * sign
    alpha_r = np.arctan2(v_lat - omega * c, floor)
    rear_grip = np.where(handbrake, _arr(p, "handbrake_grip"), 1.0)
    dynamic_now = _smooth((np.abs(v_long) - LOW_SPEED) / LOW_SPEED)  # tyre side forces fade out when slow
    lat_f = dynamic_now * np.clip(-_arr(p, "cornering_front") * alpha_f * front_load, -mu * front_load, mu * front_load)
    lat_r = dynamic_now * np.clip(-_arr(p, "cornering_rear") * alpha_r * rear_load, -mu * rear_load * rear_grip,
                                  mu * rear_load * rear_grip)

    # forces in the car frame
    speed = norm(v_long, v_lat)
    front_brake = np.minimum(braking * _arr(p, "brake_force"), mu * front_load)
    literal = np.asarray(p["tutorial_cornering"], dtype=bool)
    along_front = -sin_d * lat_f
    if literal.any():
        along_front = np.where(literal, 0.0, along_front)
    fx = traction + along_front
    side_front = cos_d * lat_f
    fy = lat_r + side_front
    # drag and rolling resistance (held at Crr·LOW_SPEED when slower), and the front
    # brakes: never reverse the motion
    resist = _arr(p, "c_drag") * speed + _arr(p, "c_rr") * np.maximum(speed, LOW_SPEED) / np.maximum(speed, 1e-12)
    resist = np.minimum(resist, m / dt)
    fx = fx - resist * v_long - np.sign(v_long) * np.minimum(front_brake, np.abs(v_long) * m / dt)
    fy = fy - resist * v_lat
    torque = b * side_front - c * lat_r

    ax, ay = fx / m, fy / m
    # Euler in world coordinates, as the seed (a = F/M; v += a·dt): the velocity turns
    # only by the forces, not with the body
    world_ax, world_ay = rotate(ax, ay, ch, sh)
    vx_dynamic = state.vx + world_ax * dt
    vy_dynamic = state.vy + world_ay * dt
    new_long = v_long + ax * dt
    new_omega = omega + torque / inertia * dt
    # low speed: kinematic turning, blended into the dynamic model up to 2·LOW_SPEED
    dynamic = _smooth((np.abs(new_long) - LOW_SPEED) / LOW_SPEED)
    kinematic_omega = new_long * sin_d / L
    new_omega = dynamic * new_omega + (1 - dynamic) * kinematic_omega
    heading = h + new_omega * dt
    chn, shn = np.cos(heading), np.sin(heading)
    # kinematic: the velocity follows the body, along the new heading
    vx = dynamic * vx_dynamic + (1 - dynamic) * chn * new_long
    vy = dynamic * vy_dynamic + (1 - dynamic) * shn * new_long

    vx, vy = limit_speed(vx, vy, LENGTH_UNIT)  # guard (5)
    extra = {"omega": new_omega, "wheel_omega": wheel_after, "gear": gear.astype(np.float64), "rpm": rpm,
             "slip_ratio": slip_ratio, "alpha_front": alpha_f, "alpha_rear": alpha_r, "lat_front": lat_f,
             "lat_rear": lat_r, "load_front": front_load, "load_rear": rear_load, "traction": traction,
             "accel_long": ax, "wheel_left": delta, "wheel_right": delta,
             "heading_x": chn, "heading_y": shn, "steer_sin": sin_d, "steer_cos": cos_d}
    return State(state.x + vx * dt, state.y + vy * dt, np.arctan2(shn, chn), vx, vy, wheel_angle=delta,
                 traction_fast=np.abs(slip_ratio) > 0.2, extra=extra)


def body(p: Mapping[str, float]) -> dict[str, float]:
    b, c, w = float(p["cg_to_front"]), float(p["cg_to_rear"]), float(p["track_width"])
    return {"wheel_base": b + c, "track": w, "length": b + c + 1.6, "width": w + 0.25}


def force_curve(p: Mapping[str, float], speeds: np.ndarray, dt: float) -> dict[str, np.ndarray]:
    """Accelerations (m/s²) at full throttle in each gear, wheels rolling (rpm from the
    speed), and the resistance −(Cdrag·v² + Crr·v)/M; `net` is the best gear's."""
    v = np.asarray(speeds, dtype=np.float64)
    m = float(p["mass"])
    terms = {}
    for i, name in enumerate(GEAR_NAMES, start=1):
        ratio = gear_ratio(p, np.array(i))
        rpm = engine_rpm(v / float(p["wheel_radius"]), ratio, p)
        torque = torque_curve(np.maximum(rpm, float(p["idle_rpm"])), p)
        terms[f"gear {name}"] = drive_force(torque, ratio, p) / m
    resistance = (float(p["c_drag"]) * v * v + float(p["c_rr"]) * v) / m
    terms["resistance"] = -resistance
    terms["net"] = np.max([terms[f"gear {g}"] for g in GEAR_NAMES], axis=0) - resistance
    return terms


def top_speed(p: Mapping[str, float], dt: float) -> float:
    """Fastest steady speed (m/s) of any gear within the rpm range (by bisection)."""
    grid = np.linspace(0.0, 150.0, 3001)
    net = force_curve(p, grid, dt)["net"]
    below = np.nonzero(net <= 0)[0]
    if len(below) == 0:
        return float("inf")
    i = below[0]
    if i == 0:
        return 0.0
    lo, hi = grid[i - 1], grid[i]
    for _ in range(50):
        mid = (lo + hi) / 2
        if force_curve(p, np.array([mid]), dt)["net"][0] > 0:
            lo = mid
        else:
            hi = mid
    return float(lo)
