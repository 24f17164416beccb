"""The real window, offscreen, driven with pytest-qt. The Fit dialog: a recording made
with values the test does not tell the window is fitted, the fitted tuning drives as
a ghost over the recording, and Apply makes it the window's in one undo step."""

import re

import numpy as np

from sandbox.analysis.fit import fit
from sandbox.devtools.fit_drives import arcade_drive, wall_contact
from sandbox.files.recordings import drive_recording, save_recording
from sandbox.physics.models import MODELS
from sandbox.physics.params import Tuning
from sandbox.ui.fit_job import result_html
from window_helpers import paused

FIT_WAIT_MS = 300_000
"""ms the test waits at most for a fit (a first run compiles the fit's kernels)."""


def hidden_recording(window, path, seconds=8.0):
    """A recording of the window's model driving the fit's arcade drive with two values
    changed from the window's (more engine power, less rolling friction)."""
    hidden = dict(window.tuning)
    hidden["engine_power"] = window.tuning["engine_power"] * 1.2
    hidden["friction"] = window.tuning["friction"] * 0.8
    recording = drive_recording(window.model, hidden, arcade_drive(seconds, window.sim.hz), window.sim.hz)
    save_recording(path, recording)
    return hidden, recording


def fit_only(dialog, names):
    for name, check in dialog.checks.items():
        check.setChecked(name in names)


def test_the_fit_finds_the_hidden_values_drives_them_as_a_ghost_and_applies_them_as_one_step(window, tmp_path, qtbot):
    paused(window)
    hidden, recording = hidden_recording(window, tmp_path / "drive.csv")
    assert window.recordings.open_file(tmp_path / "drive.csv")
    before = dict(window.tuning)
    dialog = window.recordings.fit_dialog()
    assert dialog.recording is window.recordings.recording  # the one replayed, by default
    assert dialog.segment.value() == window.sim.hz  # the fit's default: one second
    fit_only(dialog, {"engine_power", "friction"})
    assert dialog.run()
    qtbot.waitUntil(lambda: not dialog.running, timeout=FIT_WAIT_MS)
    result = dialog.chosen
    assert result is not None and result.model is window.model
    for name in ("engine_power", "friction"):  # the values the recording was made with
        assert abs(result.params[name] - hidden[name]) <= max(3 * result.uncertainty[name], 1e-6 * abs(hidden[name]))
    assert result.verdict == "good" and result.undetermined == []
    report = dialog.report.toPlainText()
    assert "Engine power" in report and "±" in report and "position error RMS" in report and "px" in report
    assert dict(window.tuning) == before  # nothing applied yet

    # the ghost: the fitted tuning replaying the recording's controls from its start
    ghosts = [g for g in window.drive.ghosts if g.name.startswith("fit: ")]
    assert len(ghosts) == 1 and window.recordings.replaying
    ticks = window.recordings.drive.ticks
    window.replay.scrub(ticks)
    ghost = ghosts[0].sim.state
    end = recording.pose[-1]
    assert np.hypot(float(ghost.x[0]) - end[0], float(ghost.y[0]) - end[1]) < 1e-3  # px, after 8 s
    car = window.sim.state  # the window's own tuning parts from it
    assert np.hypot(float(car.x[0]) - end[0], float(car.y[0]) - end[1]) > 10.0

    assert dialog.apply()
    for name in ("engine_power", "friction"):
        assert window.tuning[name] == result.params[name]
    assert not [g for g in window.drive.ghosts if g.name.startswith("fit: ")]
    assert float(np.max(window.recordings.result.distance)) < 1e-3  # the car now drives the recording
    window.undo.undo()  # one step takes the whole fit back
    assert dict(window.tuning) == before


def test_cancel_stops_the_fit_with_the_best_so_far_and_applying_nothing_found_changes_nothing(window, tmp_path, qtbot):
    paused(window)
    hidden_recording(window, tmp_path / "drive.csv")
    assert window.recordings.open_file(tmp_path / "drive.csv")
    before, steps = dict(window.tuning), window.undo.count()
    dialog = window.recordings.fit_dialog()
    fit_only(dialog, {"engine_power"})
    assert dialog.run()
    assert dialog.cancel_button.isEnabled() and not dialog.run_button.isEnabled()
    dialog.cancel()
    qtbot.waitUntil(lambda: not dialog.running, timeout=FIT_WAIT_MS)
    assert dialog.status.text().startswith("Stopped: the best so far.")
    assert dict(window.tuning) == before and window.undo.count() == steps
    assert [g for g in window.drive.ghosts if g.name.startswith("fit: ")]  # the best so far drives
    dialog.close()  # and goes with the dialog
    assert not [g for g in window.drive.ghosts if g.name.startswith("fit: ")]


def test_a_bad_recording_chosen_in_the_dialog_says_why_and_keeps_the_one_it_had(window, tmp_path):
    paused(window)
    hidden_recording(window, tmp_path / "drive.csv")
    assert window.recordings.open_file(tmp_path / "drive.csv")
    dialog = window.recordings.fit_dialog()
    (tmp_path / "controls.csv").write_text("steer,throttle,brake\n0,1,0\n")
    assert not dialog.open_file(tmp_path / "controls.csv")
    assert "no pose columns" in window.last_error
    assert dialog.recording is window.recordings.recording


def test_a_fit_of_another_model_switches_the_model_after_the_unsaved_work_question(window, tmp_path, qtbot):
    """A drive of the kinematic bicycle (its reference preset, acceleration 20 % up) fitted
    with the bicycle from the arcade's window: Apply offers the switch, asks about the
    arcade's unsaved change as every model switch does, and drives the fitted bicycle."""
    from PySide6.QtWidgets import QMessageBox

    from dialogs import answer
    from sandbox.physics.models import MODELS
    from sandbox.ui.fit_dialog import start_preset

    paused(window)
    bicycle = MODELS["bicycle"]
    hidden = dict(start_preset(bicycle).tuning)
    hidden["acceleration"] *= 1.2
    recording = drive_recording(bicycle, hidden, arcade_drive(8.0, window.sim.hz), window.sim.hz)
    save_recording(tmp_path / "bicycle.csv", recording)
    assert window.recordings.open_file(tmp_path / "bicycle.csv")
    window.panel.set_values({"drag": -0.05}, "a change of the user's")  # unsaved work
    dialog = window.recordings.fit_dialog()
    dialog.model_box.setCurrentIndex(dialog.model_box.findData("bicycle"))
    fit_only(dialog, {"acceleration"})
    assert dialog.run()
    qtbot.waitUntil(lambda: not dialog.running, timeout=FIT_WAIT_MS)
    result = dialog.chosen
    assert result.model is bicycle
    assert abs(result.params["acceleration"] - hidden["acceleration"]) <= max(
        3 * result.uncertainty["acceleration"], 1e-6 * hidden["acceleration"]
    )
    assert [g.sim.model for g in window.drive.ghosts if g.name.startswith("fit: ")] == [bicycle]
    assert dialog.apply_button.text().replace("&", "") == "Switch to Kinematic bicycle (blog, 2010) and apply"
    asked = []
    answer(QMessageBox.StandardButton.Discard, asked)
    assert dialog.apply()
    assert asked and "not saved" in asked[0]
    assert window.model is bicycle and window.tuning["acceleration"] == result.params["acceleration"]


class _Started(Exception):
    """Stops `car-sandbox fit` once it has said what it starts from."""


def test_another_models_fit_starts_where_the_command_starts(window, tmp_path, monkeypatch):
    """For every model but the window's, the dialog's start tuning is the one
    `car-sandbox fit --model M` hands its search (caught as the search is called), and
    that is the reference preset docs/commands.md names for it (a file of its own)."""
    import sandbox.analysis.fit as fit_module
    from sandbox.cli import main
    from sandbox.files.presets import BUILTIN_DIR, load_preset
    from sandbox.physics.models import MODELS

    paused(window)
    hidden_recording(window, tmp_path / "drive.csv", seconds=3.0)
    assert window.recordings.open_file(tmp_path / "drive.csv")
    dialog = window.recordings.fit_dialog()
    documented = {  # docs/commands.md, fit: "the model's reference preset"
        "bicycle": "bicycle_blog",
        "ackermann": "ackermann_van",
        "rigid_body": "rigid_body_seed",
        "monster": "monster_corvette_c5",
    }

    def started(model, recording, start, names, hz, **options):
        raise _Started(dict(start))

    monkeypatch.setattr(fit_module, "fit", started)
    monkeypatch.setattr(fit_module, "screen", started)  # the quick fits that screen the switches come first
    for name, stem in documented.items():
        model = MODELS[name]
        try:
            main(["fit", "--trace", str(tmp_path / "drive.csv"), "--model", name])
        except _Started as caught:
            command = caught.args[0]
        else:
            raise AssertionError(f"car-sandbox fit --model {name} never started a search")
        dialog.model_box.setCurrentIndex(dialog.model_box.findData(name))
        assert dialog.start_of(model) == command
        assert command == dict(load_preset(BUILTIN_DIR / f"{stem}.json").tuning)
        reference = load_preset(BUILTIN_DIR / f"{stem}.json").name
        assert dialog.start_label.text().startswith(reference)
        for p, check in ((p, dialog.checks[p.name]) for p in model.PARAMS if p.name in dialog.checks):
            assert f"kept at {command[p.name]:g}" in check.toolTip()


def test_a_residual_no_noise_explains_is_said_in_the_dialogs_words():
    """The Fit dialog's text for a fit with a value held wrong (the wheel base 70 px for
    82) says the residual is beyond the recording's noise; for the free fit it does not."""
    model = MODELS["arcade"]
    start = dict(Tuning(model.PARAMS))
    hidden = {"wheel_base": 82.0, "engine_power": 1037.0, "traction_slow": 8.43}
    recording = drive_recording(model, dict(start, **hidden), arcade_drive(6.0), 60, velocity=False)
    held = fit(model, recording, start, ["engine_power", "traction_slow"], 60)
    free = fit(model, recording, start, list(hidden), 60)
    assert "times what the recording's noise explains" in result_html(held, best=True)
    assert "noise explains" not in result_html(free, best=True)
    # the held fit's ± would mean nothing: not given, and what to try is said instead
    assert "(± not meaningful)" in result_html(held, best=True) and not re.search(r"± \d", result_html(held, best=True))
    assert "What to try: free the" in result_html(held, best=True)
    assert re.search(r"± \d", result_html(free, best=True)) and "What to try" not in result_html(free, best=True)


def test_a_stretch_the_model_cannot_explain_is_named_and_shaded_on_the_divergence_plot(window, tmp_path, qtbot):
    """A wall glances the recorded car for 15 ticks at 25.6 s: the dialog names the
    second it is in as left out, the Recording tab's plot shades it, and another
    recording opened takes the shade away."""
    paused(window)
    hidden = dict(window.tuning, wheel_base=82.0, steering_angle=17.3)
    hz = window.sim.hz
    save_recording(tmp_path / "wall.csv", wall_contact(window.model, hidden, arcade_drive(30.0, hz), hz, 25.6, 15))
    assert window.recordings.open_file(tmp_path / "wall.csv")
    dialog = window.recordings.fit_dialog()
    fit_only(dialog, {"wheel_base", "steering_angle"})
    assert dialog.run()
    qtbot.waitUntil(lambda: not dialog.running, timeout=FIT_WAIT_MS)
    result = dialog.chosen
    assert result.left_out_spans == [[25.0, 26.0]]
    assert "Left out: 25.00–26.00 s" in dialog.report.toPlainText()
    shaded = window.recordings.plot.spans
    assert [tuple(item.getRegion()) for item in shaded] == [(25.0, 26.0)]
    hidden_recording(window, tmp_path / "plain.csv")
    assert window.recordings.open_file(tmp_path / "plain.csv")
    assert window.recordings.plot.spans == []
