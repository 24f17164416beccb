"""Standard manoeuvres, simulated: the figures a tuning is judged by.

`compute` takes a model, parameters whose values may be arrays (one entry per
tuning: a sweep is one batch) and a tick rate, and runs every manoeuvre of each
tuning as one car from rest at the origin, in compiled code (manoeuvres.py: one
call for the whole batch, spread over the cores from two tunings up). Speeds and
distances are in the model's units; "100" is 100 px/s for pixel models and 100 km/h
for models in metres. Walking pace is 5 km/h, or 60 px/s for pixel models (the
recipe stops a car without pedals below 50 px/s). Every distance names the point it
is measured at (`point_of`): a path's radius is the path of the model's own
reference point (the wheel-base midpoint of the bicycle, the centre of gravity of the
dynamic car, …), which is not the spec sheet's rear-axle circle.

| metric | manoeuvre |
|---|---|
| top_speed | full throttle straight until the speed settles: a geometric approach extrapolated once within 1 % of its end, or a rev-limiter sawtooth (a second that rises and falls within 1 % with no trend) taken as its mean (inf if neither within 120 s) |
| time_to_100, time_to_90pct | the same run: first time at 100 and at 90 % of top speed |
| braking_from_top | then full brake until the car no longer moves forward |
| braking_from_100 | full throttle to 100, then full brake to a stop |
| reverse_top_speed | brake held from rest (the sandbox's reverse) until the speed settles: a fixed point, or a second that varies under 1 % with no trend, taken as its mean (≤ 20 s; none for a model that declares no top speed) |
| radius_low, radius_top | full lock at 25 % of top speed (speed held on the throttle) and at top speed (throttle held): the radius of the model's reference point's path over the last second |
| turning_circle | full lock at walking pace (speed held there): the kerb-to-kerb diameter, twice the distance from the path's centre to the farthest corner of the drawn body |
| peak_slip_skidpad | largest |slip angle| (°) in the full-lock runs |
| peak_lateral_accel | largest sideways acceleration in the full-lock runs, speed × turn rate of the velocity over 0.25 s (single-tick steps of instant steering are not accelerations a driver feels) |
| standing_quarter | full throttle straight from rest: the time to cover a quarter mile (402.336 m), or 4000 px for models in pixels |
| skidpad_lateral | the steady lateral acceleration of the full-lock circles, mean speed² / path radius over the last second, the larger of the two (the skid pad's figure: the car's grip held round a circle) |
| understeer_gradient | ISO 4138, constant radius: on a circle of 40 m (600 px) a driver holds the radius while the speed is raised in steps of 0.1 g (50 px/s²) of lateral acceleration, each held steady; K is the slope of the road-wheel angle δ against a_y over 0.1-0.3 g (δ = L/R + K·a_y), in °/g (° per 10³ px/s²) |
| yaw_gain_slow, _middle, _fast | steady yaw rate / δ (1/s) on circles of 0.2 g (100 px/s²) at 30, 60, 90 km/h (200, 350, 500 px/s) |
| characteristic_speed, critical_speed | √(L/K) for an understeering car (K > 0, where the yaw gain peaks), √(L/−K) for an oversteering one (K < 0, where it diverges); L the wheel base |
| step_response_time, step_peak_time, step_overshoot | ISO 7401, step steer at 60 km/h (350 px/s): the steer ramped in 0.1 s to the steer of the 0.2 g circle at that speed, time zero at half the steer; the yaw rate's time to 90 % of its steady value, the time of its peak, and how far the peak passes it (%) |
| max_drift_angle | the largest steady slip angle β (°, the velocity's angle from the heading at the reference point) of the constant-radius steps held (models with slip angles) |

The handling figures (handling.py, handling_runs.py) run on a copy of the tuning with the
steering feel's steer and return times at 0 (at once): the tests set the steer themselves.

NaN means the manoeuvre could not reach its mark (100 never reached, no top speed).
"""

from __future__ import annotations

import math
from types import ModuleType
from typing import Mapping, NamedTuple

import numpy as np

from ..physics import kernels  # first: it loads the models, which `sim` needs loaded before it
from ..physics.sim import model_number, tuning_rows
from . import handling, manoeuvres


class Metric(NamedTuple):
    """One figure of the standard manoeuvres: its label ("100" is the reference
    speed), unit kind ("speed", "time", "distance", "deg", "accel"), sense (+1: more
    is better, -1: less is better, 0: neither, a matter of taste) and how it is
    measured (the table above, for tooltips and --help)."""

    label: str
    kind: str
    sense: int
    how: str


METRICS = {
    "top_speed": Metric(
        "top speed", "speed", +1, "Full throttle straight until the speed settles (or the rev limiter's mean)."
    ),
    "time_to_100": Metric("time 0→100", "time", -1, "The same run: the first time the speed reaches 100."),
    "time_to_90pct": Metric(
        "time 0→90 % of top", "time", -1, "The same run: the first time the speed reaches 90 % of the top speed."
    ),
    "braking_from_top": Metric(
        "braking from top speed",
        "distance",
        -1,
        "From the top speed, full brake until the car stops moving forward: the distance.",
    ),
    "braking_from_100": Metric(
        "braking from 100", "distance", -1, "Full throttle to 100, then full brake to a stop: the distance."
    ),
    "reverse_top_speed": Metric(
        "reverse top speed", "speed", 0, "Brake held from rest (the sandbox's reverse) until the speed settles."
    ),
    "radius_low": Metric(
        "turning radius, full lock, slow",
        "distance",
        -1,
        "Full lock at 25 % of the top speed, speed held: the radius of the path over the last second.",
    ),
    "radius_top": Metric(
        "turning radius, full lock, top speed",
        "distance",
        -1,
        "Full lock with the throttle held from the top speed: the radius of the path over the last second.",
    ),
    "turning_circle": Metric(
        "turning circle, kerb to kerb, walking pace",
        "distance",
        -1,
        "Full lock at walking pace: twice the distance from the path's centre to the "
        "farthest corner of the drawn body.",
    ),
    "peak_slip_skidpad": Metric("peak slip angle, skid pad", "deg", 0, "The largest slip angle in the full-lock runs."),
    "peak_lateral_accel": Metric(
        "peak lateral acceleration",
        "accel",
        +1,
        "The largest sideways acceleration in the full-lock runs (speed × turn rate of the velocity over 0.25 s).",
    ),
    "standing_quarter": Metric(
        "standing quarter mile",
        "time",
        -1,
        "Full throttle straight from rest: the time to cover a quarter mile (402 m; 4000 px for models in pixels).",
    ),
    "skidpad_lateral": Metric(
        "steady lateral acceleration, skid pad",
        "accel",
        +1,
        "The full-lock circles' last second held steady: mean speed² / path radius, the "
        "larger of the slow and the top-speed circle.",
    ),
}
MANOEUVRE_COUNT = len(METRICS)
"""The figures of the manoeuvres (manoeuvres.car_metrics' slots); the handling figures follow."""
METRICS.update({name: Metric(*fields) for name, fields in handling.HANDLING_METRICS.items()})
DECIMALS = {"speed": 1, "time": 2, "distance": 1, "deg": 1, "accel": 2, "gradient": 2, "gain": 2, "percent": 1}
"""Decimal places each unit kind is shown with."""


def reference_speed(model: ModuleType) -> tuple[float, str]:
    """(speed in model units/s, label) of "100": 100 px/s, or 100 km/h in metres."""
    return (100.0, "100 px/s") if model.LENGTH_UNIT == "px" else (100 / 3.6, "100 km/h")


QUARTER_MILE_M = 402.336
QUARTER_PX = 4000.0
"""px: the standing start of the models in pixels: the recipe's car (top speed about
600 px/s) covers it in about 7 s, a quarter mile's time for a quick road car."""


def standing_distance(model: ModuleType) -> float:
    """The standing start's distance (model units): a quarter mile, or QUARTER_PX."""
    return QUARTER_PX if model.LENGTH_UNIT == "px" else QUARTER_MILE_M


def walking_pace(model: ModuleType) -> float:
    """Speed (model units/s) of the kerb-to-kerb circle: 5 km/h, or 60 px/s."""
    return 60.0 if model.LENGTH_UNIT == "px" else 5 / 3.6


def point_of(name: str, model: ModuleType) -> str:
    """Where a distance metric or a handling figure is measured ("" for the others)."""
    if name in handling.HANDLING_METRICS:
        return handling.point(name, model)
    if name.startswith("radius"):
        return f"path of {model.REFERENCE_POINT}"
    if name == "turning_circle":
        return "outermost corner of the body"
    if name.startswith("braking"):
        return "distance travelled, straight"
    return ""


def formula_top_speed(model: ModuleType, params: Mapping[str, object], hz: float) -> tuple[float, str]:
    """(top speed from the parameters in model units/s, how it is found): the model's
    own closed form (`model.top_speed`), inf with the reason when nothing limits it."""
    value = float(model.top_speed(params, 1.0 / hz))
    return value, (model.TOP_SPEED_FORMULA if math.isfinite(value) else model.NO_TOP_SPEED)


def unit_of(kind: str, model: ModuleType) -> str:
    length = model.LENGTH_UNIT
    gradient = "°/g" if length == "m" else f"° per 1000 {length}/s²"
    return {
        "speed": f"{length}/s",
        "time": "s",
        "distance": length,
        "deg": "°",
        "accel": f"{length}/s²",
        "gradient": gradient,
        "gain": "1/s",
        "percent": "%",
    }[kind]


def _tuning(model: ModuleType, row: np.ndarray) -> dict:
    """A tuning row (sim.tuning_rows) as a name -> value mapping."""
    return {p.name: bool(v) if p.is_bool else float(v) for p, v in zip(model.PARAMS, row)}


def has_top_speed(model: ModuleType, rows: np.ndarray, dt: float) -> np.ndarray:
    """Per tuning row (sim.tuning_rows): whether the model declares a finite top speed
    (`model.top_speed`); without one the straight run lasts
    manoeuvres.UNLIMITED_RUN_S and reverse is "none" when nothing settles. A model
    whose top speed takes a search answers for all rows at once (`has_top_speeds`)."""
    if hasattr(model, "has_top_speeds"):
        return model.has_top_speeds(rows, dt)
    return np.array([math.isfinite(model.top_speed(_tuning(model, row), dt)) for row in rows], dtype=np.bool_)


def bodies(model: ModuleType, rows: np.ndarray) -> np.ndarray:
    """(k, 2): the drawn body's length and width (model units) of each tuning row."""
    sizes = [model.body(_tuning(model, row)) for row in rows]
    return np.array([[size["length"], size["width"]] for size in sizes], dtype=np.float64).reshape(len(rows), 2)


def manoeuvre_arguments(model: ModuleType, params: Mapping[str, object], hz: float):
    """(tuning rows, which row each tuning is, the arguments after `rows` of the
    manoeuvres' row drivers up to `out`) for `params` at `hz`."""
    n = max([np.size(v) for v in params.values()] + [1])
    dt = 1.0 / hz
    rows, which = tuning_rows(model, params, n)
    layout = model.STATE
    arguments = (
        dt,
        has_top_speed(model, rows, dt),
        reference_speed(model)[0],
        walking_pace(model),
        bodies(model, rows),
        layout.defaults,
        layout.offset.get("display_heading", -1),
        standing_distance(model),
    )
    return rows, which, arguments


def compute(model: ModuleType, params: Mapping[str, object], hz: float) -> dict[str, np.ndarray]:
    """Every metric for every tuning in `params` (arrays of one length, or scalars):
    name -> array, one entry per tuning."""
    rows, which, arguments = manoeuvre_arguments(model, params, hz)
    out = np.empty((len(rows), MANOEUVRE_COUNT))
    run = manoeuvres.metrics_rows_parallel if len(rows) > 1 else manoeuvres.metrics_rows
    kernels.call(run, model_number(model), rows, *arguments, out)
    out = out[which]
    values = {name: np.ascontiguousarray(out[:, j]) for j, name in enumerate(list(METRICS)[:MANOEUVRE_COUNT])}
    return values | handling_figures(model, rows, which, hz)


def wheel_bases(model: ModuleType, rows: np.ndarray) -> np.ndarray:
    """(k,): the wheel base (model units) of each tuning row (the model's `body`)."""
    return np.array([model.body(_tuning(model, row))["wheel_base"] for row in rows], dtype=np.float64)


def handling_figures(model: ModuleType, rows: np.ndarray, which: np.ndarray, hz: float) -> dict[str, np.ndarray]:
    """The handling figures (handling.py) of tuning rows `rows`, as `compute` gives them
    (each tuning's row `which`)."""
    found = handling.measure(model, rows, 1.0 / hz, wheel_bases(model, rows))
    return {name: np.ascontiguousarray(v[which]) for name, v in found.items()}


def table(model: ModuleType, values: Mapping[str, np.ndarray], index: int = 0) -> list[dict]:
    """Rows of name, label, value, unit for one tuning of a `compute` result."""
    _, ref_label = reference_speed(model)
    rows = []
    for name, metric in METRICS.items():
        value = float(np.asarray(values[name]).reshape(-1)[index])
        rows.append(
            {
                "name": name,
                "label": metric.label.replace("100", ref_label),
                "value": value,
                "unit": unit_of(metric.kind, model),
                "point": point_of(name, model),
                "decimals": DECIMALS[metric.kind],
                "sense": metric.sense,
                "how": metric.how.replace("100", ref_label),
                "missing": missing_reason(name, value, model, values, index),
            }
        )
    return rows


def missing_reason(name: str, value: float, model: ModuleType, values: Mapping[str, np.ndarray], index: int = 0) -> str:
    """Why a metric has no value for this tuning ("" when it has one)."""
    if math.isfinite(value):
        return ""
    if name in handling.HANDLING_METRICS:
        gradient = float(np.asarray(values["understeer_gradient"]).reshape(-1)[index])
        return handling.missing(name, model, gradient)
    top = float(np.asarray(values["top_speed"]).reshape(-1)[index])
    _, ref_label = reference_speed(model)
    if name == "top_speed":
        return "none: nothing limits the speed on a straight"
    needs_top = name in ("time_to_90pct", "braking_from_top", "radius_top", "radius_low")
    if needs_top and not math.isfinite(top):
        return "n/a: no top speed to measure from"
    if name in ("time_to_100", "braking_from_100"):
        return f"n/a: never reaches {ref_label}"
    if name == "reverse_top_speed":
        return "none: nothing limits the reverse speed" if math.isinf(value) else "n/a: no reverse speed measured"
    if name == "standing_quarter":
        return "n/a: never covers the distance in two minutes"
    if name.startswith("radius") or name == "turning_circle":
        return "n/a: the car does not turn at full lock"
    return "n/a: the manoeuvre could not reach its mark"


def format_value(value: float) -> str:
    if math.isnan(value):
        return "—"
    if math.isinf(value):
        return "none"
    if abs(value) >= 1e7:  # a typed target or tolerance can be 1e308: not 309 digits
        return f"{value:.3g}"
    return f"{value:.3g}" if abs(value) < 100 else f"{value:.0f}"
