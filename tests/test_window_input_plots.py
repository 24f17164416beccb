"""The live plots' input groups in the real window: with a steer time set, the steer the
model received ramps at dt / steer_time per tick (docs/models.md, "Steering feel") while
the device's raw value jumps at once, from the keyboard and from a virtual pad's stick
(attached through the SDL the window polls); every model offers the groups."""

import os
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt

os.environ["SDL_VIDEODRIVER"] = "dummy"  # headless: the sandbox itself never touches it

from sandbox.physics.models import MODELS  # noqa: E402
from test_pads_window import DEADLINE_S, STICK_X, connected, sdl  # noqa: E402, F401  (sdl: a fixture)
from virtual_pads import Virtual, godot_axis  # noqa: E402
from window_helpers import paused  # noqa: E402

K = Qt.Key
STEER_TIME = 0.5
TICKS = 40


def input_curves(window):
    """The steer received and the device's steer (%) of every tick shown, oldest first."""
    window.plots.refresh(window.sim.time)
    received, device = (curve.getData()[1] for curve in window.plots.channel_curves[:2])
    return received, device


def ramp(ticks: int, target: float, hz: int) -> np.ndarray:
    """%: the steer held after each tick from the centre toward `target` (-1..1) moving
    by 1/steer_time of full lock per second (dt/steer_time per tick), independently
    of the sandbox's code: the feel's step 2 at every share 100 %."""
    k = np.arange(1, ticks + 1)
    return 100.0 * np.sign(target) * np.minimum(abs(target), k * (1.0 / hz) / STEER_TIME)


def test_every_model_offers_the_input_groups(window):
    box = window.panels.channel_box
    for name in MODELS:
        assert window.switch_model(name)
        names = [box.itemText(i) for i in range(box.count())]
        assert names == list(window.model.PRESETS) + ["input: steer", "input: throttle", "input: brake"], name


def test_a_held_key_the_steer_received_ramps_while_the_keyboard_jumps(window, qtbot):
    paused(window)
    window.tuning.set("steer_time", STEER_TIME)
    window.panels.channel_box.setCurrentText("input: steer")
    assert [c.unit for c in window.plots.channels] == ["%", "%"]
    assert "steer received / steer device" in window.plots.sides[2].text
    qtbot.keyPress(window.track, K.Key_D)
    while window.sim.ticks < TICKS:
        window.drive.tick()
    qtbot.keyRelease(window.track, K.Key_D)
    received, device = input_curves(window)
    assert len(received) == TICKS
    assert received == pytest.approx(ramp(TICKS, 1.0, window.sim.hz), abs=1e-9)
    assert received[0] < 10.0 and received[-1] == 100.0  # 30 ticks to full lock at 60 Hz
    assert np.all(device == 100.0)  # the key: all at once
    window.panels.channel_box.setCurrentText("input: throttle")
    qtbot.keyPress(window.track, K.Key_W)
    for _ in range(3):
        window.drive.tick()
    qtbot.keyRelease(window.track, K.Key_W)
    received, device = input_curves(window)
    assert list(received[-3:]) == list(device[-3:]) == [100.0] * 3  # no feel on the pedals


def test_a_stick_moved_the_steer_received_ramps_to_its_shaped_value_the_raw_jumps(window, qtbot, sdl):  # noqa: F811
    pad = Virtual(sdl)
    qtbot.waitUntil(lambda: connected(window) != "", timeout=DEADLINE_S * 1000)
    paused(window)
    window.tuning.set("steer_time", STEER_TIME)
    window.panels.channel_box.setCurrentText("input: steer")
    value = -24000
    pad.axis(STICK_X, value)
    while window.sim.ticks < TICKS:
        window.drive_view.frame()  # polls the pad, then runs the ticks due
    received, device = input_curves(window)
    shaped = godot_axis(value, 0.5, 0.5)  # Godot 3's default dead zone
    assert len(received) == window.sim.ticks >= TICKS
    # the shaped stick reaches the car as a 32-bit float (as a trace keeps it): 1e-6 of a share
    assert received == pytest.approx(ramp(len(received), shaped, window.sim.hz), abs=1e-4)
    assert received[-1] == pytest.approx(100.0 * shaped, abs=1e-4) and received[0] > -10.0
    assert device == pytest.approx(np.full(len(device), 100.0 * value / 32767), abs=1e-6)


def test_a_recording_keeps_the_sticks_raw_values_and_its_replay_plots_them(window, qtbot, sdl, tmp_path):  # noqa: F811
    pad = Virtual(sdl)
    qtbot.waitUntil(lambda: connected(window) != "", timeout=DEADLINE_S * 1000)
    window.tuning.set("steer_time", STEER_TIME)
    value = 20000
    pad.axis(STICK_X, value)
    window.replay.set_recording(True)
    window.drive_view.timer.stop()
    while window.sim.ticks < TICKS:
        window.drive_view.frame()
    window.replay.set_recording(False)
    pad.axis(STICK_X, 0)
    path = tmp_path / "pad drive.csv"
    assert window.replay.save_recording_to(path)
    lines = path.read_text().splitlines()
    assert lines[0].startswith("steer,throttle,brake,steer_device,throttle_device,brake_device,")  # the channels after
    table = np.loadtxt(lines[1:], delimiter=",", ndmin=2)
    ticks = len(table)
    assert ticks == window.sim.ticks
    shaped = godot_axis(value, 0.5, 0.5)
    assert table[:, 0] == pytest.approx(shaped, abs=1e-6)  # the car's controls, as before
    assert table[:, 3] == pytest.approx(value / 32767, abs=1e-6)  # the stick's own, before its dead zone
    window.panels.channel_box.setCurrentText("input: steer")
    assert window.replay.open_trace_file(path)
    window.replay.scrub(ticks)  # the whole drive, re-run at once
    received, device = input_curves(window)
    assert len(received) == ticks
    assert received == pytest.approx(ramp(ticks, shaped, window.sim.hz), abs=1e-4)
    assert device == pytest.approx(np.full(ticks, 100.0 * value / 32767), abs=1e-4)
    window.replay.stop()


def test_a_trace_from_before_replays_its_input_without_device_values(window, tmp_path):
    """A trace written before the device values (and a keyboard drive: its keys are its
    raw values) keeps loading; the replay plots what the car received, the device blank."""
    old = Path(__file__).parent / "data" / "trace_pedals_only_before_handbrake.csv"
    rows = np.loadtxt(old, delimiter=",", skiprows=1)
    window.panels.channel_box.setCurrentText("input: throttle")
    assert window.replay.open_trace_file(old)
    window.replay.scrub(len(rows))
    received, device = input_curves(window)
    shown = len(received)
    assert received == pytest.approx(100.0 * rows[-shown:, 1])
    assert np.isnan(device).all()
    window.replay.stop()
