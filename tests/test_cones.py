"""Cones a car knocks over and surfaces of other grip: the swept-path test worked by
hand, the car's record (each cone counted once), the world's compiled parts the same
for the one-car tick and a batch, the grip that a surface's factor scales."""

import math

import numpy as np
import pytest

from sandbox.files.tracks import find_builtin_track, load_track
from sandbox.physics import sim
from sandbox.physics.body_shape import body_at, rectangle
from sandbox.physics.cones import BITS, RECORDED, knock, knocked_numbers, swept_touches
from sandbox.physics.models import MODELS, monster, rigid_body
from sandbox.physics.state import Controls
from sandbox.physics.surfaces import grip_at
from sandbox.physics.track import Circle, Pose, Surface, Track
from sandbox.physics.world import from_shapes

CAR = rectangle(4.0, 2.0)
"""m: a car 4 long (its x) and 2 wide."""


def defaults(model) -> dict:
    return {p.name: p.default for p in model.PARAMS}


@pytest.mark.parametrize(
    "cone,moved,touches",
    [
        ((5.0, 1.1, 0.15), 10.0, True),  # beside the path: 1 + 0.15 reaches 1.1
        ((5.0, 1.2, 0.15), 10.0, False),  # 1.15 does not reach 1.2
        ((12.1, 0.0, 0.15), 10.0, True),  # the front ends at 12, the cone's edge at 11.95
        ((12.2, 0.0, 0.15), 10.0, False),
        ((5.0, 0.0, 0.15), 0.0, False),  # standing still: only where it stands
        ((-2.1, 0.0, 0.15), 0.0, True),
    ],
)
def test_a_cone_touches_the_car_swept_along_its_motion(cone, moved, touches):
    """A 4 × 2 car at the origin heading +x moved `moved` along x: it covers x from −2
    to moved + 2 and y from −1 to 1; a cone touches when its disc reaches that."""
    body = body_at(CAR, 0.0, 0.0, 0.0)
    assert swept_touches(body, moved, 0.0, *cone) is touches


def test_a_turned_car_sweeps_along_its_motion_not_its_heading():
    """Heading 90° (down the screen), moving 10 along +x (sideways): the band is
    4 tall (y from −2 to 2)."""
    body = body_at(CAR, 0.0, 0.0, math.pi / 2)
    assert swept_touches(body, 10.0, 0.0, 5.0, 2.1, 0.15)
    assert not swept_touches(body, 10.0, 0.0, 5.0, 2.2, 0.15)


def _knock(world, row, start, end):
    knock(world, CAR, *start, *end, row, 0, 1)


def test_a_cone_jumped_over_in_one_tick_is_counted_once():
    """From x = 0 to x = 20 in a tick: neither pose touches the cone at x = 10, the path
    does; the same path again does not count it twice."""
    world = from_shapes([], [], [], cones=[(10.0, 0.0, 0.15), (10.0, 5.0, 0.15)])
    row = np.zeros(1 + 8)
    _knock(world, row, (0.0, 0.0, 0.0), (20.0, 0.0, 0.0))
    assert row[0] == 1 and list(knocked_numbers(row[1:])) == [0]
    _knock(world, row, (20.0, 0.0, 0.0), (0.0, 0.0, 0.0))
    assert row[0] == 1


def test_cones_beyond_the_record_are_counted_at_each_new_touch():
    """The record holds RECORDED cones; cone number RECORDED (the last here) is counted
    when a touch begins, again after the car left it, never while it stays on it."""
    cones = [(1000.0 + i, 1000.0, 0.1) for i in range(RECORDED)] + [(10.0, 0.0, 0.15)]
    world = from_shapes([], [], [], cones=cones)
    row = np.zeros(1 + 8)
    _knock(world, row, (0.0, 0.0, 0.0), (9.0, 0.0, 0.0))  # touching it at the end
    _knock(world, row, (9.0, 0.0, 0.0), (9.5, 0.0, 0.0))  # still on it
    assert row[0] == 1
    _knock(world, row, (9.5, 0.0, 0.0), (30.0, 0.0, 0.0))  # left it, ending clear
    _knock(world, row, (30.0, 0.0, 0.0), (0.0, 0.0, 0.0))  # back through it
    assert row[0] == 2 and not row[1:].any()
    assert RECORDED == 8 * BITS


def test_the_record_holds_the_last_recorded_cone():
    cones = [(1000.0 + i, 1000.0, 0.1) for i in range(RECORDED - 1)] + [(10.0, 0.0, 0.15)]
    world = from_shapes([], [], [], cones=cones)
    row = np.zeros(1 + 8)
    for _ in range(2):
        _knock(world, row, (0.0, 0.0, 0.0), (20.0, 0.0, 0.0))
    assert row[0] == 1 and list(knocked_numbers(row[1:])) == [RECORDED - 1]


def _slalom_with_mud(unit: str) -> Track:
    """The built-in slalom with a surface of grip 0.5 over its middle, in `unit`."""
    track = load_track(find_builtin_track("slalom"))
    mud = Surface(np.array([(100.0, -20.0), (200.0, -20.0), (200.0, 20.0), (100.0, 20.0)]), 0.5)
    grown = Track(**{**track.__dict__, "surfaces": (mud,)})
    return grown.in_unit(unit)


@pytest.mark.parametrize("name", sorted(MODELS))
def test_a_batch_among_cones_and_surfaces_gives_each_car_its_one_car_bits(name):
    """Cars weaving through the slalom over a surface of grip 0.5: the batch drivers
    (held controls, a trace, spread over the cores) give each car exactly the state
    the one-car tick gives it, its cones and grip included."""
    model = MODELS[name]
    unit = model.LENGTH_UNIT
    track = _slalom_with_mud(unit)
    walls = sim.walls_for(track, unit)
    tuning = defaults(model)
    start = Pose(track.spawn.x, track.spawn.y, 0.0)
    steers = np.array([-0.3, -0.05, 0.0, 0.05, 0.3])
    n, ticks, hz = len(steers), 1800, 60
    batch = sim.run_batch(
        model, tuning, n, Controls(steer=steers, throttle=np.ones(n)), ticks, walls=walls, start=start
    )
    S = model.STATE.offset
    for i, steer in enumerate(steers):
        one = sim.at_rest(model, 1, start)
        one = sim.step(model, one, Controls(steer=steer, throttle=1.0), tuning, 1 / hz, ticks=ticks, walls=walls)
        assert np.array_equal(batch.data[i], one.data[0], equal_nan=True), i
    assert batch.data[2, S["x"]] > 300 and batch.data[2, S["cones_hit"]] == 8  # straight down the line: every cone
    n = sim.PARALLEL_FROM
    trace = np.tile([0.02, 1.0, 0.0, 0.0, 0.0], (ticks, 1))
    traced = sim.run_batch(model, tuning, n, trace, ticks, walls=walls, start=start)
    one = sim.step(model, sim.at_rest(model, 1, start), Controls(0.02, 1.0), tuning, 1 / hz, ticks=ticks, walls=walls)
    assert np.array_equal(traced.data[n - 1], one.data[0], equal_nan=True)


def test_a_placed_car_has_knocked_nothing():
    """A reset puts the car back at its start with every cone standing."""
    car = sim.Simulation(MODELS["bicycle"], defaults(MODELS["bicycle"]), hz=60)
    car.set_track(load_track(find_builtin_track("slalom")))
    for _ in range(600):
        car.tick(Controls(throttle=1.0))
    assert car.state.get("cones_hit")[0] > 0
    car.reset()
    assert car.state.get("cones_hit")[0] == 0 and not car.state.extra["cones_knocked"].any()


def test_the_grip_under_a_point_is_the_last_surface_holding_it():
    square = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)]
    triangle = [(5.0, 5.0), (20.0, 5.0), (5.0, 20.0)]
    world = from_shapes([], [], [], surfaces=[(square, 0.5), (triangle, 2.0)])
    assert grip_at(world, 2.0, 2.0) == 0.5
    assert grip_at(world, 7.0, 7.0) == 2.0  # in both: the later
    assert grip_at(world, 15.0, 15.0) == 1.0  # beside the triangle's long side (x + y = 25)
    assert grip_at(world, 11.0, 5.5) == 2.0
    assert grip_at(world, -1.0, 5.0) == 1.0


def _one_tick_sliding(model, tuning, grip, state):
    """The state after one tick of a car at the origin in `state`, on a surface of `grip`
    under it (a surface far away when 1: the same track, the grip not applied)."""
    where = (0.0, 0.0) if grip != 1.0 else (500.0, 500.0)
    square = np.array([(-50.0, -50.0), (50.0, -50.0), (50.0, 50.0), (-50.0, 50.0)]) + where
    track = Track("pad", unit="m", surfaces=(Surface(square, grip),), cones=(Circle(900.0, 900.0, 0.15),))
    walls = sim.walls_for(track, "m")
    car = sim.at_rest(model, 1, Pose(0.0, 0.0, 0.0))
    for key, value in state.items():
        car.data[0, model.STATE.offset[key]] = value
    return sim.step(model, car, Controls(), tuning, 1 / 60, walls=walls)


def test_grip_half_halves_the_dynamic_cars_lateral_force_limit():
    """Sliding sideways at 20 m/s along and 8 m/s across (slip angles past the tyres'
    peak): each axle's lateral force is at its limit μ·load ("Fmax = mu * W"), and on a
    surface of grip 0.5 at half that, with the same loads."""
    tuning = defaults(monster)
    mu = tuning["mu"]
    state = {"vx": 20.0, "vy": 8.0, "wheel_omega": 20.0 / tuning["wheel_radius"]}
    full = _one_tick_sliding(monster, tuning, 1.0, state)
    half = _one_tick_sliding(monster, tuning, 0.5, state)
    for axle in ("front", "rear"):
        load = full.get(f"load_{axle}")[0]
        assert half.get(f"load_{axle}")[0] == load
        assert abs(full.get(f"lat_{axle}")[0]) == pytest.approx(mu * load, rel=1e-12)
        assert abs(half.get(f"lat_{axle}")[0]) == pytest.approx(0.5 * mu * load, rel=1e-12)
    assert half.get("surface_grip")[0] == 0.5 and full.get("surface_grip")[0] == 1.0


def test_grip_half_halves_the_rigid_bodys_patch_forces():
    """The rigid body (side grip 0.4 N·s/m, below the cap that keeps a tick stable)
    sliding sideways at 1 m/s, its wheels still: each patch's side force is −1 m/s ×
    0.4 = −0.4 N, −0.8 N an axle; on grip 0.5, −0.4 N an axle."""
    tuning = defaults(rigid_body) | {"side_grip": 0.4}
    state = {"vy": 1.0}
    full = _one_tick_sliding(rigid_body, tuning, 1.0, state)
    half = _one_tick_sliding(rigid_body, tuning, 0.5, state)
    for axle in ("front", "rear"):
        assert full.get(f"side_force_{axle}")[0] == pytest.approx(-0.8, rel=1e-12)
        assert half.get(f"side_force_{axle}")[0] == pytest.approx(-0.4, rel=1e-12)


@pytest.mark.parametrize("name", ["arcade", "bicycle", "ackermann"])
def test_a_surface_leaves_the_kinematic_cars_as_they_are(name):
    """The arcade, the bicycle and the Ackermann car have no grip a surface could scale:
    on grip 0.5 they move the same bits as off it."""
    model = MODELS[name]
    tuning = defaults(model)
    S = model.STATE.offset
    moved = [S[k] for k in ("x", "y", "heading", "vx", "vy")]
    rows = []
    for grip in (1.0, 0.5):
        car = sim.at_rest(model, 1, Pose(0.0, 0.0, 0.0))
        track = Track("pad", unit="m", surfaces=(Surface(np.array([(-5e3, -5e3), (5e3, -5e3), (0.0, 5e3)]), grip),))
        track = track.in_unit(model.LENGTH_UNIT)
        car = sim.step(
            model, car, Controls(0.5, 1.0), tuning, 1 / 60, ticks=120, walls=sim.walls_for(track, model.LENGTH_UNIT)
        )
        rows.append(car.data[0, moved])
    assert np.array_equal(rows[0], rows[1])
