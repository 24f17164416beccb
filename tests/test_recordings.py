"""Recordings: a trace with the car's pose per tick. They load (the tick rate from t's
steps), save, replay wherever a trace is taken, and every file that is not one is
refused with a message naming the file, the line or column, and the problem."""

from __future__ import annotations

import numpy as np
import pytest

from lost_ticks import without_rows
from sandbox.cli import main
from sandbox.errors import TraceError
from sandbox.files.presets import BUILTIN_DIR, load_preset
from sandbox.files.recording_columns import (
    CONTROL_COLUMNS,
    POSE_COLUMNS,
    STATE_COLUMNS,
    TIME_COLUMN,
    VELOCITY_COLUMNS,
)
from sandbox.files.recordings import drive_recording, load_recording, replayable, save_recording
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


LOST = {
    "one tick": {90},
    "three in a row": {90, 91, 92},
    "the first tick's": {1},
    "next to last": {179},
    "here and there": {1, 2, 60, 120, 121, 179},
}


@pytest.mark.parametrize("lost", LOST.values(), ids=list(LOST))
def test_a_recording_with_ticks_lost_loads_saying_where_they_are(tmp_path, lost):
    """The rows the live link never received are left out: t jumps by whole ticks; each
    remaining row keeps its tick (its t·hz), the rows after a gap and the number lost
    are known, and the time spanned is the whole drive's."""
    model = MODELS["arcade"]
    recording = drive_recording(model, dict(Tuning(model.PARAMS)), _drive(), 60)
    loaded = without_rows(recording, lost, tmp_path)
    kept = np.array([k for k in range(len(recording)) if k not in lost])
    assert loaded.hz == 60 and len(loaded) == len(kept)
    assert np.array_equal(loaded.tick, kept) and loaded.missing_ticks == len(lost)
    assert np.array_equal(loaded.pose, recording.pose[kept])
    after = [j for j in range(1, len(kept)) if kept[j] - kept[j - 1] > 1]
    assert np.array_equal(loaded.gaps, after)
    assert loaded.seconds == pytest.approx(3.0)
    lines = (tmp_path / "lost.csv").read_text().split("\n")
    (tmp_path / "twice.csv").write_text("\n".join(lines[:30] + [lines[29]] + lines[30:]))
    with pytest.raises(TraceError, match=r"line 31 column 6: .*uneven \(a row repeated"):  # one row twice
        load_recording(tmp_path / "twice.csv")


def test_a_recording_without_lost_ticks_has_a_row_per_tick():
    model = MODELS["arcade"]
    recording = drive_recording(model, dict(Tuning(model.PARAMS)), _drive(), 60)
    assert recording.tick is None and recording.missing_ticks == 0 and not len(recording.gaps)


def test_a_recording_with_a_tick_lost_is_refused_as_a_trace_naming_the_tick(tmp_path, capsys):
    """A trace replays every tick and the lost tick's controls are unknown: the window,
    simulate and every trace reader refuse it, naming the first lost tick (t = tick/hz)
    and saying that the fit can use it."""
    model = MODELS["arcade"]
    recording = drive_recording(model, dict(Tuning(model.PARAMS)), _drive(), 60)
    without_rows(recording, {70, 71, 150}, tmp_path)
    path = tmp_path / "lost.csv"
    expected = r"lost\.csv line 72: tick 70 \(t = 1\.16667 s\) is missing from this recording.*`car-sandbox fit` can"
    with pytest.raises(TraceError, match=expected):
        load_trace(path)
    with pytest.raises(TraceError, match=expected):  # what a replay of the recording's rows asks first
        replayable(load_recording(path))
    assert replayable(recording) is recording
    for rows_per_chunk in (50, 69, 70, 1000):  # the gap inside a chunk, at its end, at the next one's start
        with pytest.raises(TraceError, match=expected):
            list(trace_chunks(path, rows_per_chunk=rows_per_chunk))
    out = tmp_path / "trajectory.csv"
    preset = BUILTIN_DIR / "recipe_defaults.json"
    assert main(["simulate", "--preset", str(preset), "--controls", str(path), "--out", str(out)]) == 2
    assert not out.exists() and "tick 70 (t = 1.16667 s) is missing" in capsys.readouterr().err


def test_steer_is_the_control_and_no_state_column():
    """The bicycle's state has a `steer` slot, but a recording's `steer` column is the
    control: read as a state too, a recording saved back had `steer` twice and could
    not be loaded again."""
    assert not set(STATE_COLUMNS) & set(CONTROL_COLUMNS + (TIME_COLUMN,) + POSE_COLUMNS + VELOCITY_COLUMNS)
    assert "steer" in {slot.name for slot in MODELS["bicycle"].STATE.slots}


def test_a_bicycle_recording_saved_again_loads_again(tmp_path):
    model = MODELS["bicycle"]
    recording = drive_recording(model, dict(Tuning(model.PARAMS)), _drive(), 60)
    save_recording(tmp_path / "first.csv", recording)
    loaded = load_recording(tmp_path / "first.csv")
    assert "steer" not in loaded.states
    save_recording(tmp_path / "again.csv", loaded)
    again = load_recording(tmp_path / "again.csv")
    assert np.array_equal(again.controls, recording.controls) and np.array_equal(again.pose, recording.pose)
