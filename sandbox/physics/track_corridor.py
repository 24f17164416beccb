"""The corridor a lap is driven in: the track's centre line resampled at an even
spacing, each point's normal, and how far a car may go along it each side before it
meets a wall (numpy, vectorised over the points; no compiled code).

Coordinates are the track's (x right, y down). A normal is the unit vector to the
left of the direction of travel as a driver sees it on the screen: for a direction
(tx, ty) it is (ty, −tx) (heading +x, left is −y, up the screen). The free distance
each side is measured along the normal (a ray from the point), to the first wall it
meets: a polyline (open or closed), a rectangle's outline or a circle. Cones are not
walls: a car knocks them over. Where a ray meets nothing, its distance is `reach`: by
default half the start line's length (a start line spans the road: on a course marked
by cones only, such as the skid pad, the road is as wide as its start line), or without
a start line the diagonal of the track's bounds.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .track import Polyline, Track
from .track_geometry import segments

CHUNK = 1 << 21
"""Point-and-segment pairs worked on at once: bounds the memory a long circuit takes."""


class Corridor(NamedTuple):
    """The centre line's points (n, 2), their unit normals (n, 2, to the left), and the
    free distance to the nearest wall along the normal on the left and on the right
    (n,), all in the track's unit."""

    points: np.ndarray
    normals: np.ndarray
    left: np.ndarray
    right: np.ndarray


def resample(line: Polyline, spacing: float) -> np.ndarray:
    """The polyline's points every `spacing` along it, evenly: a closed line gets n
    points n = round(length / spacing) apart by length / n (the last not repeating the
    first); an open one its two ends and evenly between them."""
    start, end = segments(line)
    lengths = np.hypot(*(end - start).T)
    s = np.concatenate(([0.0], np.cumsum(lengths)))
    count = max(int(round(s[-1] / spacing)), 3 if line.closed else 1)
    at = np.linspace(0.0, s[-1], count + 1)
    if line.closed:
        at = at[:-1]
    points = np.vstack((start, end[-1:]))
    return np.column_stack((np.interp(at, s, points[:, 0]), np.interp(at, s, points[:, 1])))


def normals_of(points: np.ndarray, closed: bool) -> np.ndarray:
    """Each point's unit normal, to the left of the direction of travel (y down): the
    tangent is the chord from the point before to the point after (one-sided at the
    ends of an open line)."""
    if closed:
        tangent = np.roll(points, -1, axis=0) - np.roll(points, 1, axis=0)
    else:
        tangent = np.gradient(points, axis=0)
    tangent /= np.hypot(*tangent.T)[:, None]
    return np.column_stack((tangent[:, 1], -tangent[:, 0]))


def wall_segments(track: Track) -> tuple[np.ndarray, np.ndarray]:
    """(starts, ends) of every straight piece of wall: the polylines' segments and the
    rectangles' sides, each (m, 2)."""
    starts, ends = [np.zeros((0, 2))], [np.zeros((0, 2))]
    for line in track.polylines:
        a, b = segments(line)
        starts.append(a)
        ends.append(b)
    for rect in track.rects:
        corners = rect.corners()
        starts.append(corners)
        ends.append(np.roll(corners, -1, axis=0))
    return np.vstack(starts), np.vstack(ends)


def free_distances(
    track: Track, points: np.ndarray, normals: np.ndarray, reach: float
) -> tuple[np.ndarray, np.ndarray]:
    """(left, right): the distance from each point along its normal (left) and against
    it (right) to the first wall met, at most `reach`."""
    left = np.full(len(points), float(reach))
    right = np.full(len(points), float(reach))
    a, b = wall_segments(track)
    if len(a):
        step = max(1, CHUNK // len(a))
        for i in range(0, len(points), step):
            t = _ray_segments(points[i : i + step], normals[i : i + step], a, b)
            _nearest(t, left[i : i + step], right[i : i + step])
    if track.circles:
        discs = np.array([(c.x, c.y, c.radius) for c in track.circles])
        _nearest(_ray_circles(points, normals, discs), left, right)
    return left, right


def half_widths(track: Track, spacing: float, reach: float | None = None) -> Corridor:
    """The corridor of `track`'s centre line (closed for a lap, or open) resampled every
    `spacing` (the track's unit): points, normals, and the free distance to the walls
    left and right of each. `reach` caps a distance where no wall is met (default: half
    the start line's length, or without one the diagonal of the track's bounds, farther
    than any wall can be)."""
    if track.centre_line is None:
        raise ValueError(f"the track {track.name!r} has no centre line: it has no corridor to drive in")
    if not spacing > 0:
        raise ValueError(f"the corridor's spacing must be a length above 0, not {spacing}")
    if reach is None and track.start is not None:
        reach = 0.5 * math.hypot(track.start.x2 - track.start.x1, track.start.y2 - track.start.y1)
    if reach is None:
        x0, y0, x1, y1 = track.bounds()
        reach = math.hypot(x1 - x0, y1 - y0)
    closed = track.centre_line.closed
    points = resample(track.centre_line, spacing)
    normals = normals_of(points, closed)
    left, right = free_distances(track, points, normals, reach)
    return Corridor(points, normals, left, right)


def _ray_segments(p: np.ndarray, n: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(points, segments): t where the line p + t·n meets each segment a–b (NaN where
    it does not: parallel, or beside the segment)."""
    d = b - a  # (m, 2)
    den = n[:, None, 0] * d[None, :, 1] - n[:, None, 1] * d[None, :, 0]
    w0 = a[None, :, 0] - p[:, None, 0]
    w1 = a[None, :, 1] - p[:, None, 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (w0 * d[None, :, 1] - w1 * d[None, :, 0]) / den
        u = (w0 * n[:, None, 1] - w1 * n[:, None, 0]) / den
    return np.where((den != 0) & (u >= 0) & (u <= 1), t, np.nan)


def _ray_circles(p: np.ndarray, n: np.ndarray, discs: np.ndarray) -> np.ndarray:
    """(points, 2·circles): t where the line p + t·n meets each circle (NaN for a miss)."""
    w0 = p[:, None, 0] - discs[None, :, 0]
    w1 = p[:, None, 1] - discs[None, :, 1]
    half_b = w0 * n[:, None, 0] + w1 * n[:, None, 1]
    c = w0 * w0 + w1 * w1 - discs[None, :, 2] ** 2
    root = np.sqrt(np.where(half_b * half_b >= c, half_b * half_b - c, np.nan))
    return np.concatenate((-half_b - root, -half_b + root), axis=1)


def _nearest(t: np.ndarray, left: np.ndarray, right: np.ndarray) -> None:
    """Lowers `left` to the nearest meeting ahead (t > 0) and `right` behind (t < 0)."""
    with np.errstate(invalid="ignore"):
        ahead = np.where(t > 0, t, np.inf).min(axis=1, initial=np.inf)
        behind = np.where(t < 0, -t, np.inf).min(axis=1, initial=np.inf)
    np.minimum(left, ahead, out=left)
    np.minimum(right, behind, out=right)
