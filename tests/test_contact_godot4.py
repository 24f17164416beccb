"""Godot 4.4's floating move_and_slide in the sandbox's kernel (`contact_godot4`), held
to values worked out by hand from the engine's rules (docs/tracks.md): a hit within
15° of head-on stops, at 20° the car slides on at the whole length of its motion, the
recovery's 0.4 of the depth past 0.004 px, a corridor's mouth, a corner, no
tunnelling through a concave wall; and tick by tick to a second implementation
written from the source (tests/godot4_reference.py) on the Godot 3 engine test's
drives. There is no Godot 4 engine on the build machine."""

import math

import numpy as np
import pytest

import godot4_reference as reference
from sandbox.devtools.contact_oracle import DRIVES
from sandbox.physics.body_shape import RECIPE_CAPSULE_GODOT3, body_at, capsule, circle, rectangle
from sandbox.physics.contact_godot3 import move_and_slide as move_and_slide_3
from sandbox.physics.contact_godot4 import SAFE_MARGIN, body_test_motion, move_and_slide
from sandbox.physics.track import Polyline, Rect, Track
from sandbox.physics.world import EMPTY, build_world
from test_contact_godot3 import _segment_distance

DT = 1 / 60
HALF = 69.0
"""px: the recipe capsule's reach along the car (34 + 70 / 2)."""
WALL = Track("wall", unit="px", polylines=(Polyline([(600, -4000), (600, 4000)]),))


def drive(world, shape, pose, velocities, dt=DT, slide=move_and_slide):
    """(x, y, vx, vy, collisions) after each tick, the given velocity each tick."""
    x, y, heading = pose
    rows = []
    for vx, vy in velocities:
        x, y, rvx, rvy, slides, _, _ = slide(world, shape, x, y, heading, vx, vy, dt, SAFE_MARGIN)
        rows.append((x, y, rvx, rvy, slides))
    return np.array(rows)


def _toward_the_wall(degrees, speed=500.0, ticks=60):
    a = math.radians(degrees)
    return [(speed * math.cos(a), speed * math.sin(a))] * ticks


def test_the_open_field_moves_the_car_by_exactly_v_dt():
    rng = np.random.default_rng(4)
    far = build_world(Track("far", unit="px", rects=(Rect(1e6, 1e6, 10, 10),)))
    for x, y, vx, vy in rng.normal(0, 500, (30, 4)):
        for world in (EMPTY, far):
            got = move_and_slide(world, RECIPE_CAPSULE_GODOT3, x, y, 0.3, vx, vy, DT, SAFE_MARGIN)
            assert got == (x + vx * DT, y + vy * DT, vx, vy, 0, 0.0, 0.0)


def test_a_hit_10_degrees_off_head_on_stops_the_car():
    """The wall's normal is 10° from −velocity, within wall_min_slide_angle (15°):
    the motion stops at the hit. Every tick after, the cast meets the wall at once:
    the car moves only by the free fraction of its motion, under gap / (v cos 10° dt)
    ≤ 0.08 / 8.2 of it, so along the wall by under 0.0102 · 1.45 px a tick, where a
    slide would take it 8 px. The velocity comes back unchanged."""
    world = build_world(WALL)
    rows = drive(world, RECIPE_CAPSULE_GODOT3, (300.0, 0.0, 0.0), _toward_the_wall(10.0))
    hit = int(np.argmax(rows[:, 4] > 0))
    assert 0 < hit < 50
    assert np.all(rows[:, 0] + HALF <= 600)
    steps = np.diff(rows[hit:, 1])
    assert steps.max() < 0.0102 * 500 * math.sin(math.radians(10)) * DT
    assert np.allclose(rows[:, 2:4], _toward_the_wall(10.0)[0])


def test_a_hit_20_degrees_off_head_on_slides_on_at_the_whole_length_of_the_motion():
    """20° is beyond 15°: the first slide goes along the wall (the remainder slid,
    normalised) by |motion| − |travel|, so the car runs along the wall at nearly its
    whole speed, not v sin 20° as in Godot 3 (Godot 4.4's rule; later revisions keep
    only the tangential share). Resting within the 0.08 px margin, the cast is free
    for at most 0.08 / (v cos 20° dt) of the motion, so a tick moves it along the wall
    by between |m| − (|m| − m_y) · 0.0102 and |m|, m = v · dt."""
    world = build_world(WALL)
    rows = drive(world, RECIPE_CAPSULE_GODOT3, (300.0, 0.0, 0.0), _toward_the_wall(20.0, ticks=80))
    hit = int(np.argmax(rows[:, 4] > 0))
    steps = np.diff(rows[hit + 1 :, 1])
    m, m_y = 500 * DT, 500 * math.sin(math.radians(20)) * DT
    safe_max = SAFE_MARGIN / (500 * math.cos(math.radians(20)) * DT)
    assert np.all(steps >= m - (m - m_y) * safe_max) and np.all(steps <= m + 1e-12)
    assert np.all(600 - (rows[hit:, 0] + HALF) <= SAFE_MARGIN + 1e-9)
    assert np.allclose(rows[:, 2:4], _toward_the_wall(20.0)[0])
    godot3 = drive(
        world, RECIPE_CAPSULE_GODOT3, (300.0, 0.0, 0.0), _toward_the_wall(20.0, ticks=80), slide=move_and_slide_3
    )
    assert np.diff(godot3[-10:, 1]).max() < m_y + 1e-6  # Godot 3 keeps the tangential share


def test_exactly_head_on_stops_and_the_car_rests_short_of_the_wall():
    world = build_world(WALL)
    rows = drive(world, RECIPE_CAPSULE_GODOT3, (300.0, 0.0, 0.0), _toward_the_wall(0.0))
    hit = int(np.argmax(rows[:, 4] > 0))
    assert np.abs(rows[hit:, 1]).max() < 1e-9
    assert np.all(0 <= 600 - (rows[hit:, 0] + HALF)) and np.all(600 - (rows[hit:, 0] + HALF) <= SAFE_MARGIN)


def test_recovery_takes_0_4_of_the_depth_past_a_twentieth_of_the_margin_four_times():
    """The capsule's tip 0.02 px from the wall: 0.06 px inside the 0.08 px margin.
    Each pass measures the depth again and moves out by 0.4 · (depth − 0.004): after 4
    passes (0.06 − 0.004)(1 − 0.6⁴) = 0.0487424 px (Godot 3 takes 0.4 of the whole
    depth: (0.08 − 0.02)(1 − 0.6⁴))."""
    world = build_world(WALL)
    body = body_at(RECIPE_CAPSULE_GODOT3, 600 - HALF - 0.02, 0.0, 0.0)
    hit, tx, ty, rx, ry, nx, ny, *_ = body_test_motion(world, body, 0.0, 1.0, SAFE_MARGIN)
    assert hit and (nx, ny) == pytest.approx((-1.0, 0.0), abs=1e-9)
    assert -tx == pytest.approx((0.06 - 0.004) * (1 - 0.6**4), abs=1e-9)
    assert ty == pytest.approx(1.0, abs=1e-12) and (rx, ry) == (0.0, 0.0)


def test_a_free_move_far_from_walls_is_no_collision_and_a_touch_beyond_the_margin_neither():
    world = build_world(WALL)
    body = body_at(RECIPE_CAPSULE_GODOT3, 600 - HALF - 0.5, 0.0, 0.0)
    hit, tx, ty, *_ = body_test_motion(world, body, 0.0, 5.0, SAFE_MARGIN)
    assert not hit and (tx, ty) == (0.0, 5.0)


def test_a_corridor_narrower_than_the_car_is_never_entered_deeper_than_its_cap_fits():
    """A 60 px mouth, the capsule 68 px wide: its nose fits until its cap's centre is
    sqrt(34² − 30²) = 16 px before the mouth, so the car's centre stops by
    x = 500 − 16 − 35 = 449; its shape never overlaps a wall."""
    walls = (Rect(1000, -515, 1000, 970), Rect(1000, 515, 1000, 970))
    world = build_world(Track("mouth", unit="px", rects=walls))
    rows = drive(world, RECIPE_CAPSULE_GODOT3, (200.0, 0.0, 0.0), [(300.0, 0.0)] * 120)
    assert rows[:, 0].max() <= 449 + 1e-6 and rows[-1, 0] > 449 - 0.1
    for x, y, *_ in rows:
        core = (np.array([x - 35, y]), np.array([x + 35, y]))
        for rect in walls:
            corners = rect.corners()
            assert min(_segment_distance(*core, corners[i], corners[(i + 1) % 4]) for i in range(4)) >= 34 - 1e-9


def test_a_round_car_driven_into_an_inside_corner_stops_in_it():
    """Walls y = 300 and x = 300 meeting, a car of radius 30 driven at 40°: the floor
    is met first at 50° from head-on, so it slides along the floor, then meets the
    side head-on and stops: its centre rests within the margin of (270, 270)."""
    corner = Track("corner", unit="px", polylines=(Polyline([(-300, 300), (300, 300), (300, -300)]),))
    rows = drive(build_world(corner), circle(30), (0.0, 0.0, 0.0), _toward_the_wall(40.0, 450, 120))
    x, y = rows[-1, 0], rows[-1, 1]
    assert 270 - SAFE_MARGIN <= x <= 270 and 270 - SAFE_MARGIN <= y <= 270
    assert rows[-1, 4] > 0


@pytest.mark.parametrize("shape", [RECIPE_CAPSULE_GODOT3, rectangle(100, 50), circle(20), capsule(5, 10)])
@pytest.mark.parametrize("concave", [False, True])
def test_nothing_tunnels_through_a_thin_wall_at_20000_px_s_at_30_hz(shape, concave):
    """Godot 4 culls a concave polygon's segments with the motion, so, unlike Godot 3,
    a concave wall stops a fast car too: the car ends every tick on its side."""
    world = build_world(Track("thin", unit="px", polylines=(Polyline([(2000, -1e6), (2000, 1e6)]),)), concave)
    x, y = 0.0, 0.0
    for _ in range(30):
        x, y, *_ = move_and_slide(world, shape, x, y, 0.2, 20000.0, 700.0, 1 / 30, SAFE_MARGIN)
        assert x < 2000


@pytest.mark.parametrize("name", sorted(DRIVES))
def test_the_kernel_matches_the_reference_written_from_the_source_tick_by_tick(name):
    """The Godot 3 engine test's drives: the same collision count on every tick and
    the positions within 1e-6 px (the two look at the walls in different orders, which
    changes only the order of a recovery's steps)."""
    d = DRIVES[name]
    world = build_world(d.track, d.concave)
    ours = []
    x, y, heading = d.pose
    for vx, vy in d.velocities:
        x, y, rvx, rvy, slides, nx, ny = move_and_slide(world, d.shape, x, y, heading, vx, vy, 1 / d.hz, SAFE_MARGIN)
        ours.append((x, y, rvx, rvy, slides))
    ours = np.array(ours)
    ref = np.array(reference.drive(d.track, d.shape, d.pose, d.velocities, d.hz, d.concave))[:, 1:6]
    assert np.abs(ours[:, :2] - ref[:, :2]).max() < 1e-6
    assert np.array_equal(ours[:, 4], ref[:, 4])
    assert np.array_equal(ours[:, 2:4], np.asarray(d.velocities, dtype=float))  # the velocity unchanged
    assert ours[:, 4].sum() >= 8  # it met walls (the fast concave drive too: no tunnelling in Godot 4)
