"""The racing line: round a ring, the circle along the outer wall less the margin (the
least curvature a ring allows); round the club circuit, a line inside the walls with
less squared curvature than the centre line and a faster lap."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from lap_tracks import WALL_POINTS, ring, sagitta
from sandbox.analysis import cyclic_bands
from sandbox.analysis.racing_line import curvature, distances, racing_line
from sandbox.analysis.speed_profile import lap_time, profile
from sandbox.files.tracks import find_builtin_track, load_track
from sandbox.physics.track import Circle, Polyline, Track

R, INNER, OUTER, MARGIN = 50.0, 4.0, 7.0, 1.0
CAR = {"a_lat": 9.0, "a_brake": 9.0, "a_accel": 5.0, "v_top": 70.0}
"""A car of 9 m/s² grip and braking, 5 m/s² acceleration and 70 m/s top speed."""


@pytest.fixture(scope="module")
def club():
    return load_track(find_builtin_track("club_circuit"))


def test_round_a_ring_the_line_is_the_circle_along_the_outer_wall_less_the_margin():
    line = racing_line(ring(R, INNER, OUTER, points=720, start=False), "m", MARGIN)
    radius = R + OUTER - MARGIN
    slack = sagitta(R + OUTER, WALL_POINTS) + sagitta(R, 720) + 1e-6
    assert np.allclose(np.hypot(*line.points.T), radius, atol=slack)
    assert np.allclose(line.offsets, OUTER - MARGIN, atol=slack)
    assert np.allclose(line.kappa, -1 / radius, rtol=1e-3)  # clockwise on the screen: a right turn
    assert line.s[-1] == pytest.approx(2 * np.pi * radius, rel=1e-4)
    v = profile(line.s, line.kappa, **CAR)
    assert np.allclose(v, np.sqrt(CAR["a_lat"] * radius), rtol=1e-3)


def test_the_line_is_kept_per_track_unit_and_margin(club):
    line = racing_line(club, "m", 1.5)
    assert racing_line(load_track(find_builtin_track("club_circuit")), "m", 1.5) is line  # the same track read again
    assert racing_line(club, "m", 2.0) is not line
    in_px = racing_line(club, "px", 1.5 * club.pixels_per_metre)
    assert np.allclose(in_px.points / club.pixels_per_metre, line.points, atol=1e-6)


def test_on_the_club_circuit_the_line_stays_inside_the_walls_less_the_margin(club):
    margin = 1.5
    line = racing_line(club, "m", margin)
    starts, ends = [], []
    for wall in club.polylines:
        points = wall.points if not wall.closed else np.vstack((wall.points, wall.points[:1]))
        starts.append(points[:-1])
        ends.append(points[1:])
    a, b = np.vstack(starts), np.vstack(ends)
    p = line.points[:, None, :]
    t = np.clip(((p - a) * (b - a)).sum(-1) / ((b - a) ** 2).sum(-1), 0.0, 1.0)
    nearest = np.hypot(*(p - (a + t[..., None] * (b - a))).transpose(2, 0, 1)).min(axis=1)
    assert nearest.min() >= margin - 0.05  # the walls run along the normals within a few degrees
    infield = club.polylines[0]
    assert infield.closed
    assert not inside(line.points, infield.points).any()
    assert inside(line.points, club.polylines[1].points).all()


def test_on_the_club_circuit_the_line_bends_less_and_laps_faster_than_the_centre_line(club):
    line = racing_line(club, "m", 1.5)
    centre = club.centre_line.points
    centre_s, centre_kappa = distances(centre), curvature(centre)

    def squared(s, kappa):  # ∫κ² ds, each point's κ over half of each side beside it
        sides = np.diff(s)
        return float(np.sum(kappa**2 * 0.5 * (sides + np.roll(sides, 1))))

    assert squared(line.s, line.kappa) < 0.8 * squared(centre_s, centre_kappa)
    centre_lap = lap_time(centre_s, profile(centre_s, centre_kappa, **CAR))
    line_lap = lap_time(line.s, profile(line.s, line.kappa, **CAR))
    assert line_lap < 0.95 * centre_lap


def test_a_track_too_narrow_or_without_a_lap_is_refused():
    """A disc on the outer wall a quarter of the way round (78.5 m along the lap) leaves
    0.5 m on the left, 4.5 m in all: too narrow for 2.5 m each side."""
    pinched = ring(R, INNER, OUTER, points=720, start=False)
    pinched = replace(pinched, circles=(*pinched.circles, Circle(0.0, R + OUTER, OUTER - 0.5)))
    with pytest.raises(ValueError, match=r"'ring' is narrower than twice the margin \(5 m\) 78.5 m along the lap"):
        racing_line(pinched, "m", 2.5)
    with pytest.raises(ValueError, match="'open' has no closed centre line"):
        racing_line(Track("open", centre_line=Polyline([(0, 0), (10, 0)])), "m", 1.0)


@pytest.mark.parametrize("n", [6, 7, 12, 61])
def test_the_five_band_solve_agrees_with_a_dense_one(n):
    """The line's O(n) algebra against numpy's dense matrices: JᵀJ of a random cyclic
    three-band J, its products, and a solve over random free sets (the wrap included)."""
    rng = np.random.default_rng(n)
    diagonals = tuple(rng.normal(size=n) for _ in range(3))
    dense = np.zeros((n, n))
    for i in range(n):
        for side, d in enumerate((-1, 0, 1)):
            dense[i, (i + d) % n] += diagonals[side][i]
    h0, h1, h2 = cyclic_bands.gram(diagonals)
    h0 = h0 + 0.5
    hessian = dense.T @ dense + 0.5 * np.eye(n)
    y = rng.normal(size=n)
    assert np.allclose(cyclic_bands.times(h0, h1, h2, y), hessian @ y)
    assert np.allclose(cyclic_bands.transposed_times(diagonals, y), dense.T @ y)
    for _ in range(20):
        free = rng.random(n) < 0.7
        free[rng.integers(n)] = True
        x = cyclic_bands.solve_free(h0, h1, h2, free, y)
        f = np.flatnonzero(free)
        assert np.allclose(x[f], np.linalg.solve(hessian[np.ix_(f, f)], y[f]))
        assert np.all(x[~free] == 0.0)


def inside(points: np.ndarray, polygon: np.ndarray) -> np.ndarray:
    """Whether each point is inside the polygon (even–odd rule, a ray toward +x)."""
    a, b = polygon, np.roll(polygon, -1, axis=0)
    x, y = points[:, None, 0], points[:, None, 1]
    spans = (a[:, 1] > y) != (b[:, 1] > y)
    with np.errstate(divide="ignore", invalid="ignore"):
        cross_x = a[:, 0] + (y - a[:, 1]) * (b[:, 0] - a[:, 0]) / (b[:, 1] - a[:, 1])
    return (spans & (x < cross_x)).sum(axis=1) % 2 == 1
