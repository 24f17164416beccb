"""Scripted drives that show a fit what a car does: throttle, brakes, coasting, steering
both ways by different amounts, slow and fast (both of the arcade's traction regimes),
never reversing. Used by `car-sandbox bench` and the fit's tests."""

from __future__ import annotations

import numpy as np

LAP = (
    # seconds, steer, throttle, brake
    (0.5, 0.0, 0.0, 0.0),  # at rest
    (1.5, 0.0, 1.0, 0.0),
    (0.8, 0.3, 1.0, 0.0),
    (0.8, -0.6, 1.0, 0.0),
    (1.2, 1.0, 1.0, 0.0),
    (0.3, 0.0, 0.0, 1.0),
    (1.0, -1.0, 0.0, 0.0),
    (0.8, 0.5, 1.0, 0.0),
    (1.5, -0.4, 1.0, 0.0),
    (0.5, 0.8, 0.0, 1.0),
    (1.1, 0.0, 0.0, 0.0),
    (1.0, -0.8, 0.0, 0.0),
    (0.7, 0.6, 1.0, 0.0),
    (0.6, 0.0, 0.0, 0.0),
)
"""One lap of the arcade drive: (seconds, steer, throttle, brake) held."""


def held_drive(steps, seconds: float, hz: float) -> np.ndarray:
    """(n, 5) control rows of `steps` ((seconds, steer, throttle, brake) held) repeated
    to `seconds` s at `hz` Hz, each repeat's steering a little different (the steps'
    steer scaled by 1, 0.7, 0.85, …), so the drive shows more than a few angles."""
    rows = []
    scales = (1.0, 0.7, 0.85, 0.55, 0.95)
    lap = 0
    while len(rows) < round(seconds * hz):
        for duration, steer, throttle, brake in steps:
            sign = -1.0 if lap % 2 else 1.0  # every other lap the other way round
            rows += [[sign * steer * scales[lap % len(scales)], throttle, brake, 0.0, 0.0]] * round(duration * hz)
        lap += 1
    return np.array(rows[: round(seconds * hz)], dtype=np.float64)


def arcade_drive(seconds: float = 30.0, hz: float = 60.0) -> np.ndarray:
    """The arcade's drive (LAP repeated)."""
    return held_drive(LAP, seconds, hz)


CORVETTE_LAP = (
    (0.5, 0.0, 0.0, 0.0),
    (3.0, 0.0, 1.0, 0.0),  # first gear's wheelspin, then up the gears
    (1.5, 0.15, 1.0, 0.0),
    (1.5, -0.3, 0.6, 0.0),
    (0.8, 0.0, 0.0, 0.8),
    (1.5, 0.5, 0.4, 0.0),
    (1.0, -0.2, 0.0, 0.0),
    (1.2, 0.0, 1.0, 0.0),
    (1.0, 0.6, 0.0, 0.0),
    (0.8, -0.1, 0.0, 1.0),
    (1.5, -0.4, 0.7, 0.0),
)
"""One lap of the Corvette's drive."""


def corvette_drive(seconds: float = 30.0, hz: float = 60.0) -> np.ndarray:
    """The dynamic car's drive (CORVETTE_LAP repeated)."""
    return held_drive(CORVETTE_LAP, seconds, hz)
