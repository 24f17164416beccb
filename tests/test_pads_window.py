"""The real window driven with game controllers: virtual pads attached through the same
SDL library the window polls (headless, SDL_VIDEODRIVER=dummy), the window offscreen.
The status bar names what is connected; the stick reaches the car on the next physics
tick with Godot's dead zones (written out in virtual_pads.godot_axis); keyboard and pad
at once, the larger wins; a pad pulled out mid-drive stops nothing; the pad's buttons
do what the keys and menus do; the dead zones of a project.godot, kept between runs."""

import os
import sys
import time

import pytest
from PySide6.QtCore import Qt

os.environ["SDL_VIDEODRIVER"] = "dummy"  # headless: the sandbox itself never touches it

from sandbox.ui.window_memory import settings  # noqa: E402
from virtual_pads import Virtual, godot_axis  # noqa: E402

K = Qt.Key
DEADLINE_S = 20.0
STICK_X, TRIGGER_RIGHT = 0, 5
BUTTON_A, BUTTON_Y, BUTTON_BACK = 0, 3, 4

EVENT = (
    'Object(InputEventJoypadMotion,"resource_local_to_scene":false,"resource_name":"","device":0,"axis":0,"axis_value":'
)
"""How Godot 3 writes a stick's event, up to its value (one line in the file)."""
PROJECT_GODOT3 = """; Engine configuration file.
; It's best edited using the editor UI and not directly,
; since the parameters that go here are not all obvious.
;
; Format:
;   [section] ; section goes here
;   param=value ; assign values to parameters

config_version=4

[application]

config/name="My car game"
run/main_scene="res://main.tscn"

[input]

steer_left={
"deadzone": 0.3,
"events": [ {EVENT}-1.0,"script":null)
 ]
}
steer_right={
"deadzone": 0.15,
"events": [ {EVENT}1.0,"script":null)
 ]
}
""".replace("{EVENT}", EVENT)


@pytest.fixture
def sdl(window, qtbot):
    """The SDL the window polls (started after the window's first paint); every virtual
    device left is detached after the test."""
    qtbot.waitUntil(lambda: window.controllers.pads is not None, timeout=DEADLINE_S * 1000)
    sdl = window.controllers.pads.sdl
    assert sdl is not None, window.controllers.pads.error
    yield sdl
    while sdl.SDL_NumJoysticks() > 0 and sdl.SDL_JoystickIsVirtual(0):
        sdl.SDL_JoystickDetachVirtual(0)


def connected(window) -> str:
    label = window.controllers.label
    return "" if label.isHidden() else label.text()


def frame_with_a_tick(window) -> None:
    """The window's frames, one after another (the frame timer stopped meanwhile), until
    one runs a physics tick; then the timer runs the frames again."""
    window.timer.stop()
    before = window.sim.ticks
    deadline = time.monotonic() + DEADLINE_S
    while window.sim.ticks == before:
        window.drive_view.frame()
        assert time.monotonic() < deadline, "no frame ran a physics tick"
    window.drive_view.start_frames()


def test_a_pad_plugged_in_is_named_and_its_stick_steers_the_car_on_the_next_tick(window, qtbot, sdl):
    assert connected(window) == ""
    pad = Virtual(sdl)
    qtbot.waitUntil(lambda: connected(window) == "pad: Virtual Controller", timeout=DEADLINE_S * 1000)
    for raw in (24000, -20000, 10000, -32768, 16384, 0, 32767):
        pad.axis(STICK_X, raw)
        frame_with_a_tick(window)
        assert window.drive.controls.steer == pytest.approx(godot_axis(raw, 0.5, 0.5), abs=1e-6), raw
    assert window.drive.controls.steer == 1.0
    two = Virtual(sdl)
    qtbot.waitUntil(lambda: connected(window) == "2 controllers", timeout=DEADLINE_S * 1000)
    two.detach()
    qtbot.waitUntil(lambda: connected(window) == "pad: Virtual Controller", timeout=DEADLINE_S * 1000)


def test_keyboard_and_pad_at_once_per_control_the_larger_wins(window, qtbot, sdl):
    pad = Virtual(sdl)
    qtbot.waitUntil(lambda: connected(window) != "", timeout=DEADLINE_S * 1000)
    pad.axis(STICK_X, -20000)  # a little left, past Godot 3's dead zone
    pad.axis(TRIGGER_RIGHT, 32767)  # the throttle, full
    qtbot.keyPress(window.track, K.Key_D)  # full right on the keyboard
    frame_with_a_tick(window)
    c = window.drive.controls
    assert (c.steer, c.throttle, c.brake) == (1.0, 1.0, 0.0)
    qtbot.keyRelease(window.track, K.Key_D)
    qtbot.keyPress(window.track, K.Key_S)
    frame_with_a_tick(window)
    c = window.drive.controls
    assert c.steer == pytest.approx(godot_axis(-20000, 0.5, 0.5), abs=1e-6) and -1 < c.steer < 0
    assert (c.throttle, c.brake) == (1.0, 1.0)
    qtbot.keyRelease(window.track, K.Key_S)


def test_a_pad_pulled_out_mid_drive_stops_nothing_and_lets_go(window, qtbot, sdl):
    pad = Virtual(sdl)
    qtbot.waitUntil(lambda: connected(window) != "", timeout=DEADLINE_S * 1000)
    pad.axis(STICK_X, 32767)
    pad.axis(TRIGGER_RIGHT, 32767)
    qtbot.waitUntil(lambda: window.drive.controls.steer == 1.0 and window.sim.state.vx[0] > 0, timeout=60_000)
    pad.detach()  # pulled out with the stick held right and the throttle down
    qtbot.waitUntil(lambda: connected(window) == "", timeout=DEADLINE_S * 1000)
    ticks = window.sim.ticks  # the car keeps being driven from here on
    qtbot.waitUntil(lambda: window.sim.ticks > ticks + 5, timeout=DEADLINE_S * 1000)
    assert window.timer.isActive()
    c = window.drive.controls
    assert (c.steer, c.throttle) == (0.0, 0.0)  # let go, not stuck
    Virtual(sdl)
    qtbot.waitUntil(lambda: connected(window) == "pad: Virtual Controller", timeout=DEADLINE_S * 1000)


def test_the_pads_buttons_hold_the_handbrake_reset_the_car_and_record(window, qtbot, sdl):
    pad = Virtual(sdl)
    qtbot.waitUntil(lambda: connected(window) != "", timeout=DEADLINE_S * 1000)
    pad.button(BUTTON_A, True)
    frame_with_a_tick(window)
    assert window.drive.controls.handbrake == 1.0
    pad.button(BUTTON_A, False)
    frame_with_a_tick(window)
    assert window.drive.controls.handbrake == 0.0
    window.sim.state.x[:] = 500.0
    window.sim.state.vx[:] = 100.0
    pad.button(BUTTON_Y, True)
    frame_with_a_tick(window)
    assert window.sim.state.x[0] < 10.0  # back at the start, as Car → Reset car puts it
    record = window.replay.bar.record_action
    assert not record.isChecked()
    pad.button(BUTTON_BACK, True)
    frame_with_a_tick(window)
    assert record.isChecked() and window.drive.recording is not None
    pad.button(BUTTON_BACK, False)
    frame_with_a_tick(window)
    pad.button(BUTTON_BACK, True)
    frame_with_a_tick(window)
    assert not record.isChecked()


def test_dead_zones_read_from_a_project_godot_and_a_bad_one_changes_nothing(window, qtbot, sdl, tmp_path):
    game = tmp_path / "game"
    game.mkdir()
    (game / "project.godot").write_text(PROJECT_GODOT3)
    assert window.controllers.read_project(game / "project.godot")
    assert "steer_left 0.3" in window.statusBar().currentMessage()
    pad = Virtual(sdl)
    qtbot.waitUntil(lambda: connected(window) != "", timeout=DEADLINE_S * 1000)
    for raw in (-20000, -9000, 8000, 4000):
        pad.axis(STICK_X, raw)
        frame_with_a_tick(window)
        assert window.drive.controls.steer == pytest.approx(godot_axis(raw, 0.3, 0.15), abs=1e-6), raw
    zones = window.controllers.dead_zones
    broken = tmp_path / "broken.godot"
    broken.write_text(PROJECT_GODOT3.replace('"deadzone": 0.15,', '"deadzone": [0.15,'))
    for bad in (broken, tmp_path / "missing" / "project.godot"):
        assert not window.controllers.read_project(bad)
        message = window.statusBar().currentMessage()
        assert message.startswith("Dead zones not read") and bad.name in message
        assert window.controllers.dead_zones is zones
    window.dead_zone_actions.actions()[2].trigger()  # Godot 4.4 and later, without a project
    assert window.controllers.dead_zones.default == 0.2 and window.controllers.project == ""


def test_the_project_is_kept_between_runs_and_a_broken_setting_falls_back(qtbot, tmp_path):
    from sandbox.ui.app import MainWindow

    game = tmp_path / "game"
    game.mkdir()
    (game / "project.godot").write_text(PROJECT_GODOT3)
    store = settings()
    store.setValue("controllers/project", str(game / "project.godot"))
    store.setValue("controllers/godot", "banana")
    store.sync()
    window = MainWindow()
    qtbot.addWidget(window)
    assert window.controllers.engine == "3" and window.controllers.dead_zones.of("steer_left") == 0.3
    assert not settings().contains("controllers/godot")  # the broken value is gone, its default used
    qtbot.waitUntil(lambda: "controllers/godot" in window.statusBar().currentMessage(), timeout=DEADLINE_S * 1000)
    window.close()
    (game / "project.godot").unlink()
    again = MainWindow()
    qtbot.addWidget(again)
    assert "Controller dead zones" in again.statusBar().currentMessage()
    assert again.controllers.dead_zones.of("steer_left") == 0.5  # Godot 3's default
    with qtbot.waitExposed(again):
        again.show()
    qtbot.waitUntil(lambda: again.controllers.pads is not None, timeout=DEADLINE_S * 1000)
    assert again.controllers.pads.dead_zones is again.controllers.dead_zones  # SDL started with them
    again.close()


def test_without_sdl_the_window_drives_on_the_keyboard_with_one_note(qtbot, monkeypatch):
    from sandbox.ui.app import MainWindow

    monkeypatch.setitem(sys.modules, "sdl2", None)  # as if PySDL2 or its library were missing
    window = MainWindow(remember=False)
    qtbot.addWidget(window)
    assert window.controllers.pads is None  # SDL starts after the first paint, which has not come
    with qtbot.waitExposed(window):
        window.show()
    qtbot.waitUntil(lambda: window.controllers.pads is not None, timeout=DEADLINE_S * 1000)
    assert window.statusBar().currentMessage().count("game controllers are off") == 1
    qtbot.keyPress(window.track, K.Key_D)
    frame_with_a_tick(window)
    assert window.drive.controls.steer == 1.0 and connected(window) == ""
    qtbot.keyRelease(window.track, K.Key_D)
    window.close()
