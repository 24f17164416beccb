"""The world's clearance raster is a true lower bound of the distance to every wall:
at random points inside, around and far outside random worlds of segments, circles
and convex polygons, no item is nearer than `clearance_at` says (distances worked out
here by brute force, independently of the raster). A car told it is clear of every
wall then moves as on the open field, which is how a car between walls stays cheap."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sandbox.physics.world import clearance_at, from_shapes


def _segment_distance(px, py, s):
    ax, ay, bx, by = s
    ex, ey = bx - ax, by - ay
    t = np.clip(((px - ax) * ex + (py - ay) * ey) / max(ex * ex + ey * ey, 1e-300), 0.0, 1.0)
    return math.hypot(px - ax - t * ex, py - ay - t * ey)


def _polygon_distance(px, py, points):
    """0 inside (the point on the inner side of every edge), else the nearest edge."""
    edges = [(*points[i], *points[(i + 1) % len(points)]) for i in range(len(points))]
    crosses = [(bx - ax) * (py - ay) - (by - ay) * (px - ax) for ax, ay, bx, by in edges]
    if all(c >= 0 for c in crosses) or all(c <= 0 for c in crosses):
        return 0.0
    return min(_segment_distance(px, py, e) for e in edges)


def _nearest(px, py, segments, circles, polygons):
    d = [_segment_distance(px, py, s) for s in segments]
    d += [max(math.hypot(px - x, py - y) - r, 0.0) for x, y, r in circles]
    d += [_polygon_distance(px, py, p) for p in polygons]
    return min(d)


def _random_world(rng):
    n = rng.integers(1, 40)
    starts = rng.uniform(-500, 500, (n, 2))
    segments = np.hstack([starts, starts + rng.normal(0, 120, (n, 2))])
    circles = np.column_stack([rng.uniform(-500, 500, (5, 2)), rng.uniform(1, 60, 5)])
    polygons = []
    for _ in range(4):
        centre, radius = rng.uniform(-500, 500, 2), rng.uniform(5, 80)
        angles = np.sort(rng.uniform(0, math.tau, rng.integers(3, 7)))
        polygons.append(centre + radius * np.column_stack([np.cos(angles), np.sin(angles)]))
    return segments, circles, polygons


@pytest.mark.parametrize("seed", range(6))
def test_no_wall_is_nearer_than_the_clearance(seed):
    rng = np.random.default_rng(seed)
    segments, circles, polygons = _random_world(rng)
    world = from_shapes(segments, circles, polygons)
    points = np.vstack([rng.uniform(-700, 700, (300, 2)), rng.uniform(-20000, 20000, (30, 2))])
    useful = 0
    for px, py in points:
        clear = clearance_at(world, px, py)
        nearest = _nearest(px, py, segments, circles, polygons)
        assert clear <= nearest + 1e-9, (px, py, clear, nearest)
        useful += clear > 0.5 * nearest - 1.0
    # a lower bound of 0 everywhere would pass the line above: most points are told
    # at least about half their true distance (the raster's cell is a 16th of the grid's)
    assert useful > 0.6 * len(points)


def test_the_clearance_of_one_wall_is_its_distance_less_half_a_cell():
    """One horizontal wall from (0, 0) to (1000, 0): a point 300 above its middle is
    300 from it; the raster says at most that and at least 300 less a cell's diagonal."""
    world = from_shapes([(0.0, 0.0, 1000.0, 0.0)], np.zeros((0, 3)), [])
    cell = world.clear_grid[2]
    clear = clearance_at(world, 500.0, -300.0)
    assert 300.0 - math.sqrt(2) * cell - 1e-9 <= clear <= 300.0
