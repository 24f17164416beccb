"""The dynamic car's drivetrain (seed 004, "Engine Force" to "Torque on the drive
wheels"): the gear ratios, the engine's rpm and torque curve, the drive torque on the
rear axle, the brakes, and the rear axle's spin under drive, traction and brake
torques; with the gearbox the text leaves to the reader and the guards that keep the
axle's stiff equation stable (each marked as a departure where it is declared).

Kernels of one car, `p` its tuning row (read by name through `P`). Torques in N·m,
forces in N, the axle's spin in rad/s, the engine in rpm.
"""

from __future__ import annotations

import math

from ..kernel import kernel
from .geometry import sign
from .monster_drivetrain_params import TORQUE_RPM
from .monster_params import P
from .monster_tyres import implicit_traction, peak_slip_ratio, slip_divisor, traction_ratio

STOP = 0.3
"""m/s: below this along the car and across it, holding the brake selects reverse (and
the throttle first gear)."""
KNOTS = tuple(float(rpm) for rpm in TORQUE_RPM)
"""rpm of the torque curve's points: parameters P.torque_1000 … P.torque_6000, in order."""


# "Gear Ratios", "How do we get the RPM?", "Drive wheel acceleration", "Engine Force"


@kernel
def ratio_of_gear(p, gear):
    """xg of gear number `gear` ("Gear Ratios"): 1…6 (above 6 the sixth), below 0
    reverse, 0 neutral → 0."""
    if gear > 0:
        return p[P.gear_1 + min(gear, 6) - 1]
    if gear < 0:
        return p[P.gear_reverse]
    return 0.0


@kernel
def rpm_from_wheel(p, wheel_omega, xg):
    """rpm = wheel rotation rate · xg · xd · 60 / 2π ("How do we get the RPM?")."""
    return abs(wheel_omega) * xg * p[P.differential] * 60 / (2 * math.pi)


@kernel
def lookup_torque_curve(p, rpm):
    """LookupTorqueCurve(rpm) ("Drive wheel acceleration"): the max engine torque
    (N·m), "linear interpolation between the closest two points", the end values
    beyond them, 0 above the redline. np.interp's arithmetic, slope·(rpm − knot) +
    value with slope = (next value − value)/(next knot − knot): its bits."""
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
def engine_torque(p, throttle, rpm):
    """engine torque = throttle position × max torque ("Drive wheel acceleration")."""
    return throttle * lookup_torque_curve(p, rpm)


@kernel
def drive_torque(p, engine_torque, xg):
    """Tdrive = Tengine · xg · xd · n ("Drive wheel acceleration")."""
    return engine_torque * xg * p[P.differential] * p[P.efficiency]


@kernel
def drive_force(p, engine_torque, xg):
    """Fdrive = Tengine · xg · xd · n / Rw ("Engine Force")."""
    return drive_torque(p, engine_torque, xg) / p[P.wheel_radius]


# The gearbox: the text gives the ratios, not when to change them nor how to reverse


@kernel
def gear_from_rest(gear, v_long, v_lat, throttle, brake):
    """Departure (the text has no reverse gear): at rest, slower than STOP along the car
    and across it (not a spin passing through zero forward speed), the brake pedal
    alone selects reverse and the throttle first gear again."""
    still = max(abs(v_long), abs(v_lat)) < STOP
    if still and brake > 0 and throttle == 0:
        gear = -1
    if still and throttle > 0 and gear < 0:
        gear = 1
    return gear


@kernel
def shift_gear(p, gear, wheel_omega, shift):
    """Departure (the text gives no shifting): automatic, one gear up above shift_up
    rpm and down below shift_down; manual (`manual_gears`), up on `shift` +1, down on −1."""
    if p[P.manual_gears] == 0.0:
        rpm = rpm_from_wheel(p, wheel_omega, ratio_of_gear(p, gear))
        up, down = rpm > p[P.shift_up], rpm < p[P.shift_down]
    else:
        up, down = shift > 0, shift < 0
    if up and 1 <= gear < 6:
        return gear + 1
    if down and gear > 1:
        return gear - 1
    return gear


@kernel
def pedals(gear, throttle, brake):
    """(driving pedal, braking pedal, direction of the drive): in reverse the brake
    pedal drives backwards and the throttle brakes (departure, with `gear_from_rest`)."""
    if gear < 0:
        return brake, throttle, -1.0
    return throttle, brake, 1.0


# "Braking" and "Torque on the drive wheels"


@kernel
def brakes(p, pedal, front_load, v_long):
    """(front braking force N, rear brake torque N·m) at brake pedal `pedal`.

    The text's split: "Fbraking = −u · Cbraking" on the car (the front wheels, here at
    most μ × front load) and a brake torque on the rear wheels. Option
    `four_wheel_brakes`: one torque, the front axle's share `brake_bias` of it acting
    through the wheel radius; braked past its peak grip the front locks and slides
    with the curve's value at a locked wheel's slip ratio, −|v_long|/`slip_divisor`
    (−1 above LOW_SPEED; with `abs`, it stays at the peak instead)."""
    mu = p[P.mu]
    if p[P.four_wheel_brakes] == 0.0:
        return min(pedal * p[P.brake_force], mu * front_load), pedal * p[P.brake_torque]
    total = pedal * p[P.brake_total]
    front = total * p[P.brake_bias] / p[P.wheel_radius]
    peak = mu * front_load
    if front > peak:
        locked_ratio = abs(v_long) / slip_divisor(v_long)
        front = peak if p[P.abs] != 0.0 else abs(traction_ratio(p, -locked_ratio)) * front_load
    return front, total * (1.0 - p[P.brake_bias])


@kernel
def wheel_turning(p, wheel_omega, drive_torque, slip_ratio, rear_load):
    """The way the rear wheels turn, ±1, which the brake torque opposes ("a constant
    torque in the direction opposite to the wheel's rotation. Take care of the
    direction"); wheels at rest: the way drive and traction would turn them."""
    if wheel_omega != 0.0:
        return sign(wheel_omega)
    return sign(drive_torque - traction_ratio(p, slip_ratio) * rear_load * p[P.wheel_radius])


@kernel
def wheel_spin(p, wheel_omega, drive_torque, traction, brake_torque, dt):
    """ω += total torque / rear wheel inertia · dt, total torque = Tdrive − traction·Rw
    − Tbrake ("Torque on the drive wheels"; rad/s)."""
    return wheel_omega + (drive_torque - traction * p[P.wheel_radius] - brake_torque) / p[P.wheel_inertia] * dt


@kernel
def rear_traction(p, slip_speed, drive_torque, brake_torque, other, rear_load, divisor, dt):
    """The rear traction (N) with the slip it leaves at the end of the tick
    (`implicit_traction`, a departure): the slip speed ω·Rw − v_long grows by the axle's
    torques through Rw/Iw and shrinks by the car's other forces `other` (N, along the
    car) through 1/M; each newton of traction closes it by dt·(Rw²/Iw + 1/M)."""
    R, Iw, m = p[P.wheel_radius], p[P.wheel_inertia], p[P.mass]
    slip_ahead = slip_speed + dt * (R * (drive_torque - brake_torque) / Iw - other / m)
    return implicit_traction(p, slip_ahead, dt * (R * R / Iw + 1 / m), rear_load, divisor)


@kernel
def locked_wheels(p, traction, wheel_after, handbrake, rear_brake, turning, v_long, other, rear_load, divisor, dt):
    """(traction N, spin rad/s) after the handbrake and the brake lock. Departure: a
    brake torque that would reverse the wheel's spin in one tick locks it instead (no
    jitter about zero); the handbrake always does. A held wheel slips by the car's
    speed alone, and its traction is solved with the slip it leaves like the rolling one."""
    if handbrake or (rear_brake > 0 and wheel_after * turning <= 0):
        m = p[P.mass]
        return implicit_traction(p, -v_long - dt * other / m, dt / m, rear_load, divisor), 0.0
    return traction, wheel_after


@kernel
def abs_rear(p, traction, wheel_after, rear_brake, handbrake, v_long, other, rear_load, divisor, dt):
    """(traction N, spin rad/s) with option `abs` (departure: the text has no ABS): a
    braking slip past the traction curve's peak is held at the peak, μ × rear load,
    with the spin the peak's slip ratio leaves."""
    if p[P.abs] != 0.0 and rear_brake > 0 and not handbrake:
        m, R = p[P.mass], p[P.wheel_radius]
        travel = 1.0 if v_long >= 0 else -1.0
        slip_after = wheel_after * R - (v_long + (traction + other) / m * dt)
        held = peak_slip_ratio(p) * divisor
        if slip_after * travel < -held:
            traction = -travel * p[P.mu] * rear_load
            wheel_after = travel * max((v_long + (traction + other) / m * dt) * travel - held, 0.0) / R
    return traction, wheel_after


@kernel
def braking_stops(p, traction, braking, v_long, other, dt):
    """The traction (N) so that braking stops the car but never reverses it ("Keep in
    mind to stop applying the braking force as soon as the speed is reduced to zero
    otherwise the car will end up going in reverse", seed "Braking")."""
    m = p[P.mass]
    if braking > 0 and (v_long + (traction + other) / m * dt) * v_long < 0:
        return -other - v_long * m / dt
    return traction
