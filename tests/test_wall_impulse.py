"""The rigid body and the dynamic car meet walls with an impulse at the contact point
(`contact_impulse`): it never adds energy, a head-on hit keeps e of the speed, a
clipped corner spins the car the way its lever says, nothing tunnels, a car on the
club circuit stays inside, and a batch on a track gives each car its one-car bits."""

from __future__ import annotations

import math

import numba
import numpy as np
import pytest

from sandbox.files.tracks import find_builtin_track, load_track
from sandbox.physics import sim
from sandbox.physics.body_shape import CAPSULE_SHAPE, CIRCLE_SHAPE, RECTANGLE_SHAPE, body_at, bounds, of_tuning
from sandbox.physics.contact_impulse import bounce, wall_impulse
from sandbox.physics.models import monster, rigid_body
from sandbox.physics.models.limits import SPEED_LIMIT_M
from sandbox.physics.state import Controls
from sandbox.physics.track import Polyline, Pose, Track
from sandbox.physics.track_geometry import inside_polygon
from sandbox.physics.walls import Walls, walls_for

RIGID = [rigid_body, monster]


def defaults(model) -> dict:
    return {p.name: p.default for p in model.PARAMS}


def floor_at(y: float, restitution: float = 0.2, friction: float = 0.5) -> Track:
    """A track in m of one straight wall along y = `y`, x from −1000 to 1000."""
    line = Polyline(np.array([(-1000.0, y), (1000.0, y)]))
    return Track("floor", unit="m", polylines=(line,), wall_restitution=restitution, wall_friction=friction)


@numba.njit
def _bounce(walls, shape, x0, y0, x, y, heading, vx, vy, omega, mass, inertia):
    return bounce(walls, shape, 0, x0, y0, x, y, heading, vx, vy, omega, mass, inertia)


def energy(vx, vy, omega, mass, inertia) -> float:
    return 0.5 * mass * (vx * vx + vy * vy) + 0.5 * inertia * omega * omega


def test_an_impulse_never_adds_energy_over_random_hits():
    """600 random contacts (lever, normal, speeds, spin, mass, inertia, restitution 0 …
    1, friction 0 … 2): the kinetic energy (linear and rotational) after ≤ before."""
    rng = np.random.default_rng(36)
    for _ in range(600):
        mass, inertia = rng.uniform(0.5, 3000.0), rng.uniform(0.05, 5000.0)
        a = rng.uniform(0, 2 * math.pi)
        nx, ny = math.cos(a), math.sin(a)
        rx, ry = rng.uniform(-3, 3, 2)
        vx, vy = rng.uniform(-60, 60, 2)
        omega = rng.uniform(-10, 10)
        e, mu = rng.uniform(0, 1), rng.uniform(0, 2)
        before = energy(vx, vy, omega, mass, inertia)
        after = energy(*wall_impulse(vx, vy, omega, rx, ry, nx, ny, mass, inertia, e, mu), mass, inertia)
        assert after <= before * (1 + 1e-12) + 1e-12, (after, before)


def test_a_contact_never_adds_energy_for_random_shapes_hitting_a_wall():
    """300 random hits of random shapes (rectangles, capsules, circles, offset and
    turned on the body) driven into a wall at random speeds, headings and spins through
    the whole contact (move_and_collide, the point, the impulse): energy after ≤ before."""
    rng = np.random.default_rng(37)
    met = 0
    for _ in range(300):
        e, mu = rng.uniform(0, 1), rng.uniform(0, 2)
        walls = walls_for(floor_at(10.0, e, mu), "m")
        kind = float(rng.choice([RECTANGLE_SHAPE, CAPSULE_SHAPE, CIRCLE_SHAPE]))
        length, width = rng.uniform(0.5, 5.0), rng.uniform(0.3, 2.5)
        shape = np.array([kind, length, width, rng.uniform(-0.5, 0.5), rng.uniform(-0.3, 0.3), rng.uniform(-40, 40)])
        heading = rng.uniform(-math.pi, math.pi)
        speed, angle = rng.uniform(1, 80), rng.uniform(0.1, math.pi - 0.1)  # towards +y: into the wall
        vx, vy, omega = speed * math.cos(angle), speed * math.sin(angle), rng.uniform(-8, 8)
        mass, inertia = rng.uniform(1, 2000), rng.uniform(0.1, 3000)
        y0 = 10.0 - 3.5 - rng.uniform(0, 0.5)  # clear of the wall whatever the shape
        dt = 4.5 / vy  # a tick long enough to carry the centre past the wall
        x, y, vx1, vy1, omega1, contacts = _bounce(
            walls, shape, 0.0, y0, vx * dt, y0 + 4.5, heading, vx, vy, omega, mass, inertia
        )
        met += contacts > 0
        assert energy(vx1, vy1, omega1, mass, inertia) <= energy(vx, vy, omega, mass, inertia) * (1 + 1e-12)
        bottom = bounds(body_at(np.array(of_tuning(shape, 0)), x, y, heading), 0.0, 0.0, 0.0)[3]
        assert bottom <= 10.0 + 1e-9  # the shape stopped at the wall, not in it
    assert met > 250


@pytest.mark.parametrize("e", [0.0, 0.2, 0.7, 1.0])
def test_a_head_on_hit_leaves_e_times_the_speed_along_the_normal(e):
    """A rectangle 3 m long (the rigid body's default shape) square to a wall, moving
    straight at it at 10 m/s without spin: the impulse acts at the middle of its face,
    on the line through the centre, so the speed after is e·10 m/s away from the wall,
    nothing along it and no spin (hand-worked: j = (1 + e)·m·v, v' = v − j/m = −e·v)."""
    walls = walls_for(floor_at(10.0, e, 0.5), "m")
    shape = np.array([float(RECTANGLE_SHAPE), 3.0, 1.5, 0.0, 0.0, 0.0])
    # heading +y (π/2): the front face towards the wall, 0.1 m off it; the tick's motion 1/3 m
    x, y, vx, vy, omega, contacts = _bounce(
        walls, shape, 0.0, 8.4, 0.0, 8.4 + 10.0 / 30, math.pi / 2, 0.0, 10.0, 0.0, 1500.0, 2000.0
    )
    assert contacts == 1.0
    assert vy == pytest.approx(-e * 10.0, abs=1e-9)
    assert vx == pytest.approx(0.0, abs=1e-9) and omega == pytest.approx(0.0, abs=1e-9)
    assert 8.5 - 0.08 / 25 - 1e-9 <= y <= 8.5  # stopped where its face touches the wall (within the margin)


@pytest.mark.parametrize("side", [1.0, -1.0])
@pytest.mark.parametrize("friction", [0.0, 0.5])
def test_a_clipped_corner_spins_the_car_the_way_its_lever_says(side, friction):
    """A 3 m × 1.5 m rectangle lying along a wall below it (+y), turned 30° (heading
    side·30°), moving straight at it at 12 m/s: its lowest corner, (±1.5, ±0.75) turned,
    is at x = side·(1.5·cos 30° − 0.75·sin 30°) = side·0.92 m from the centre and
    1.40 m below it, and hits first. The wall pushes up (−y) there: torque
    r × F = r_x·F_y, negative for a corner on the right (side +1), so the yaw rate goes
    negative there, positive on the left."""
    walls = walls_for(floor_at(10.0, 0.2, friction), "m")
    shape = np.array([float(RECTANGLE_SHAPE), 3.0, 1.5, 0.0, 0.0, 0.0])
    heading = side * math.radians(30)
    x, y, vx, vy, omega, contacts = _bounce(
        walls, shape, 0.0, 8.5, 0.0, 8.5 + 12.0 / 30, heading, 0.0, 12.0, 0.0, 1.0, 0.94
    )
    assert contacts == 1.0
    assert math.copysign(1.0, omega) == -side and abs(omega) > 1.0
    assert vy < 12.0  # the speed into the wall is taken away


@pytest.mark.parametrize("model", RIGID, ids=lambda m: m.NAME)
def test_nothing_tunnels_at_top_speed_at_30_hz(model):
    """At the sandbox's speed limit (500 m/s, 16.7 m a tick at 30 Hz) straight at a wall
    one segment thin: no tick's path crosses it and the car meets it."""
    wall = 60.0
    car = sim.Simulation(model, defaults(model), hz=30)
    car.set_track(floor_at(wall), Pose(0.0, 0.0, math.pi / 2))
    S = model.STATE.offset
    car.state.data[0, S["vy"]] = SPEED_LIMIT_M
    if model is rigid_body:  # the wheels rolling at that speed
        car.state.data[0, S["wheel_speed"] : S["wheel_speed"] + 4] = SPEED_LIMIT_M / defaults(model)["wheel_radius"]
    y, met = 0.0, False
    for _ in range(120):
        row = car.tick(Controls(throttle=1.0)).data[0]
        assert y < wall and row[S["y"]] < wall
        y = row[S["y"]]
        met = met or row[S["wall_contacts"]] > 0
    assert met


def _corners(model, row) -> np.ndarray:
    """The four corners (m) of the car's default rectangle at the state row's pose."""
    S, d = model.STATE.offset, defaults(model)
    c, s = math.cos(row[S["heading"]]), math.sin(row[S["heading"]])
    hl, hw = d["shape_length"] / 2, d["shape_width"] / 2
    return np.array([(row[S["x"]] + c * a - s * b, row[S["y"]] + s * a + c * b) for a in (-hl, hl) for b in (-hw, hw)])


@pytest.mark.parametrize("model", RIGID, ids=lambda m: m.NAME)
@pytest.mark.parametrize("steer", [-1.0, 1.0])
def test_a_car_driven_into_the_club_circuits_wall_stays_inside(model, steer):
    """On the built-in club circuit, full throttle at full lock from the spawn for 20 s:
    the car meets a wall and every corner of its body stays between the walls (inside
    the outer ring, outside the infield), to within a centimetre."""
    track = load_track(find_builtin_track("club_circuit"))
    infield = next(p.points for p in track.polylines if p.closed)
    outer = next(p.points for p in track.polylines if not p.closed)[:-1]
    car = sim.Simulation(model, defaults(model), hz=60, track=track)
    S = model.STATE.offset
    met = 0
    for _ in range(1200):
        row = car.tick(Controls(steer=steer, throttle=1.0)).data[0]
        met += row[S["wall_contacts"]] > 0
        centre = np.array([row[S["x"]], row[S["y"]]])
        for corner in _corners(model, row):
            inner = corner + (centre - corner) * 0.01 / np.linalg.norm(centre - corner)
            assert inside_polygon(outer, *inner) and not inside_polygon(infield, *inner), (corner, row[S["x"]])
    assert met > 0


@pytest.mark.parametrize("model", RIGID, ids=lambda m: m.NAME)
@pytest.mark.parametrize("cars", [5, sim.PARALLEL_FROM + 7])
def test_a_batch_on_a_track_gives_each_car_the_bits_of_its_one_car_tick(model, cars):
    """Cars steering differently from the parking lot's spawn towards its left wall:
    the batch drivers (held controls, and a trace; on one core and spread over both)
    give each car exactly the state the one-car tick gives it."""
    track = load_track(find_builtin_track("parking_lot"))
    walls = walls_for(track, "m")
    spawn = track.in_unit("m").spawn
    start = Pose(spawn.x, spawn.y, math.pi)
    steers = np.linspace(-1.0, 1.0, cars)
    ticks, tuning = 240, defaults(model)
    batch = sim.run_batch(
        model, tuning, cars, Controls(steer=steers, throttle=np.ones(cars)), ticks, walls=walls, start=start
    )
    trace = np.tile([0.05, 1.0, 0.0, 0.0, 0.0], (ticks, 1))
    traced = sim.run_batch(model, tuning, cars, trace, ticks, walls=walls, start=start)
    for i in range(0, cars, max(1, cars // 5)):
        one = sim.at_rest(model, 1, start)
        for _ in range(ticks):
            one = sim.step(model, one, Controls(steer=steers[i], throttle=1.0), tuning, 1 / 60, walls=walls)
        assert np.array_equal(batch.data[i], one.data[0], equal_nan=True), i
    one = sim.at_rest(model, 1, start)
    met = False
    for _ in range(ticks):
        one = sim.step(model, one, Controls(steer=0.05, throttle=1.0), tuning, 1 / 60, walls=walls)
        met = met or one.data[0, model.STATE.offset["wall_contacts"]] > 0
    assert np.array_equal(traced.data[cars - 1], one.data[0], equal_nan=True)
    assert met  # the traced car meets the wall


def test_walls_carry_the_tracks_restitution_and_friction():
    walls = walls_for(floor_at(1.0, 0.65, 1.25), "m")
    assert isinstance(walls, Walls) and (walls.restitution, walls.friction) == (0.65, 1.25)


def test_the_window_says_the_rigid_cars_bounce_off_walls():
    from sandbox.ui.world_layer import CONTACT, contact_note

    for model in RIGID:
        tuning = {p.name: p.default for p in model.PARAMS}
        assert contact_note(model, tuning) == "walls met with a bounce: the track's restitution and friction"
    assert "pass through" not in CONTACT
