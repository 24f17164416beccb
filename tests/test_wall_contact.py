"""Kinematic cars (arcade, bicycle, Ackermann) meet a track's walls inside their
compiled ticks, as move_and_slide of the engine their tuning names (Godot 4 by
default, or Godot 3): held to geometry worked out here, and a batch on a track gives
each car the bits of its one-car tick, in either engine."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sandbox.files.tracks import find_builtin_track, load_track
from sandbox.physics import kernels, sim
from sandbox.physics.body_shape import RECIPE_CAPSULE_GODOT3, shape_of
from sandbox.physics.car_shape import GODOT3, GODOT4
from sandbox.physics.models import ackermann, arcade, bicycle
from sandbox.physics.state import Controls
from sandbox.physics.track import Polyline, Pose, Track
from sandbox.physics.walls import OPEN_FIELD, walls_for

MARGIN = 0.08
"""px: Godot 3's safe margin: a car at rest against a wall is this close, or closer."""


def defaults(model, engine: float = GODOT4) -> dict:
    """The model's declared tuning, meeting walls by `engine`'s rules."""
    return {p.name: p.default for p in model.PARAMS} | {"godot_engine": engine}


def test_the_kinematic_models_meet_walls_as_godot_4_unless_told():
    """The recipe demo is a Godot 4 project: that is the declared engine."""
    for model in (arcade, bicycle, ackermann):
        option = next(p for p in model.PARAMS if p.name == "godot_engine")
        assert option.choices[int(option.default)] == "Godot 4"
        assert option.default == GODOT4


def parking_lot() -> Track:
    return load_track(find_builtin_track("parking_lot"))


def floor_at(y: float, unit: str = "px") -> Track:
    """A track of one straight wall along y = `y`, from x = −1000 to 1000 (in `unit`)."""
    return Track("floor", unit=unit, polylines=(Polyline(np.array([(-1000.0, y), (1000.0, y)])),))


def drive(model, tuning, track, start, controls, ticks, hz=60):
    """The one car's state row after each tick (a list), on `track` from `start`."""
    car = sim.Simulation(model, tuning, hz=hz)
    car.set_track(track, start)
    rows = []
    for _ in range(ticks):
        rows.append(car.tick(controls).data[0].copy())
    return rows


def test_the_arcade_defaults_shape_is_the_recipe_demos_capsule():
    """One mapping from the declared shape parameters to the contact kernels' shape:
    the arcade's default (a 138 × 68 px capsule along the car) is the recipe demo's
    Godot 3 capsule (radius 34, height 70, turned 90°)."""
    assert np.allclose(shape_of(defaults(arcade)), RECIPE_CAPSULE_GODOT3, rtol=0, atol=1e-12)


def test_the_arcade_driven_into_the_parking_lots_wall_stops_where_its_capsule_touches_it():
    """Godot 3: straight down (heading 90°) at x = 563 into the parking lot's bottom wall, whose
    face there runs from (512, 1733) to (640, 1730.5): the car comes to rest with its
    front cap (centre 35 px ahead of the car's centre, radius 34)
    touching the face: no deeper than touching, no farther than the safe margin."""
    rows = drive(
        arcade, defaults(arcade, GODOT3), parking_lot(), Pose(563.0, 1450.0, math.pi / 2), Controls(throttle=1.0), 240
    )
    S = arcade.STATE.offset
    last = rows[-1]
    assert last[S["wall_contacts"]] > 0
    assert math.hypot(last[S["vx"]], last[S["vy"]]) < 50.0  # pressed, not driving on
    ax, ay, bx, by = 512.0, 1733.0, 640.0, 1730.5
    nx, ny = -(by - ay), bx - ax
    length = math.hypot(nx, ny)
    cap_x, cap_y = last[S["x"]], last[S["y"]] + 35.0
    gap = abs((cap_x - ax) * nx + (cap_y - ay) * ny) / length - 34.0
    assert -1e-6 <= gap <= MARGIN + 1e-6, gap
    assert all(row[S["y"]] + 35.0 + 34.0 < 1733.0 for row in rows)  # never into the wall


def test_a_car_meeting_a_wall_at_an_angle_keeps_the_speed_along_it():
    """Godot 3, frictionless, coasting at 45° into a straight wall (y = 300): the tick
    that meets it returns v − n(v·n) with n the wall's normal: the speed along the
    wall stays, the speed into it is gone."""
    tuning = defaults(arcade, GODOT3) | {"friction": 0.0, "drag": 0.0}
    car = sim.Simulation(arcade, tuning)
    car.set_track(floor_at(300.0), Pose(0.0, 100.0, math.pi / 4))
    S = arcade.STATE.offset
    v = 600.0
    car.state.data[0, S["vx"]] = car.state.data[0, S["vy"]] = v / math.sqrt(2)
    for _ in range(60):
        before = car.state.data[0].copy()
        after = car.tick(Controls()).data[0]
        if after[S["wall_contacts"]] > 0:
            break
    else:
        pytest.fail("the car never met the wall")
    assert after[S["vx"]] == pytest.approx(before[S["vx"]], rel=1e-9)
    assert abs(after[S["vy"]]) < 1e-6 * v
    assert after[S["x"]] > before[S["x"]]  # it slid on along the wall


def test_the_godot_4_arcade_keeps_its_velocity_pressed_against_a_wall():
    """Godot 4.4's floating move_and_slide leaves `velocity` as it was set: the recipe's
    Godot 4 car, driven straight down into the parking lot's bottom wall, stands
    touching it (its front cap, 35 px ahead, radius 34, within the margin of the face
    from (512, 1733) to (640, 1730.5)) while its velocity runs on to the recipe's top
    speed as on the open field (the same velocity there, bit for bit)."""
    start, throttle = Pose(563.0, 1450.0, math.pi / 2), Controls(throttle=1.0)
    rows = drive(arcade, defaults(arcade), parking_lot(), start, throttle, 240)
    S = arcade.STATE.offset
    last = rows[-1]
    assert last[S["wall_contacts"]] > 0
    free = sim.Simulation(arcade, defaults(arcade))
    free.set_track(None, start)
    for _ in range(240):
        open_field = free.tick(throttle).data[0]
    assert (last[S["vx"]], last[S["vy"]]) == (open_field[S["vx"]], open_field[S["vy"]])
    assert last[S["vy"]] > 500.0
    ax, ay, bx, by = 512.0, 1733.0, 640.0, 1730.5
    nx, ny = -(by - ay), bx - ax
    gap = abs((last[S["x"]] - ax) * nx + (last[S["y"]] + 35.0 - ay) * ny) / math.hypot(nx, ny) - 34.0
    assert -1e-6 <= gap <= MARGIN + 1e-6, gap


@pytest.mark.parametrize("engine", [GODOT4, GODOT3], ids=["godot4", "godot3"])
@pytest.mark.parametrize("model", [bicycle, ackermann], ids=lambda m: m.NAME)
def test_a_metric_car_pushed_into_a_wall_has_its_speed_brought_down(model, engine):
    """Full throttle for 6 s straight at a wall 10 m ahead: without the wall the pedal
    speed reaches max_speed (20 m/s); against it the state's speed is what
    move_and_slide lets through along the heading (Godot 3: the returned velocity's;
    Godot 4: get_real_velocity()'s, what the body moved), about one tick of
    acceleration (4 m/s² / 60 Hz), and the car is not in the wall."""
    rows = drive(
        model, defaults(model, engine), floor_at(10.0, "m"), Pose(0.0, 0.0, math.pi / 2), Controls(throttle=1.0), 360
    )
    S = model.STATE.offset
    last = rows[-1]
    assert last[S["wall_contacts"]] > 0
    assert 0.0 <= last[S["speed"]] < 0.5
    half_length = 3.8 / 2 if model is ackermann else 3.7 / 2
    assert max(row[S["y"]] for row in rows) + half_length <= 10.0 + 1e-9


@pytest.mark.parametrize("engine", [GODOT4, GODOT3], ids=["godot4", "godot3"])
@pytest.mark.parametrize("model", [arcade, bicycle, ackermann], ids=lambda m: m.NAME)
def test_nothing_tunnels_at_top_speed_at_30_hz(model, engine):
    """At top speed (the arcade without friction and drag at its speed limit, 20 000
    px/s, 667 px a tick; the metric cars at max_speed) at 30 Hz toward a wall one
    segment thin: no tick's swept path crosses it, and the shape never passes it."""
    unit = model.LENGTH_UNIT
    wall = 5000.0 if unit == "px" else 60.0
    tuning = defaults(model, engine) | ({"friction": 0.0, "drag": 0.0} if model is arcade else {})
    car = sim.Simulation(model, tuning, hz=30)
    car.set_track(floor_at(wall, unit), Pose(0.0, 0.0, math.pi / 2))
    S = model.STATE.offset
    if model is arcade:
        car.state.data[0, S["vy"]] = 20000.0
    else:
        car.state.data[0, S["speed"]] = defaults(model)["max_speed"]
    y = 0.0
    met = False
    for _ in range(200):
        row = car.tick(Controls(throttle=1.0)).data[0]
        assert y < wall and row[S["y"]] < wall  # the path from y to row's y stays before the wall
        y = row[S["y"]]
        met = met or row[S["wall_contacts"]] > 0
    assert met


def test_an_empty_world_drives_bit_for_bit_as_the_open_field():
    """A world with nothing in it (a track of cones only gives none) moves the car
    exactly as the drivers compiled for the open field."""
    tuning = defaults(arcade)
    rows, which = sim.tuning_rows(arcade, tuning, 1)
    trace = np.tile([0.3, 1.0, 0.0, 0.0, 0.0], (120, 1))
    columns = np.arange(arcade.STATE.size)
    out_open, out_empty = np.empty((120, arcade.STATE.size)), np.empty((120, arcade.STATE.size))
    number = sim.model_number(arcade)
    for out, more in ((out_open, ()), (out_empty, (OPEN_FIELD,))):
        state = sim.at_rest(arcade, 1)
        kernels.call(kernels.record_trace, number, state.data[0], trace, rows[0], 1 / 60, columns, out, *more)
    assert np.array_equal(out_open, out_empty)


@pytest.mark.parametrize("engine", [GODOT4, GODOT3], ids=["godot4", "godot3"])
@pytest.mark.parametrize("model", [arcade, bicycle, ackermann], ids=lambda m: m.NAME)
def test_a_batch_on_a_track_gives_each_car_the_bits_of_its_one_car_tick(model, engine):
    """Cars steering differently from the parking lot's spawn, some into its walls: the
    batch drivers (held controls, and a trace) give each car exactly the state the
    one-car tick gives it."""
    track = parking_lot()
    unit = model.LENGTH_UNIT
    walls = walls_for(track, unit)
    start = track.in_unit(unit).spawn
    start = Pose(start.x, start.y, math.pi)  # towards the left wall
    steers = np.array([-1.0, -0.4, 0.0, 0.3, 1.0])
    n, ticks = len(steers), 240
    tuning = defaults(model, engine)
    held = Controls(steer=steers, throttle=np.ones(n))
    batch = sim.run_batch(model, tuning, n, held, ticks, walls=walls, start=start)
    contacts = model.STATE.offset["wall_contacts"]
    for i, steer in enumerate(steers):
        one = sim.at_rest(model, 1, start)
        for _ in range(ticks):
            one = sim.step(model, one, Controls(steer=steer, throttle=1.0), tuning, 1 / 60, walls=walls)
        assert np.array_equal(batch.data[i], one.data[0], equal_nan=True), i
    trace = np.tile([0.5, 1.0, 0.0, 0.0, 0.0], (ticks, 1))
    traced = sim.run_batch(model, tuning, 2, trace, ticks, walls=walls, start=start)
    one = sim.at_rest(model, 1, start)
    for _ in range(ticks):
        one = sim.step(model, one, Controls(steer=0.5, throttle=1.0), tuning, 1 / 60, walls=walls)
    assert np.array_equal(traced.data[0], one.data[0], equal_nan=True)
    assert (batch.data[:, contacts] > 0).any()  # some are pressed against the wall


def test_a_batch_of_arcade_cars_moving_by_the_midpoint_rule_meets_walls_as_each_car_alone():
    """With the arcade's rate-independent option a car moves by the mean of its start
    and end velocities, not v·dt: a batch (which moves every car as on the open field,
    then again those that came near a wall) still gives each car its one-car bits,
    among them cars driven into the wall and cars turning away just short of it."""
    track = parking_lot()
    walls = walls_for(track, "px")
    spawn = track.spawn
    start = Pose(spawn.x, spawn.y, math.pi)
    steers = np.linspace(-1.0, 1.0, 9)
    n, ticks = len(steers), 300
    tuning = defaults(arcade) | {"rate_independent": 1.0}
    batch = sim.run_batch(
        arcade, tuning, n, Controls(steer=steers, throttle=np.ones(n)), ticks, walls=walls, start=start
    )
    for i, steer in enumerate(steers):
        one = sim.at_rest(arcade, 1, start)
        for _ in range(ticks):
            one = sim.step(arcade, one, Controls(steer=steer, throttle=1.0), tuning, 1 / 60, walls=walls)
        assert np.array_equal(batch.data[i], one.data[0], equal_nan=True), i
    contacts = batch.data[:, arcade.STATE.offset["wall_contacts"]]
    assert (contacts > 0).any() and (contacts == 0).any()


@pytest.mark.parametrize("engine", [GODOT4, GODOT3], ids=["godot4", "godot3"])
@pytest.mark.parametrize("model", [arcade, bicycle], ids=lambda m: m.NAME)
def test_a_parallel_batch_on_a_track_gives_each_car_the_bits_of_its_one_car_tick(model, engine):
    """From sim.PARALLEL_FROM cars a batch is spread over the cores (its own driver for
    walls): cars spread over every steering, the first and every 97th checked."""
    track = parking_lot()
    unit = model.LENGTH_UNIT
    walls = walls_for(track, unit)
    spawn = track.in_unit(unit).spawn
    start = Pose(spawn.x, spawn.y, math.pi)
    n, ticks = sim.PARALLEL_FROM, 200
    steers = np.linspace(-1.0, 1.0, n)
    tuning = defaults(model, engine)
    batch = sim.run_batch(
        model, tuning, n, Controls(steer=steers, throttle=np.ones(n)), ticks, walls=walls, start=start
    )
    trace = np.tile([0.25, 1.0, 0.0, 0.0, 0.0], (ticks, 1))
    traced = sim.run_batch(model, tuning, n, trace, ticks, walls=walls, start=start)
    for i in range(0, n, 97):
        one = sim.at_rest(model, 1, start)
        for _ in range(ticks):
            one = sim.step(model, one, Controls(steer=steers[i], throttle=1.0), tuning, 1 / 60, walls=walls)
        assert np.array_equal(batch.data[i], one.data[0], equal_nan=True), i
    one = sim.at_rest(model, 1, start)
    for _ in range(ticks):
        one = sim.step(model, one, Controls(steer=0.25, throttle=1.0), tuning, 1 / 60, walls=walls)
    assert np.array_equal(traced.data[n - 1], one.data[0], equal_nan=True)
