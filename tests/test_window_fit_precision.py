"""The real window, offscreen, driven with pytest-qt. A fit applied keeps each value's
precision (its ±) with the tuning: the window's Godot exports write the fitted value to
it, saving a preset keeps it; moved by its slider, the value is the user's again and is
written to its slider's step. The recorded car's friction, -47.3, is the reason for the
expected literal: the fit's ± is below 0.05, so the literal says -47.3 where the step
(1) would write -47."""

import json
import re

import numpy as np
from PySide6.QtWidgets import QApplication

from sandbox.devtools.fit_drives import arcade_drive
from sandbox.files.godot import export_script
from sandbox.files.presets import BUILTIN_DIR
from sandbox.files.recordings import drive_recording, save_recording
from sandbox.ui.app import MainWindow
from sandbox.ui.window_memory import settings
from test_window_fit import FIT_WAIT_MS, fit_only
from window_helpers import paused

FRICTION = -47.3


def friction_of(script: str) -> str:
    (literal,) = re.findall(r"var friction(?:: float)? = (\S+)\n", script)
    return literal


def copied(window) -> str:
    assert window.godot.copy_script()
    return QApplication.clipboard().text()


def test_an_applied_fits_precision_goes_into_the_exports_until_the_slider_moves(window, tmp_path, qtbot):
    paused(window)
    hidden = {**dict(window.tuning), "friction": FRICTION}
    recording = drive_recording(window.model, hidden, arcade_drive(8.0, window.sim.hz), window.sim.hz)
    recording.pose[1:, :2] += np.random.default_rng(34).normal(0, 0.002, (len(recording.pose) - 1, 2))  # px
    save_recording(tmp_path / "drive.csv", recording)
    assert window.recordings.open_file(tmp_path / "drive.csv")
    assert friction_of(copied(window)) == "-55.0"  # the window's preset, on its step
    dialog = window.recordings.fit_dialog()
    fit_only(dialog, {"friction"})
    assert dialog.run()
    qtbot.waitUntil(lambda: not dialog.running, timeout=FIT_WAIT_MS)
    found, precision = dialog.chosen.params["friction"], dialog.chosen.uncertainty["friction"]
    assert abs(found - FRICTION) <= 3 * precision < 0.01, (found, precision)
    assert dialog.apply()

    literal = friction_of(copied(window))
    assert abs(float(literal) - found) <= precision and round(float(literal), 1) == FRICTION  # not -47.0
    assert window.current_preset().precision == {"friction": precision}
    assert window.files.save_preset_to(tmp_path / "fitted.json", name="fitted")
    assert json.loads((tmp_path / "fitted.json").read_text())["precision"] == {"friction": precision}

    window.undo.undo()  # the fit's values taken back: nothing fitted is left
    assert window.current_preset().precision == {} and friction_of(copied(window)) == "-55.0"
    window.undo.redo()
    assert friction_of(copied(window)) == literal

    window.panel.sliders["friction"].setValue(-40)  # the user's value now
    qtbot.waitUntil(lambda: window.tuning["friction"] == -40, timeout=60_000)
    assert window.current_preset().precision == {} and friction_of(copied(window)) == "-40.0"

    assert window.open_preset_file(tmp_path / "fitted.json")  # a saved fit: its precision with it
    assert window.tuning["friction"] == found and friction_of(copied(window)) == literal


def test_a_fitted_values_precision_comes_back_with_last_sessions_tuning(qtbot):
    """-47.30021 ± 0.0004 autosaved: restored, it is written -47.3 (0.00021 away), not -47."""
    data = json.loads((BUILTIN_DIR / "recipe_defaults.json").read_text())
    data["params"]["friction"] = -47.30021
    data["precision"] = {"friction": 0.0004}
    settings().setValue("preset/tuning", json.dumps(data))
    window = MainWindow(remember=True)
    qtbot.addWidget(window)
    assert window.tuning["friction"] == -47.30021 and window.current_preset().precision == {"friction": 0.0004}
    assert friction_of(export_script(window.current_preset(), 4)) == "-47.3"
