"""Channels: every model's declaration (names, units, slots that exist, presets made of
its channels), the derived channels against a car on a steady circle (a_lat = v²/R,
yaw rate = v/R, the radius measured from the path itself), and `simulate --channels`:
its columns and units, `all`, a wrong name (exit 2, the channels listed, nothing written)."""

from __future__ import annotations

import csv
import math
import subprocess
import sys

import numpy as np
import pytest

from sandbox.files.presets import BUILTIN_DIR, load_preset
from sandbox.files.traces import TRAJECTORY_COLUMNS
from sandbox.physics.car_frame import STANDARD_G
from sandbox.physics.channels import DERIVED, INPUT, channels_of, column_name, find_channels, preset_channels
from sandbox.physics.models import MODELS
from sandbox.physics.sim import trace_trajectory

HZ = 60


def cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "sandbox", *map(str, args)], capture_output=True, text=True, timeout=300
    )


@pytest.mark.parametrize("name", sorted(MODELS))
def test_every_model_declares_its_channels_once_with_units_and_real_slots(name):
    model = MODELS[name]
    channels = channels_of(model)
    names = [c.name for c in channels]
    assert len(names) == len(set(names)), names  # one declaration each
    for channel in channels:
        assert channel.label and isinstance(channel.unit, str)
        if channel.kind not in (DERIVED, INPUT):
            slot = model.STATE.slot[channel.source]
            assert channel.index < slot.size, channel
    assert {"speed", "sideslip", "yaw_rate", "accel_long", "accel_lat", "steer_received"} <= set(names)
    presets = preset_channels(model)  # every preset names channels of the model: nothing declared twice
    assert presets and all(presets.values())


def circle_radius(x, y) -> float:
    """The radius of the circle through three points of the path a third of a turn apart
    (the circumcircle: R = abc / 4·area)."""
    (ax, ay), (bx, by), (cx, cy) = zip(x, y)
    a, b, c = math.dist((bx, by), (cx, cy)), math.dist((ax, ay), (cx, cy)), math.dist((ax, ay), (bx, by))
    area = abs((bx - ax) * (cy - ay) - (cx - ax) * (by - ay)) / 2
    return a * b * c / (4 * area)


@pytest.mark.parametrize("preset", ["ackermann_van.json", "bicycle_exact_arc.json"])
def test_a_car_on_a_steady_circle_has_lateral_acceleration_v2_over_r_and_yaw_rate_v_over_r(preset):
    """Half steer right at a held speed: the path is a circle. The ackermann model has a
    yaw-rate slot; the bicycle's is its heading's change: both must give v/R."""
    loaded = load_preset(BUILTIN_DIR / preset)
    model = loaded.model
    trace = np.tile([0.5, 1.0, 0.0], (40 * HZ, 1))  # full throttle: up to the top speed
    chosen = find_channels(["speed", "yaw_rate", "accel_lat", "accel_long"], channels_of(model))
    (rows,) = trace_trajectory(model, loaded.tuning, iter([trace]), HZ, channels=chosen)
    steady = rows[-3 * HZ :]
    speed, yaw, a_lat, a_long = steady[:, len(TRAJECTORY_COLUMNS) :].T
    assert np.ptp(speed) < 1e-6 * speed.mean()  # the speed is held
    x, y = steady[:, 1], steady[:, 2]
    v = float(speed.mean())
    turn = 2 * math.pi * circle_radius(x[:3], y[:3]) / v  # s for one lap (rough, for the spacing)
    third = int(turn * HZ / 3)
    assert third > 5 and 2 * third < len(steady)
    radius = circle_radius(x[[0, third, 2 * third]], y[[0, third, 2 * third]])
    centripetal = v * v / radius
    assert np.hypot(a_long, a_lat) * STANDARD_G == pytest.approx(np.full(len(steady), centripetal), rel=2e-3)
    assert yaw == pytest.approx(np.full(len(steady), math.degrees(v / radius)), rel=2e-3)
    # in the car's frame the centripetal acceleration leans by the sideslip β: a reference
    # point ahead of the rear axle moves at β to the body (the axes are the body's after
    # the tick, half a tick's turn past the velocity's mean: well within 1 %)
    beta = steady[:, TRAJECTORY_COLUMNS.index("slip_angle")]
    assert a_lat * STANDARD_G == pytest.approx(centripetal * np.cos(beta), rel=1e-2)
    assert np.all(a_lat > 0)  # a right-hand bend pushes the car to its right


def test_simulate_writes_the_chosen_channels_named_with_their_units(tmp_path):
    out = tmp_path / "drive.csv"
    corvette = BUILTIN_DIR / "monster_corvette_c5.json"
    result = cli(
        "simulate", "--preset", corvette, "--controls", "slalom", "--out", out, "--channels", "rpm,gear,accel_lat"
    )
    assert result.returncode == 0, result.stderr
    with open(out, newline="") as f:
        header = next(csv.reader(f))
        rows = np.array([[float(v) for v in row] for row in csv.reader(f)])
    assert header == list(TRAJECTORY_COLUMNS) + ["rpm[rpm]", "gear", "accel_lat[g]"]
    rpm, gear = rows[:, len(TRAJECTORY_COLUMNS)], rows[:, len(TRAJECTORY_COLUMNS) + 1]
    assert rpm.min() >= 1000 and rpm.max() > 2000  # idle floor, revving up
    assert set(np.unique(gear)) <= {1.0, 2.0, 3.0, 4.0, 5.0, 6.0}
    everything = tmp_path / "all.csv"
    assert (
        cli(
            "simulate", "--preset", corvette, "--controls", "slalom", "--out", everything, "--channels", "all"
        ).returncode
        == 0
    )
    with open(everything, newline="") as f:
        header = next(csv.reader(f))
    model = load_preset(corvette).model
    assert header[len(TRAJECTORY_COLUMNS) :] == [column_name(c) for c in channels_of(model)]
    assert "yaw_rate[deg/s]" in header and "slip_front[deg]" in header and "load_rear[N]" in header


def test_simulate_refuses_an_unknown_channel_listing_the_channels(tmp_path):
    out = tmp_path / "drive.csv"
    result = cli(
        "simulate",
        "--preset",
        BUILTIN_DIR / "recipe_defaults.json",
        "--controls",
        "slalom",
        "--out",
        out,
        "--channels",
        "speed,rpm",
    )
    assert result.returncode == 2
    assert "unknown channel rpm" in result.stderr and "yaw_rate" in result.stderr and "wheel_angle" in result.stderr
    assert "Traceback" not in result.stderr and not out.exists()


def test_screenshot_refuses_channels_the_plot_cannot_show_before_opening_the_window(tmp_path):
    out = tmp_path / "shot.png"
    corvette = BUILTIN_DIR / "monster_corvette_c5.json"
    result = cli("screenshot", "--preset", corvette, "--channels", "rpm,gear,slip_front", "--out", out)  # 3 units
    assert result.returncode == 2 and "2 units at most" in result.stderr and "load_front" in result.stderr
    assert "Traceback" not in result.stderr and not out.exists()
