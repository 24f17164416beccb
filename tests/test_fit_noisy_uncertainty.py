"""On a noisy recording every value's quoted uncertainty covers its error: the
recording is made by the sandbox's own car under values the fit is not told (the
independent reason: those values), with noise of a known size on every pose, and the
fit starts from the recipe's defaults with every slider free. Wheel base and steering
angle trade off along a long valley (together they set the turn), and the slip speed
is a threshold the differences do not see: neither may come back quoted far surer
than it is."""

from __future__ import annotations

import numpy as np

from sandbox.analysis.fit import fit
from sandbox.analysis.fit_objective import RecordedDrive
from sandbox.analysis.tune_space import free_names
from sandbox.devtools.bench_fit import ARCADE_HIDDEN
from sandbox.devtools.fit_drives import arcade_drive
from sandbox.files.presets import BUILTIN_DIR, load_preset
from sandbox.files.recordings import drive_recording

K = 3.0
"""Standard deviations each value's error may be: nine values all within two would
happen about two times in three, all within three nearly always."""


def test_every_value_of_a_noisy_recording_is_within_three_of_its_standard_deviations():
    """Position noise of 0.3 px and heading noise of 0.002 rad (σ) on every pose, the
    velocity recorded as it was, a 30-s drive: the noise pulls the wheel base and the
    steering angle about a quarter off together, and their ± must say so."""
    preset = load_preset(BUILTIN_DIR / "recipe_defaults.json")
    start = dict(preset.tuning)
    hidden = dict(start, **ARCADE_HIDDEN)
    recording = drive_recording(preset.model, hidden, arcade_drive(30.0), 60, velocity=True)
    noise = np.random.default_rng(7).normal(0.0, 1.0, recording.pose.shape) * [0.3, 0.3, 0.002]
    drive = RecordedDrive(recording.controls, recording.pose + noise, recording.velocity)
    names = free_names(preset.model)
    result = fit(preset.model, drive, start, names, 60)
    assert result.verdict == "good" and not result.beyond_noise  # the noise explains the residual
    determined = [name for name in names if name not in result.undetermined]
    assert "wheel_base" in determined and "slip_speed" in determined
    for name in determined:
        error = abs(result.params[name] - hidden[name])
        assert 0 < result.uncertainty[name] and error <= K * result.uncertainty[name], (
            f"{name}: {result.params[name]:.6g} for {hidden[name]:.6g} (± {result.uncertainty[name]:.3g}): "
            f"{error / result.uncertainty[name]:.1f} σ off"
        )
