"""Recordings: a trace with the car's pose per tick. They load (the tick rate from t's
steps), save, replay wherever a trace is taken, and every file that is not one is
refused with a message naming the file, the line or column, and the problem."""

from __future__ import annotations

import numpy as np
import pytest

from sandbox.cli import main
from sandbox.errors import TraceError
from sandbox.files.presets import BUILTIN_DIR, load_preset
from sandbox.files.recordings import drive_recording, load_recording, save_recording
from sandbox.files.traces import load_trace, trace_chunks
from sandbox.physics.models import MODELS
from sandbox.physics.params import Tuning
from sandbox.physics.sim import run_trace

HEADER = "steer,throttle,brake,handbrake,shift,t,x,y,heading"


def _drive(seconds=3.0, hz=60):
    rows = np.zeros((round(seconds * hz), 5))
    rows[:, 1] = 1.0
    rows[len(rows) // 2 :, 0] = 0.5
    return rows


def _text(rows, header=HEADER):
    return header + "\n" + "\n".join(",".join(str(v) for v in row) for row in rows) + "\n"


def _recording_rows(n=181, hz=60):
    """n rows of a car rolling along x at 100 units/s, t from 0."""
    t = np.arange(n) / hz
    return np.column_stack([np.zeros((n, 5)), t, 100 * t, np.zeros(n), np.zeros(n)])


def test_a_recording_saved_loads_back_with_its_tick_rate_from_t(tmp_path):
    model = MODELS["arcade"]
    recording = drive_recording(model, dict(Tuning(model.PARAMS)), _drive(hz=120), 120, states=("traction_fast",))
    path = tmp_path / "drive.csv"
    save_recording(path, recording)
    loaded = load_recording(path)
    assert loaded.hz == 120  # t steps by 1/120 s
    assert np.array_equal(loaded.controls, recording.controls)
    assert np.array_equal(loaded.pose, recording.pose)
    assert np.array_equal(loaded.velocity, recording.velocity)
    assert np.array_equal(loaded.states["traction_fast"], recording.states["traction_fast"])
    assert loaded.seconds == pytest.approx(3.0)


def test_the_sandboxs_own_recording_is_its_trajectory_after_a_row_at_rest():
    """Row k + 1 of a recording is the state after tick k of the same controls replayed
    (`run_trace`, the simulate command's numbers); row 0 is the car at rest."""
    model = MODELS["arcade"]
    tuning = dict(Tuning(model.PARAMS))
    recording = drive_recording(model, tuning, _drive(), 60)
    trajectory = run_trace(model, tuning, _drive(), 60)
    assert np.array_equal(recording.pose[0], [0, 0, 0]) and not recording.controls[0].any()
    assert np.array_equal(recording.pose[1:], trajectory[:, 1:4])
    assert np.array_equal(recording.velocity[1:], trajectory[:, 4:6])


def test_a_recording_replays_wherever_a_trace_is_taken(tmp_path):
    model = MODELS["monster"]
    recording = drive_recording(model, dict(Tuning(model.PARAMS)), _drive(), 60, states=("omega", "gear"))
    path = tmp_path / "drive.csv"
    save_recording(path, recording)
    assert np.array_equal(load_trace(path), recording.controls)
    chunks = list(trace_chunks(path, rows_per_chunk=50))
    assert np.array_equal(np.vstack([rows for rows, _ in chunks]), recording.controls)


def test_simulate_replays_a_recordings_controls(tmp_path):
    """simulate takes a recording as its controls: from rest, the first row (no controls)
    leaves the car at rest, then each tick's pose is the recorded one."""
    preset = load_preset(BUILTIN_DIR / "recipe_defaults.json")
    recording = drive_recording(preset.model, preset.tuning, _drive(), 60)
    path, out = tmp_path / "drive.csv", tmp_path / "trajectory.csv"
    save_recording(path, recording)
    assert main(["simulate", "--preset", str(preset.path), "--controls", str(path), "--out", str(out)]) == 0
    replayed = np.loadtxt(out, delimiter=",", skiprows=1)
    assert np.array_equal(replayed[:, 1:4], recording.pose)


def test_columns_come_in_any_order_and_the_pedals_alone_are_enough(tmp_path):
    path = tmp_path / "drive.csv"
    rows = _recording_rows()
    path.write_text(_text(rows[:, [8, 7, 6, 5, 0, 1, 2]], "heading,y,x,t,steer,throttle,brake"))
    loaded = load_recording(path)
    assert loaded.hz == 60 and np.array_equal(loaded.pose, rows[:, 6:9]) and loaded.velocity is None


def test_a_recording_without_t_takes_the_tick_rate_given(tmp_path):
    path = tmp_path / "drive.csv"
    rows = _recording_rows()
    path.write_text(_text(np.delete(rows, 5, axis=1), "steer,throttle,brake,handbrake,shift,x,y,heading"))
    assert load_recording(path, hz=60).hz == 60
    with pytest.raises(TraceError, match="no t column, so the tick rate is unknown: give it"):
        load_recording(path)


def test_an_old_trace_of_controls_only_loads_as_before(tmp_path):
    path = tmp_path / "old.csv"
    path.write_text("steer,throttle,brake\n0,1,0\n0.5,1,0\n")
    assert np.array_equal(load_trace(path), [[0, 1, 0, 0, 0], [0.5, 1, 0, 0, 0]])
    with pytest.raises(TraceError, match=r"line 1: no pose columns \(x, y, heading\)") as caught:
        load_recording(path)
    assert str(path) in str(caught.value)


_bad = _text
NAN_ROW = _recording_rows()
NAN_ROW[40, 6] = np.nan
WORD = _text(_recording_rows()).replace("\n0.0,0.0,0.0,0.0,0.0,0.5,", "\n0.0,0.0,0.0,0.0,0.0,half,", 1)
UNEVEN = _recording_rows()
UNEVEN[50:, 5] += 0.5 / 60  # half a tick: no whole number of ticks
REPEATED = _recording_rows()
REPEATED[50:, 5] -= 1 / 60  # row 50's t the same as row 49's
BACKWARDS = _recording_rows()
BACKWARDS[50:, 5] -= 3 / 60


@pytest.mark.parametrize(
    "text, hz, expected",
    [
        (_bad(_recording_rows()[:, :8], HEADER.replace(",heading", "")), None, r"line 1: no heading column"),
        (_bad(NAN_ROW), None, r"line 42: x nan is not a finite number"),
        (WORD, None, r"line 32: t 'half' is not a number"),
        (_bad(_recording_rows()), 120, r"column 6: t steps by 0\.016666\d* s, a tick rate of 60 Hz, but --hz 120"),
        (_bad(UNEVEN), None, r"line 52 column 6: t goes from 0\.816667 to 0\.841667 s.*not a whole number of ticks"),
        (_bad(REPEATED), None, r"line 52 column 6: t goes from 0\.816667 to 0\.816667 s.*uneven \(a row repeated"),
        (_bad(BACKWARDS), None, r"line 52 column 6: t goes from 0\.816667 to 0\.783333 s.*out of order"),
        (_bad(_recording_rows(100)), None, r"1\.65 s of driving \(100 ticks at 60 Hz\); a fit needs at least 2 s"),
        (_bad(_recording_rows(), HEADER + ",grip"), None, r"line 1 column 10: 'grip' is not a column of a recording"),
        (_bad(_recording_rows()[:, [0, 1, 2, 5, 5, 6, 7, 8]], "steer,throttle,brake,t,t,x,y,heading"), None, "twice"),
    ],
    ids=[
        "no heading",
        "NaN",
        "a word",
        "another tick rate",
        "half a tick",
        "repeated t",
        "t backwards",
        "too short",
        "unknown column",
        "twice",
    ],  # fmt: skip
)
def test_a_file_that_is_not_a_recording_is_refused_naming_the_place(tmp_path, text, hz, expected):
    path = tmp_path / "bad.csv"
    path.write_text(text)
    with pytest.raises(TraceError, match=expected) as caught:
        load_recording(path, hz)
    assert str(path) in str(caught.value)
