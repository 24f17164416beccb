"""The fit tells the truth: a recording of the real engine fitted from its true values is
not flagged as beyond its noise (the engine's 32-bit arithmetic and the recording's
digits are noise), one with a value held wrong is; a stretch the model cannot explain
(a wall glancing the car) is named and left out, the values coming from the rest; a
drive the model cannot explain at all is not mostly left out."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from sandbox.analysis.fit import fit, summary
from sandbox.analysis.fit_noise import float32_positions, quantum, rounding_rms
from sandbox.analysis.fit_objective import Objective
from sandbox.analysis.fit_outliers import MAX_SHARE
from sandbox.devtools.bench_fit import ARCADE_HIDDEN
from sandbox.devtools.fit_drives import arcade_drive, wall_contact
from sandbox.files.presets import BUILTIN_DIR, load_preset
from sandbox.files.recordings import drive_recording, load_recording

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from make_game_recording import GAME_VALUES  # noqa: E402

GAME = ROOT / "tests" / "data" / "recordings" / "game_arcade.csv"
GAME_WALL = ROOT / "tests" / "data" / "recordings" / "game_arcade_wall.csv"
"""The same drive in the engine with a wall glancing the car for 14 ticks from 25.5 s
(tools/make_game_recording.py --wall): the engine's own collision."""
WALL_AT = 25.6
"""s: the middle of the wall contact (15 ticks)."""


@pytest.fixture(scope="module")
def recipe():
    return load_preset(BUILTIN_DIR / "recipe_defaults.json")


@pytest.fixture(scope="module")
def game(recipe):
    """(the engine's recording, the tuning the game drove it with)."""
    return load_recording(GAME), {**dict(recipe.tuning), **GAME_VALUES}


def test_the_engine_recording_is_seen_as_float32_written_to_six_decimals(game):
    recording, _ = game
    assert [quantum(recording.pose[:, k]) for k in range(3)] == [1e-6, 1e-6, 1e-6]
    assert float32_positions(recording.pose)


def test_the_sandboxs_own_drive_is_not_float32_whatever_its_digits(recipe):
    """The sandbox computes in 64 bits: its positions, written in full or to six
    decimals, are not float32 numbers; the same drive put through float32 is."""
    drive = drive_recording(recipe.model, dict(recipe.tuning), arcade_drive(10.0), 60)
    assert quantum(drive.pose[:, 0]) == 0.0 and quantum(np.round(drive.pose[:, 0], 3)) == pytest.approx(1e-3)
    assert not float32_positions(drive.pose) and not float32_positions(np.round(drive.pose, 6))
    assert float32_positions(np.round(drive.pose.astype(np.float32).astype(np.float64), 6))


@pytest.mark.parametrize("segment", [10, 30, 60, 120])
def test_float32_rounding_predicts_the_engine_recordings_residual_at_its_true_values(game, recipe, segment):
    """Independent of any fit: the residual of the engine's recording under the values
    the game was given grows with the segment as float32's spacing at the car's
    position predicts it (within a factor of two either way), from 0.0003 to 0.006 px."""
    recording, truth = game
    objective = Objective(recipe.model, recording, recording.hz, truth, segment)
    residual = summary(objective, truth, []).rms_position
    length = float(recipe.model.body(truth)["length"])
    predicted = rounding_rms(objective.pose, objective.anchors, objective.ends, length)
    assert predicted / 2 < residual < 2 * predicted


def test_the_engine_recording_fitted_from_its_true_values_is_not_beyond_its_noise(game, recipe):
    recording, truth = game
    result = fit(recipe.model, recording, truth, list(GAME_VALUES), recording.hz)
    assert result.verdict == "good" and not result.beyond_noise
    assert result.left_out_spans == [] and result.standing_out == 0
    for name, value in GAME_VALUES.items():
        assert result.params[name] == pytest.approx(value, rel=1e-4)


def test_the_engine_recording_with_a_value_held_wrong_is_beyond_its_noise(game, recipe):
    """The steering angle held at 16.8° for the game's 17.3° (3 % off), the rest free."""
    recording, truth = game
    start = dict(truth, steering_angle=16.8)
    free = [name for name in GAME_VALUES if name != "steering_angle"]
    result = fit(recipe.model, recording, start, free, recording.hz)
    assert result.beyond_noise


def test_a_wall_in_the_real_engine_is_left_out_and_the_game_values_come_from_the_rest(recipe):
    """Fitted from the recipe's values, the five the game was given come back within
    0.01 % (without leaving the contact out: drag 1.9 % off, called good)."""
    recording = load_recording(GAME_WALL)
    result = fit(recipe.model, recording, dict(recipe.tuning), list(GAME_VALUES), recording.hz)
    assert result.left_out_spans == [[25.0, 26.0]]
    for name, value in GAME_VALUES.items():
        assert result.params[name] == pytest.approx(value, rel=1e-4)
    assert result.verdict == "good" and not result.beyond_noise


@pytest.fixture(scope="module")
def hidden(recipe):
    return {**dict(recipe.tuning), **ARCADE_HIDDEN}


def _errors(result, hidden):
    return {n: abs(result.params[n] / hidden[n] - 1) for n in result.names if n not in result.undetermined}


def test_a_glancing_wall_contact_is_named_left_out_and_the_values_come_from_the_rest(recipe, hidden):
    """15 ticks at 25.6 s against a wall 10° across the car's path (pushed back onto
    it, its velocity into it taken away): the one-second segment holding them is left
    out and named, and every value comes back within 0.1 %."""
    recording = wall_contact(recipe.model, hidden, arcade_drive(30.0), 60, WALL_AT, 15)
    free = list(ARCADE_HIDDEN)
    result = fit(recipe.model, recording, dict(recipe.tuning), free, 60)
    assert len(result.left_out_spans) == 1
    start, end = result.left_out_spans[0]
    assert start <= WALL_AT - 7 / 60 and WALL_AT + 7 / 60 <= end and end - start <= 1.0 + 1e-9
    errors = _errors(result, hidden)
    assert max(errors.values()) < 1e-3, errors
    assert result.verdict == "good" and not result.beyond_noise


def test_the_same_drive_without_the_wall_leaves_nothing_out(recipe, hidden):
    recording = drive_recording(recipe.model, hidden, arcade_drive(30.0), 60)
    result = fit(recipe.model, recording, dict(recipe.tuning), list(ARCADE_HIDDEN), 60)
    assert result.left_out_spans == [] and result.standing_out == 0
    assert max(_errors(result, hidden).values()) < 1e-3


def test_a_drive_walls_touch_in_many_segments_is_not_left_out_in_part(recipe, hidden):
    """A wall in 8 of the 20 segments (more than a quarter): no stretch, a drive the
    model cannot explain; nothing is left out and it is said, and the fit is not
    called good."""
    times = [1.5 + k for k in (1, 3, 6, 8, 11, 13, 16, 18)]
    recording = wall_contact(recipe.model, hidden, arcade_drive(20.0), 60, times, 15, angle=25.0)
    free = ["wheel_base", "steering_angle"]
    start = dict(hidden, **{name: recipe.tuning[name] for name in free})
    result = fit(recipe.model, recording, start, free, 60)
    assert result.left_out_spans == []
    assert result.standing_out > MAX_SHARE * result.segments
    assert result.verdict != "good"
