"""Lap time as a figure of a tuning: the driver's timed lap of a closed track, for a
whole batch of tunings in one compiled call spread over the cores (`lap_batch`).

`lap_figures(model, params, hz, track)` gives, per tuning: `lap_time` (s, the first
timed lap's time; the out lap from the spawn to the start line comes
before it) and its sector times `sector_1` … (s). It is the lap `drive_timed_laps(model,
tuning, track, 1, hz)` drives and times, tuning by tuning (the same steps in compiled
code): the car's limits from its metrics (one batch of `metrics.compute`), its
acceleration table, its speed profile along the racing line, its drive and its timing.
A lap that is not valid (cut, knocked a cone, …) or never completed gives NaN, and
`lap_note` says why. The racing line is the track's, made once for each body width
in the batch (`racing_line` caches it).

`measure(model, params, hz, track)`: the metrics of `metrics.compute` and, with a
track, these figures beside them: what sweep, sensitivity and tune evaluate.
`lap_track(track)`: the track when a lap can be timed on it, else None (the Metrics
tab, the metrics command and the live timer show lap figures only then).
"""

from __future__ import annotations

import math
from types import ModuleType
from typing import Mapping

import numpy as np

from ..physics import kernels
from ..physics import lap_timer as lt
from ..physics.lap_course import check_lap_track, lap_problem
from ..physics.sim import at_rest, model_number, tuning_rows
from ..physics.track import Track
from ..physics.walls import walls_for
from ..physics.world import build_world
from . import lap_batch as lb
from .driven_laps import OVERRUN_LENGTHS, line_crossing, nearest_distance
from .lap_driver import FINISHED, STALL_S, STALLED, driver_path
from .lap_plan import ACCEL_RUN_S, check_room, limits_table, margin_of, timed_course
from .metrics import METRICS, Metric, bodies, compute, walking_pace

LAP_METRICS = {
    "lap_time": Metric(
        "lap time",
        "time",
        -1,
        "The driver's first timed lap of the track (racing line, the car's own speed profile), from its spawn.",
    ),
}
"""The figures a closed track adds to `metrics.METRICS` (sector_1 … follow, one per
timing line of the track)."""


def sector_names(track: Track) -> list[str]:
    """sector_1 … sector_m: one per timing line of `track` (the last ends on the start line)."""
    return [f"sector_{k + 1}" for k in range(1 + len(track.sectors))]


def metric_of(name: str) -> Metric:
    """The declaration of a metric, a lap figure or a sector time."""
    if name in METRICS:
        return METRICS[name]
    if name in LAP_METRICS:
        return LAP_METRICS[name]
    if name.startswith("sector_"):
        return Metric(f"sector {name[7:]}", "time", -1, "The lap time's share from one timing line to the next.")
    raise KeyError(name)


def figure_names(track: Track | None = None) -> list[str]:
    """The figures `measure` gives to show: every metric, and with `track` lap_time and
    its sector times."""
    return list(METRICS) + ([] if track is None else [*LAP_METRICS, *sector_names(track)])


def lap_track(track: Track | None) -> Track | None:
    """`track` when a lap can be timed on it (a closed centre line and a start line:
    `lap_course.lap_problem`), else None; None for None. (`lap_course.check_lap_track`
    raises instead, naming what is lacking.)"""
    return None if track is None or lap_problem(track) else track


def lap_figures(
    model: ModuleType, params: Mapping[str, object], hz: float, track: Track, values=None
) -> dict[str, np.ndarray]:
    """lap_time and sector_1 … (s) for every tuning in `params` (arrays of one length,
    or scalars), plus `lap_ended` (lap_driver's FINISHED …), `lap_flags` (the first
    lap's marks, -1: none completed), `lap_distance` (length reached along the line)
    and `lap_driven` (s driven) for `lap_note`. `values`: the tunings' metrics when
    at hand. UserError for a track a lap cannot be driven or timed on."""
    from .racing_line import racing_line

    check_lap_track(track)
    unit = model.LENGTH_UNIT
    here = track.in_unit(unit)
    values = compute(model, params, hz) if values is None else values
    n = max([np.size(v) for v in params.values()] + [1])
    rows, which = tuning_rows(model, params, n)
    first_of = np.zeros(len(rows), dtype=np.int64)
    first_of[which[::-1]] = np.arange(len(which))[::-1]  # a row's first tuning, whose metrics it takes
    row_values = {name: np.asarray(v, dtype=np.float64).reshape(-1)[first_of] for name, v in values.items()}
    sizes = bodies(model, rows)
    limits = limits_table(model, row_values, sizes[:, 0])
    course, corridor, metre = timed_course(track, unit)
    timer0 = lt.new_timer(course)
    walls = walls_for(here, unit)
    if walls is None:  # nothing to meet: the batch takes the track's empty world (the driver alone, none)
        from ..physics.walls import Walls

        walls = Walls(build_world(track.in_unit("px")), 1.0 if unit == "px" else metre)
    rest = at_rest(model, 1).data[0].copy()
    start = at_rest(model, 1, here.spawn).data[0].copy()
    dt = 1.0 / hz
    settings = np.zeros(lb.SETTINGS)
    settings[lb.SET_HZ] = hz
    settings[lb.SET_PACE] = walking_pace(model)
    settings[lb.SET_ACCEL_TICKS] = int(ACCEL_RUN_S * hz)
    settings[lb.SET_SPAN] = max(1, int(round(0.1 * hz)))
    settings[lb.SET_CONES] = model.STATE.offset["cones_hit"]
    settings[lb.SET_STALL_TICKS] = max(1, int(round(STALL_S * hz)))
    settings[lb.SET_SCALE], settings[lb.SET_RESTITUTION], settings[lb.SET_FRICTION] = (
        walls.scale, walls.restitution, walls.friction,
    )  # fmt: skip
    settings[lb.SET_LENGTH], settings[lb.SET_STEP], settings[lb.SET_METRE] = course.length, course.step, course.metre
    m = len(course.lines)
    out = np.full((len(rows), lb.OUT_SLOTS + m), math.nan)
    names = [q.name for q in model.PARAMS]
    margins = np.array([margin_of(model, dict(zip(names, row)), track) for row in rows])  # as the one-car plan
    for margin in np.unique(margins):  # one line for each width in the batch
        group = np.flatnonzero(margins == margin)
        check_room(track, corridor, float(margin), metre)  # a clear refusal, as the one-car plan's
        line = racing_line(track, unit, float(margin))
        path, path_s, _ = driver_path(line.points, 1.0, line.room)
        length = line.s[-1]
        crossing = line_crossing(line.points, line.s, here.start)
        if not math.isfinite(crossing):
            middle = ((here.start.x1 + here.start.x2) / 2, (here.start.y1 + here.start.y2) / 2)
            crossing = nearest_distance(line.points, line.s, *middle)
        first = (crossing - nearest_distance(line.points, line.s, here.spawn.x, here.spawn.y)) % length
        cars = np.zeros((len(group), lb.CAR_SLOTS))
        cars[:, : lb.CAR_FULL_LOCK + 1] = limits[group]
        cars[:, lb.CAR_LENGTH] = sizes[group, 0]
        overrun = OVERRUN_LENGTHS * sizes[group, 0]
        cars[:, lb.CAR_GOAL] = (first + 1 * length + overrun) / length * path_s[-1]
        part = np.empty((len(group), out.shape[1]))
        kernels.call(
            lb.lap_rows, model_number(model), np.ascontiguousarray(rows[group]), dt, rest, start, cars, settings,
            np.ascontiguousarray(line.s), np.ascontiguousarray(line.kappa), path, path_s,
            course.points, course.s, course.left, course.right, course.lines, course.line_s, timer0,
            walls.world.floats, walls.world.ints, part,
        )  # fmt: skip
        out[group] = part
    out = out[which]
    figures = {"lap_time": out[:, lb.OUT_TIME]}
    for k, name in enumerate(sector_names(track)):
        figures[name] = out[:, lb.OUT_SLOTS + k]
    figures.update(
        lap_ended=out[:, lb.OUT_ENDED],
        lap_flags=out[:, lb.OUT_FLAGS],
        lap_distance=out[:, lb.OUT_DISTANCE],
        lap_driven=out[:, lb.OUT_DRIVEN],
    )
    return {name: np.ascontiguousarray(v) for name, v in figures.items()}


def lap_note(model: ModuleType, figures: Mapping[str, np.ndarray], index: int = 0) -> str:
    """Why a tuning has no lap time ("" when it has one), with what its drive reached."""
    if math.isfinite(float(figures["lap_time"][index])):
        return ""
    ended, flags = int(figures["lap_ended"][index]), int(figures["lap_flags"][index])
    reached = (
        f"{float(figures['lap_distance'][index]):.0f} {model.LENGTH_UNIT} along the line in "
        f"{float(figures['lap_driven'][index]):.1f} s"
    )
    if flags > 0:
        marks = [text for flag, text in ((lt.BACKWARDS, "driven backwards"), (lt.CUT, "cut"),
                 (lt.MISSED, "missed a sector line"), (lt.CONES, "knocked a cone")) if flags & flag]  # fmt: skip
        return f"n/a: the driver's lap was not valid ({', '.join(marks)})"
    if ended == STALLED:
        return f"n/a: the driver could not get round (stalled after {reached})"
    if ended != FINISHED:
        return f"n/a: the driver ran out of time (reached {reached})"
    return f"n/a: no lap completed (reached {reached})"


def measure(
    model: ModuleType, params: Mapping[str, object], hz: float, track: Track | None = None
) -> dict[str, np.ndarray]:
    """`metrics.compute`'s metrics, and with a closed `track` the lap figures
    (`lap_figures`) beside them."""
    values = compute(model, params, hz)
    if track is None:
        return values
    return {**values, **lap_figures(model, params, hz, track, values)}
