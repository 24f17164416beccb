"""Plane geometry of a track's lines (numpy, no compiled code): lengths, crossings of
a polyline with itself or with a segment, and whether a point is inside a solid wall.
Used to check a track when it is read and to describe it; the contact with walls is
the kernels' (y down, as the track)."""

from __future__ import annotations

import math

import numpy as np

from .track import Polyline, Track


def is_ring(line: Polyline) -> bool:
    """The polyline goes round: closed, or open and ending where it began (a hollow ring)."""
    p = line.points
    return line.closed or (len(p) > 2 and bool(np.all(p[0] == p[-1])))


def segments(line: Polyline) -> tuple[np.ndarray, np.ndarray]:
    """(starts, ends) of the polyline's segments, each (n, 2); a closed one's last joins its first."""
    p = line.points
    if line.closed:
        return p, np.roll(p, -1, axis=0)
    return p[:-1], p[1:]


def repeated_point(line: Polyline) -> int | None:
    """The first point that is the one before it again (a segment of no length; a closed
    polyline's first point counts as after its last), or None."""
    a, b = segments(line)
    same = np.flatnonzero(np.all(a == b, axis=1))
    return None if not len(same) else (int(same[0]) + 1) % len(line.points)


def length(line: Polyline) -> float:
    """The polyline's length (a closed one's includes the segment back to its first point)."""
    a, b = segments(line)
    return float(np.hypot(*(b - a).T).sum())


def _cross(o: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """z of (a − o) × (b − o), row by row."""
    return (a[..., 0] - o[..., 0]) * (b[..., 1] - o[..., 1]) - (a[..., 1] - o[..., 1]) * (b[..., 0] - o[..., 0])


def _within(o, a, p) -> np.ndarray:
    """p, known on the line through o and a, lies within the segment o–a (ends included)."""
    return (
        (np.minimum(o[..., 0], a[..., 0]) <= p[..., 0])
        & (p[..., 0] <= np.maximum(o[..., 0], a[..., 0]))
        & (np.minimum(o[..., 1], a[..., 1]) <= p[..., 1])
        & (p[..., 1] <= np.maximum(o[..., 1], a[..., 1]))
    )


def touch(a1, a2, b1, b2) -> np.ndarray:
    """Whether segment a1–a2 and segment b1–b2 meet (cross, touch or overlap), row by row."""
    d1, d2 = _cross(b1, b2, a1), _cross(b1, b2, a2)
    d3, d4 = _cross(a1, a2, b1), _cross(a1, a2, b2)
    proper = (np.sign(d1) * np.sign(d2) < 0) & (np.sign(d3) * np.sign(d4) < 0)
    on = (
        ((d1 == 0) & _within(b1, b2, a1))
        | ((d2 == 0) & _within(b1, b2, a2))
        | ((d3 == 0) & _within(a1, a2, b1))
        | ((d4 == 0) & _within(a1, a2, b2))
    )
    return proper | on


def meeting_point(a1, a2, b1, b2) -> tuple[float, float]:
    """Where two meeting segments meet (a shared end when they are parallel)."""
    r, s = a2 - a1, b2 - b1
    den = r[0] * s[1] - r[1] * s[0]
    if den == 0:
        return float(b1[0]), float(b1[1])
    t = ((b1[0] - a1[0]) * s[1] - (b1[1] - a1[1]) * s[0]) / den
    return float(a1[0] + t * r[0]), float(a1[1] + t * r[1])


def first_self_crossing(line: Polyline) -> tuple[int, int] | None:
    """(i, j), i < j: two segments of the polyline that are not neighbours and meet
    (segment i runs from point i to point i + 1), or None. Found through a uniform grid
    of cells about a segment long, so a line of 200 000 points takes a fraction of a
    second."""
    a, b = segments(line)
    n = len(a)
    if n < 3:
        return None
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    lengths = np.hypot(*(b - a).T)
    cell = max(float(np.quantile(lengths, 0.9)), 1e-9 * max(1.0, float(np.abs(a).max())))
    while True:  # a few very long segments would cover many cells: coarser cells then
        c0, c1 = np.floor(lo / cell).astype(np.int64), np.floor(hi / cell).astype(np.int64)
        spans = c1 - c0 + 1
        covered = spans[:, 0] * spans[:, 1]
        if covered.sum() <= 16 * n + 64:
            break
        cell *= 2
    seg = np.repeat(np.arange(n), covered)
    k = np.arange(len(seg)) - np.repeat(np.cumsum(covered) - covered, covered)  # index within each segment's cells
    cx = c0[seg, 0] + k % spans[seg, 0]
    cy = c0[seg, 1] + k // spans[seg, 0]
    key = (cx - cx.min()) * (int(cy.max() - cy.min()) + 1) + (cy - cy.min())
    order = np.lexsort((seg, key))
    key, seg = key[order], seg[order]
    ring = is_ring(line)
    found: list[tuple[int, int]] = []
    for step in range(1, len(seg)):
        same = key[step:] == key[:-step]
        if not same.any():
            break
        i, j = seg[:-step][same], seg[step:][same]
        i, j = np.minimum(i, j), np.maximum(i, j)
        apart = (j - i > 1) & ~(ring & (i == 0) & (j == n - 1))
        i, j = i[apart], j[apart]
        hit = touch(a[i], b[i], a[j], b[j])
        found += list(zip(i[hit].tolist(), j[hit].tolist()))
    return min(found) if found else None


def line_crosses(line: Polyline, p1, p2) -> bool:
    """Whether the segment p1–p2 meets the polyline."""
    a, b = segments(line)
    p1 = np.broadcast_to(np.asarray(p1, dtype=np.float64), a.shape)
    p2 = np.broadcast_to(np.asarray(p2, dtype=np.float64), a.shape)
    return bool(touch(a, b, p1, p2).any())


def inside_polygon(points: np.ndarray, x: float, y: float) -> bool:
    """Whether (x, y) is inside the polygon `points` (even–odd rule; its edge counts as outside)."""
    a, b = points, np.roll(points, -1, axis=0)
    straddles = (a[:, 1] > y) != (b[:, 1] > y)
    with np.errstate(divide="ignore", invalid="ignore"):
        at = a[:, 0] + (y - a[:, 1]) * (b[:, 0] - a[:, 0]) / (b[:, 1] - a[:, 1])
    return bool(np.count_nonzero(straddles & (x < at)) % 2)


def solid_at(track: Track, x: float, y: float) -> tuple[str, int] | None:
    """The wall whose inside holds (x, y): ("polyline" | "rect" | "circle", its index
    in the track's tuple of that kind), or None."""
    for index, line in enumerate(track.polylines):
        if line.closed and inside_polygon(line.points, x, y):
            return "polyline", index
    for index, rect in enumerate(track.rects):
        c, s = math.cos(rect.angle), math.sin(rect.angle)
        u, v = (x - rect.x) * c + (y - rect.y) * s, -(x - rect.x) * s + (y - rect.y) * c
        if abs(u) < rect.width / 2 and abs(v) < rect.height / 2:
            return "rect", index
    for index, circle in enumerate(track.circles):
        if math.hypot(x - circle.x, y - circle.y) < circle.radius:
            return "circle", index
    return None


def radii(points: np.ndarray, closed: bool) -> np.ndarray:
    """The radius of the circle through each point and its two neighbours (inf where
    they are in a line): a line's curvature, point by point."""
    if closed:
        p0, p1, p2 = np.roll(points, 1, axis=0), points, np.roll(points, -1, axis=0)
    else:
        p0, p1, p2 = points[:-2], points[1:-1], points[2:]
    a, b, c = np.hypot(*(p1 - p0).T), np.hypot(*(p2 - p1).T), np.hypot(*(p2 - p0).T)
    twice_area = np.abs(_cross(p0, p1, p2))
    with np.errstate(divide="ignore"):
        return np.where(twice_area > 0, a * b * c / (2 * twice_area), np.inf)
