"""`car-sandbox lap`, run as a user would: a subprocess, its exit code and output. The
laps of a ring (tests/lap_tracks.py) are checked against the drive replayed by
`simulate` from the trace the command writes: each lap's time is the time between the
replayed car's crossings of the start line, found here from its positions."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import numpy as np
import pytest

from lap_tracks import ring
from sandbox.files.presets import BUILTIN_DIR
from sandbox.files.tracks import save_track

RADIUS, HALF_WIDTH = 60.0, 8.0
HZ = 60


def cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "sandbox", *map(str, args)], capture_output=True, text=True, timeout=600
    )


@pytest.fixture
def ring_file(tmp_path):
    return save_track(ring(RADIUS, HALF_WIDTH), tmp_path / "ring.json")


def crossings(trajectory) -> np.ndarray:
    """The times (s) the car's centre crosses the ring's start line (angle 0, driven
    clockwise on screen: the angle rises through 0), interpolated within the tick."""
    t, x, y = trajectory[:, 0], trajectory[:, 1], trajectory[:, 2]
    t = np.concatenate([[0.0], t])
    angle = np.concatenate([[math.atan2(y[0], x[0])], np.arctan2(y, x)])  # the spawn is 0.05 rad before the line
    angle[0] = -0.05
    k = np.flatnonzero((angle[:-1] < 0) & (angle[1:] >= 0) & (angle[1:] - angle[:-1] < 1))
    return t[k] + (0 - angle[k]) / (angle[k + 1] - angle[k]) * (t[k + 1] - t[k])


def test_the_laps_of_a_ring_are_timed_where_the_car_crosses_the_start_line(tmp_path, ring_file):
    trace, trajectory = tmp_path / "drive.csv", tmp_path / "trajectory.csv"
    result = cli("lap", "--preset", "recipe_defaults", "--track", ring_file, "--laps", 2, "--trace", trace, "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["finished"] and report["track"] == "ring" and report["model"] == "arcade"
    laps = report["laps"]
    assert [lap["lap"] for lap in laps] == [1, 2]
    assert all(lap["valid"] and lap["cones"] == 0 and lap["sectors"] == [lap["time"]] for lap in laps)
    assert report["best_lap"]["time"] == min(lap["time"] for lap in laps)
    replay = cli(
        "simulate", "--preset", "recipe_defaults", "--controls", trace, "--out", trajectory
    )  # on the ring it names
    assert replay.returncode == 0, replay.stderr
    crossed = crossings(np.loadtxt(trajectory, delimiter=",", skiprows=1))
    assert len(crossed) == 3  # the start of lap 1, and the end of each lap
    assert [lap["time"] for lap in laps] == pytest.approx(np.diff(crossed), abs=1 / HZ)


@pytest.fixture
def coned_ring(tmp_path):
    """The ring with a cone on the racing line (a circle at the ring's outer edge, less
    the car's margin) half a lap after the start line, where the car, joining the line
    from the spawn on the centre line, is on it: it knocks the cone in lap 1 at any
    speed (so practice, driving slower, does not help), and the cone lies flat after."""
    from dataclasses import replace

    from sandbox.analysis.lap_plan import margin_of
    from sandbox.analysis.racing_line import racing_line
    from sandbox.files.presets import find_preset, load_preset
    from sandbox.physics.track import Circle

    track = ring(RADIUS, HALF_WIDTH)
    preset = load_preset(find_preset("recipe_defaults"))
    line = racing_line(track, "px", margin_of(preset.model, preset.tuning, track)).points / track.pixels_per_metre
    assert float(np.median(np.hypot(*line.T))) > RADIUS + 3.0  # the line is well outside the cone
    on_line = float(np.median(np.hypot(*line.T)))
    cone = Circle(-on_line, 0.0, 0.15)
    return save_track(replace(track, cones=(cone,)), tmp_path / "coned.json")


def test_a_lap_that_knocks_a_cone_does_not_count_and_is_not_the_best(coned_ring):
    """A cone on the car's way just after the start line: knocked in lap 1 (then it
    lies flat), so lap 1 is marked and lap 2 is the best."""
    result = cli("lap", "--preset", "recipe_defaults", "--track", coned_ring, "--laps", 2, "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert [(lap["cones"], lap["valid"]) for lap in report["laps"]] == [(1, False), (0, True)]
    assert report["best_lap"] == {"lap": 2, "time": report["laps"][1]["time"]}


def test_the_text_report_has_a_row_per_lap_and_the_best(ring_file):
    result = cli("lap", "--preset", "recipe_defaults", "--track", ring_file)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "Recipe defaults (Arcade (Godot recipe)) on ring at 60 Hz"
    assert lines[1].split() == ["lap", "time", "s", "S1", "cones", "valid"]
    number, time, split, cones, valid = lines[2].split()
    assert (number, cones, valid) == ("1", "0", "yes") and time == split
    assert lines[3] == f"best lap: {time} s (lap 1)"


def test_a_track_without_a_centre_line_is_refused_with_exit_2(tmp_path):
    path = save_track(ring(RADIUS, HALF_WIDTH, centre=False), tmp_path / "ring.json")
    trace = tmp_path / "drive.csv"
    result = cli("lap", "--preset", "recipe_defaults", "--track", path, "--trace", trace)
    assert result.returncode == 2
    assert result.stderr == (
        f'car-sandbox: error: {path}: the track has no centre line: a lap is driven along one ("centre_line")\n'
    )
    assert result.stdout == "" and not trace.exists()


def test_a_track_without_a_start_line_is_refused_with_exit_2(tmp_path):
    """A track file with a closed centre line and no start line is refused as it is read;
    a track made in code without one is refused before any drive."""
    from sandbox.errors import UserError
    from sandbox.files.tracks import track_to_json
    from sandbox.physics.lap_course import check_lap_track

    data = track_to_json(ring(RADIUS, HALF_WIDTH))
    del data["start"]
    path = tmp_path / "ring.json"
    path.write_text(json.dumps(data))
    result = cli("lap", "--preset", "recipe_defaults", "--track", path)
    assert result.returncode == 2
    assert (
        result.stderr
        == f"car-sandbox: error: {path}: start: a circuit (a closed centre line, or sectors) needs a start line\n"
    )
    with pytest.raises(
        UserError, match=r'^ring: the track has no start line: a lap starts and ends at it \("start"\)$'
    ):
        check_lap_track(ring(RADIUS, HALF_WIDTH, start=False), "ring")


def test_an_open_centre_line_is_refused_with_exit_2(tmp_path):
    from dataclasses import replace

    from sandbox.physics.track import Polyline

    track = ring(RADIUS, HALF_WIDTH)
    path = save_track(replace(track, centre_line=Polyline(track.centre_line.points, closed=False)), tmp_path / "r.json")
    result = cli("lap", "--preset", "recipe_defaults", "--track", path)
    assert result.returncode == 2
    assert "the track's centre line is open: a lap needs one that closes on itself" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("laps", ["0", "1.5", "101", "many"])
def test_a_number_of_laps_out_of_range_is_refused_with_exit_2(ring_file, laps):
    result = cli("lap", "--preset", "recipe_defaults", "--track", ring_file, "--laps", laps)
    assert result.returncode == 2
    if laps == "many":
        assert "argument --laps: laps 'many' is not a number" in result.stderr
    else:
        assert f"argument --laps: laps {laps} is not a whole number within 1 … 100" in result.stderr


def test_a_track_narrower_than_the_car_is_refused_with_exit_2_and_no_trace(tmp_path):
    """A ring 2 m wide: the recipe's car is 3.2 m wide as its collision shape reaches
    (a capsule of radius 34 px at 25 px per metre, turned up to 10° off the line:
    2·(1.36 + 1.4·sin 10°)) and keeps 0.5 m each side, so it needs 4.2 m."""
    path = save_track(ring(RADIUS, 1.0), tmp_path / "narrow.json")
    trace = tmp_path / "drive.csv"
    result = cli("lap", "--preset", "recipe_defaults", "--track", path, "--trace", trace)
    assert result.returncode == 2, result.stderr
    said = result.stderr.removeprefix("car-sandbox: error: ")
    assert said.startswith("the track 'ring' is 2.0 m wide ") and said.endswith(
        "m along the lap: too narrow for this car, which needs 4.2 m (its width as its collision shape reaches, "
        "and 0.5 m each side)\n"
    )
    assert result.stdout == "" and not trace.exists()


def test_a_car_that_cannot_finish_stops_and_says_how_far_it_got_with_exit_1(tmp_path, ring_file):
    """No engine power: the car never moves; the drive stops after its stall time (10 s)
    with exit 1, naming the lap it did not finish, the distance and the time reached."""
    preset = json.loads((BUILTIN_DIR / "recipe_defaults.json").read_text())
    preset["params"]["engine_power"] = 0
    preset["name"] = "No engine"
    path = tmp_path / "no_engine.json"
    path.write_text(json.dumps(preset))
    result = cli("lap", "--preset", path, "--track", ring_file, "--laps", 3)
    assert result.returncode == 1
    assert result.stdout.splitlines()[-1] == "  (no lap finished)"
    assert result.stderr == (
        "car-sandbox: the car did not finish lap 1 of 3: it made no headway for 10 s. It reached 0.0 px along the "
        "track from its start (before the start line) in 10.0 s.\n"
    )


def test_a_trace_named_as_the_track_file_a_name_stands_for_is_refused_and_the_track_kept():
    """`--track club_circuit` reads the built-in track's file: a trace written to that
    file's path would destroy it (the check of the outputs before any work sees only the
    name); refused with exit 2, the file as it was."""
    from sandbox.files.tracks import find_builtin_track

    track = find_builtin_track("club_circuit")
    before = track.read_bytes()
    try:
        result = cli("lap", "--preset", "recipe_defaults", "--track", "club_circuit", "--trace", track)
        assert result.returncode == 2
        assert result.stderr.startswith(f"car-sandbox: error: {track}: is also an input of this command")
        assert result.stdout == ""
    finally:
        if track.read_bytes() != before:  # a failing run must not leave the built-in track broken
            track.write_bytes(before)
    assert track.read_bytes() == before


def test_the_cone_penalty_is_an_option_shown_in_the_json(coned_ring):
    """Lap 1 knocks the cone: at 5 s a cone it takes 5 - 2 = 3 s more than at the
    default 2 s (the same drive); lap 2, clean, the same time."""
    runs = []
    for extra in ((), ("--cone-penalty", "5")):
        result = cli("lap", "--preset", "recipe_defaults", "--track", coned_ring, "--laps", 2, "--json", *extra)
        assert result.returncode == 0, result.stderr
        runs.append(json.loads(result.stdout))
    default, five = runs
    assert (default["cone_penalty"], five["cone_penalty"]) == (2.0, 5.0)
    assert [lap["cones"] for lap in five["laps"]] == [1, 0] and five["laps"][0]["penalty"] == 5.0
    assert five["laps"][0]["time"] == pytest.approx(default["laps"][0]["time"] + 3.0, abs=1e-9)
    assert five["laps"][1]["time"] == default["laps"][1]["time"]
    assert five["laps"][0]["marks"] == ["1 cone (+5 s)"]


@pytest.mark.parametrize("penalty", ["-1", "nan", "inf", "61", "lots"])
def test_a_cone_penalty_out_of_range_is_refused_with_exit_2(ring_file, penalty):
    result = cli("lap", "--preset", "recipe_defaults", "--track", ring_file, "--cone-penalty", penalty)
    assert result.returncode == 2 and result.stdout == ""
    if penalty == "lots":
        assert "argument --cone-penalty: cone penalty 'lots' is not a number" in result.stderr
    else:
        assert f"argument --cone-penalty: cone penalty {penalty} s is not within 0 … 60 s" in result.stderr
    assert "Traceback" not in result.stderr


def test_the_report_says_when_the_driver_practised_and_how_much_it_asked():
    """The ice car's first drive of the skid pad slides wide (practice: less grip asked
    until its lap counts); the go-kart's counts at its whole grip."""
    ice = cli("lap", "--preset", BUILTIN_DIR / "ice.json", "--track", "skid_pad", "--laps", "1")
    assert ice.returncode == 0, ice.stderr
    assert "the driver practised" in ice.stdout
    kart = json.loads(cli("lap", "--preset", BUILTIN_DIR / "go_kart.json", "--track", "skid_pad", "--json").stdout)
    asked = kart["lateral_asked"]
    assert asked["most"] == asked["grip"] and asked["unit"] == "px/s²"  # an arcade preset: its lengths are px
    report = json.loads(cli("lap", "--preset", BUILTIN_DIR / "ice.json", "--track", "skid_pad", "--json").stdout)
    assert 0 < report["lateral_asked"]["most"] < 0.5 * report["lateral_asked"]["grip"]
    assert report["laps"][0]["valid"]
