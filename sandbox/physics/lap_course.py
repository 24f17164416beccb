"""A track's timing geometry as a lap timer takes it (`Course`), and where a point is
along its centre line (compiled code). Whether a lap can be timed on a track at all (a
closed centre line and a start line): `lap_problem` says what is lacking, in words;
`check_lap_track` raises it as a UserError naming the track; every caller asks these.

A `Course` is made once per track and unit by `course_of` (the model's unit, m or px,
so the timer reads the car's x and y as they are):
- points ((n+1, 2)): the closed centre line, its first point again at the end;
- s ((n+1,)): the distance along it to each point (s[0] = 0, s[n] = length);
- left, right ((n+1,)): the corridor's half-widths at each point: how far the car may
  be from the centre line on its left and its right (as seen driving along the line;
  on screen, y down, the left of a line heading +x is -y) before it has left the
  track; inf: no limit (no cut is ever seen);
- lines ((m, 6)): the timing lines in lap order, the start line first, then the
  sectors: x1, y1, x2, y2 and the line's unit normal (nx, ny) on the side a lap
  crosses it to (the track's `direction` made square to the line);
- line_s ((m,)): where each line lies along the centre line (the distance to the
  centre-line point nearest its middle);
- length: the centre line's length; step: its longest segment; metre: the course's
  unit per metre (1 in m, pixels_per_metre in px).

Where a point is along the line (`nearest`, `nearest_near`): the nearest point of the
line, found near the one found a tick before (a walk over the segments within a
reach either side, carried on while it still comes nearer), so a hairpin's other leg
is not taken for this one; the timer searches the whole line (`nearest`) only to
place the car and when it is off the track.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ..errors import UserError, printable
from .kernel import kernel
from .track import Track


class Course(NamedTuple):
    """A track's timing geometry in one unit; see the module's docstring."""

    points: np.ndarray
    s: np.ndarray
    left: np.ndarray
    right: np.ndarray
    lines: np.ndarray
    line_s: np.ndarray
    length: float
    step: float
    metre: float


def lap_problem(track: Track) -> str:
    """What `track` lacks for a lap to be timed on it, in words ("" when nothing): a
    closed centre line (the distance along the lap) and a start line."""
    if track.centre_line is None:
        return 'the track has no centre line: a lap is driven along one ("centre_line")'
    if not track.centre_line.closed:
        return "the track's centre line is open: a lap needs one that closes on itself"
    if track.start is None:
        return 'the track has no start line: a lap starts and ends at it ("start")'
    return ""


def check_lap_track(track: Track, source: str | None = None) -> None:
    """UserError "`source`: what is lacking" for a track a lap cannot be timed on
    (`lap_problem`); `source`: how the caller names the track (a file's path; default:
    track 'its name')."""
    if problem := lap_problem(track):
        named = f"track {printable(track.name)!r}" if source is None else source
        raise UserError(f"{named}: {problem}")


def course_of(track: Track, unit: str, corridor=None) -> Course:
    """The `Course` of `track` in `unit` (m or px). `corridor`: the centre line
    resampled with its corridor, as (points (n, 2), normals (n, 2), left (n,),
    right (n,)) in `unit`: the track's half-widths each side of each point, `left`
    along its normal (None: the normals point to the left of the direction of travel,
    y down); None: the track's own centre-line points, with no corridor (inf each
    side: no cut is seen). Raises UserError for a track a lap cannot be timed on (no
    closed centre line, no start line: `check_lap_track`)."""
    check_lap_track(track)
    t = track.in_unit(unit)
    name = printable(track.name)
    if corridor is None:
        points = np.asarray(t.centre_line.points, dtype=np.float64)
        left = right = np.full(len(points), math.inf)
        normals = None
    else:
        points, normals, left, right = (None if a is None else np.asarray(a, dtype=np.float64) for a in corridor)
    if len(points) > 1 and np.array_equal(points[0], points[-1]):
        points, left, right = points[:-1], left[:-1], right[:-1]
        normals = None if normals is None else normals[:-1]
    if len(points) < 3 or not (len(left) == len(right) == len(points)):
        raise ValueError("a course's corridor needs a half-width each side of each of 3 or more points")
    closed = np.vstack([points, points[:1]])
    steps = np.hypot(*np.diff(closed, axis=0).T)
    if normals is not None and np.sum(normals * _left_normals(closed)) < 0:
        left, right = right, left  # the corridor's "left" is the other side from ours
    timing = (t.start, *t.sectors)
    if short := [k for k, line in enumerate(timing) if not math.hypot(line.x2 - line.x1, line.y2 - line.y1) > 0]:
        said = "the start line" if short[0] == 0 else f"sector line {short[0]}"
        raise UserError(f"track {name!r}: {said} has no length, so nothing can cross it")
    lines = np.array([_line_row(line) for line in timing])
    course = Course(
        points=closed,
        s=np.concatenate([[0.0], np.cumsum(steps)]),
        left=np.append(left, left[0]),
        right=np.append(right, right[0]),
        lines=lines,
        line_s=np.zeros(len(lines)),
        length=float(steps.sum()),
        step=float(steps.max()),
        metre=1.0 if unit == "m" else float(t.pixels_per_metre),
    )
    for k, (x1, y1, x2, y2) in enumerate(lines[:, :4]):
        i, f, _, _ = nearest(course, (x1 + x2) / 2, (y1 + y2) / 2)
        course.line_s[k] = course.s[i] + f * (course.s[i + 1] - course.s[i])
    return course


def _left_normals(closed: np.ndarray) -> np.ndarray:
    """Each point's unit normal to the left of the segment leaving it ((n, 2), y down)."""
    d = np.diff(closed, axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):  # a repeated point: no direction (NaN)
        d /= np.hypot(*d.T)[:, None]
    return np.nan_to_num(np.column_stack([d[:, 1], -d[:, 0]]))


def _line_row(line) -> list[float]:
    """x1, y1, x2, y2 and the unit normal on the side `line.direction` points to."""
    ax, ay = line.x2 - line.x1, line.y2 - line.y1
    norm = math.hypot(ax, ay)
    nx, ny = -ay / norm, ax / norm
    if nx * line.direction[0] + ny * line.direction[1] < 0:
        nx, ny = -nx, -ny
    return [line.x1, line.y1, line.x2, line.y2, nx, ny]


@kernel(inline=True)
def on_segment(course, k, x, y):
    """(f, d²): where along segment k (0 … 1) the point nearest (x, y) lies, and the
    squared distance to it."""
    ax, ay = course.points[k, 0], course.points[k, 1]
    dx, dy = course.points[k + 1, 0] - ax, course.points[k + 1, 1] - ay
    span = dx * dx + dy * dy
    f = ((x - ax) * dx + (y - ay) * dy) / span if span > 0 else 0.0
    f = min(max(f, 0.0), 1.0)
    ex, ey = x - ax - f * dx, y - ay - f * dy
    return f, ex * ex + ey * ey


@kernel
def nearest(course, x, y):
    """(k, f, distance, offset): the nearest point of the whole centre line to (x, y),
    on segment k at f (0 … 1) of it, its distance, and the point's signed distance
    from the line (+ left, - right)."""
    best_k, best_f, best_d2 = 0, 0.0, math.inf
    for k in range(len(course.s) - 1):
        f, d2 = on_segment(course, k, x, y)
        if d2 < best_d2:
            best_k, best_f, best_d2 = k, f, d2
    return best_k, best_f, math.sqrt(best_d2), side(course, best_k, x, y) * math.sqrt(best_d2)


@kernel
def nearest_near(course, k0, x, y, reach):
    """`nearest`, searched from segment k0 over the segments within `reach` along the
    line each way, then on each way while they still come nearer."""
    n = len(course.s) - 1
    best_k, best_f, best_d2 = k0, 0.0, math.inf
    for way in (1, -1):
        k, walked, last_d2 = k0, 0.0, math.inf
        for _ in range(n):
            f, d2 = on_segment(course, k, x, y)
            if d2 < best_d2:
                best_k, best_f, best_d2 = k, f, d2
            if walked > reach and d2 >= last_d2:
                break
            last_d2 = d2
            walked += course.s[k + 1] - course.s[k]
            k = (k + way) % n
    return best_k, best_f, math.sqrt(best_d2), side(course, best_k, x, y) * math.sqrt(best_d2)


@kernel(inline=True)
def side(course, k, x, y):
    """1.0 if (x, y) lies on segment k's left (y down) or on it, else -1.0."""
    ax, ay = course.points[k, 0], course.points[k, 1]
    dx, dy = course.points[k + 1, 0] - ax, course.points[k + 1, 1] - ay
    return 1.0 if (x - ax) * dy - (y - ay) * dx >= 0 else -1.0


@kernel(inline=True)
def is_outside(course, k, f, offset):
    """Whether a point `offset` from the line (+ left) nearest it at f of segment k is
    beyond the corridor's half-width there (interpolated between the segment's ends)."""
    a, b = (course.left[k], course.left[k + 1]) if offset >= 0 else (course.right[k], course.right[k + 1])
    width = a if a == b else a + f * (b - a)  # inf stays inf (no cut), never inf - inf
    return abs(offset) > width
