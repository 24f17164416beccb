"""On a noisy recording every value's quoted uncertainty covers its error: the
recording is made by the sandbox's own car under values the fit is not told (the
independent reason: those values), with noise of a known size on every pose, and the
fit starts from the recipe's defaults with every slider free. Wheel base and steering
angle trade off along a long valley (together they set the turn), and the slip speed
is a threshold the differences do not see: neither may come back quoted far surer
than it is."""

from __future__ import annotations

import numpy as np
import pytest

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


@pytest.fixture(scope="module")
def noisy():
    """(the fit, the hidden tuning) of a 30-s drive with position noise of 0.3 px and
    heading noise of 0.002 rad (σ) on every pose, the velocity recorded as it was: the
    noise pulls the wheel base and the steering angle about a quarter off together."""
    preset = load_preset(BUILTIN_DIR / "recipe_defaults.json")
    start = dict(preset.tuning)
    hidden = dict(start, **ARCADE_HIDDEN)
    recording = drive_recording(preset.model, hidden, arcade_drive(30.0), 60, velocity=True)
    noise = np.random.default_rng(7).normal(0.0, 1.0, recording.pose.shape) * [0.3, 0.3, 0.002]
    drive = RecordedDrive(recording.controls, recording.pose + noise, recording.velocity)
    return fit(preset.model, drive, start, free_names(preset.model), 60), hidden


def test_every_value_of_a_noisy_recording_is_within_three_of_its_standard_deviations(noisy):
    result, hidden = noisy
    assert result.verdict == "good" and not result.beyond_noise  # the noise explains the residual
    determined = [name for name in result.names if name not in result.undetermined]
    assert "wheel_base" in determined and "slip_speed" in determined
    for name in determined:
        error = abs(result.params[name] - hidden[name])
        assert 0 < result.uncertainty[name] and error <= K * result.uncertainty[name], (
            f"{name}: {result.params[name]:.6g} for {hidden[name]:.6g} (± {result.uncertainty[name]:.3g}): "
            f"{error / result.uncertainty[name]:.1f} σ off"
        )


def test_the_ratio_the_noisy_drive_shows_is_named_with_its_own_uncertainty(noisy):
    """The wheel base and steering angle come back off together; their ratio, which sets
    the turn, is named, its relative ± and its relative error both far below theirs."""
    result, hidden = noisy
    ratio = hidden["steering_angle"] / hidden["wheel_base"]
    named = {tie["of"]: tie for tie in result.tied}
    assert list(named) == ["steering_angle / wheel_base"]
    tie = named["steering_angle / wheel_base"]
    assert tie["value"] == pytest.approx(result.params["steering_angle"] / result.params["wheel_base"])
    wheel_base_error = abs(result.params["wheel_base"] / hidden["wheel_base"] - 1)
    assert abs(tie["value"] / ratio - 1) < wheel_base_error / 10
    assert tie["uncertainty"] / tie["value"] < result.uncertainty["wheel_base"] / result.params["wheel_base"] / 5
