"""How the driver laps a track with a car: the car's own measured limits, the racing
line inside the track's corridor (its walls less the car's half-width and a
clearance), the speed profile along the line from those limits, and the timing course.

The limits come from the car's metrics (`metrics.compute`) and one straight run:
- lateral grip: `skidpad_lateral` (length/s², the steady full-lock circles);
- braking: v_top² / (2 · `braking_from_top`), the mean deceleration of a full stop
  from the top speed (length/s²); from 100 when the top speed is not known;
- acceleration: a table of (speed, acceleration) points from a full-throttle run from
  rest (`acceleration_table`), so the profile's straights are the car's own;
- top speed: `top_speed`; full-lock radius: `lap_driver.full_lock_radius_of`.
A tuning change means new limits (and a new profile): lap time stays a measure of the
tuning. The line depends on the track and the car's width only (cached).

The driver practises (`driven_laps`, `lap_batch`): a car that slides while it turns
(the drift and ice presets, whose grip falls away above their slip speed) does not hold
the line at the speed its full-lock grip allows, so a drive in which a lap does not
count is driven again asking for PRACTICE_SHARE of the lateral acceleration the drive
before asked for at most (`practised`), at most PRACTICE_DRIVES drives in all.
"""

from __future__ import annotations

import math
from types import ModuleType
from typing import Mapping, NamedTuple

import numpy as np
from numba import literally

from ..errors import UserError
from ..physics import kernels, sim
from ..physics.body_shape import body_at, bounds, shape_of
from ..physics.kernel import kernel
from ..physics.kernels import tick_in
from ..physics.lap_course import Course, course_of
from ..physics.track import Track
from ..physics.track_corridor import half_widths
from .lap_driver import full_lock_radii
from .metrics import compute, reference_speed, walking_pace
from .racing_line import RacingLine, racing_line
from .speed_profile import profile
from .straight_runs import VX, VY

CLEARANCE_M = 0.5
"""m the racing line keeps from a wall beyond the car's half-width (px: at the track's
pixels_per_metre)."""
SLIP_DEG = 10.0
"""deg: the car's half-width is its collision shape's reach to either side when it is
turned by up to this much from the line (a car at its grip limit runs at a slip angle,
and its corners swing out)."""
CORRIDOR_SPACING_M = 2.0
"""m between the points the corridor's widths are measured at."""
ACCEL_RUN_S = 60.0
"""s: the longest full-throttle run the acceleration table is read from."""
ACCEL_POINTS = 24
"""Points of the acceleration table."""
PRACTICE_DRIVES = 6
"""Drives at most: the first, and five more each asking for less of the car's grip."""
PRACTICE_SHARE = 0.5
"""The share of the most lateral acceleration a failed drive asked for that the next
one asks for (its speeds in the tightest bends about 0.71 of those before)."""


class Limits(NamedTuple):
    """A car's measured limits, in its model's units: `lateral` and `braking`
    (length/s²), `accel` ((k, 2): speed, acceleration), `top` (length/s; inf: none
    reached) and `full_lock_radius` (length)."""

    lateral: float
    braking: float
    accel: np.ndarray
    top: float
    full_lock_radius: float


class LapPlan(NamedTuple):
    """What a driven lap follows: the `line`, the target `speeds` at its points
    (length/s), the `course` it is timed on, the car's `limits`, and the lateral
    acceleration the speeds ask for at most (length/s²; the measured `limits.lateral`,
    less after practice)."""

    line: RacingLine
    speeds: np.ndarray
    course: Course
    limits: Limits
    lateral: float = math.inf


@kernel
def full_throttle_table(model, p, rest, hz, ticks, span, top, points):
    """(speeds, accelerations) (`points` each) of a full-throttle run of tuning row `p`
    from `rest` for `ticks` ticks at `hz` on the open field: the speed's change over
    `span` ticks against the mean speed over them, sampled at `points` speeds up to the
    fastest reached (or 99 % of `top`), no acceleration below 0. The one-car plan
    (`acceleration_table`) and the batch (`lap_batch`) both take it."""
    literally(model)
    s = rest.copy()
    c = np.zeros(5)
    c[1] = 1.0
    dt = 1.0 / hz
    speed = np.zeros(ticks + 1)
    for t in range(ticks):
        tick_in(model, s, c, p, dt, None)
        speed[t + 1] = math.hypot(s[VX], s[VY])
    n = ticks + 1 - span
    rate = np.empty(n)
    middle = np.empty(n)
    for i in range(n):
        rate[i] = (speed[i + span] - speed[i]) / ((i + span) / hz - i / hz)
        middle[i] = 0.5 * (speed[i + span] + speed[i])
    end = np.max(speed)
    if math.isfinite(top) and top > 0:
        end = min(end, 0.99 * top)
    if not end > 0:
        return np.zeros(1), np.zeros(1)
    v = np.linspace(0.0, end, points)
    order = np.argsort(middle, kind="mergesort")
    sorted_middle, sorted_rate = middle[order], rate[order]
    rising = sorted_middle <= end
    if rising.any():
        a = np.interp(v, sorted_middle[rising], sorted_rate[rising])
    else:
        a = np.zeros(points)
    return v, np.maximum(a, 0.0)


def acceleration_table(model: ModuleType, tuning: Mapping[str, object], hz: float, top: float) -> np.ndarray:
    """(speed, acceleration) points (length/s, length/s²), (ACCEL_POINTS, 2), of a
    full-throttle run from rest on the open field of at most ACCEL_RUN_S, the speed's
    change smoothed over a tenth of a second (`full_throttle_table`). One compiled call."""
    rows, which = sim.tuning_rows(model, tuning, 1)
    v, a = kernels.call(
        full_throttle_table, sim.model_number(model), rows[which[0]], sim.at_rest(model, 1).data[0].copy(), float(hz),
        int(ACCEL_RUN_S * hz), max(1, int(round(0.1 * hz))), float(top), ACCEL_POINTS,
    )  # fmt: skip
    return np.column_stack([v, a])


def limits_table(model: ModuleType, values: Mapping[str, np.ndarray], lengths: np.ndarray) -> np.ndarray:
    """(k, 4): lateral grip, braking, top speed and full-lock radius of each of k tunings
    from its metrics (`values`, arrays of k) and body `lengths`, each as the module's
    docstring says (braking from the top speed, else from 100; the full-lock radius as
    `lap_driver.full_lock_radii` chooses it)."""
    top = np.asarray(values["top_speed"], dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        from_top = top * top / (2.0 * values["braking_from_top"])
        v = reference_speed(model)[0]
        from_100 = v * v / (2.0 * values["braking_from_100"])
    braking = np.where(np.isfinite(top) & (top > 0) & (values["braking_from_top"] > 0), from_top, math.nan)
    braking = np.where(~(np.isfinite(braking) & (braking > 0)) & (values["braking_from_100"] > 0), from_100, braking)
    return np.column_stack([values["skidpad_lateral"], braking, top, full_lock_radii(values, lengths)])


def car_limits(model: ModuleType, tuning: Mapping[str, object], hz: float, values=None) -> Limits:
    """The `Limits` of one tuning (`values`: its metrics when at hand)."""
    values = compute(model, tuning, hz) if values is None else values
    one = {name: np.asarray(v, dtype=np.float64).reshape(-1)[:1] for name, v in values.items()}
    lateral, braking, top, full_lock = limits_table(model, one, np.array([float(model.body(tuning)["length"])]))[0]
    return Limits(
        lateral=float(lateral),
        braking=float(braking),
        accel=acceleration_table(model, tuning, hz, float(top)),
        top=float(top),
        full_lock_radius=float(full_lock),
    )


def half_width_of(model: ModuleType, tuning: Mapping[str, object]) -> float:
    """The car's half-width (the model's unit) as walls and cones meet it: the larger of
    half its drawn body's width and its collision shape's reach to either side of its
    reference point, the shape turned by up to SLIP_DEG either way (the recipe's capsule
    is wider than the go-kart's drawn body)."""
    shape = shape_of(tuning)
    reach = 0.5 * float(model.body(tuning)["width"])
    for slip in (-SLIP_DEG, 0.0, SLIP_DEG):
        _, top, _, bottom = bounds(body_at(shape, 0.0, 0.0, math.radians(slip)), 0.0, 0.0, 0.0)
        reach = max(reach, -top, bottom)
    return reach


def margin_of(model: ModuleType, tuning: Mapping[str, object], track: Track) -> float:
    """The line's distance from the walls (the model's unit): the car's half-width
    (`half_width_of`) and CLEARANCE_M."""
    metre = 1.0 if model.LENGTH_UNIT == "m" else float(track.pixels_per_metre)
    return half_width_of(model, tuning) + CLEARANCE_M * metre


def check_room(track: Track, corridor, margin: float, metre: float) -> None:
    """UserError when the track's road is somewhere narrower than the car needs (its
    half-width and CLEARANCE_M each side: `margin`), naming where along the lap and
    both widths in metres. `corridor`: the track's half-widths, in the unit of which
    `metre` is a metre."""
    width = corridor.left + corridor.right
    if np.all(width >= 2 * margin):
        return
    k = int(np.argmin(width - 2 * margin))
    along = float(np.sum(np.hypot(*np.diff(corridor.points[: k + 1], axis=0).T)))
    raise UserError(
        f"the track {track.name!r} is {width[k] / metre:.1f} m wide {along / metre:.1f} m along the lap: too "
        f"narrow for this car, which needs {2 * margin / metre:.1f} m (its width as its collision shape reaches, "
        f"and {CLEARANCE_M:g} m each side)"
    )


def timed_course(track: Track, unit: str) -> tuple[Course, np.ndarray, float]:
    """The course a lap on `track` is timed on in `unit`, with its corridor (the track's
    half widths every CORRIDOR_SPACING_M), as the driver's plan, the lap figures and the
    live timing all make it: (course, corridor, the length of a metre in `unit`).
    UserError for a track a lap cannot be timed on, naming what it lacks."""
    here = track.in_unit(unit)
    metre = 1.0 if unit == "m" else float(here.pixels_per_metre)
    corridor = half_widths(here, CORRIDOR_SPACING_M * metre)
    return course_of(track, unit, corridor), corridor, metre


def plan_lap(model: ModuleType, tuning: Mapping[str, object], track: Track, hz: float, values=None) -> LapPlan:
    """The `LapPlan` of a tuning on a closed track (UserError for a track a lap cannot
    be driven or timed on, naming what it lacks)."""
    unit = model.LENGTH_UNIT
    course, corridor, metre = timed_course(track, unit)
    margin = margin_of(model, tuning, track)
    check_room(track, corridor, margin, metre)
    limits = car_limits(model, tuning, hz, values)
    try:
        line = racing_line(track, unit, margin)
    except ValueError as exc:  # a narrow place between the points check_room looked at
        raise UserError(str(exc)) from None
    lateral = limits.lateral if math.isfinite(limits.lateral) and limits.lateral > 0 else math.inf
    return LapPlan(line, plan_speeds(model, line, limits, lateral), course, limits, lateral)


def plan_speeds(model: ModuleType, line: RacingLine, limits: Limits, lateral: float) -> np.ndarray:
    """The target speeds (length/s) along `line` for a car of `limits` asked for at most
    `lateral` (length/s²) round the bends (its braking as measured; with no braking
    measured, its measured lateral grip)."""
    v_top = limits.top if math.isfinite(limits.top) and limits.top > 0 else float(np.max(limits.accel[:, 0]))
    measured = limits.lateral if math.isfinite(limits.lateral) and limits.lateral > 0 else math.inf
    braking = limits.braking if math.isfinite(limits.braking) and limits.braking > 0 else measured
    speeds = profile(line.s, line.kappa, lateral, braking, limits.accel, max(v_top, 1e-9), combined=True)
    # a car its manoeuvres could not move is asked for walking pace: the drive then
    # says how far it got, in a bounded time
    return np.maximum(speeds, walking_pace(model))


def practised(model: ModuleType, plan: LapPlan) -> LapPlan:
    """The plan of the drive after `plan`'s failed: asking for PRACTICE_SHARE of the
    most lateral acceleration `plan`'s speeds asked for (v²·|κ|, at most its `lateral`:
    a car held back by its top speed asks for less than its grip)."""
    asked = float(np.max(plan.speeds**2 * np.abs(plan.line.kappa)))
    lateral = PRACTICE_SHARE * min(plan.lateral, asked)
    return plan._replace(speeds=plan_speeds(model, plan.line, plan.limits, lateral), lateral=lateral)
