"""A driver's laps of a closed track, timed: the driver follows the lap plan (the
racing line at the car's own speed profile, `lap_plan`) from the track's spawn, and the
lap timer times the drive where the car's swept path crosses the start and sector
lines (`lap_timer`), with the laps that do not count marked (cut, backwards, a missed
sector line, cones). What the `lap` command prints, and the lap-time figures.
"""

from __future__ import annotations

import math
from types import ModuleType
from typing import Mapping, NamedTuple

import numpy as np

from ..physics import lap_timer as lt
from ..physics.track import Line, Track
from .lap_driver import COL_X, COL_Y, CONES, DriveResult, drive_laps
from .lap_plan import PRACTICE_DRIVES, LapPlan, plan_lap, practised
from .laps import Lap, LapBook

OVERRUN_LENGTHS = 2.0
"""Car lengths the driver goes on past the last lap's start line, so the timer sees it
crossed."""


class DrivenLaps(NamedTuple):
    """The drive (`lap_driver.DriveResult`), its timed laps (`laps.LapBook`), the plan
    it followed and the distance along the line from the car's start to the start line
    (`first`, the model's unit)."""

    drive: DriveResult
    book: LapBook
    plan: LapPlan
    first: float

    @property
    def laps(self) -> list[Lap]:
        return self.book.laps


def line_crossing(points: np.ndarray, s: np.ndarray, line: Line) -> float:
    """The distance along the closed line `points` (its cumulative `s`, n + 1) where it
    first crosses the timing `line` in the line's direction; NaN when it never does."""
    a, b = points, np.roll(points, -1, axis=0)
    p, q = np.array([line.x1, line.y1]), np.array([line.x2, line.y2])
    d, e = b - a, q - p
    cross = d[:, 0] * e[1] - d[:, 1] * e[0]
    with np.errstate(divide="ignore", invalid="ignore"):
        t = ((p[0] - a[:, 0]) * e[1] - (p[1] - a[:, 1]) * e[0]) / cross  # along the line's segment
        u = ((p[0] - a[:, 0]) * d[:, 1] - (p[1] - a[:, 1]) * d[:, 0]) / cross  # along the timing line
    forward = d @ np.asarray(line.direction, dtype=np.float64) > 0
    hit = np.flatnonzero((t >= 0) & (t < 1) & (u >= 0) & (u <= 1) & forward)
    if not len(hit):
        return math.nan
    k = hit[0]
    return float(s[k] + t[k] * (s[k + 1] - s[k]))


def nearest_distance(points: np.ndarray, s: np.ndarray, x: float, y: float) -> float:
    """The distance along the closed line `points` of its point nearest (x, y)."""
    a, b = points, np.roll(points, -1, axis=0)
    d = b - a
    t = np.clip(np.einsum("ij,ij->i", np.array([x, y]) - a, d) / np.einsum("ij,ij->i", d, d), 0.0, 1.0)
    gap = np.hypot(*(a + t[:, None] * d - np.array([x, y])).T)
    k = int(np.argmin(gap))
    return float(s[k] + t[k] * (s[k + 1] - s[k]))


def drive_timed_laps(
    model: ModuleType, tuning: Mapping[str, object], track: Track, laps: int, hz: float, values=None
) -> DrivenLaps:
    """`laps` timed laps of `track` by the driver, from the spawn (UserError for a track a
    lap cannot be driven or timed on). `values`: the tuning's metrics when at hand. The
    driver practises (`lap_plan.practised`): a drive with a lap that does not count, or
    fewer laps than asked, is driven again asking for less grip, at most
    PRACTICE_DRIVES drives; the first that counts is returned, else the first of all
    (practice did not help: a cone on the line, a car too weak to finish)."""
    plan = plan_lap(model, tuning, track, hz, values)
    first = None
    for drives in range(PRACTICE_DRIVES):
        plan = plan if drives == 0 else practised(model, plan)
        driven = _drive_plan(model, tuning, track, laps, hz, plan)
        if len(driven.laps) >= laps and all(lap.valid for lap in driven.laps[:laps]):
            return driven
        first = driven if first is None else first
    return first


def practised_plan(model: ModuleType, tuning: Mapping[str, object], track: Track, hz: float) -> LapPlan:
    """The plan the driver follows on `track` once it has practised a lap from the spawn
    (`drive_timed_laps`): the plan itself for a car whose first lap counts (UserError
    for a track a lap cannot be driven or timed on)."""
    return drive_timed_laps(model, tuning, track, 1, hz).plan


def _drive_plan(
    model: ModuleType, tuning: Mapping[str, object], track: Track, laps: int, hz: float, plan: LapPlan
) -> DrivenLaps:
    """`laps` timed laps of `track` following `plan`, from the spawn."""
    here = track.in_unit(model.LENGTH_UNIT)
    line = plan.line
    length = line.s[-1]
    start = line_crossing(line.points, line.s, here.start)
    if not math.isfinite(start):
        start = nearest_distance(
            line.points, line.s, (here.start.x1 + here.start.x2) / 2, (here.start.y1 + here.start.y2) / 2
        )
    first = (start - nearest_distance(line.points, line.s, here.spawn.x, here.spawn.y)) % length
    overrun = OVERRUN_LENGTHS * float(model.body(tuning)["length"])
    drive = drive_laps(
        model, tuning, here, line.points, plan.speeds, (first + laps * length + overrun) / length, hz,
        full_lock_radius=plan.limits.full_lock_radius, room=line.room,
    )  # fmt: skip
    return DrivenLaps(drive, time_drive(plan.course, drive, here), plan, first)


def time_drive(course: lt.Course, drive: DriveResult, track: Track) -> LapBook:
    """The laps of `drive` (rows from the car at the track's spawn) on `course`."""
    return timed_ticks(course, drive, track).book


class TimedTicks(NamedTuple):
    """A drive timed: its laps (`book`), and after each of its ticks the time (s), the
    running lap's number (0 before the first start line) and its distance (course unit)."""

    book: LapBook
    time: np.ndarray
    lap: np.ndarray
    distance: np.ndarray


def timed_ticks(course: lt.Course, drive: DriveResult, track: Track) -> TimedTicks:
    """The laps of `drive` (rows from the car at the track's spawn) on `course`, with
    the lap and distance each tick ended in."""
    rows = drive.rows
    xs = np.concatenate([[track.spawn.x], rows[:, COL_X]])
    ys = np.concatenate([[track.spawn.y], rows[:, COL_Y]])
    timer = lt.new_timer(course)
    n = len(rows)
    lap, distance = np.zeros(n), np.zeros(n)
    dt = 1.0 / drive.hz
    lt.timer_ticks(course, timer, xs, ys, 0.0, dt, np.ascontiguousarray(rows[:, CONES]), lap, distance)
    time = np.arange(1, n + 1) * dt
    book = LapBook()
    book.add_ticks(time, lap, distance)
    book.update(course, timer)
    return TimedTicks(book, time, lap, distance)
