"""`car-sandbox track info|check|convert`, run as a user would: a subprocess, its exit
code and output, and the files it writes (the PNG looked at pixel by pixel)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from sandbox.files.track_csv import read_track_csv
from sandbox.files.tracks import load_track, track_to_json

NORISRING = Path(__file__).parent / "data" / "racetrack_database_norisring.csv"


def track(*args):
    return subprocess.run(
        [sys.executable, "-m", "sandbox", "track", *map(str, args)], capture_output=True, text=True, timeout=120
    )


def test_info_tells_what_the_skid_pad_holds_and_its_lap():
    result = track("info", "skid_pad")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.startswith("Skid pad (") and "unit: m (25 px/m)" in out
    assert "cones: 40" in out and "start line: yes; sector lines: 0" in out
    perimeter = 72 * 2 * 40 * math.sin(math.pi / 72)  # the 72-sided circle of radius 40 m
    assert f"centre line: a lap, {perimeter:.1f} m long" in out
    assert "bounds: x -45.15 … 45.15, y -45.15 … 45.15 (90.3 × 90.3 m)" in out  # the outer cones' edges


def test_info_draws_the_track_to_a_png(tmp_path):
    from PySide6.QtGui import QColor, QImage

    out = tmp_path / "lot.png"
    result = track("info", "parking_lot", "--png", out)
    assert result.returncode == 0, result.stderr
    assert f"wrote {out}" in result.stdout
    image = QImage(str(out))
    # the demo's map is 18 tiles of 128 px across and 14 down: the picture takes its shape
    assert (image.width(), image.height()) == (1200, round(1200 * 14 / 18))
    colours = {QColor(image.pixel(x, y)).name() for x in range(0, 1200, 4) for y in range(0, 800, 4)}
    assert "#6d737c" in colours and "#3b4a3a" in colours  # walls filled, on the ground
    assert "#4fc3f7" in colours  # the car's spawn


def test_check_passes_a_good_track_and_refuses_a_bad_one_naming_it(tmp_path):
    good = track("check", "club_circuit")
    assert good.returncode == 0 and "a good track (2 walls, 0 cones, 2 sector lines, a start line)" in good.stdout
    data = json.loads(load_track_text("slalom"))
    data["cones"][3]["x"] = 1e300
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    result = track("check", bad)
    assert result.returncode == 2
    assert result.stderr == f"car-sandbox: error: {bad}: cones[3].x is 1e+300, outside -1e+07 … 1e+07\n"
    assert "Traceback" not in result.stderr and result.stdout == ""


def load_track_text(name: str) -> str:
    from sandbox.files.tracks import find_builtin_track

    return find_builtin_track(name).read_text(encoding="utf-8")


def test_convert_writes_a_circuit_csv_as_a_track_file_that_checks(tmp_path):
    out = tmp_path / "norisring.json"
    result = track("convert", NORISRING, out)
    assert result.returncode == 0, result.stderr
    assert "wrote" in result.stdout and "2 walls, 0 cones, 2 sector lines, a start line" in result.stdout
    assert track_to_json(load_track(out)) == track_to_json(read_track_csv(NORISRING))
    assert track("check", out).returncode == 0
    again = tmp_path / "again.json"
    assert track("convert", out, again).returncode == 0  # a track file converts to itself
    assert again.read_text() == out.read_text()


def test_convert_refuses_and_writes_nothing(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("# x_m,y_m,w_tr_right_m,w_tr_left_m\n1,2,-3,4\n", encoding="utf-8")
    out = tmp_path / "out.json"
    result = track("convert", bad, out)
    assert result.returncode == 2 and "line 2: w_tr_right_m is -3; a width must be more than 0" in result.stderr
    assert not out.exists()
    result = track("convert", NORISRING, tmp_path / "out.txt")
    assert result.returncode == 2 and "a track file's name ends in .json" in result.stderr
    same = tmp_path / "same.json"
    same.write_text(load_track_text("slalom"), encoding="utf-8")
    result = track("convert", same, same)
    assert result.returncode == 2 and "Traceback" not in result.stderr


@pytest.mark.parametrize("action", ["info", "check"])
def test_an_unknown_track_name_lists_the_built_in_ones(action):
    result = track(action, "oval")
    assert result.returncode == 2
    assert "oval: no such file, and no built-in track of that name" in result.stderr
    assert "club_circuit" in result.stderr


def test_a_track_action_is_required():
    result = track()
    assert result.returncode == 2 and "ACTION" in result.stderr


def test_the_track_arguments_help_names_every_built_in_track():
    from sandbox.cli import TRACK_HELP
    from sandbox.files.tracks import builtin_track_names

    assert all(name in TRACK_HELP for name in builtin_track_names())
