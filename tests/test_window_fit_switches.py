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


def _analog_recording(window, path, seconds=8.0, wall_at=None):
    """A drive of the window's car with analog pedals on, pedals part pressed, more
    engine power than the window's (no `# switches:` line: the fit must try them);
    with a wall glancing the car for 15 ticks at `wall_at` s if given."""
    from sandbox.devtools.fit_drives import wall_contact
    from test_fit_switches import part_pressed

    game = dict(window.tuning, analog_pedals=True, engine_power=window.tuning["engine_power"] * 1.2)
    drive = part_pressed(arcade_drive(seconds, window.sim.hz))
    if wall_at is None:
        recording = drive_recording(window.model, game, drive, window.sim.hz)
    else:
        recording = wall_contact(window.model, game, drive, window.sim.hz, wall_at, 15)
    save_recording(path, recording)
    return game


def _fit_in_dialog(window, path, free):
    dialog = window.recordings.fit_dialog()
    assert dialog.open_file(path)
    for name, check in dialog.checks.items():
        check.setChecked(free is None or name in free)
    assert dialog.run()
    return dialog


def test_what_to_try_in_the_dialog_names_no_switch_it_tried_as_the_command_says(window, tmp_path, qtbot):
    """Only steering free (the engine power held wrong): a poor fit; the report's what to
    try is fit_advice's list in the dialog's words: the other sets' residuals, never a
    switch tried."""
    from sandbox.analysis.fit_advice import what_to_try
    from sandbox.ui.fit_job import DIALOG

    paused(window)
    _analog_recording(window, tmp_path / "analog.csv")
    dialog = _fit_in_dialog(window, tmp_path / "analog.csv", {"steering_angle"})
    qtbot.waitUntil(lambda: not dialog.running, timeout=FIT_WAIT_MS)
    assert dialog.progress.value() == 1000
    search = dialog._runs[0].search
    report = " ".join(dialog.report.toPlainText().split())
    tries = what_to_try(dialog.chosen, DIALOG, search)
    assert tries and all(" ".join(t.split()) in report for t in tries)
    assert "on/off options" not in report and "not a switch of those tried: the other 5 sets of switches" in report
    assert "free the 9 values held at the start (tick them among the free parameters)" in report


def test_the_switch_search_runs_beside_the_window_with_progress_and_cancel_stops_it(window, tmp_path, qtbot):
    """The whole search (quick fits, then whole fits) runs on the worker: its progress
    reaches the window while it runs, and Cancel ends it with one set fitted, the best
    so far."""
    paused(window)
    _analog_recording(window, tmp_path / "analog.csv", seconds=20.0)
    dialog = _fit_in_dialog(window, tmp_path / "analog.csv", None)
    qtbot.waitUntil(lambda: dialog.progress.value() > 0, timeout=FIT_WAIT_MS)
    assert dialog.running  # the window went on while the search runs
    dialog.cancel()
    qtbot.waitUntil(lambda: not dialog.running, timeout=FIT_WAIT_MS)
    assert dialog.status.text().startswith("Stopped: the best so far.")
    search = dialog._runs[0].search
    assert len(search.tried) == 1 and search.result is dialog.chosen


def test_a_drive_needing_a_switch_with_a_wall_contact_is_reported_with_both(window, tmp_path, qtbot):
    paused(window)
    game = _analog_recording(window, tmp_path / "wall.csv", seconds=20.0, wall_at=12.5)
    dialog = _fit_in_dialog(window, tmp_path / "wall.csv", {"engine_power"})
    qtbot.waitUntil(lambda: not dialog.running, timeout=FIT_WAIT_MS)
    result = dialog.chosen
    assert result.tuning["analog_pedals"] is True and result.left_out_spans == [[12.0, 13.0]]
    assert abs(result.params["engine_power"] / game["engine_power"] - 1) < 1e-3
    report = " ".join(dialog.report.toPlainText().split())
    assert "Left out: 12.00–13.00 s (1 of 20 segments)" in report and "analog_pedals on" in report
    assert "What to try" not in report and "not meaningful" not in report
