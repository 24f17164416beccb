"""The fit's on/off options. A recording's comment line states the game's switches (the
fit sets them); without it, the fit tries each set of switches the recording can tell
apart and says which one explains it. The independent reason: each recording is driven
by the sandbox's own car under switches and values the fit is not told."""

from __future__ import annotations

import json

import numpy as np
import pytest

from sandbox.analysis.fit_switches import MAX_SWITCH_SETS, fit_switches, switch_names, switch_sets
from sandbox.analysis.tune_space import free_names
from sandbox.cli import main
from sandbox.devtools.fit_drives import arcade_drive
from sandbox.files.presets import reference_preset
from sandbox.files.recordings import drive_recording, save_recording
from sandbox.physics.models import MODELS
from sandbox.physics.params import Tuning

ARCADE = MODELS["arcade"]
HZ = 60
ANALOG_VALUES = {"engine_power": 1037.0, "traction_slow": 8.43, "braking": -612.0, "steering_angle": 17.3}
RECIPE_2020_VALUES = {"friction": -1.3, "traction_fast": 0.15, "engine_power": 950.0}
"""The 2020 recipe's friction in its own unit (1/s): −1.3, where the other formula's is −55 1/s²."""


def part_pressed(drive: np.ndarray) -> np.ndarray:
    """`drive` with the throttle at 60 % on every other 100 ticks and the brake at 70 %:
    pedal strengths only a gamepad's triggers give."""
    drive = drive.copy()
    drive[:, 1] *= np.where(np.arange(len(drive)) % 200 < 100, 0.6, 1.0)
    drive[:, 2] *= 0.7
    return drive


def arcade_tuning(switches: dict, values: dict) -> dict:
    tuning = Tuning(ARCADE.PARAMS)
    tuning.set_many({**switches, **values})
    return dict(tuning)


@pytest.fixture(scope="module")
def analog_recording():
    """20 s of the arcade with analog pedals, pedals part pressed."""
    tuning = arcade_tuning({"analog_pedals": True}, ANALOG_VALUES)
    return drive_recording(ARCADE, tuning, part_pressed(arcade_drive(20.0, HZ)), HZ), tuning


def test_part_pressed_pedals_are_fitted_with_analog_pedals_from_a_preset_without(analog_recording):
    recording, truth = analog_recording
    start = reference_preset(ARCADE)
    assert start.tuning["analog_pedals"] is False
    search = fit_switches(ARCADE, recording, dict(start.tuning), free_names(ARCADE), HZ)
    assert search.switches["analog_pedals"] is True and search.switches["recipe_2020"] is False
    assert "analog_pedals" in search.searched and search.untold == []
    result = search.result
    assert result.verdict == "good"
    for name in ANALOG_VALUES:
        assert abs(result.params[name] / truth[name] - 1) <= 1e-4, (name, result.params[name], truth[name])
    # every other set of switches is fitted (in full, or screened out by a quick fit) and drives it worse
    kept_off = [r for s, r in search.tried + search.screened if not s["analog_pedals"]]
    assert kept_off and all(r.rms_position > 1000 * max(result.rms_position, 1e-9) for r in kept_off)


def test_the_2020_recipe_is_chosen_by_its_residual_with_friction_in_its_own_units(tmp_path, capsys):
    tuning = arcade_tuning({"recipe_2020": True}, RECIPE_2020_VALUES)
    path = tmp_path / "recipe_2020.csv"
    save_recording(path, drive_recording(ARCADE, tuning, arcade_drive(12.0, HZ), HZ))
    assert main(["fit", "--trace", str(path), "--model", "arcade", "--json"]) == 0
    (found,) = json.loads(capsys.readouterr().out)["fits"]
    assert found["switches"]["recipe_2020"] is True
    assert found["params"]["friction"] == pytest.approx(-1.3, rel=1e-4)
    assert found["units"]["params"]["friction"] == "1/s"
    sets = found["switch_sets"]
    assert sets[0]["switches"]["recipe_2020"] is True
    others = [s for s in sets if not s["switches"]["recipe_2020"]]
    assert others and all(s["rms_position"] > 1000 * sets[0]["rms_position"] for s in others)


def test_the_text_says_the_chosen_switches_the_others_residuals_and_what_the_start_had(tmp_path, capsys):
    tuning = arcade_tuning({"analog_pedals": True}, ANALOG_VALUES)
    path = tmp_path / "analog.csv"
    save_recording(path, drive_recording(ARCADE, tuning, part_pressed(arcade_drive(8.0, HZ)), HZ))
    main(["fit", "--trace", str(path), "--model", "arcade", "--free", "engine_power,braking,steering_angle"])
    text = capsys.readouterr().out
    assert "switches tried (" in text and "chosen rate_independent off, recipe_2020 off, analog_pedals on" in text
    assert "the start had analog_pedals off: the recording contradicts it" in text
    assert text.count("RMS position") >= 6  # the chosen set's and each other set's


def test_whole_presses_cannot_tell_analog_pedals_and_it_is_said(tmp_path, capsys):
    """Pedals pressed whole only drive alike either way: not tried, kept, and said; the
    recording's comment line states the formula, so that is set and not searched."""
    tuning = arcade_tuning({"analog_pedals": True}, ANALOG_VALUES)
    recording = drive_recording(ARCADE, tuning, arcade_drive(8.0, HZ), HZ)
    recording.switches = {"recipe_2020": False, "rate_independent": False}
    path = tmp_path / "whole.csv"
    save_recording(path, recording)
    assert path.read_text().startswith("# switches: rate_independent=0 recipe_2020=0\n")
    assert main(["fit", "--trace", str(path), "--model", "arcade", "--json"]) == 0
    (found,) = json.loads(capsys.readouterr().out)["fits"]
    assert found["switches_untold"] == ["analog_pedals"] and found["switches"]["analog_pedals"] is False
    assert found["switches_from_recording"] == {"recipe_2020": False, "rate_independent": False}
    assert len(found["switch_sets"]) == 1
    main(["fit", "--trace", str(path), "--model", "arcade"])
    text = capsys.readouterr().out
    assert "the recording cannot tell analog_pedals" in text
    assert "switches from the recording (the game's script): rate_independent off, recipe_2020 off" in text


def test_the_recordings_switches_are_set_even_against_the_start(analog_recording, tmp_path, capsys):
    recording, truth = analog_recording
    recording = drive_recording(ARCADE, truth, part_pressed(arcade_drive(8.0, HZ)), HZ)
    recording.switches = {"analog_pedals": True, "recipe_2020": False, "rate_independent": False}
    path = tmp_path / "stated.csv"
    save_recording(path, recording)
    out = tmp_path / "fitted.json"
    argv = ["fit", "--trace", str(path), "--model", "arcade", "--free", "engine_power", "--json", "--out", str(out)]
    main(argv)
    (found,) = json.loads(capsys.readouterr().out)["fits"]
    assert found["switches"]["analog_pedals"] is True and len(found["switch_sets"]) == 1
    assert json.loads(out.read_text())["params"]["analog_pedals"] is True


def test_a_locked_switch_is_kept_and_said(tmp_path, capsys):
    tuning = arcade_tuning({}, ANALOG_VALUES)
    path = tmp_path / "locked.csv"
    save_recording(path, drive_recording(ARCADE, tuning, arcade_drive(6.0, HZ), HZ))
    main(["fit", "--trace", str(path), "--model", "arcade", "--lock", "recipe_2020,rate_independent,wheel_base"])
    text = capsys.readouterr().out
    assert "kept as the start has them (--lock): rate_independent off, recipe_2020 off" in text


def test_all_on_a_recording_in_px_says_the_metric_models_were_left_out_and_how_to_try_them(tmp_path, capsys):
    recording = drive_recording(ARCADE, arcade_tuning({}, ANALOG_VALUES), arcade_drive(6.0, HZ), HZ)
    recording.switches = {"analog_pedals": False, "recipe_2020": False, "rate_independent": False}
    path = tmp_path / "px.csv"
    save_recording(path, recording)
    main(["fit", "--trace", str(path), "--model", "all", "--free", "engine_power"])
    text = capsys.readouterr().out
    assert "only the models in px were fitted" in text and "--units m" in text and "pixels per metre" in text
    for model in MODELS.values():
        assert (model.NAME in text.splitlines()[-1]) == (model.LENGTH_UNIT == "m")
    main(["fit", "--trace", str(path), "--model", "all", "--free", "engine_power", "--json"])
    found = json.loads(capsys.readouterr().out)
    assert set(found["models_not_tried"]["models"]) == {m.NAME for m in MODELS.values() if m.LENGTH_UNIT == "m"}
    assert "--units m" in found["models_not_tried"]["why"]


def test_a_switch_named_free_is_refused_saying_how_switches_are_fitted(tmp_path, capsys):
    path = tmp_path / "drive.csv"
    save_recording(path, drive_recording(ARCADE, arcade_tuning({}, {}), arcade_drive(3.0, HZ), HZ))
    assert main(["fit", "--trace", str(path), "--model", "arcade", "--free", "engine_power,analog_pedals"]) == 2
    err = capsys.readouterr().err
    assert "--free analog_pedals: an on/off option is no value to fit" in err and "--lock analog_pedals" in err


def test_the_sets_fitted_are_bounded_and_a_switch_that_does_nothing_under_another_is_not_turned_there():
    arcade_sets, beyond = switch_sets(ARCADE, dict(Tuning(ARCADE.PARAMS)), switch_names(ARCADE))
    # rate_independent does nothing under recipe_2020 (its declaration): 2 × 2 + 1 × 2 sets
    assert beyond == [] and len(arcade_sets) == 6
    assert all(not s["rate_independent"] for s in arcade_sets if s["recipe_2020"])
    assert arcade_sets[0] == {"rate_independent": False, "recipe_2020": False, "analog_pedals": False}  # the start's
    monster = MODELS["monster"]
    told = switch_names(monster)
    sets, beyond = switch_sets(monster, dict(reference_preset(monster).tuning), told)
    assert 2 ** len(told) > MAX_SWITCH_SETS >= len(sets) and beyond and beyond == told[len(told) - len(beyond) :]
