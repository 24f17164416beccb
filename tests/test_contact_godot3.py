"""Godot 3's move_and_slide in the sandbox's kernel, held to values worked out by hand
from the engine's rules (docs/tracks.md): the bisection's 1/256 of the motion, the
safe margin, v − n(v·n), a corridor narrower than the car, no tunnelling at
20 000 px/s. The engine itself: tests/test_contact_godot3_engine.py."""

import math

import numpy as np
import pytest

from sandbox.physics.body_shape import RECIPE_CAPSULE_GODOT3, body_at, bounds, capsule, circle, rectangle
from sandbox.physics.car_shape import SHAPE_KINDS
from sandbox.physics.contact_godot3 import SAFE_MARGIN, body_test_motion, move_and_slide
from sandbox.physics.track import Circle, Polyline, Rect, Track
from sandbox.physics.world import EMPTY, build_world, from_shapes

DT = 1 / 60
HALF = 69.0
"""px: the recipe capsule's reach along the car (34 + 70 / 2)."""


def drive(world, shape, pose, velocities, dt=DT, feed_back=False):
    """(x, y, vx, vy, slides) after each tick; `feed_back`: each tick's velocity is
    the one the last returned (as a car script does), else the given one."""
    x, y, heading = pose
    rows = []
    vx, vy = velocities[0]
    for given in velocities:
        if not feed_back:
            vx, vy = given
        x, y, vx, vy, slides, _, _ = move_and_slide(world, shape, x, y, heading, vx, vy, dt, SAFE_MARGIN)
        rows.append((x, y, vx, vy, slides))
    return np.array(rows)


def test_the_open_field_moves_the_car_by_exactly_v_dt():
    rng = np.random.default_rng(3)
    far = build_world(Track("far", unit="px", rects=(Rect(1e6, 1e6, 10, 10),)))
    for x, y, vx, vy in rng.normal(0, 500, (50, 4)):
        for world in (EMPTY, far):
            assert move_and_slide(world, RECIPE_CAPSULE_GODOT3, x, y, 0.3, vx, vy, DT, SAFE_MARGIN) == (
                x + vx * DT,
                y + vy * DT,
                vx,
                vy,
                0,
                0.0,
                0.0,
            )


def test_a_head_on_hit_stops_within_a_256th_of_the_motion_then_rests_at_the_safe_margin():
    """Wall face at x = 600: the cast's 8 halvings leave the car short of it by less
    than 1/256 of the tick's motion, never into it, its velocity v − n(v·n) = 0. Then
    moving along the wall, each tick's 4 recovery passes take 0.4 of what is left
    inside the 0.08 px margin, so the gap goes to the margin."""
    world = build_world(Track("wall", unit="px", rects=(Rect(650, 0, 100, 2000),)))
    rows = drive(world, RECIPE_CAPSULE_GODOT3, (300.0, 0.0, 0.0), [(600.0, 0.0)] * 40, feed_back=True)
    hit = int(np.argmax(rows[:, 4] > 0))
    gap = 600 - (rows[hit, 0] + HALF)
    assert 0 <= gap < 600 * DT / 256
    assert rows[hit, 2] == pytest.approx(0, abs=1e-9) and rows[hit, 3] == pytest.approx(0, abs=1e-9)
    assert np.all(rows[hit:, 0] + HALF <= 600)
    x, y = rows[hit, 0], rows[hit, 1]
    along = drive(world, RECIPE_CAPSULE_GODOT3, (x, y, 0.0), [(0.0, 60.0)] * 6)
    assert 600 - (along[-1, 0] + HALF) == pytest.approx(SAFE_MARGIN, abs=1e-4)
    assert along[-1, 1] == pytest.approx(y + 6 * 60 * DT, abs=1e-9)


def test_recovery_takes_four_times_a_share_of_0_4_of_the_depth_inside_the_margin():
    world = build_world(Track("wall", unit="px", rects=(Rect(650, 0, 100, 2000),)))
    body = body_at(RECIPE_CAPSULE_GODOT3, 600 - HALF - 0.02, 0.0, 0.0)
    hit, tx, ty, *_ = body_test_motion(world, body, 0.0, 1.0, SAFE_MARGIN)
    assert hit
    assert -tx == pytest.approx((SAFE_MARGIN - 0.02) * (1 - 0.6**4), abs=1e-9)
    assert ty == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("angle", [35.0, 60.0, 10.0])
def test_a_slide_along_a_wall_keeps_the_tangential_component(angle):
    """A floor whose face is y = 250: the velocity comes back as v − n(v·n) with
    n = (0, −1): (v cos a, 0); the car's x advances by the whole tick's v cos a · dt."""
    world = build_world(Track("floor", unit="px", rects=(Rect(0, 300, 8000, 100),)))
    a = math.radians(angle)
    v = (500 * math.cos(a), 500 * math.sin(a))
    rows = drive(world, RECIPE_CAPSULE_GODOT3, (0.0, 150.0, a), [v] * 90, feed_back=True)
    assert rows[:, 4].any()
    hit = int(np.argmax(rows[:, 4] > 0))
    assert rows[hit:, 2] == pytest.approx(500 * math.cos(a), abs=1e-6)
    assert np.abs(rows[hit:, 3]).max() < 1e-6
    before = rows[hit - 1, 0]
    assert rows[hit, 0] - before == pytest.approx(500 * math.cos(a) * DT, abs=1e-6)


def _segment_distance(p0, p1, q0, q1):
    """Least distance between segments p0-p1 and q0-q1 (independent of the kernels)."""

    def point_segment(p, a, b):
        ab = b - a
        if not ab.any():
            return np.linalg.norm(p - a)
        t = np.clip(np.dot(p - a, ab) / np.dot(ab, ab), 0, 1)
        return np.linalg.norm(p - (a + t * ab))

    d1, d2 = p1 - p0, q1 - q0
    cross = d1[0] * d2[1] - d1[1] * d2[0]
    if cross != 0:
        t = ((q0 - p0)[0] * d2[1] - (q0 - p0)[1] * d2[0]) / cross
        u = ((q0 - p0)[0] * d1[1] - (q0 - p0)[1] * d1[0]) / cross
        if 0 <= t <= 1 and 0 <= u <= 1:
            return 0.0
    return min(
        point_segment(p0, q0, q1), point_segment(p1, q0, q1), point_segment(q0, p0, p1), point_segment(q1, p0, p1)
    )


def test_a_corridor_narrower_than_the_car_is_never_entered_deeper_than_its_cap_fits():
    """A 60 px gap between two walls, the capsule 68 px wide: its round nose fits
    until its cap's centre is sqrt(34² − 30²) = 16 px before the mouth, so its centre
    stops at x = 500 − 16 − 35 = 449; and its shape never overlaps a wall."""
    walls = (Rect(1000, -515, 1000, 970), Rect(1000, 515, 1000, 970))
    world = build_world(Track("mouth", unit="px", rects=walls))
    rows = drive(world, RECIPE_CAPSULE_GODOT3, (200.0, 0.0, 0.0), [(300.0, 0.0)] * 120)
    assert rows[:, 0].max() <= 449 + 1e-6
    assert rows[-1, 0] > 449 - 0.1
    for x, y, *_ in rows:
        core = (np.array([x - 35, y]), np.array([x + 35, y]))
        for rect in walls:
            corners = rect.corners()
            d = min(_segment_distance(*core, corners[i], corners[(i + 1) % 4]) for i in range(4))
            assert d >= 34 - 1e-9


def _crosses(p0, p1, q0, q1) -> bool:
    """Whether the segments p0-p1 and q0-q1 meet."""
    return _segment_distance(np.asarray(p0), np.asarray(p1), np.asarray(q0), np.asarray(q1)) == 0.0


@pytest.mark.parametrize("shape", [RECIPE_CAPSULE_GODOT3, rectangle(100, 50), circle(20), capsule(5, 10)])
@pytest.mark.parametrize("degrees", [0.0, 30.0, 60.0, 85.0, 180.0])
def test_nothing_tunnels_through_a_thin_wall_at_20000_px_s_at_30_hz(shape, degrees):
    """Each tick's swept path (centre start to end) never crosses the wall, whose
    segment lies across the path; the car ends every tick on its own side."""
    wall = ((2000.0, -1e6), (2000.0, 1e6))
    world = build_world(Track("thin", unit="px", polylines=(Polyline(wall),)))
    a = math.radians(degrees)
    start = (0.0, 0.0) if degrees != 180.0 else (4000.0, 0.0)
    v = (20000 * math.cos(a), 20000 * math.sin(a)) if degrees != 85.0 else (20000 * math.cos(a), -20000 * math.sin(a))
    x, y = start
    side = np.sign(x - 2000)
    for _ in range(30):
        nx_, ny_, *_ = move_and_slide(world, shape, x, y, a, v[0], v[1], 1 / 30, SAFE_MARGIN)
        assert not _crosses((x, y), (nx_, ny_), *wall)
        assert np.sign(nx_ - 2000) == side
        x, y = nx_, ny_


def test_the_tunnel_check_sees_the_engine_s_own_tunnelling_through_a_concave_polygon():
    """Godot 3 looks at a concave polygon's segments only once the car's box crosses
    them, so at 20 000 px/s it passes through (the engine does: the contact oracle's
    fast_thin_wall_30hz_concave drive); the same check as above catches it."""
    wall = ((2000.0, -1e6), (2000.0, 1e6))
    world = build_world(Track("thin", unit="px", polylines=(Polyline(wall),)), concave=True)
    x, y, *_ = move_and_slide(world, RECIPE_CAPSULE_GODOT3, 1500.0, 0.0, 0.0, 20000.0, 0.0, 1 / 30, SAFE_MARGIN)
    assert _crosses((1500.0, 0.0), (x, y), *wall)


@pytest.mark.parametrize("concave", [False, True])
def test_a_segment_shape_s_end_pushes_along_its_normal_a_concave_polygon_s_from_its_end(concave):
    """A round car of radius 10 overlapping the end (100, 0) of a wall from (0, 0):
    its centre (103, -6) is 3·√5 from the end, so the least overlap is along the
    direction u = (3, -6)/(3√5) from the end to the centre. Godot 3's SegmentShape2D
    keeps its normal unnormalised ((b − a).tangent(), shape_2d_sw.cpp), so its
    get_supports gives both ends along any axis but the segment's own direction, and
    the car's point is met on the segment's line: the car is pushed out straight
    along the normal (0, −1). A ConcavePolygonShape2D hands its solver segments with
    a unit normal: the end alone supports, and the push is along u."""
    track = Track("end", unit="px", polylines=(Polyline([(0.0, 0.0), (100.0, 0.0)]),))
    world = build_world(track, concave=concave)
    body = body_at(circle(10.0), 103.0, -6.0, 0.0)
    hit, tx, ty, _, _, nx, ny, _, _, _ = body_test_motion(world, body, 0.0, 0.0, SAFE_MARGIN)
    assert hit and ty < 0
    if concave:
        assert (nx, ny) == pytest.approx((1 / math.sqrt(5), -2 / math.sqrt(5)), abs=1e-9)
        assert tx == pytest.approx(-ty / 2, abs=1e-9)  # along u
    else:
        assert (nx, ny) == pytest.approx((0.0, -1.0), abs=1e-9)
        assert tx == pytest.approx(0.0, abs=1e-9)


def test_the_grid_changes_the_cost_not_the_motion():
    """2 000 short segments on a ring: the gridded world and the same world as one
    cell give the same bits for a car weaving among them."""
    rng = np.random.default_rng(7)
    angles = rng.uniform(0, 2 * math.pi, 2000)
    radii = rng.uniform(200, 3000, 2000)
    starts = np.column_stack([radii * np.cos(angles), radii * np.sin(angles)])
    ends = starts + rng.normal(0, 60, (2000, 2))
    segments = np.hstack([starts, ends])
    circles = [(0.0, 600.0, 40.0)]
    gridded = from_shapes(segments, circles, [])
    one_cell = from_shapes(segments, circles, [], max_cells=1)
    assert one_cell.grid[3] * one_cell.grid[4] == 1 and gridded.grid[3] * gridded.grid[4] > 100
    velocities = [(400 * math.cos(t / 20), 400 * math.sin(t / 13)) for t in range(400)]
    a = drive(gridded, RECIPE_CAPSULE_GODOT3, (0.0, 0.0, 0.4), velocities)
    b = drive(one_cell, RECIPE_CAPSULE_GODOT3, (0.0, 0.0, 0.4), velocities)
    assert np.array_equal(a, b)
    assert (a[:, 4] > 0).sum() > 10  # it met walls


def test_the_recipe_capsule_is_godot_3_s_radius_34_height_70_turned_a_quarter():
    """Godot 3's CapsuleShape2D height is the straight part: 70 + 2·34 = 138 tip to
    tip; turned 90° on a car heading +x, it reaches 69 px ahead and 34 px aside."""
    capsule_kind = float(SHAPE_KINDS.index("capsule"))  # numbered as the tuning's Shape list
    assert RECIPE_CAPSULE_GODOT3.tolist() == [capsule_kind, 34.0, 138.0, 0.0, 0.0, math.pi / 2]
    body = body_at(RECIPE_CAPSULE_GODOT3, 100.0, 50.0, 0.0)
    left, top, right, bottom = bounds(body, 0.0, 0.0, 0.0)
    assert (left, top, right, bottom) == pytest.approx((100 - 69, 50 - 34, 100 + 69, 50 + 34), abs=1e-9)
    box = bounds(body_at(rectangle(100, 50, 10, 0, 0.0), 0.0, 0.0, math.pi / 2), 0.0, 0.0, 0.0)
    assert box == pytest.approx((-25, 10 - 50, 25, 10 + 50), abs=1e-9)  # the offset turns with the car


def test_a_world_holds_godot_shape_kinds():
    track = Track(
        "kinds",
        unit="px",
        polylines=(Polyline([(0, 0), (100, 0), (100, 100)], closed=True), Polyline([(0, 200), (50, 250)])),
        rects=(Rect(500, 0, 40, 20, 0.5),),
        circles=(Circle(0, 500, 10),),
    )
    world = build_world(track)
    assert world.segments.shape == (3 + 1, 4)  # the closed outline's three sides and the open piece
    assert world.circles.tolist() == [[0, 500, 10]]
    assert world.poly_offsets.tolist() == [0, 4]
    centre = world.poly_points.mean(axis=0)
    middles = (world.poly_points + np.roll(world.poly_points, -1, axis=0)) / 2
    assert np.all(np.sum(world.poly_normals * (middles - centre), axis=1) > 0)  # outward
    assert EMPTY.cell_items.size == 0 and EMPTY.segments.shape == (0, 4)
