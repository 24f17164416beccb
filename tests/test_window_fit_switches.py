"""The real window, offscreen: the Fit dialog sets the model's switches as a recording
from the game states them (its `# switches:` line), says so, and Apply makes them the
window's."""

from sandbox.devtools.fit_drives import arcade_drive
from sandbox.files.recordings import drive_recording, save_recording
from window_helpers import paused

FIT_WAIT_MS = 300_000
"""ms the test waits at most for a fit (a first run compiles the fit's kernels)."""


def test_the_dialog_sets_the_switches_the_recording_states_and_applies_them(window, tmp_path, qtbot):
    paused(window)
    assert window.model.NAME == "arcade" and window.tuning["analog_pedals"] is False
    game = dict(window.tuning, analog_pedals=True, engine_power=window.tuning["engine_power"] * 1.2)
    drive = arcade_drive(8.0, window.sim.hz)
    drive[:, 1] *= 0.6  # a gamepad's trigger part pressed: analog pedals drive otherwise
    recording = drive_recording(window.model, game, drive, window.sim.hz)
    recording.switches = {"analog_pedals": True, "recipe_2020": False, "rate_independent": False}
    path = tmp_path / "game.csv"
    save_recording(path, recording)
    dialog = window.recordings.fit_dialog()
    assert dialog.open_file(path)
    assert "analog_pedals on" in dialog.file_label.text()
    for name, check in dialog.checks.items():
        check.setChecked(name == "engine_power")
    assert dialog.run()
    qtbot.waitUntil(lambda: not dialog.running, timeout=FIT_WAIT_MS)
    result = dialog.chosen
    assert result.tuning["analog_pedals"] is True and result.verdict == "good"
    assert abs(result.params["engine_power"] / game["engine_power"] - 1) < 1e-6
    report = dialog.report.toPlainText()
    assert "switches from the recording (the game's script): analog_pedals on" in report
    assert dialog.apply()
    assert window.tuning["analog_pedals"] is True
