"""Rigid body with tyre patches, from M. Kincaid's "2D Car Physics" (seed 003).

Units: m, kg, s, rad (degrees on the sliders). Vehicle frame: +x forward, +y to the
right (y down on screen, as everywhere in the sandbox); heading increases turning right.

Chassis (seed phase two): forces and torques accumulate (AddForce: F += f,
τ += offset × f with the 2D cross offset.x·f.y − offset.y·f.x), then Euler with the
new velocity: a = F/m, v += a·dt, p += v·dt; α = τ/I, ω += α·dt, θ += ω·dt.
Inertia, as the seed writes it: I = (1/12)·hx²·hy²·m (half sizes multiplied, a known
slip); option `box_inertia` uses a box's m·(L² + W²)/12 instead.

Four wheels at the chassis corners (seed phase three), each tick:
 1. forward and side axes of the wheel (front wheels rotated by the steer angle);
 2. ground velocity of the wheel's point (PointVel: v + ω × offset) in vehicle space;
    patch velocity = −forward·wheel_speed·radius; difference = ground + patch;
 3. project the difference onto the side and forward axes;
 4. response force = −side·side_grip − forward·forward_grip (the seed's "super fake
    friction", constants 2 and 1), applied to the chassis at the wheel;
 5. wheel torque += forward component·radius, plus drive and brake torques;
 6. wheel_speed += torque / wheel_inertia · dt.
Option `grip_limit` caps each wheel's response force at `max_grip` N (a saturating
friction: past it the tyre slides). Option `grip_load` (off by default) caps it at
μ × the wheel's share of the weight, μ·m·g/4 (the wheels sit symmetrically at the
corners; no weight transfer), so the car corners at up to μ·g whatever its mass.

The seed gives no vehicle numbers; the defaults (a 1 kg, 3 m × 1.5 m toy-scale car)
are chosen so its friction constants make a drivable car. Like the seed, nothing resists rolling: the car keeps speeding
up under throttle (top speed: none), up to the sandbox's shared guard of 500 m/s
(limits.SPEED_LIMIT_M; its wheels' spin is held to the same ground speed).

Action and reaction: the wheel feels the forward force its patch gives the chassis
(torque −F_forward·radius, the same force after every limit), so the tyres only ever
take energy out. The seed writes both with its forward constant 1; with another
`forward_grip` the two would differ and coasting could gain energy.

Guard, where the explicit step is unstable: a tick of patch forces never pushes the
slips past the opposite of what they were, which is what keeps the energy from rising
(it needs the largest eigenvalue of dt·M⁻¹·K below 2, K the patches' damping, M the
chassis mass and inertia and the wheels' inertia). Each tyre's side grip is at most
m_eff/(4·dt), m_eff the chassis mass felt at the patch (1/m_eff = 1/m + lever²/I),
and the forward grips are scaled down together when a bound on their eigenvalue
(Gershgorin's row sum, the wheels' r²/I_w included) passes 1. The seed's own numbers
need the side guard at 60 Hz: its inertia formula makes the car so light in yaw that
the side constant 2 would oscillate and grow (grip 0.67 N·s/m is used instead).
The pedals are the sandbox's: throttle = drive torque on the rear
wheels; brake = brake torque on all wheels while rolling forward, and drive backwards
once nearly stopped.

Walls (on a track with walls; none on the open field), a step after the integration:
the body at its new heading is moved by the tick's motion with Godot 3's
move_and_collide, and at the contact point an impulse with the track's restitution and
friction changes the velocity and the yaw rate (`contact_impulse`; the collision shape
from the tuning, the mass and the yaw inertia above). `wall_contacts` is 1 on a tick
that met a wall, else 0.

State after the common slots: omega (rad/s), wheel_speed (4 values, rad/s; order
front-left, front-right, rear-left, rear-right), wheel_left, wheel_right (rad),
slip_front, slip_rear (rad, tyre slip angles), side_force_front, side_force_rear (N),
wall_contacts (count), and each patch's slip speed `patch_slip` (the length of its
difference velocity, m/s) and the length of its response force `patch_force` (N) on
the last tick, in the wheels' order; all 0 in a fresh state.
"""

from __future__ import annotations

import math
from typing import Mapping

import numpy as np

from ..car_shape import first_shape_slot
from ..channels import Channel
from ..contact_impulse import bounce
from ..kernel import kernel
from ..state import Layout, Slot, index_of
from .geometry import DEGREES, RADIANS, rotate, sign, wrap
from .limits import SPEED_LIMIT_M, limit_speed
from .rigid_body_params import PARAMS

NAME = "rigid_body"
TITLE = "Rigid body, tyre patches (Kincaid)"
LENGTH_UNIT = "m"
REFERENCE_POINT = "the chassis centre"
"""The point the state's position is (where path metrics are measured)."""
TOP_SPEED_FORMULA = ""
NO_TOP_SPEED = "none: nothing resists the motion (the tutorial has no drag or rolling resistance)"
GRAVITY = 9.81
"""m/s²: the weight that loads the tyres with grip ∝ load."""
REVERSE_BELOW = 0.5
"""m/s: below this forward speed, the brake pedal drives backwards."""
GRIP_PARAMS = ("side_grip", "forward_grip", "max_grip", "mu")
"""What a track surface's grip factor multiplies (physics/surfaces.py): each patch's
friction (its side and forward grip and the cap on its force)."""


# wheel corners in units of (half_length, half_width): front-left, front-right, rear-left, rear-right
CORNER_X = (1.0, 1.0, -1.0, -1.0)
CORNER_Y = (-1.0, 1.0, -1.0, 1.0)
FRONT = (True, True, False, False)


# Live plot channels: group -> (unit, ((state.extra key, label, factor), ...))
CHANNELS = (
    Channel("slip_front", "slip angle front", "°", DEGREES),
    Channel("slip_rear", "slip angle rear", "°", DEGREES),
    Channel("side_force_front", "lateral force front", "N"),
    Channel("side_force_rear", "lateral force rear", "N"),
    *(
        Channel(f"wheel_speed_{wheel}", f"wheel spin {wheel}", "rad/s", slot="wheel_speed", index=k)
        for k, wheel in enumerate(("fl", "fr", "rl", "rr"))
    ),
)
"""What the car produces per tick besides the common channels (physics/channels.py)."""
PRESETS = {
    "slip angles": ("slip_front", "slip_rear"),
    "lateral forces": ("side_force_front", "side_force_rear"),
    "yaw rate": ("yaw_rate",),
}
"""The plots' channel presets: name -> channel names."""

# What the HUD and the status line show besides speed and slip (read by sandbox/session/hud.py):
# "regimes": the status line's regime, the first (test, text) whose test holds;
# "gauges": the dashboard's engine gauges, gauge -> state slot
HUD = {"regimes": (), "gauges": {}}

STATE = Layout(
    (
        Slot("omega", "rad/s"),
        Slot("wheel_speed", "rad/s", 0.0, 4),
        Slot("wheel_left", "rad"),
        Slot("wheel_right", "rad"),
        Slot("slip_front", "rad"),
        Slot("slip_rear", "rad"),
        Slot("side_force_front", "N"),
        Slot("side_force_rear", "N"),
        Slot("wall_contacts", "count"),
        Slot("patch_slip", "m/s", 0.0, 4),
        Slot("patch_force", "N", 0.0, 4),
    )
)
S = STATE.index
P = index_of(p.name for p in PARAMS)
SHAPE_AT = first_shape_slot(PARAMS)
"""The tuning's shape parameters start here (body_shape.of_tuning)."""
MEETS_WALLS = True
"""Its tick takes the world (`walls.Walls`, or None) as a fifth argument."""
WALL_IMPULSE = True
"""It bounces off walls with an impulse (`contact_impulse`), not move_and_slide's slide."""


def inertia(p: Mapping) -> np.ndarray:
    """Yaw inertia (kg·m²) of a tuning or of arrays of tunings: the kernel's own
    `yaw_inertia`, element by element."""
    return np.vectorize(yaw_inertia, otypes=[np.float64])(
        p["half_length"], p["half_width"], p["mass"], np.asarray(p["box_inertia"], dtype=bool)
    )


@kernel
def yaw_inertia(half_length: float, half_width: float, mass: float, box: bool) -> float:
    """Yaw inertia (kg·m²): the seed's (1/12)·hx²·hy²·m, or a box's m·(L² + W²)/12."""
    if box:
        length, width = 2 * half_length, 2 * half_width
        return mass * (length * length + width * width) / 12.0
    return (1.0 / 12.0) * (half_length * half_length) * (half_width * half_width) * mass


@kernel
def add_force(
    force_x: float, force_y: float, torque: float, world_fx: float, world_fy: float, offset_x: float, offset_y: float
) -> tuple[float, float, float]:
    """The seed's AddForce: F + f and τ + offset × f."""
    cross = offset_x * world_fy - offset_y * world_fx
    return force_x + world_fx, force_y + world_fy, torque + cross


@kernel
def integrate(
    s, force_x: float, force_y: float, torque: float, mass: float, inertia: float, dt: float
) -> tuple[float, float]:
    """Euler with the new velocity (seed RigidBody.Update), in place on the state row
    `s`: position, heading (wrapped) and omega; returns the new (vx, vy), which the
    caller stores (after the speed guard)."""
    vx = s[S.vx] + force_x / mass * dt
    vy = s[S.vy] + force_y / mass * dt
    omega = s[S.omega] + torque / inertia * dt
    heading = s[S.heading] + omega * dt
    s[S.x] += vx * dt
    s[S.y] += vy * dt
    s[S.heading] = wrap(heading)
    s[S.omega] = omega
    return vx, vy


@kernel
def _grip_cap(ox: float, oy: float, ax: float, ay: float, mass: float, inertia: float, dt: float) -> float:
    """Largest grip (N·s/m) that removes no more than a patch's own slip along axis
    (ax, ay) in one tick, shared by the four wheels: m_eff / (4·dt)."""
    lever = ox * ay - oy * ax
    m_eff = 1.0 / (1.0 / mass + lever * lever / inertia)
    return m_eff / (4 * dt)


@kernel
def _forward_axis(
    k: int, half_length: float, half_width: float, cos_steer: float, sin_steer: float
) -> tuple[float, float, float]:
    """Wheel k's forward axis (vehicle frame) and its lever about the centre (m)."""
    fx, fy = (cos_steer, sin_steer) if FRONT[k] else (1.0, 0.0)
    return fx, fy, CORNER_X[k] * half_length * fy - CORNER_Y[k] * half_width * fx


@kernel
def _forward_grip(
    grip: float,
    half_length: float,
    half_width: float,
    cos_steer: float,
    sin_steer: float,
    mass: float,
    inertia: float,
    spin_term: float,
    dt: float,
) -> float:
    """The forward grip (N·s/m), lowered so that dt·grip·(Gershgorin's largest row sum
    of the forward patches' coupling) is at most 1. Entry (k, l) of the coupling is
    f_k·f_l/m + lever_k·lever_l/I (+ radius²/wheel_inertia, `spin_term`, when k = l):
    how a push at patch l moves the slip at patch k."""
    worst = 0.0
    for k in range(4):
        fx, fy, lever = _forward_axis(k, half_length, half_width, cos_steer, sin_steer)
        row = spin_term
        for j in range(4):
            gx, gy, other = _forward_axis(j, half_length, half_width, cos_steer, sin_steer)
            row += abs((fx * gx + fy * gy) / mass + lever * other / inertia)
        worst = max(worst, row)
    return min(grip, 1.0 / (dt * worst))


@kernel
def patch_limit(p, mass: float) -> tuple[bool, float]:
    """(whether the patches' force is capped, the cap in N): `max_grip` with option
    `grip_limit`, μ·m·g/4 with `grip_load` (which wins), else no cap."""
    limit = p[P.grip_limit] != 0.0 or p[P.grip_load] != 0.0
    cap = p[P.mu] * mass * GRAVITY / 4.0 if p[P.grip_load] != 0.0 else p[P.max_grip]
    return limit, cap


@kernel
def side_grip_of(p, k: int, cos_steer: float, sin_steer: float, mass: float, inertia: float, dt: float) -> float:
    """Wheel k's side grip (N·s/m) as the tick uses it: `side_grip`, at most the
    guard's m_eff/(4·dt) along its side axis (−sin δ, cos δ) on the front, (0, 1) behind."""
    ox, oy = CORNER_X[k] * p[P.half_length], CORNER_Y[k] * p[P.half_width]
    fx, fy = (cos_steer, sin_steer) if FRONT[k] else (1.0, 0.0)
    return min(p[P.side_grip], _grip_cap(ox, oy, -fy, fx, mass, inertia, dt))


@kernel
def forward_grip_of(p, cos_steer: float, sin_steer: float, mass: float, inertia: float, dt: float) -> float:
    """The four wheels' forward grip (N·s/m) as the tick uses it (`_forward_grip`)."""
    radius = p[P.wheel_radius]
    spin_term = radius * radius / p[P.wheel_inertia]
    return _forward_grip(
        p[P.forward_grip], p[P.half_length], p[P.half_width], cos_steer, sin_steer, mass, inertia, spin_term, dt
    )


@kernel
def patch_force(
    side_mag: float,
    forward_mag: float,
    sx: float,
    sy: float,
    fx: float,
    fy: float,
    side_grip: float,
    forward_grip: float,
    limit: bool,
    cap: float,
) -> tuple[float, float, float]:
    """Step 4, a patch's response force (vehicle frame, N) to its slip along its side
    axis (sx, sy) and forward axis (fx, fy) (m/s): −side·side_grip − forward·forward_grip,
    shrunk to `cap` N when `limit`; (rx, ry, the shrink factor ≤ 1)."""
    rx = -sx * side_mag * side_grip - fx * forward_mag * forward_grip
    ry = -sy * side_mag * side_grip - fy * forward_mag * forward_grip
    shrink = 1.0
    if limit:
        size = math.hypot(rx, ry)
        if size > cap:
            shrink = cap / max(size, 1e-12)
            rx, ry = rx * shrink, ry * shrink
    return rx, ry, shrink


@kernel
def tick(s, c, p, dt, walls):
    """Advance one car (state row `s`, controls `c`, tuning `p`) by `dt` s among
    `walls` (walls.Walls, or None: the open field), in place."""
    x0, y0 = s[S.x], s[S.y]
    steer = c[0] * (p[P.max_steer] * RADIANS)
    throttle, brake = c[1], c[2]
    radius = p[P.wheel_radius]
    mass = p[P.mass]
    inertia = yaw_inertia(p[P.half_length], p[P.half_width], mass, p[P.box_inertia] != 0.0)
    inertia_w = p[P.wheel_inertia]
    grip_limit, cap = patch_limit(p, mass)
    vx, vy, omega = s[S.vx], s[S.vy], s[S.omega]

    ch, sh = math.cos(s[S.heading]), math.sin(s[S.heading])
    forward_speed = ch * vx + sh * vy
    # the pedals: the brake drives backwards once nearly stopped, else brakes every wheel
    reverse = brake > 0 and forward_speed < REVERSE_BELOW
    drive = (-brake if reverse else throttle) * p[P.drive_torque]
    braking = (0.0 if reverse else brake) * p[P.brake_torque]
    stop_spin = braking / inertia_w * dt
    top_spin = SPEED_LIMIT_M / radius
    # wheel axes (vehicle frame): forward (cos δ, sin δ), δ = steer on the front wheels, 0 behind
    cos_steer, sin_steer = math.cos(steer), math.sin(steer)
    forward_grip = forward_grip_of(p, cos_steer, sin_steer, mass, inertia, dt)

    force_x, force_y, torque = 0.0, 0.0, 0.0
    slip_front, slip_rear, side_front, side_rear = 0.0, 0.0, 0.0, 0.0
    for k in range(4):
        front = FRONT[k]
        # the wheel's offset in the vehicle frame, and in the world
        ox, oy = CORNER_X[k] * p[P.half_length], CORNER_Y[k] * p[P.half_width]
        wx, wy = rotate(ox, oy, ch, sh)
        # 1. axes: forward (fx, fy), side (−sin δ, cos δ)
        fx, fy = (cos_steer, sin_steer) if front else (1.0, 0.0)
        sx, sy = -fy, fx
        # 2. ground velocity of the wheel point (PointVel), into the vehicle frame
        gx, gy = rotate(vx - omega * wy, vy + omega * wx, ch, -sh)
        wheel_speed = s[S.wheel_speed + k]
        dx = gx - fx * wheel_speed * radius
        dy = gy - fy * wheel_speed * radius
        # 3. projections
        side_mag = dx * sx + dy * sy
        forward_mag = dx * fx + dy * fy
        # 4. response force (vehicle frame), optionally saturated
        side_grip = side_grip_of(p, k, cos_steer, sin_steer, mass, inertia, dt)
        rx, ry, shrink = patch_force(side_mag, forward_mag, sx, sy, fx, fy, side_grip, forward_grip, grip_limit, cap)
        # 5. wheel torque: the reaction of the patch's forward force (−F·radius) + drive
        # (rear) + brake (against the spin, never past zero)
        road = forward_mag * forward_grip * shrink * radius
        spin = wheel_speed + (road + (0.0 if front else drive)) / inertia_w * dt
        spin = sign(spin) * max(abs(spin) - stop_spin, 0.0)
        # 6. the new spin, held to the ground speed of the speed guard
        s[S.wheel_speed + k] = min(max(spin, -top_spin), top_spin)
        # the chassis: accumulate the world force and torque
        world_x, world_y = rotate(rx, ry, ch, sh)
        force_x, force_y, torque = add_force(force_x, force_y, torque, world_x, world_y, wx, wy)
        # telemetry: slip angle and lateral force of the tyre
        slip = math.atan2(side_mag, max(abs(gx * fx + gy * fy), 1e-6))
        side_force = rx * sx + ry * sy
        s[S.patch_slip + k] = math.hypot(side_mag, forward_mag)
        s[S.patch_force + k] = math.hypot(rx, ry)
        if front:
            slip_front += slip
            side_front += side_force
        else:
            slip_rear += slip
            side_rear += side_force

    vx, vy = integrate(s, force_x, force_y, torque, mass, inertia, dt)
    # guard: the seed has no drag, so a held throttle never stops accelerating
    vx, vy = limit_speed(vx, vy, SPEED_LIMIT_M)
    # walls: move_and_collide of the tick's motion, an impulse at the contact point
    x, y, vx, vy, omega, contacts = bounce(
        walls, p, SHAPE_AT, x0, y0, s[S.x], s[S.y], s[S.heading], vx, vy, s[S.omega], mass, inertia
    )
    s[S.x], s[S.y], s[S.vx], s[S.vy], s[S.omega] = x, y, vx, vy, omega
    s[S.wall_contacts] = contacts
    s[S.wheel_angle] = steer
    s[S.traction_fast] = 0.0
    s[S.wheel_left] = steer
    s[S.wheel_right] = steer
    s[S.slip_front] = slip_front / 2.0
    s[S.slip_rear] = slip_rear / 2.0
    s[S.side_force_front] = side_front
    s[S.side_force_rear] = side_rear


def body(p: Mapping[str, float]) -> dict[str, float]:
    """Drawing sizes (m): the chassis box, wheels at its corners."""
    hx, hy = float(p["half_length"]), float(p["half_width"])
    return {"wheel_base": 2 * hx, "track": 2 * hy, "length": 2 * hx, "width": 2 * hy}


def force_curve(p: Mapping[str, float], speeds: np.ndarray, dt: float) -> dict[str, np.ndarray]:
    """Accelerations (m/s²) driving straight at full throttle, wheels rolling at the
    ground speed: the rear drive torque reaches the road through the patches
    (2·drive_torque/radius/mass); the seed models no rolling resistance or drag."""
    v = np.asarray(speeds, dtype=np.float64)
    drive = np.full_like(v, 2 * float(p["drive_torque"]) / float(p["wheel_radius"]) / float(p["mass"]))
    return {"drive": drive, "net": drive}


def top_speed(p: Mapping[str, float], dt: float) -> float:
    return float("inf")  # nothing in the seed resists rolling
