"""The standard handling tests as metrics (declared here, measured by handling_runs.py):
the understeer gradient (ISO 4138, constant radius), the yaw gain at three speeds and
the characteristic or critical speed from the gradient, the step steer (ISO 7401) and
the largest steady drift angle held on a circle. `metrics.METRICS` takes them after the
manoeuvres' figures; a track changes none of them (they are measured on the open field).

The tests steer and hold the speed themselves: they run on a copy of each tuning row
with the steering feel's steer and return times at 0 (the steer reaches the driver's
input at once; the feel's lock shares and assists stay). Units: lengths and speeds in
the model's; the gradient in degrees of road-wheel angle per g of lateral acceleration
(per 10³ px/s² for models in pixels).
"""

from __future__ import annotations

import math
from types import ModuleType

import numpy as np

from ..physics import kernels
from ..physics.sim import model_number
from ..physics.steer_feel import feel_slots
from . import handling_runs as hr

RADIUS = {"m": 40.0, "px": 600.0}
"""The constant-radius circle (model units): ISO 4138's common 40 m; 600 px for models
in pixels (about nine wheel bases of the recipe's 70 px car, as 40 m is sixteen of a
2.5 m car's, with room for the recipe's 15° lock to hold it)."""
SCALE = {"m": 9.80665, "px": 1000.0}
"""The lateral acceleration the gradient is per (model units/s²): 1 g, or 10³ px/s²."""
BASE = {"m": 9.80665, "px": 500.0}
"""The tests' lateral accelerations are shares of this (model units/s²): 1 g, or 500 px/s²
(the recipe's 15° lock turns no tighter than about 270 px: at the speeds below, a
tenth of 10³ px/s² would need circles it cannot drive)."""
SPEEDS = {"m": (30 / 3.6, 60 / 3.6, 90 / 3.6), "px": (200.0, 350.0, 500.0)}
"""The yaw gain's three speeds (model units/s); the step steer's is the middle one."""
SPEED_WORDS = {"m": ("30 km/h", "60 km/h", "90 km/h"), "px": ("200 px/s", "350 px/s", "500 px/s")}
STEP_AT = 1
NEUTRAL = 0.05
"""°/g (° per 10³ px/s²): a gradient within ±NEUTRAL is neutral steer (no characteristic
or critical speed)."""

HANDLING_METRICS = {
    "understeer_gradient": (
        "understeer gradient",
        "gradient",
        0,
        "ISO 4138, constant radius: a driver holds a circle of 40 m (600 px for models in pixels) while the "
        "speed is raised in steps of 0.1 g (50 px/s²), each held steady; the slope of the road-wheel "
        "angle against the lateral acceleration over 0.1-0.3 g (δ = L/R + K·a_y). Above 0: understeer, "
        "below: oversteer, 0: neutral.",
    ),
    "yaw_gain_slow": (
        "yaw gain, slow",
        "gain",
        0,
        "Steady yaw rate / road-wheel angle on a circle of 0.2 g (0.2 × 500 px/s²) at 30 km/h (200 px/s).",
    ),
    "yaw_gain_middle": (
        "yaw gain, middle",
        "gain",
        0,
        "Steady yaw rate / road-wheel angle on a circle of 0.2 g (0.2 × 500 px/s²) at 60 km/h (350 px/s).",
    ),
    "yaw_gain_fast": (
        "yaw gain, fast",
        "gain",
        0,
        "Steady yaw rate / road-wheel angle on a circle of 0.2 g (0.2 × 500 px/s²) at 90 km/h (500 px/s).",
    ),
    "characteristic_speed": (
        "characteristic speed",
        "speed",
        0,
        "√(L/K) of an understeering car (L the wheel base, K the understeer gradient): where its steady "
        "yaw gain v/(L + K·v²) peaks.",
    ),
    "critical_speed": (
        "critical speed",
        "speed",
        +1,
        "√(L/−K) of an oversteering car (K < 0): where its steady yaw gain diverges (unstable above).",
    ),
    "step_response_time": (
        "step steer: yaw-rate response time",
        "time",
        -1,
        "ISO 7401 at 60 km/h (350 px/s): the steer ramped in 0.1 s to that of the 0.2 g circle, the "
        "steering feel's steer time bypassed; from half the steer to 90 % of the steady yaw rate.",
    ),
    "step_peak_time": (
        "step steer: peak response time",
        "time",
        -1,
        "The same step steer: from half the steer to the yaw rate's peak (when it overshoots by 1 % or more).",
    ),
    "step_overshoot": (
        "step steer: yaw-rate overshoot",
        "percent",
        -1,
        "The same step steer: how far the yaw rate's peak passes its steady value (the last second's mean), %.",
    ),
    "max_drift_angle": (
        "largest steady drift angle",
        "deg",
        0,
        "The largest slip angle (velocity against heading) held steady on the constant-radius circle's "
        "steps, up to the step the car can no longer hold.",
    ),
}
"""name: (label, unit kind, sense, how), `metrics.Metric`'s fields."""


def instant_rows(model: ModuleType, rows: np.ndarray) -> np.ndarray:
    """A copy of tuning rows (k, P) with the steering feel's steer and return times at 0,
    and the arcade's `analog_pedals` on (the recipe's throttle key gives all or nothing:
    on and off, the driver's speed would saw by a few percent, and the curvature with it)."""
    first, _, _ = feel_slots(model.PARAMS)
    out = np.array(rows, dtype=np.float64, copy=True)
    out[:, first] = 0.0  # steer_time, then return_time (steer_feel.NAMES)
    out[:, first + 1] = 0.0
    names = [p.name for p in model.PARAMS]
    if "analog_pedals" in names:
        out[:, names.index("analog_pedals")] = 1.0
    return out


def has_slip(model: ModuleType) -> bool:
    """Whether the model's velocity can leave its heading (the feel's assists are its)."""
    return feel_slots(model.PARAMS)[2]


def measure(model: ModuleType, rows: np.ndarray, dt: float, wheel_bases: np.ndarray) -> dict[str, np.ndarray]:
    """Every handling figure (HANDLING_METRICS order) for each tuning row (k, P):
    name -> (k,) array. One compiled call for the batch's distinct rows (over the cores
    from two)."""
    unit = model.LENGTH_UNIT
    k = len(rows)
    # rows that differ only in what the tests set themselves (the feel's times) run once
    distinct, which = np.unique(np.column_stack([instant_rows(model, rows), wheel_bases]), axis=0, return_inverse=True)
    runs = np.empty((len(distinct), hr.HANDLING_SLOTS))
    run = hr.handling_rows_parallel if len(distinct) > 1 else hr.handling_rows
    speeds = np.array(SPEEDS[unit], dtype=np.float64)
    defaults = model.STATE.defaults
    kernels.call(
        run, model_number(model), np.ascontiguousarray(distinct[:, :-1]), dt, defaults, RADIUS[unit], BASE[unit],
        SCALE[unit], np.ascontiguousarray(distinct[:, -1]), speeds, STEP_AT, runs,
    )  # fmt: skip
    out = runs[which.reshape(-1)]
    gradient = out[:, hr.K_GRADIENT]
    per_unit = gradient / (SCALE[unit] * hr.RADIANS_TO_DEGREES)  # rad per (length/s²)
    with np.errstate(invalid="ignore", divide="ignore"):
        characteristic = np.where(gradient > NEUTRAL, np.sqrt(wheel_bases / per_unit), math.nan)
        critical = np.where(gradient < -NEUTRAL, np.sqrt(wheel_bases / -per_unit), math.nan)
    drift = out[:, hr.DRIFT] if has_slip(model) else np.full(k, math.nan)
    columns = (
        gradient,
        out[:, hr.GAIN_1],
        out[:, hr.GAIN_2],
        out[:, hr.GAIN_3],
        characteristic,
        critical,
        out[:, hr.RESPONSE],
        out[:, hr.PEAK],
        out[:, hr.OVERSHOOT],
        drift,
    )
    return {name: np.ascontiguousarray(c) for name, c in zip(HANDLING_METRICS, columns)}


def point(name: str, model: ModuleType) -> str:
    """Where a handling figure is measured ("" for none of them)."""
    unit = model.LENGTH_UNIT
    words = SPEED_WORDS[unit]
    circle = f"circle of {RADIUS[unit]:g} {unit}, open field"
    for j, tail in enumerate(("slow", "middle", "fast")):
        if name == f"yaw_gain_{tail}":
            return f"{words[j]}, open field"
    if name.startswith("step_"):
        return f"{words[STEP_AT]}, open field"
    if name in ("understeer_gradient", "max_drift_angle", "characteristic_speed", "critical_speed"):
        return circle
    return ""


def missing(name: str, model: ModuleType, gradient: float) -> str:
    """Why a handling figure has no value ("" for a name that is none of them)."""
    unit = model.LENGTH_UNIT
    if name == "max_drift_angle" and not has_slip(model):
        return "n/a: a kinematic model has no slip angle (its velocity follows its wheels)"
    if name in ("characteristic_speed", "critical_speed"):
        if gradient != gradient:
            return "n/a: no understeer gradient measured"
        if abs(gradient) <= NEUTRAL:
            return "none: neutral steer (the yaw gain grows as v/L, with no peak and no limit)"
        if name == "characteristic_speed":
            return "n/a: the car oversteers (see the critical speed)"
        return "n/a: the car understeers (see the characteristic speed)"
    if name == "step_peak_time":
        return "none: the yaw rate does not pass its steady value by 1 %"
    if name.startswith("yaw_gain") or name.startswith("step_"):
        circle = "0.2 g" if unit == "m" else "100 px/s²"
        return f"n/a: the car could not hold the {circle} circle at that speed (not reached, or at full lock)"
    if name in ("understeer_gradient", "max_drift_angle"):
        what = "0.1-0.3 g steps" if unit == "m" else "steps up to 150 px/s²"
        return f"n/a: the car could not hold the {RADIUS[unit]:g} {unit} circle's {what}"
    return ""
