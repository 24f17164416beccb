"""The corridor of a track's centre line: its points, normals and the free distance to
the walls each side, against tracks whose widths are known by construction."""

from __future__ import annotations

import numpy as np
import pytest

from lap_tracks import WALL_POINTS, ring, sagitta
from sandbox.physics.track import Circle, Polyline, Rect, Track
from sandbox.physics.track_corridor import half_widths

R, INNER, OUTER = 50.0, 4.0, 7.0


def test_a_ring_has_its_gaps_each_side_and_the_outer_wall_on_the_left_driven_clockwise():
    corridor = half_widths(ring(R, INNER, OUTER, points=720, start=False), 1.0)
    assert abs(len(corridor.points) - 2 * np.pi * R) <= 1  # a point every metre round the ring
    # the centre line and the walls are polygons on their circles: each strays inside by its sagitta
    slack = sagitta(R, 720) + sagitta(R + OUTER, WALL_POINTS) + 1e-9
    assert np.allclose(corridor.left, OUTER, atol=slack)
    assert np.allclose(corridor.right, INNER, atol=slack)
    radial = corridor.points / np.hypot(*corridor.points.T)[:, None]
    assert np.allclose(np.hypot(*corridor.normals.T), 1.0)
    assert np.allclose(corridor.normals, radial, atol=1e-3)  # left of clockwise travel is outward


def test_the_points_are_evenly_spaced_round_the_closed_line():
    corridor = half_widths(ring(R, INNER, OUTER, points=720, start=False), 2.5)
    sides = np.hypot(*(np.roll(corridor.points, -1, axis=0) - corridor.points).T)
    assert sides.max() - sides.min() < 0.01
    assert abs(sides.mean() - 2.5) < 2.5 / len(sides)


def test_rectangles_and_circles_are_walls_and_nothing_met_is_the_reach():
    """A straight open line along +x at y = 0: a rectangle whose lower side is at y = −8
    over x 40 … 60 (left of the line: up the screen), a disc of radius 2 about (20, 5)
    (right of it, 3 away)."""
    track = Track(
        "straight",
        rects=(Rect(50.0, -10.0, 20.0, 4.0),),
        circles=(Circle(20.0, 5.0, 2.0),),
        centre_line=Polyline([(0.0, 0.0), (100.0, 0.0)]),
    )
    corridor = half_widths(track, 1.0, reach=30.0)
    x = corridor.points[:, 0]
    assert np.allclose(corridor.points[:, 1], 0.0) and x[0] == 0.0 and x[-1] == 100.0
    assert np.allclose(corridor.normals, [0.0, -1.0])
    beside_rect = (x >= 40) & (x <= 60)
    assert np.allclose(corridor.left[beside_rect], 8.0)
    assert np.all(corridor.left[~beside_rect] == 30.0)
    assert corridor.right[x == 20.0] == pytest.approx([3.0])
    beside_disc = np.abs(x - 20.0) <= 2.0
    assert np.all(corridor.right[beside_disc] <= 5.0)
    assert np.all(corridor.right[~beside_disc] == 30.0)


def test_a_track_with_no_centre_line_is_refused_by_name():
    with pytest.raises(ValueError, match="'bare' has no centre line"):
        half_widths(Track("bare"), 1.0)
    with pytest.raises(ValueError, match="spacing must be a length above 0"):
        half_widths(ring(R, INNER, OUTER, points=720, start=False), 0.0)
