"""The driver laps a closed path on its own with any model: it holds the path, its
speed controller reaches and holds a target speed, its rows replay as a control trace
to the same drive, and a car that cannot go round stops within the tick bound with
what it reached. The ring's geometry is known exactly (tests/lap_tracks.py): how far
the car is off the path is measured here from its position, not read from the driver."""

import math

import numpy as np
import pytest

from lap_tracks import ring
from sandbox.analysis.lap_driver import (
    COL_X,
    COL_Y,
    CONTROLS,
    DISTANCE,
    FINISHED,
    OUT_OF_TICKS,
    SPEED,
    STALL_S,
    STALLED,
    drive_laps,
)
from sandbox.analysis.metrics import compute
from sandbox.physics.models import MODELS
from sandbox.physics.params import Tuning
from sandbox.physics.sim import at_rest, record
from sandbox.physics.walls import walls_for

HZ = 60
RADIUS, HALF_WIDTH = 60.0, 8.0
"""m: the ring's middle and its half width (room enough for every model's body)."""
HOLD_M = 1.5
"""m: how far from the ring's middle every model stays once it is round its first half lap."""
GRIP_SHARE = 0.4
"""The ring is driven at a speed asking this share of the car's skid-pad lateral
acceleration (well under its grip limit) …"""
TOP_SHARE = 0.5
"""… and at most this share of its top speed."""
ALL = sorted(MODELS)


def scale(model) -> float:
    """Model units per metre (the ring is in metres; a model in px drives it at 25 px/m)."""
    return ring(RADIUS, HALF_WIDTH).pixels_per_metre if model.LENGTH_UNIT == "px" else 1.0


@pytest.fixture(scope="module")
def figures():
    """Each model's default tuning's metrics, measured once."""
    return {name: compute(MODELS[name], Tuning(MODELS[name].PARAMS), HZ) for name in ALL}


@pytest.mark.parametrize("name", ALL)
def test_every_model_holds_the_ring_at_a_steady_speed_under_its_grip(name, figures):
    model, tuning = MODELS[name], Tuning(MODELS[name].PARAMS)
    k = scale(model)
    lateral, top = float(figures[name]["skidpad_lateral"][0]), float(figures[name]["top_speed"][0])
    speed = min(TOP_SHARE * top, math.sqrt(GRIP_SHARE * lateral * RADIUS * k))
    track = ring(RADIUS, HALF_WIDTH)
    result = drive_laps(model, tuning, track, track.centre_line.points * k, speed, 3, HZ)
    assert result.ended == FINISHED and result.distance >= 3 * result.lap_length
    rows = result.rows
    off = np.hypot(rows[:, COL_X], rows[:, COL_Y]) / k - RADIUS
    settled = rows[:, DISTANCE] > result.lap_length / 2
    assert np.abs(off[settled]).max() <= HOLD_M, f"{name}: {np.abs(off[settled]).max():.2f} m off the ring's middle"
    assert rows[settled, SPEED].mean() == pytest.approx(speed, rel=0.02)


def straight(model, length_s: float, speed: float) -> np.ndarray:
    """A long thin loop: a straight `length_s` long at `speed`, 50 m across and back."""
    long, across = speed * length_s, 50.0 * scale(model)
    return np.array([[0.0, 0.0], [long, 0.0], [long, across], [0.0, across]])


@pytest.mark.parametrize("name", ALL)
def test_the_speed_controller_reaches_and_holds_a_target_speed_on_a_straight(name, figures):
    """Within 1.5 % of the target once there, and the last 10 s on average within 0.5 %;
    the arcade's pedals are all or nothing (the recipe's keys), so its speed may miss
    by one tick's full push of its engine or brake more."""
    model, tuning = MODELS[name], Tuning(MODELS[name].PARAMS)
    top = float(figures[name]["top_speed"][0])
    target = 0.4 * top if math.isfinite(top) else 20.0
    path = straight(model, 60.0, target)
    lap = 2 * path[1, 0] + 2 * path[2, 1]
    radius = float(figures[name]["radius_low"][0])
    result = drive_laps(model, tuning, None, path, target, 0.9 * path[1, 0] / lap, HZ, full_lock_radius=radius)
    assert result.ended == FINISHED
    speed = result.rows[:, SPEED]
    there = int(np.argmax(speed >= target))
    assert speed[there] >= target and there < 0.5 * len(speed), "the target speed is reached early on the straight"
    slack = 0.015 * target
    if name == "arcade" and not tuning["analog_pedals"]:
        slack += max(tuning["engine_power"], -tuning["braking"]) / HZ
    assert np.abs(speed[there:] - target).max() <= slack
    assert speed[-10 * HZ :].mean() == pytest.approx(target, rel=0.005)
    assert np.abs(result.rows[:, COL_Y]).max() < 1e-6 * target, "a straight is driven straight"


def test_a_drive_replays_as_a_control_trace_to_the_same_positions():
    """The rows' controls, replayed from the same start among the same walls by the
    trace replay every other part uses, give the drive's positions bit for bit."""
    model, tuning = MODELS["arcade"], Tuning(MODELS["arcade"].PARAMS)
    track = ring(RADIUS, HALF_WIDTH).in_unit("px")
    result = drive_laps(model, tuning, track, track.centre_line.points, 300.0, 1, HZ)
    assert result.finished
    replayed = record(
        model,
        tuning,
        result.controls,
        HZ,
        ("x", "y"),
        start=at_rest(model, 1, track.spawn),
        walls=walls_for(track, "px"),
    )
    assert np.array_equal(replayed, result.rows[:, [COL_X, COL_Y]])
    assert result.controls.shape == (result.ticks, CONTROLS)


def test_a_car_without_power_stops_after_the_stall_time_with_what_it_reached():
    model = MODELS["arcade"]
    tuning = Tuning(model.PARAMS, {"engine_power": 0})
    track = ring(RADIUS, HALF_WIDTH).in_unit("px")
    result = drive_laps(model, tuning, track, track.centre_line.points, 300.0, 3, HZ, full_lock_radius=270.0)
    assert result.ended == STALLED
    assert result.ticks == round(STALL_S * HZ) and result.time == pytest.approx(STALL_S)
    assert result.distance == 0.0 and not result.finished


def test_a_drive_that_runs_out_of_ticks_stops_at_the_bound():
    model, tuning = MODELS["arcade"], Tuning(MODELS["arcade"].PARAMS)
    track = ring(RADIUS, HALF_WIDTH).in_unit("px")
    result = drive_laps(model, tuning, track, track.centre_line.points, 300.0, 3, HZ, max_ticks=120)
    assert result.ended == OUT_OF_TICKS and result.ticks == 120
    assert 0 < result.distance < result.lap_length


def test_the_default_bound_is_three_times_the_laps_at_the_target_speed_and_30_s():
    """A car that creeps (its top speed a tenth of the speed asked: headway enough not to
    count as stalled) stops at the bound: 3 × the laps' time at the target speed, plus 30 s."""
    model, tuning = MODELS["bicycle"], Tuning(MODELS["bicycle"].PARAMS, {"max_speed": 1.0})
    track = ring(RADIUS, HALF_WIDTH)
    path = track.centre_line.points
    lap = float(np.sum(np.hypot(*np.diff(np.vstack([path, path[:1]]), axis=0).T)))
    result = drive_laps(model, tuning, track, path, 10.0, 1, HZ, full_lock_radius=5.0)
    assert result.ended == OUT_OF_TICKS
    assert result.ticks == math.ceil((3 * lap / 10.0 + 30) * HZ)


def test_a_path_given_with_its_first_point_again_at_its_end_is_the_same_path():
    model, tuning = MODELS["arcade"], Tuning(MODELS["arcade"].PARAMS)
    track = ring(RADIUS, HALF_WIDTH).in_unit("px")
    points = track.centre_line.points
    speeds = np.full(len(points), 300.0)
    once = drive_laps(model, tuning, track, points, speeds, 0.5, HZ, full_lock_radius=270.0)
    again = np.vstack([points, points[:1]])
    twice = drive_laps(model, tuning, track, again, np.append(speeds, 300.0), 0.5, HZ, full_lock_radius=270.0)
    assert once.finished and np.array_equal(once.rows, twice.rows) and once.lap_length == twice.lap_length


@pytest.mark.parametrize(
    ("points", "speed", "said"),
    [
        ([[0, 0], [1, 0]], 1.0, "a path is at least three finite points"),
        ([[0, 0], [1, 0], [1, 0], [0, 1]], 1.0, "a path's points are all apart"),
        ([[0, 0], [1, 0], [0, 1]], 0.0, "a path's target speeds are finite and above 0"),
        ([[0, 0], [1, 0], [0, 1]], math.nan, "a path's target speeds are finite and above 0"),
    ],
)
def test_a_path_no_car_can_drive_is_refused_before_any_drive(points, speed, said):
    model = MODELS["arcade"]
    with pytest.raises(ValueError, match=said):
        drive_laps(model, Tuning(model.PARAMS), None, np.array(points, float), speed, 1, HZ, full_lock_radius=1.0)


@pytest.mark.parametrize(
    ("room", "said"),
    [
        ([[1.0, 1.0]] * 2, "one pair"),
        ([[1.0, 1.0], [-0.5, 1.0], [1.0, 1.0]], "room to either side is 0 or more"),
        ([[1.0, 1.0], [math.nan, 1.0], [1.0, 1.0]], "room to either side is 0 or more"),
    ],
)
def test_a_path_whose_room_beside_it_is_not_a_length_is_refused(room, said):
    model = MODELS["arcade"]
    points = np.array([[0, 0], [10, 0], [0, 10]], float)
    with pytest.raises(ValueError, match=said):
        drive_laps(model, Tuning(model.PARAMS), None, points, 1.0, 1, HZ, full_lock_radius=1.0, room=np.array(room))
