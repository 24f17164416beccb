"""Speed from the pedals, for the kinematic models (bicycle, Ackermann).

Their sources take the car's speed as an input ("the input part of our game can
update carSpeed"); this is that input part: a signed speed (m/s) driven towards the
throttle's or the brake's target at fixed rates. Declared once here and appended to
each kinematic model's parameters (in this order, one after the other: a model's
kernel passes its tuning row and the column where they start).
"""

from __future__ import annotations

from typing import Mapping

import numpy as np

from ..kernel import kernel
from ..params import Param
from ..state import index_of
from .geometry import sign

PARAMS = (
    Param(
        name="max_speed",
        label="Top speed",
        unit="m/s",
        default=20,
        min=1,
        max=100,
        step=0.5,
        help="Forward speed the throttle drives towards.",
        group="Speed",
    ),
    Param(
        name="acceleration",
        label="Acceleration",
        unit="m/s²",
        default=4,
        min=0.1,
        max=30,
        step=0.1,
        help="How fast the throttle raises the speed.",
        group="Speed",
        log=True,
    ),
    Param(
        name="braking",
        label="Braking",
        unit="m/s²",
        default=8,
        min=0.1,
        max=50,
        step=0.1,
        help="How fast the brake lowers the speed; held at rest, it drives in reverse.",
        group="Speed",
        log=True,
    ),
    Param(
        name="reverse_speed",
        label="Reverse speed",
        unit="m/s",
        default=5,
        min=0,
        max=30,
        step=0.5,
        help="Top speed in reverse.",
        group="Speed",
    ),
    Param(
        name="coast",
        label="Coasting deceleration",
        unit="m/s²",
        default=1,
        min=0,
        max=20,
        step=0.1,
        help="Speed lost per second with no pedal.",
        group="Speed",
    ),
)

TOP_SPEED_FORMULA = "the top speed setting"
NO_TOP_SPEED = "none"

Q = index_of(p.name for p in PARAMS)
"""Columns of these parameters counted from the first (max_speed)."""


@kernel
def next_speed(speed: float, throttle: float, brake: float, p, first: int, dt: float) -> float:
    """Signed speed after one tick (m/s). The brake wins when both pedals are held.

    `p` is the model's tuning row, `first` the column of `max_speed` (PARAMS follow in
    order from there). Brake: slow down at `braking` while moving forward, then
    accelerate backwards at `acceleration` to -`reverse_speed` × the pedal (faster
    backwards than that, coast down to it). Throttle: brake first
    if rolling backwards, then accelerate to `max_speed`. Neither: coast towards 0
    without passing it.
    """
    max_speed = p[first + Q.max_speed]
    accel, braking, coast = p[first + Q.acceleration] * dt, p[first + Q.braking] * dt, p[first + Q.coast] * dt
    if brake > 0:
        if speed > 0:
            return max(speed - braking * brake, 0.0)
        target = -p[first + Q.reverse_speed] * brake
        if speed < target:  # the pedal eased off: back to its reverse speed at the coasting rate
            target = min(speed + coast, target)
        return max(speed - accel * brake, target)
    if throttle > 0:
        # above the target (a slider lowered mid-drive) the speed coasts down to it
        if speed > max_speed:
            return max(speed - coast, max_speed)
        if speed < 0:
            return min(speed + braking * throttle, 0.0)
        return min(speed + accel * throttle, max_speed)
    return sign(speed) * max(abs(speed) - coast, 0.0)


def force_curve(p: Mapping[str, float], speeds: np.ndarray, dt: float) -> dict[str, np.ndarray]:
    """Accelerations (m/s²) against speed: full throttle (up to top speed), no pedal,
    full brake; `net` is the full-throttle one."""
    v = np.asarray(speeds, dtype=np.float64)
    throttle = np.where(v < p["max_speed"], float(p["acceleration"]), 0.0)
    return {
        "throttle": throttle,
        "coasting": np.full_like(v, -float(p["coast"])),
        "brake": np.full_like(v, -float(p["braking"])),
        "net": throttle,
    }


def top_speed(p: Mapping[str, float], dt: float) -> float:
    return float(p["max_speed"])
