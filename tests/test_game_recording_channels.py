"""A recording of the game's drive keeps the channels its pose gives, as the window's
recordings do: a car held on a circle by hand gives the circle's speed, yaw rate and
centripetal acceleration; a lost tick leaves the values over it unknown; the file
loads back as a recording."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sandbox.files.recordings import load_recording
from sandbox.link.game import Telemetry
from sandbox.link.recorder import write_recording
from sandbox.physics.car_frame import STANDARD_G

HZ = 60.0
RADIUS, SPEED = 50.0, 20.0  # m, m/s: a left-hand circle, ω = v/R = 0.4 rad/s


def on_circle(tick: int, state: dict) -> Telemetry:
    """The car after `tick` ticks going anticlockwise round the origin, its heading along its path."""
    angle = SPEED / RADIUS * tick / HZ
    heading = angle + math.pi / 2
    return Telemetry(tick=tick, t=tick / HZ, x=RADIUS * math.cos(angle), y=RADIUS * math.sin(angle), heading=heading,
                     vx=SPEED * math.cos(heading), vy=SPEED * math.sin(heading), controls=(0.2, 0.5, 0.0, 0.0, 0.0),
                     state=state, applied=0, cost_us=1.0, received=0.0)  # fmt: skip


def columns_of(path) -> dict[str, np.ndarray]:
    lines = path.read_text().splitlines()
    names = lines[0].split(",")
    values = np.array([[float(v) for v in line.split(",")] for line in lines[1:]])
    return dict(zip(names, values.T))


def test_a_circle_recorded_from_a_metric_game_gives_its_speed_yaw_rate_and_v2_over_r(tmp_path):
    path = tmp_path / "circle.csv"
    ticks = [k for k in range(1, 181) if k != 60]  # tick 60 never arrived
    write_recording(path, [on_circle(k, {"gear": 2.0}) for k in ticks], 1, HZ, model="monster", units="m")
    c = columns_of(path)
    assert np.allclose(c["speed[m/s]"], SPEED, rtol=1e-12)
    assert np.allclose(c["sideslip[deg]"], 0.0, atol=1e-9)  # the heading lies along the velocity
    # over a tick the velocity turns by θ = ω·dt: in the frame of the heading after it,
    # v_before = v·(cos θ, −sin θ) and v_after = (v, 0), so Δv = v·(1 − cos θ, sin θ)
    turn = SPEED / RADIUS / HZ
    lateral = SPEED * math.sin(turn) * HZ / STANDARD_G
    along = SPEED * (1 - math.cos(turn)) * HZ / STANDARD_G
    known = np.isfinite(c["accel_lat[g]"])
    assert known.sum() == len(ticks) - 2  # not the first tick, nor the one after the lost tick
    assert not known[0] and not known[ticks.index(61)]
    assert np.allclose(np.abs(c["accel_lat[g]"][known]), lateral, rtol=1e-9)
    assert np.allclose(c["accel_long[g]"][known], along, rtol=1e-6)
    assert np.allclose(c["yaw_rate[deg/s]"][known], math.degrees(turn * HZ), rtol=1e-9)
    assert "gear" in c and list(c).count("gear") == 1  # the game's own value, once
    recording = load_recording(path)
    assert len(recording) == len(ticks)


def test_a_game_that_sends_its_yaw_rate_keeps_it_and_a_game_in_pixels_gets_px_per_s2(tmp_path):
    path = tmp_path / "arcade.csv"
    write_recording(path, [on_circle(k, {"omega": 0.4}) for k in range(1, 31)], 0, HZ, model="arcade", units="px")
    c = columns_of(path)
    assert "yaw_rate[deg/s]" not in c and "omega" in c
    known = np.isfinite(c["accel_lat[px/s^2]"])
    turn = SPEED / RADIUS / HZ
    assert np.allclose(np.abs(c["accel_lat[px/s^2]"][known]), SPEED * math.sin(turn) * HZ, rtol=1e-9)


def test_a_game_without_a_tick_rate_or_unit_keeps_what_needs_neither(tmp_path):
    path = tmp_path / "plain.csv"
    write_recording(path, [on_circle(k, {}) for k in range(1, 31)], 0, None, model="monster", units="m")
    c = columns_of(path)
    assert "speed[m/s]" in c and not any(name.startswith(("accel_", "yaw_rate")) for name in c)
    write_recording(path, [on_circle(k, {}) for k in range(1, 31)], 0, HZ)
    assert not any(name.startswith(("speed", "accel_")) for name in columns_of(path))


@pytest.mark.parametrize("units", ["px", "m"])
def test_the_channel_columns_are_among_the_ones_a_recording_may_hold(tmp_path, units):
    from sandbox.files.recording_columns import CHANNEL_COLUMNS

    path = tmp_path / "drive.csv"
    write_recording(path, [on_circle(k, {}) for k in range(1, 31)], 0, HZ, model="", units=units)
    added = [name for name in columns_of(path) if "[" in name]
    assert added and set(added) <= CHANNEL_COLUMNS
