"""A recording keeps its track: format 2 names the track it was driven on (a built-in
by name, a file by its path and content hash) above its header; a recording written
before (format 1, no such line) loads as a drive on the open field; a file moved or
changed since, a newer format or a broken track line is said, naming it."""

from __future__ import annotations

import csv
import math
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sandbox.devtools.fit_drives import parking_lot_drive
from sandbox.errors import TraceError, UserError
from sandbox.files.presets import BUILTIN_DIR, load_preset
from sandbox.files.recorded_track import named_track, open_recorded_track, track_for, track_ref
from sandbox.files.recording_header import TrackRef
from sandbox.files.recordings import drive_recording, load_recording, save_recording
from sandbox.files.traces import load_trace, save_trace
from sandbox.files.tracks import find_builtin_track, open_track

ROOT = Path(__file__).resolve().parent.parent
BEFORE = ROOT / "tests" / "data" / "recordings" / "game_arcade.csv"
"""A recording written before recordings named their track."""
DEFAULTS = BUILTIN_DIR / "recipe_defaults.json"


def test_a_recording_written_before_loads_as_a_drive_on_the_open_field():
    recording = load_recording(BEFORE)
    assert recording.track_ref is None
    assert track_for(recording.track_ref, recording.source) is None
    assert named_track(BEFORE) is None


@pytest.mark.parametrize("builtin", [True, False], ids=["built-in", "file"])
def test_a_recording_on_a_track_names_it_and_loads_it_back(tmp_path, builtin):
    level = tmp_path / "my lot.json"  # a space in the path
    shutil.copy(find_builtin_track("parking_lot"), level)
    ref = track_ref("parking_lot" if builtin else level)
    wanted = TrackRef(builtin="parking_lot") if builtin else TrackRef(path=str(level.resolve()), sha256=ref.sha256)
    assert ref == wanted and (builtin or len(ref.sha256) == 64)
    preset = load_preset(DEFAULTS)
    recording = drive_recording(preset.model, dict(preset.tuning), parking_lot_drive()[:180], 60, track_ref=ref)
    path = tmp_path / "drive.csv"
    save_recording(path, recording)
    lines = path.read_text().splitlines()
    assert lines[0] == "# recording: 2" and lines[1].startswith("# track: ")
    again = load_recording(path)
    assert again.track_ref == ref
    opened, lot = open_recorded_track(again.track_ref, again.source), open_track(find_builtin_track("parking_lot"))
    assert opened.name == lot.name and len(opened.polylines) == len(lot.polylines)
    assert np.array_equal(again.pose, recording.pose)


def test_a_trace_saved_on_a_track_names_it_and_still_loads_as_a_trace(tmp_path):
    rows = parking_lot_drive()[:60]
    save_trace(tmp_path / "t.csv", rows, TrackRef(builtin="parking_lot"))
    assert np.array_equal(load_trace(tmp_path / "t.csv"), rows)
    assert named_track(tmp_path / "t.csv") == TrackRef(builtin="parking_lot")
    save_trace(tmp_path / "open.csv", rows)  # the open field: written as before
    assert (tmp_path / "open.csv").read_text().startswith("steer,")


def test_a_track_file_moved_or_changed_since_is_said(tmp_path):
    level = tmp_path / "lot.json"
    shutil.copy(find_builtin_track("parking_lot"), level)
    ref = track_ref(level)
    level.write_text(level.read_text().replace('"Parking lot"', '"Parking lot 2"'))
    with pytest.raises(UserError, match=r"lot\.json.*has changed since"):
        open_recorded_track(ref, "drive.csv")
    level.unlink()
    with pytest.raises(UserError, match=r"lot\.json.*not there now"):
        open_recorded_track(ref, "drive.csv")


@pytest.mark.parametrize(
    "line, said",
    [
        ("# recording: 3", "formats 1 … 2"),
        ("# track: somewhere", "names no track"),
        ("# track: file sha256=abc /x.json", "names no track"),
    ],
)
def test_a_newer_format_or_a_broken_track_line_is_refused_naming_the_line(tmp_path, line, said):
    path = tmp_path / "drive.csv"
    path.write_text(line + "\n" + BEFORE.read_text())
    with pytest.raises(TraceError, match=r"drive\.csv line 1: .*" + said):
        load_recording(path)


def cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "sandbox", *map(str, args)], capture_output=True, text=True, timeout=600
    )


def _rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def test_simulate_drives_a_trace_on_the_track_it_names(tmp_path):
    """Full throttle down from (563, 1450): the parking lot's bottom wall stops the car
    (its face at y ≈ 1732, the capsule 69 px ahead of the centre); --track open_field
    drives it through."""
    trace = tmp_path / "down.csv"
    save_trace(trace, np.tile([0.0, 1.0, 0.0], (240, 1)), TrackRef(builtin="parking_lot"))
    out = tmp_path / "out.csv"
    result = cli("simulate", "--preset", DEFAULTS, "--controls", trace, "--start", "563,1450,90", "--out", out)
    assert result.returncode == 0, result.stderr
    rows = _rows(out)
    assert "wall_contacts" in rows[0] and 1662.9 < float(rows[-1]["y"]) < 1663.1
    result = cli(
        "simulate", "--preset", DEFAULTS, "--controls", trace, "--start", "563,1450,90", "--track", "open_field",
        "--out", out,
    )  # fmt: skip
    assert result.returncode == 0 and float(_rows(out)[-1]["y"]) > 2000


def test_simulate_of_a_drive_whose_track_file_is_gone_exits_2_naming_it(tmp_path):
    level = tmp_path / "lot.json"
    shutil.copy(find_builtin_track("parking_lot"), level)
    trace = tmp_path / "t.csv"
    save_trace(trace, np.tile([0.0, 1.0, 0.0], (60, 1)), track_ref(level))
    level.unlink()
    out = tmp_path / "out.csv"
    result = cli("simulate", "--preset", DEFAULTS, "--controls", trace, "--out", out)
    assert result.returncode == 2 and "lot.json" in result.stderr and "Traceback" not in result.stderr
    assert not out.exists()
    assert math.isfinite(len(result.stderr))
