"""`car-sandbox screenshot` with a game recording: `--recording FILE` opens it as File →
Open game recording… does, `--dialog fit` pictures the Fit dialog run to its end on it
beside the window. The recording is a real one: the arcade car driven 30 s in the Godot 3
engine with values only the game knew (tools/make_game_recording.py)."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sandbox.devtools.fit_drives import arcade_drive
from sandbox.errors import UserError
from sandbox.files.presets import BUILTIN_DIR, load_preset
from sandbox.files.recordings import drive_recording, load_recording, save_recording
from sandbox.ui.screenshot_scenes import open_recording, replay_at, run_fit

DEFAULTS = BUILTIN_DIR / "recipe_defaults.json"
GAME = Path(__file__).parent / "data" / "recordings" / "game_arcade.csv"
GAME_VALUES = {
    "engine_power": 1037.0,
    "steering_angle": 17.3,
    "friction": -47.3,
    "drag": -0.0713,
    "traction_fast": 3.17,
}
"""What the game's car was given (tools/make_game_recording.py); the recipe's others."""
COMMAND_WAIT_S = 900
"""s a screenshot may take at most here (a first run compiles the physics and the fit)."""
PNG = b"\x89PNG\r\n\x1a\n"


def screenshot(*args):
    return subprocess.run(
        [sys.executable, "-m", "sandbox", "screenshot", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=COMMAND_WAIT_S,
    )


def png_size(path) -> tuple[int, int]:
    data = Path(path).read_bytes()
    assert data[:8] == PNG
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_a_recording_is_pictured_in_the_window(tmp_path):
    out = tmp_path / "recording.png"
    done = screenshot("--preset", DEFAULTS, "--recording", GAME, "--drive", 8, "--size", "1000x700", "--out", out)
    assert done.returncode == 0, done.stderr
    assert png_size(out) == (1000, 700)


def test_the_fit_dialog_is_pictured_beside_the_window_after_its_fit(tmp_path):
    out = tmp_path / "fit.png"
    done = screenshot("--preset", DEFAULTS, "--recording", GAME, "--dialog", "fit", "--size", "1000x700", "--out", out)
    assert done.returncode == 0, done.stderr
    width, height = png_size(out)
    assert height == 700 and width > 1000 + 400  # the window, and the dialog beside it


def test_a_bad_recording_is_refused_with_the_loader_s_message_and_nothing_written(tmp_path):
    controls_only = tmp_path / "controls.csv"
    controls_only.write_text("steer,throttle,brake\n" + "0,1,0\n" * 300)
    with pytest.raises(UserError) as why:
        load_recording(controls_only)
    for recording in (controls_only, tmp_path / "missing.csv"):
        for dialog in ((), ("--dialog", "fit")):
            out = tmp_path / "never.png"
            done = screenshot("--preset", DEFAULTS, "--recording", recording, *dialog, "--out", out)
            assert done.returncode == 2 and "Traceback" not in done.stderr
            assert str(recording) in done.stderr and not out.exists()
    assert str(why.value) in screenshot("--preset", DEFAULTS, "--recording", controls_only, "--out", out).stderr


def test_the_fit_dialog_needs_a_recording(tmp_path):
    out = tmp_path / "never.png"
    done = screenshot("--preset", DEFAULTS, "--dialog", "fit", "--out", out)
    assert done.returncode == 2 and "--dialog fit needs --recording" in done.stderr and not out.exists()


def test_the_screenshot_s_fit_finds_the_game_s_values_and_its_ghost_drives_on_the_game_s_path(window):
    """In the window, as the command stages it: the fit with the dialog's default
    choices finds what the game was given (the independent reason: the engine's car),
    and its ghost replays the recording where the game's car was."""
    window.timer.stop()
    window.apply_preset(load_preset(DEFAULTS))
    open_recording(window, GAME, 8.0)
    assert window.recordings.replaying and window.recordings.dock.isVisible()
    assert window.drive.replay_tick == 8 * window.sim.hz and not window.drive.playing
    dialog = run_fit(window)
    result = dialog.chosen
    for name, value in GAME_VALUES.items():
        assert abs(result.params[name] - value) <= max(0.01 * abs(value), result.uncertainty[name]), name
    assert "±" in dialog.report.toPlainText()
    replay_at(window, 8.0)
    ghosts = [g for g in window.drive.ghosts if g.name.startswith("fit: ")]
    assert len(ghosts) == 1
    tick = window.drive.replay_tick
    recorded = window.recordings.drive
    ghost = ghosts[0].sim.state
    assert np.hypot(float(ghost.x[0]) - recorded.x[tick], float(ghost.y[0]) - recorded.y[tick]) < 1.0  # px
    car = window.sim.state  # the recipe's values part from the game's car
    assert np.hypot(float(car.x[0]) - recorded.x[tick], float(car.y[0]) - recorded.y[tick]) > 100.0
    dialog.close()


def test_a_recording_at_another_tick_rate_switches_the_window_to_it_without_asking(window, tmp_path):
    """The window would ask (a modal question) whether to switch; the screenshot has no
    one to answer, so it switches, as the question's first answer does. A rate the
    window does not tick at is refused, naming the rates it does."""
    window.timer.stop()
    drive = arcade_drive(3.0, 120)
    save_recording(tmp_path / "at120.csv", drive_recording(window.model, window.tuning, drive, 120))
    open_recording(window, tmp_path / "at120.csv", 2.0)
    assert window.sim.hz == 120 and window.recordings.replaying and window.drive.replay_tick == 240
    save_recording(tmp_path / "at50.csv", drive_recording(window.model, window.tuning, arcade_drive(3.0, 50), 50))
    with pytest.raises(UserError, match="recorded at 50 Hz; the window ticks at 30, 60, 120, 144, 240 Hz only"):
        open_recording(window, tmp_path / "at50.csv", 2.0)
