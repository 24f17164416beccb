"""The fit takes the level: a drive recorded on the parking lot against its walls (the
sandbox's own car under values the fit is not told: the independent reason) is
explained with the track, its values coming back; without the track, the stretch the
model cannot explain (the wall contact) is named by its time span and left out, and
the values come from the rest, not a confident wrong tuning."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from dataclasses import replace

import numpy as np
import pytest

from sandbox.analysis.fit import fit
from sandbox.devtools.fit_drives import PARKING_LOT_START, parking_lot_drive
from sandbox.files.presets import BUILTIN_DIR, load_preset, save_preset
from sandbox.files.recording_header import TrackRef
from sandbox.files.recordings import drive_recording, save_recording
from sandbox.files.tracks import find_builtin_track, open_track
from sandbox.physics.car_shape import ENGINE_NAME, GODOT3, GODOT4
from sandbox.physics.track import Pose

HIDDEN = {"wheel_base": 82.0, "engine_power": 1037.0, "braking": -612.0, "traction_slow": 8.43}
"""Four of the recipe car's values off its defaults, the ones the fit is asked for."""


@pytest.fixture(scope="module")
def recipe():
    """The recipe car with Godot 3's contact rules (its velocity slid along the wall,
    as `velocity = move_and_slide(velocity)` leaves it), which this drive was made for."""
    preset = load_preset(BUILTIN_DIR / "recipe_defaults.json")
    preset.tuning[ENGINE_NAME] = GODOT3
    return preset


@pytest.fixture(scope="module")
def lot():
    return open_track(find_builtin_track("parking_lot"))


@pytest.fixture(scope="module")
def walled(recipe, lot):
    """(the recording on the parking lot, the ticks its car met a wall in)."""
    x, y, heading = PARKING_LOT_START
    recording = drive_recording(
        recipe.model, {**dict(recipe.tuning), **HIDDEN}, parking_lot_drive(), 60, states=("wall_contacts",),
        track=lot, start=Pose(x, y, math.radians(heading)), track_ref=TrackRef(builtin="parking_lot"),
    )  # fmt: skip
    contacts = np.flatnonzero(recording.states.pop("wall_contacts") > 0)
    return recording, contacts


def _assert_recovered(result):
    for name, value in HIDDEN.items():
        error = abs(result.params[name] - value)
        assert error <= max(0.01 * abs(value), result.uncertainty[name]), f"{name}: {result.params[name]} for {value}"


def test_the_drive_slides_along_the_wall(walled):
    _, contacts = walled
    assert len(contacts) >= 30 and np.any(np.diff(contacts) > 1)  # more than one contact, a slide among them


def test_with_the_track_the_fit_gives_back_the_values(recipe, walled):
    recording, _ = walled
    result = fit(recipe.model, recording, dict(recipe.tuning), list(HIDDEN), 60)
    _assert_recovered(result)
    assert result.left_out_spans == [] and result.verdict == "good"


def test_without_the_track_the_contact_is_named_and_the_rest_fitted(recipe, walled):
    """The open field cannot slide the car along a wall: no tuning explains those
    ticks. The stretch is named (it holds the contact's first ticks; at most a quarter
    of the drive) and the values come from the rest."""
    recording, contacts = walled
    result = fit(recipe.model, replace(recording, track=None), dict(recipe.tuning), list(HIDDEN), 60)
    assert result.left_out_spans
    first = contacts[0] / 60
    assert any(a <= first <= b for a, b in result.left_out_spans)
    assert len(result.left_out_spans) <= 0.25 * result.segments
    _assert_recovered(result)
    assert not result.beyond_noise


def test_with_godot_4s_rules_and_without_the_track_the_contact_is_named_and_the_rest_fitted(recipe, lot):
    """Godot 4's floating mode leaves the car's velocity as it was at a wall, so the
    same drive goes otherwise (longer against the wall). Without the track the open
    field cannot explain the contact: the stretch named holds every tick the car met a
    wall in and nothing else (each span named has a contact in it; at most a quarter
    of the drive), and the values come from the rest, never a confident wrong tuning."""
    x, y, heading = PARKING_LOT_START
    tuning = {**dict(recipe.tuning), **HIDDEN, ENGINE_NAME: GODOT4}
    recording = drive_recording(
        recipe.model, tuning, parking_lot_drive(), 60, states=("wall_contacts",),
        track=lot, start=Pose(x, y, math.radians(heading)), track_ref=TrackRef(builtin="parking_lot"),
    )  # fmt: skip
    contacts = np.flatnonzero(recording.states.pop("wall_contacts") > 0) / 60  # s since the first row
    assert len(contacts) >= 30
    start = {**dict(recipe.tuning), ENGINE_NAME: GODOT4}
    result = fit(recipe.model, replace(recording, track=None), start, list(HIDDEN), 60)
    spans = result.left_out_spans
    assert spans and len(spans) <= 0.25 * result.segments
    assert all(any(a <= t <= b for a, b in spans) for t in contacts)
    assert all(np.any((a <= contacts) & (contacts <= b)) for a, b in spans)
    _assert_recovered(result)
    assert not result.beyond_noise and result.verdict == "good"


def cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "sandbox", *map(str, args)], capture_output=True, text=True, timeout=900
    )


def test_the_command_drives_the_recording_on_the_track_it_names(tmp_path, recipe, walled):
    """A recording that names the parking lot is fitted on it without --track."""
    recording, _ = walled
    path = tmp_path / "lot.csv"
    save_recording(path, recording)
    assert "# track: builtin parking_lot" in path.read_text().splitlines()[:3]
    preset = tmp_path / "godot3.json"  # the game's engine: its walls follow Godot 3's rules
    save_preset(recipe, preset)
    result = cli("fit", "--trace", path, "--model", "arcade", "--preset", preset, "--free", ",".join(HIDDEN), "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["track"] == "Parking lot"
    fitted = report["fits"][0]
    assert fitted["left_out_spans_s"] == [] and fitted["verdict"] == "good"
    for name, value in HIDDEN.items():
        assert abs(fitted["params"][name] - value) <= max(0.01 * abs(value), fitted["uncertainty"][name])


@pytest.mark.parametrize("content", [None, "{broken"])
def test_a_missing_or_broken_track_exits_2_naming_it(tmp_path, walled, content):
    recording, _ = walled
    path = tmp_path / "lot.csv"
    save_recording(path, recording)
    level = tmp_path / "level.json"
    if content is not None:
        level.write_text(content)
    result = cli("fit", "--trace", path, "--model", "arcade", "--free", "wheel_base", "--track", level)
    assert result.returncode == 2
    assert "level.json" in result.stderr and "Traceback" not in result.stderr
