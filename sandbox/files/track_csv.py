"""A real circuit from the racetrack-database CSV of motorsport research
(github.com/TUMFTM/racetrack-database): a centre line with the track's width to each
side, in metres, one point a row about 5 m apart, the loop not closed in the file:

    # x_m,y_m,w_tr_right_m,w_tr_left_m
    -0.029054,-0.000499,7.621,7.679

The file's y points up (a map's); a track's y points down (Godot's), so y is turned
over, which keeps right and left as a driver sees them. The circuit made of it: the
centre line closed, two walls at the widths (the edge inside the loop a solid infield,
the outer one a hollow ring), the start line across the track at the first point, and
two sector lines at a third and two thirds of the lap, so the lap has three sectors.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import numpy as np

from ..errors import printable
from ..physics.track import Line, Polyline, Pose, Track
from .disk import read_text
from .track_checks import MAX_COORDINATE, MAX_ELEMENTS, TrackError, check_track

HEADER = "# x_m,y_m,w_tr_right_m,w_tr_left_m"
COLUMNS = ("x_m", "y_m", "w_tr_right_m", "w_tr_left_m")
CSV_LIMIT = 16 * 1024 * 1024
"""bytes: a circuit CSV larger than this is refused unread."""
FEWEST_POINTS = 10
"""A circuit needs at least this many centre-line points."""
SPAWN_BACK_M = 10.0
"""m: the car starts this far before the start line, on the centre line."""


def read_track_csv(path: str | os.PathLike, name: str | None = None) -> Track:
    """The circuit in the racetrack-database CSV `path` (named `name`, else after the
    file); TrackError naming the row and the column at fault."""
    source = printable(path)
    text = read_text(path, CSV_LIMIT, TrackError)
    rows = _rows(text, source)
    return circuit(rows, name or Path(path).stem, source)


def _rows(text: str, source: str) -> np.ndarray:
    """(n, 4): x, y, width right, width left of each row, checked."""
    lines = text.splitlines()
    if not lines or lines[0].replace(" ", "") != HEADER.replace(" ", ""):
        first = printable(lines[0][:80]) if lines else "an empty file"
        raise TrackError(f"{source}: line 1: expected the header {HEADER!r}, found {first!r}")
    rows = []
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if len(rows) >= MAX_ELEMENTS // 3:
            raise TrackError(f"{source}: more than {MAX_ELEMENTS // 3:,d} rows; a circuit holds at most that many")
        fields = line.split(",")
        if len(fields) != len(COLUMNS):
            raise TrackError(f"{source}: line {number}: {len(fields)} values; expected 4 ({', '.join(COLUMNS)})")
        row = []
        for column, field in zip(COLUMNS, fields):
            try:
                value = float(field)
            except ValueError:
                what = "is missing" if not field.strip() else f"{printable(field.strip()[:40])!r} is not a number"
                raise TrackError(f"{source}: line {number}: {column} {what}") from None
            if not math.isfinite(value) or abs(value) > MAX_COORDINATE:
                raise TrackError(f"{source}: line {number}: {column} is {field.strip()}, not a finite coordinate")
            if column.startswith("w_") and value <= 0:
                raise TrackError(f"{source}: line {number}: {column} is {value:g}; a width must be more than 0")
            row.append(value)
        rows.append(row)
    if len(rows) < FEWEST_POINTS:
        raise TrackError(f"{source}: {len(rows)} point(s); a circuit needs at least {FEWEST_POINTS}")
    return np.array(rows, dtype=np.float64)


def circuit(rows: np.ndarray, name: str, source: str) -> Track:
    """The circuit of checked CSV rows (x, y up, width right, width left; metres)."""
    centre = rows[:, :2] * (1.0, -1.0)  # y down
    right_w, left_w = rows[:, 2], rows[:, 3]
    ahead = np.roll(centre, -1, axis=0) - np.roll(centre, 1, axis=0)  # the loop's direction at each point
    norms = np.hypot(*ahead.T)
    if np.any(norms == 0):
        at = int(np.flatnonzero(norms == 0)[0])
        raise TrackError(f"{source}: line {at + 2}: the points before and after it are the same point")
    ahead /= norms[:, None]
    right = np.c_[-ahead[:, 1], ahead[:, 0]]  # y down: a quarter turn clockwise on screen is to the right
    right_edge, left_edge = centre + right * right_w[:, None], centre - right * left_w[:, None]
    inner, outer = (right_edge, left_edge) if _area(right_edge) < _area(left_edge) else (left_edge, right_edge)
    lap = Polyline(centre, closed=True)
    distance = np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(np.vstack([centre, centre[:1]]), axis=0).T))])
    total = distance[-1]

    def across(at: float) -> Line:
        """The timing line across the track at `at` m along the lap."""
        i = int(np.searchsorted(distance, at, side="right") - 1) % len(centre)
        j = (i + 1) % len(centre)
        t = (at - distance[i]) / max(distance[i + 1] - distance[i], 1e-12)
        r, left = right_edge[i] + t * (right_edge[j] - right_edge[i]), left_edge[i] + t * (left_edge[j] - left_edge[i])
        d = ahead[i] + t * (ahead[j] - ahead[i])
        d /= math.hypot(*d)
        return Line(float(r[0]), float(r[1]), float(left[0]), float(left[1]), (float(d[0]), float(d[1])))

    back = total - SPAWN_BACK_M
    i = int(np.searchsorted(distance, back, side="right") - 1) % len(centre)
    spawn_at = centre[i] + (back - distance[i]) / max(distance[i + 1] - distance[i], 1e-12) * (
        centre[(i + 1) % len(centre)] - centre[i]
    )
    track = Track(
        name=name,
        unit="m",
        polylines=(Polyline(inner, closed=True), Polyline(np.vstack([outer, outer[:1]]), closed=False)),
        start=across(0.0),
        sectors=(across(total / 3), across(2 * total / 3)),
        centre_line=lap,
        spawn=Pose(float(spawn_at[0]), float(spawn_at[1]), math.atan2(ahead[i][1], ahead[i][0])),
    )
    check_track(  # a wall's point n is from line n + 2 of the file
        track,
        source,
        {("polyline", 0): "the wall inside the loop (point n from line n + 2)", ("polyline", 1): "the outer wall"},
    )
    return track


def _area(points: np.ndarray) -> float:
    """The absolute area a closed loop of points encloses (the shoelace formula)."""
    x, y = points.T
    return abs(float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))) / 2
