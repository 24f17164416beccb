"""Nothing tunnels: every built-in preset's car at its top speed at 30 Hz, driven
straight ahead, knocks every cone its path crosses (and none beside it), however far
it moves in a tick, and a kinematic car never ends a tick beyond a thin wall.

Independent of the kernels' geometry: the car drives straight along +x (steering
centred), so its shape sweeps a band as wide as the shape across the motion; cones are
put either well inside that band (their centres within half the shape's half width
of the line) or well outside it (more than the half width and two radii away), in
the stretch the car's whole shape passes, so which cones the path crosses is plain
without computing any contact. The car's motion is first driven on the open field:
the cones must not change it (they are not solid)."""

import math

import numpy as np
import pytest

from sandbox.files.presets import BUILTIN_DIR, load_preset
from sandbox.physics import sim
from sandbox.physics.body_shape import body_at, bounds, shape_of
from sandbox.physics.cones import knocked_numbers
from sandbox.physics.models.limits import SPEED_LIMIT_M
from sandbox.physics.state import Controls
from sandbox.physics.track import Circle, Polyline, Pose, Track

HZ = 30
TICKS = 12
CONE_RADIUS_M = 0.15
PRESETS = sorted(path.stem for path in BUILTIN_DIR.glob("*.json"))
UNHELD = "recipe_defaults without friction or drag"
"""The arcade with nothing holding its speed back: the fastest car a tick can move."""
ARCADE_TOP_PX = 20000.0
"""px/s: the arcade's top speed when nothing holds it back (its tunings without drag
or friction): as fast as the walls' own no-tunnelling check drives it."""


def _preset(name):
    if name == UNHELD:
        model, tuning = _preset("recipe_defaults")
        return model, dict(tuning) | {"friction": 0.0, "drag": 0.0}
    preset = load_preset(BUILTIN_DIR / f"{name}.json")
    return preset.model, preset.tuning


def top_speed(model, tuning) -> float:
    """The car's top speed (its unit per s): its model's, capped where none holds it."""
    speed = model.top_speed(tuning, 1.0 / HZ)
    cap = ARCADE_TOP_PX if model.LENGTH_UNIT == "px" else SPEED_LIMIT_M
    return cap if not math.isfinite(speed) else min(speed, cap)


def at_top_speed(model, tuning, speed: float):
    """A car at the origin heading +x moving at `speed`, its wheels turning with it."""
    car = sim.at_rest(model, 1, Pose(0.0, 0.0, 0.0))
    S = model.STATE.offset
    car.data[0, S["vx"]] = speed
    if "speed" in S:
        car.data[0, S["speed"]] = speed
    if "wheel_speed" in S:  # the rigid body's four wheels (rad/s)
        car.data[0, S["wheel_speed"] : S["wheel_speed"] + 4] = speed / tuning["wheel_radius"]
    if "wheel_omega" in S:  # the dynamic car's driven wheels, in its top gear
        car.data[0, S["wheel_omega"]] = speed / tuning["wheel_radius"]
        car.data[0, S["gear"]] = 6.0
    return car


def drive(model, tuning, car, walls=None, ticks=TICKS):
    """The car's state rows after each of `ticks` ticks, throttle held."""
    rows = []
    for _ in range(ticks):
        car = sim.step(model, car, Controls(throttle=1.0), tuning, 1.0 / HZ, walls=walls)
        rows.append(car.data[0].copy())
    return np.array(rows)


def half_extents(model, tuning) -> tuple[float, float, float]:
    """(behind, ahead, half width) of the car's shape on a car at the origin heading +x."""
    left, top, right, bottom = bounds(body_at(shape_of(tuning), 0.0, 0.0, 0.0), 0.0, 0.0, 0.0)
    return -left, right, max(-top, bottom)


@pytest.mark.parametrize("name", PRESETS + [UNHELD])
def test_every_cone_on_a_path_at_top_speed_is_knocked(name):
    model, tuning = _preset(name)
    unit = model.LENGTH_UNIT
    speed = top_speed(model, tuning)
    S = model.STATE.offset
    behind, ahead, half = half_extents(model, tuning)
    scale = 1.0 if unit == "m" else 25.0
    r = CONE_RADIUS_M * scale
    ticks = max(TICKS, math.ceil(4 * (behind + ahead + 4 * r) / (speed / HZ)))  # room for cones
    free = drive(model, tuning, at_top_speed(model, tuning, speed), ticks=ticks)
    x = np.concatenate([[0.0], free[:, S["x"]]])
    assert np.all(np.diff(x) > 0) and np.allclose(free[:, S["y"]], 0.0, atol=1e-9)  # straight along +x
    first, last = x[0] + ahead + 2 * r, x[-1] - behind - 2 * r  # the stretch the whole shape passes
    assert last > first
    rng = np.random.default_rng(36)
    xs = np.linspace(first, last, 40)
    on_path = rng.random(40) < 0.5
    side = np.where(rng.random(40) < 0.5, -1.0, 1.0)
    ys = np.where(
        on_path, side * rng.uniform(0.0, 0.5 * half, 40), side * (half + 2 * r + rng.uniform(0.1, 1.0, 40) * half)
    )
    cones = tuple(Circle(float(cx), float(cy), r) for cx, cy in zip(xs, ys))
    track = Track("cones", unit=unit, pixels_per_metre=25.0, cones=cones)
    walls = sim.walls_for(track, unit)
    rows = drive(model, tuning, at_top_speed(model, tuning, speed), walls, ticks)
    moved = [S[k] for k in ("x", "y", "heading", "vx", "vy")]
    assert np.array_equal(rows[:, moved], free[:, moved])  # the cones do not stop the car
    assert rows[-1, S["cones_hit"]] == on_path.sum()
    knocked = knocked_numbers(rows[-1, S["cones_knocked"] : S["cones_knocked"] + 8])
    assert list(knocked) == list(np.flatnonzero(on_path))
    per_tick = np.diff(x).max()
    print(f"{name}: {speed:.1f} {unit}/s, {per_tick:.2f} {unit} a tick, {on_path.sum()} of 40 cones on the path")


def wall_across(at: float, unit: str) -> Track:
    """A track of one segment across the path at x = `at`."""
    return Track("wall", unit=unit, polylines=(Polyline(np.array([(at, -1e4), (at, 1e4)])),))


def _never_beyond_the_wall(name):
    model, tuning = _preset(name)
    unit = model.LENGTH_UNIT
    speed = top_speed(model, tuning)
    S = model.STATE.offset
    _, ahead, _ = half_extents(model, tuning)
    at = ahead + speed / HZ * 4.5  # met in the fifth tick, between two ends of ticks
    walls = sim.walls_for(wall_across(at, unit), unit)
    rows = drive(model, tuning, at_top_speed(model, tuning, speed), walls)
    before = 0.0
    for row in rows:
        # the tick's swept path runs from `before` to row's x: its front never past the wall
        assert before + ahead <= at + 1e-9 and row[S["x"]] + ahead <= at + 1e-9
        before = row[S["x"]]
    # it did reach it (a rigid car bounces back off it: its farthest tick), to within a
    # cm, or for move_and_collide (the rigid cars) to within its 8-halving search's step,
    # the tick's motion / 256, as in the engine
    near = max(0.01 * (1.0 if unit == "m" else 25.0), speed / HZ / 256)
    assert rows[:, S["x"]].max() + ahead > at - near


KINEMATIC = [name for name in PRESETS if _preset(name)[0].NAME in ("arcade", "bicycle", "ackermann")] + [UNHELD]
RIGID = [name for name in PRESETS if name not in KINEMATIC]


@pytest.mark.parametrize("name", KINEMATIC)
def test_a_kinematic_car_at_top_speed_never_ends_a_tick_beyond_a_thin_wall(name):
    _never_beyond_the_wall(name)


@pytest.mark.parametrize("name", RIGID)
def test_a_rigid_car_at_top_speed_never_ends_a_tick_beyond_a_thin_wall(name):
    """The rigid body and the dynamic car bounce off the wall (move_and_collide of the
    tick's motion, then the impulse): never past it either."""
    _never_beyond_the_wall(name)
