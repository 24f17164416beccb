"""What the `lap` command drives and how it times the laps, for now: the track's centre
line at one steady speed, and laps and sectors timed where the distance driven along
that line passes the start and sector lines.

This module stands in for two parts still to come and is replaced by them: the racing
line and its speed profile from the car's measured grip and braking (in place of
`centre_path` and `steady_speed`), and the lap timer, which times each line where the
car's swept path crosses it and marks cut laps (in place of `laps_of`).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ..physics.track import Line, Track
from .lap_driver import CONES, DISTANCE, DriveResult, path_distances

GRIP_SHARE = 0.5
"""The steady speed asks at most this share of the car's skid-pad lateral acceleration
in the line's tightest bend."""
TOP_SHARE = 0.8
"""… and at most this share of its top speed."""
BEND_SPAN = 10.0
"""A bend's curvature is its turn over this many car lengths of the line (a line's
single kinks are no bends)."""


class Lap(NamedTuple):
    """A lap: its number (1 is the first whole lap after the start line), its time and
    sector times (s), the cones knocked in it, and whether it counts (no cone knocked)."""

    number: int
    time: float
    sectors: tuple[float, ...]
    cones: int
    valid: bool


def centre_path(track: Track, unit: str) -> np.ndarray:
    """The track's closed centre line in `unit` as a path for the driver ((n, 2), the
    first point not repeated at the end, no two points in a row the same);
    ValueError when the track has none or it is not a lap."""
    line = track.in_unit(unit).centre_line
    if line is None or not line.closed:
        raise ValueError("the track's centre line is not a lap")
    points = np.asarray(line.points, dtype=np.float64)
    keep = np.ones(len(points), dtype=bool)
    keep[1:] = np.any(np.diff(points, axis=0) != 0, axis=1)
    points = points[keep]
    if len(points) > 1 and np.array_equal(points[0], points[-1]):
        points = points[:-1]
    return points


def steady_speed(path: np.ndarray, lateral: float, top: float, length: float, least: float) -> float:
    """One speed (length/s) the car can hold all round `path`: its tightest bend (the
    turn over BEND_SPAN car lengths of `length`) taken at GRIP_SHARE of its skid-pad
    `lateral` acceleration (length/s²), at most TOP_SHARE of its `top` speed; `least`
    when neither gives a speed (a car that did not move in its manoeuvres: the drive
    then says how far it got)."""
    s = path_distances(path)
    closed = np.vstack([path, path[:1]])
    heading = np.unwrap(np.arctan2(*np.diff(closed, axis=0).T[::-1]))
    span = BEND_SPAN * length
    middles = (s[:-1] + s[1:]) / 2
    turned = np.concatenate([heading, heading + (heading[-1] - heading[0] + _last_turn(heading))])
    along = np.concatenate([middles, middles + s[-1]])
    curvature = float(np.max(np.abs(np.interp(middles + span, along, turned) - heading)) / span)
    speed = TOP_SHARE * top if math.isfinite(top) and top > 0 else math.inf
    if curvature > 0 and math.isfinite(lateral) and lateral > 0:
        speed = min(speed, math.sqrt(GRIP_SHARE * lateral / curvature))
    return speed if math.isfinite(speed) and speed > 0 else least


def _last_turn(heading: np.ndarray) -> float:
    """The turn from the last segment's heading to the first's, the shorter way."""
    step = heading[0] - heading[-1]
    return (step + math.pi) % (2 * math.pi) - math.pi


def line_distance(path: np.ndarray, line: Line) -> float:
    """Where `line` (in the path's unit) meets the closed path: the distance along it of
    the path point nearest the line's middle."""
    s = path_distances(path)
    middle = np.array([(line.x1 + line.x2) / 2, (line.y1 + line.y2) / 2])
    a, b = path, np.roll(path, -1, axis=0)
    d = b - a
    t = np.clip(np.einsum("ij,ij->i", middle - a, d) / np.einsum("ij,ij->i", d, d), 0.0, 1.0)
    gap = np.hypot(*(a + t[:, None] * d - middle).T)
    k = int(np.argmin(gap))
    return float(s[k] + t[k] * (s[k + 1] - s[k]))


def marks(path: np.ndarray, start: np.ndarray, track: Track) -> tuple[float, np.ndarray]:
    """(the distance from the car's start to the start line, the sector lines' distances
    after the start line in lap order) along the closed `path` (the track in its unit)."""
    s = path_distances(path)
    lap = s[-1]
    here = line_distance(path, _point_line(start))
    first = (line_distance(path, track.start) - here) % lap
    if first < 1e-9 * lap:
        first = 0.0
    sectors = np.array([(line_distance(path, line) - here - first) % lap for line in track.sectors])
    return first, np.sort(sectors[(sectors > 0) & (sectors < lap)])


def _point_line(point: np.ndarray) -> Line:
    return Line(float(point[0]), float(point[1]), float(point[0]), float(point[1]), (1.0, 0.0))


def laps_of(result: DriveResult, first: float, sectors: np.ndarray) -> list[Lap]:
    """The whole laps of a drive: lap k from where the distance driven passes `first` +
    (k − 1) laps to `first` + k laps, its sector splits where it passes each of
    `sectors` (distances after the start line); times interpolated within the tick."""
    rows = result.rows
    distance = np.maximum.accumulate(np.concatenate([[0.0], rows[:, DISTANCE]]))
    times = np.arange(len(distance)) / result.hz
    cones = np.concatenate([[0.0], rows[:, CONES]])
    lap = result.lap_length
    laps = []
    k = 1
    while first + k * lap <= distance[-1]:
        begin = first + (k - 1) * lap
        points = [begin, *(begin + sectors), begin + lap]
        at = np.interp(points, distance, times)
        ends = np.searchsorted(distance, [begin, begin + lap])  # the ticks that pass the lap's ends
        knocked = int(cones[min(ends[1], len(cones) - 1)] - cones[ends[0]])
        laps.append(Lap(k, float(at[-1] - at[0]), tuple(float(x) for x in np.diff(at)), knocked, knocked == 0))
        k += 1
    return laps
