"""Lap time in the commands, run as a user would (a subprocess): sweep, tune and
metrics with --track, and the refusals of a lap figure without a lap."""

from __future__ import annotations

import csv
import json
import subprocess
import sys

import pytest

from sandbox.analysis.driven_laps import drive_timed_laps
from sandbox.files.presets import find_preset, load_preset
from sandbox.files.tracks import find_builtin_track, open_track, save_track


def cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "sandbox", *map(str, args)], capture_output=True, text=True, timeout=900
    )


@pytest.fixture(scope="module")
def club():
    return open_track(find_builtin_track("club_circuit"))


@pytest.mark.parametrize("lacking", ["start", "centre_line"])
def test_a_lap_time_sweep_on_a_track_without_a_start_line_is_refused(tmp_path, club, lacking):
    """The club circuit's file without its start line (refused as a track: a circuit
    needs one), or without its centre line and start line (a track, but no lap on it)."""
    text = json.loads(save_track(club, tmp_path / "club.json").read_text())
    for key in ("start", "sectors") if lacking == "start" else ("start", "sectors", "centre_line"):
        text.pop(key, None)
    given = tmp_path / "lacking.json"
    given.write_text(json.dumps(text))
    out = tmp_path / "sweep.csv"
    result = cli(
        "sweep", "--preset", "drift", "--param", "engine_power=800:1600:3", "--metric", "lap_time",
        "--track", given, "--out", out,
    )  # fmt: skip
    assert result.returncode == 2
    said = "needs a start line" if lacking == "start" else f"{given}: the track has no centre line"
    assert said in result.stderr and "Traceback" not in result.stderr
    assert not out.exists()


def test_a_lap_figure_without_a_track_is_refused(tmp_path):
    result = cli(
        "sweep", "--preset", "drift", "--param", "engine_power=800:1600:3", "--metric", "lap_time",
        "--out", tmp_path / "sweep.csv",
    )  # fmt: skip
    assert result.returncode == 2 and "--track" in result.stderr
    result = cli("tune", "--preset", "drift", "--target", "lap_time=30")
    assert result.returncode == 2 and "--track" in result.stderr


def test_a_lap_time_sweep_writes_each_tunings_lap(tmp_path, club):
    """The CSV's lap_time of a tuning is the lap the driver drives alone with it."""
    out = tmp_path / "sweep.csv"
    result = cli(
        "sweep", "--preset", "drift", "--param", "engine_power=900:1500:3", "--metric", "lap_time",
        "--track", "club_circuit", "--out", out,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    rows = list(csv.DictReader(out.open()))
    assert [row["engine_power"] for row in rows] == ["900", "1200", "1500"]
    assert {"lap_time", "sector_1", "sector_2", "sector_3", "top_speed"} <= set(rows[0])
    drift = load_preset(find_preset("drift"))
    alone = drive_timed_laps(drift.model, {**dict(drift.tuning), "engine_power": 1200.0}, club, 1, drift.hz)
    assert float(rows[1]["lap_time"]) == pytest.approx(alone.laps[0].time, abs=1e-9)
    assert "lap_time" in result.stdout and "lowest" in result.stdout


def test_tune_reaches_a_lap_time_without_raising_the_top_speed(club):
    """1.5 % off the drift preset's lap with its top speed kept: met, and the tuning
    it prints laps in the time wanted when the driver drives it alone."""
    drift = load_preset(find_preset("drift"))
    lap = drive_timed_laps(drift.model, dict(drift.tuning), club, 1, drift.hz).laps[0].time
    wanted = round(0.985 * lap, 2)
    result = cli(
        "tune", "--preset", "drift", "--track", "club_circuit", "--target", f"lap_time={wanted}±0.1",
        "--target", "top_speed=865±5", "--free", "braking,steering_angle,traction_fast,traction_slow", "--json",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["hit"]
    tuned = {**dict(drift.tuning), **{name: move["to"] for name, move in report["changed"].items()}}
    again = drive_timed_laps(drift.model, tuned, club, 1, drift.hz).laps[0]
    assert again.valid and abs(again.time - wanted) <= 0.1


def test_metrics_on_a_closed_track_give_the_lap(club):
    result = cli("metrics", "--preset", "drift", "--track", "club_circuit", "--json")
    assert result.returncode == 0, result.stderr
    lap = json.loads(result.stdout)["lap"]
    drift = load_preset(find_preset("drift"))
    alone = drive_timed_laps(drift.model, dict(drift.tuning), club, 1, drift.hz).laps[0]
    assert lap["lap_time"] == pytest.approx(alone.time, abs=1e-9)
    assert [lap["sector_1"], lap["sector_2"], lap["sector_3"]] == pytest.approx(list(alone.sectors), abs=1e-9)
    shown = cli("metrics", "--preset", "drift", "--track", "drag_strip", "--json")
    assert shown.returncode == 0 and json.loads(shown.stdout)["lap"] is None
