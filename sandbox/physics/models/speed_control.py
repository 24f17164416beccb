"""Speed from the pedals, for the kinematic models (bicycle, Ackermann).

Their sources take the car's speed as an input ("the input part of our game can
update carSpeed"); this is that input part: a signed speed (m/s) driven towards the
throttle's or the brake's target at fixed rates. Declared once here and appended to
each kinematic model's parameters.
"""

from __future__ import annotations

from typing import Mapping

import numpy as np

from ..params import Param

PARAMS = (
    Param("max_speed", "Top speed", "m/s", 20, 1, 100, 0.5, "Forward speed the throttle drives towards."),
    Param("acceleration", "Acceleration", "m/s²", 4, 0.1, 30, 0.1, "How fast the throttle raises the speed."),
    Param("braking", "Braking", "m/s²", 8, 0.1, 50, 0.1,
          "How fast the brake lowers the speed; held at rest, it drives in reverse."),
    Param("reverse_speed", "Reverse speed", "m/s", 5, 0, 30, 0.5, "Top speed in reverse."),
    Param("coast", "Coasting deceleration", "m/s²", 1, 0, 20, 0.1, "Speed lost per second with no pedal."),
)


def next_speed(speed: np.ndarray, throttle, brake, p: Mapping[str, np.ndarray | float], dt: float) -> np.ndarray:
    """Signed speed after one tick (m/s). The brake wins when both pedals are held.

    Brake: slow down at `braking` while moving forward, then accelerate backwards at
    `acceleration` to -`reverse_speed`. Throttle: brake first if rolling backwards,
    then accelerate to `max_speed`. Neither: coast towards 0 without passing it.
    """
    throttle = np.asarray(throttle, dtype=np.float64)
    brake = np.asarray(brake, dtype=np.float64)
    accel, braking, coast = p["acceleration"] * dt, p["braking"] * dt, p["coast"] * dt

    braked = np.where(speed > 0, np.maximum(speed - braking * brake, 0.0),
                      np.maximum(speed - accel * brake, -p["reverse_speed"] * brake))
    driven = np.where(speed < 0, np.minimum(speed + braking * throttle, 0.0),
                      np.minimum(speed + accel * throttle, p["max_speed"]))
    # above the target (a slider lowered mid-drive) the speed coasts down to it
    driven = np.where((speed > p["max_speed"]) & (throttle > 0), np.maximum(speed - coast, p["max_speed"]), driven)
    coasting = np.sign(speed) * np.maximum(np.abs(speed) - coast, 0.0)
    return np.where(brake > 0, braked, np.where(throttle > 0, driven, coasting))


def force_curve(p: Mapping[str, float], speeds: np.ndarray, dt: float) -> dict[str, np.ndarray]:
    """Accelerations (m/s²) against speed: full throttle (up to top speed), no pedal,
    full brake; `net` is the full-throttle one."""
    v = np.asarray(speeds, dtype=np.float64)
    throttle = np.where(v < p["max_speed"], float(p["acceleration"]), 0.0)
    return {"throttle": throttle, "coasting": np.full_like(v, -float(p["coast"])),
            "brake": np.full_like(v, -float(p["braking"])), "net": throttle}


def top_speed(p: Mapping[str, float], dt: float) -> float:
    return float(p["max_speed"])
