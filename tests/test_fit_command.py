"""`car-sandbox fit`: the JSON and the text say the residual, each value with its
uncertainty and unit, what was undetermined and which model is best; `--out` writes the
best fit as a preset that loads; every bad input is refused by name with nothing written."""

from __future__ import annotations

import json

import numpy as np
import pytest

from sandbox.cli import main
from sandbox.devtools.fit_drives import arcade_drive, corvette_drive, wall_contact
from sandbox.files.presets import BUILTIN_DIR, Preset, load_preset, reference_preset, save_preset
from sandbox.files.recordings import Recording, drive_recording, save_recording
from sandbox.files.traces import BUILTIN_TRACES
from sandbox.physics.models import MODELS
from sandbox.physics.params import Tuning
from sandbox.physics.sim import run_trace

HIDDEN = {"engine_power": 1037.0, "traction_slow": 8.43}
"""Values the command is not told (the arcade's defaults otherwise)."""


def _arcade_drive(seconds=6.0, hz=60):
    """Full throttle with a turn right and one left, then a coast: never reversing."""
    rows = np.zeros((round(seconds * hz), 5))
    n = len(rows)
    rows[: n * 2 // 3, 1] = 1.0
    rows[n // 3 : n // 2, 0] = 0.6
    rows[n // 2 :, 0] = -0.4
    return rows


@pytest.fixture(scope="module")
def arcade_csv(tmp_path_factory):
    model = MODELS["arcade"]
    path = tmp_path_factory.mktemp("fit") / "drive.csv"
    save_recording(path, drive_recording(model, dict(Tuning(model.PARAMS), **HIDDEN), _arcade_drive(), 60))
    return path


def test_json_says_each_fitted_value_its_uncertainty_and_the_best_model(arcade_csv, tmp_path, capsys):
    out = tmp_path / "fitted.json"
    argv = ["fit", "--trace", str(arcade_csv), "--model", "arcade", "--free", "engine_power,traction_slow"]
    assert main(argv + ["--json", "--out", str(out)]) == 0
    found = json.loads(capsys.readouterr().out)
    assert set(found) >= {"fits", "best"} and found["best"] == "arcade"
    (only,) = found["fits"]
    assert set(only) >= {
        "model", "rms_position", "max_position", "rms_heading", "params", "uncertainty", "undetermined"
    }  # fmt: skip
    assert only["model"] == "arcade" and only["verdict"] == "good" and only["undetermined"] == []
    for name, value in HIDDEN.items():
        assert only["params"][name] == pytest.approx(value, rel=1e-6)
        assert only["uncertainty"][name] >= 0
    assert only["rms_position"] < 1e-6 and only["max_position"] >= only["rms_position"]
    assert only["beyond_noise"] is False  # both hidden values found: nothing left over but rounding
    written = load_preset(out)
    assert written.model is MODELS["arcade"] and written.tuning["engine_power"] == pytest.approx(1037.0, rel=1e-6)
    recorded = np.loadtxt(arcade_csv, delimiter=",", skiprows=1)
    replayed = run_trace(written.model, written.tuning, recorded[1:, :5], written.hz)  # from the row at rest
    assert np.max(np.hypot(*(replayed[:, 1:3] - recorded[1:, 6:8]).T)) < 1.0  # px, the whole drive unanchored


def test_the_text_names_every_number_with_its_unit(arcade_csv, capsys):
    argv = ["fit", "--trace", str(arcade_csv), "--model", "arcade", "--free", "engine_power,max_speed_reverse"]
    code = main(argv)
    text = capsys.readouterr().out
    assert "RMS position" in text and " px, worst " in text and "° (" in text
    assert "engine_power" in text and "px/s²" in text
    assert "max_speed_reverse    250 px/s: undetermined" in text
    assert "best: arcade" in text
    assert code in (0, 1)  # good, or poor where traction_slow is left at a wrong value


def test_a_residual_above_the_recordings_noise_is_said_to_be_so(arcade_csv, capsys):
    """traction_slow left at 10 for the hidden 8.43: engine_power alone cannot make up
    for it, so the residual is a systematic one on a noise-free recording; the value's
    ± from this misfit would mean nothing, so it is not given, and the text says what
    to try instead (no other seed: the search found the best these values can do)."""
    argv = ["fit", "--trace", str(arcade_csv), "--model", "arcade", "--free", "engine_power"]
    main(argv)
    text = capsys.readouterr().out
    assert "times what the recording's noise explains" in text
    assert "± not meaningful" in text and not [
        line for line in text.splitlines() if "engine_power" in line and "± 0" in line
    ]
    assert "what to try: free the" in text and "--free or --lock" in text and "--seed" not in text
    assert "its residual above the recording's noise" in text.splitlines()[-1]
    main(argv + ["--json"])
    (only,) = json.loads(capsys.readouterr().out)["fits"]
    assert only["beyond_noise"] is True and only["rms_position"] > 3 * only["noise_position"]
    assert only["uncertainty"] == {"engine_power": None}
    assert only["uncertainty_reason"].startswith("not meaningful: the residual is")
    assert any("free the" in hint for hint in only["what_to_try"])


def test_a_fit_to_its_noise_gives_its_uncertainties_and_nothing_to_try(arcade_csv, capsys):
    argv = ["fit", "--trace", str(arcade_csv), "--model", "arcade", "--free", "engine_power,traction_slow"]
    main(argv + ["--json"])
    (only,) = json.loads(capsys.readouterr().out)["fits"]
    assert only["uncertainty_reason"] is None and only["what_to_try"] == []
    assert all(value is not None for value in only["uncertainty"].values())
    assert only["left_out_spans_s"] == [] and only["cannot_explain_segments"] == 0
    assert only["tied"] == []  # an exact recording shows each value sharply


def test_the_combination_a_noisy_drive_shows_is_named_with_its_own_uncertainty(tmp_path, capsys):
    """0.3 px of noise on every position: the wheel base and the steering angle, which
    together set the turn, trade off; the text and the JSON name their ratio with a ±
    (relative) far smaller than either's."""
    model = MODELS["arcade"]
    hidden = dict(Tuning(model.PARAMS), wheel_base=82.0, steering_angle=17.3)
    recording = drive_recording(model, hidden, _arcade_drive(), 60)
    recording.pose[:, :2] += np.random.default_rng(3).normal(0.0, 0.3, recording.pose[:, :2].shape)
    path = tmp_path / "noisy.csv"
    save_recording(path, recording)
    argv = ["fit", "--trace", str(path), "--model", "arcade", "--free", "wheel_base,steering_angle"]
    main(argv + ["--json"])
    (only,) = json.loads(capsys.readouterr().out)["fits"]
    (tie,) = only["tied"]
    assert tie["of"] == "steering_angle / wheel_base"
    params, uncertainty = only["params"], only["uncertainty"]
    assert tie["value"] == pytest.approx(params["steering_angle"] / params["wheel_base"])
    assert tie["uncertainty"] / tie["value"] < uncertainty["wheel_base"] / params["wheel_base"] / 5
    assert abs(tie["value"] - 17.3 / 82.0) <= 3 * tie["uncertainty"]  # the recorded car's ratio
    main(argv)
    text = capsys.readouterr().out
    assert f"steering_angle / wheel_base = {tie['value']:.6g} ± " in text
    assert "the drive shows this combination much more sharply than either value" in text


def test_a_wall_glancing_the_car_is_named_and_left_out(tmp_path, capsys):
    """A drive of the reference preset with another wheel base and steering angle,
    against a wall for 15 ticks at 25.6 s: the second it is in is named in the text
    and in the JSON, and both values come back within 0.1 %."""
    preset = reference_preset(MODELS["arcade"])
    hidden = dict(preset.tuning, wheel_base=82.0, steering_angle=17.3)
    path = tmp_path / "wall.csv"
    save_recording(path, wall_contact(preset.model, hidden, arcade_drive(30.0), 60, 25.6, 15))
    argv = ["fit", "--trace", str(path), "--model", "arcade", "--free", "wheel_base,steering_angle"]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "left out: 25.00–26.00 s (1 of 30 segments)" in text
    main(argv + ["--json"])
    (only,) = json.loads(capsys.readouterr().out)["fits"]
    assert only["left_out_spans_s"] == [[25.0, 26.0]] and only["verdict"] == "good"
    for name in ("wheel_base", "steering_angle"):
        assert only["params"][name] == pytest.approx(hidden[name], rel=1e-3)


def test_all_fits_the_models_in_the_recordings_units_and_names_the_best(tmp_path, capsys):
    preset = load_preset(BUILTIN_DIR / "monster_corvette_c5.json")
    path = tmp_path / "corvette.csv"
    save_recording(path, drive_recording(preset.model, dict(preset.tuning, c_drag=0.5), corvette_drive(4.0), 60))
    assert main(["fit", "--trace", str(path), "--model", "all", "--free", "c_drag", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert [f["model"] for f in found["fits"]] == [m.NAME for m in MODELS.values() if m.LENGTH_UNIT == "m"]
    assert found["best"] == "monster"
    fits = {f["model"]: f for f in found["fits"]}
    assert fits["monster"]["params"]["c_drag"] == pytest.approx(0.5, rel=1e-6)
    assert fits["bicycle"]["params"] == {}  # it has no c_drag: driven as its preset is


def _refused(argv, capsys, expected, out):
    assert main(argv + ["--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert expected in err and "Traceback" not in err
    assert not out.exists()


def test_a_trace_without_the_pose_is_refused(tmp_path, capsys):
    path = tmp_path / "controls.csv"
    path.write_text("steer,throttle,brake\n" + "0,1,0\n" * 200)
    _refused(["fit", "--trace", str(path), "--model", "arcade"], capsys, "no pose columns", tmp_path / "o.json")


def _cell(text: str, line: int, column: int, value: str) -> str:
    lines = text.split("\n")
    cells = lines[line - 1].split(",")
    cells[column - 1] = value
    lines[line - 1] = ",".join(cells)
    return "\n".join(lines)


def _column(text: str, name: str) -> str:
    lines = text.rstrip("\n").split("\n")
    return "\n".join([lines[0] + "," + name] + [line + ",0" for line in lines[1:]]) + "\n"


@pytest.mark.parametrize(
    "change, extra, expected",
    [
        (lambda text: _cell(text, 40, 7, "nan"), [], "line 40: x nan is not a finite number"),
        (lambda text: _cell(text, 41, 8, "north"), [], "line 41: y 'north' is not a number"),
        (lambda text: text, ["--hz", "30"], "a tick rate of 60 Hz, but --hz 30 was given"),
        (lambda text: "\n".join(text.split("\n")[:100]) + "\n", [], "a fit needs at least 2 s"),
        (lambda text: _column(text, "grip"), [], "column 12: 'grip' is not a column of a recording"),
    ],
    ids=["NaN", "not a number", "tick rate", "too short", "unknown column"],
)
def test_a_bad_recording_is_refused_with_nothing_written(arcade_csv, tmp_path, capsys, change, extra, expected):
    path = tmp_path / "bad.csv"
    text = change(arcade_csv.read_text())
    path.write_text(text)
    _refused(["fit", "--trace", str(path), "--model", "arcade"] + extra, capsys, expected, tmp_path / "o.json")


def test_uneven_ticks_are_refused(arcade_csv, tmp_path, capsys):
    """A step of t that is not a whole number of ticks, or a row twice, is no lost tick."""
    lines = arcade_csv.read_text().split("\n")
    half = lines[51].split(",")
    half[5] = f"{(float(half[5]) + float(lines[50].split(',')[5])) / 2:.17g}"
    for name, changed in (
        ("half.csv", lines[:51] + [",".join(half)] + lines[52:]),
        ("twice.csv", lines[:51] + lines[50:]),
    ):
        path = tmp_path / name
        path.write_text("\n".join(changed))
        _refused(["fit", "--trace", str(path), "--model", "arcade"], capsys, "uneven", tmp_path / "o.json")


def test_a_drive_with_ticks_lost_is_fitted_saying_how_many(arcade_csv, tmp_path, capsys):
    """The live link leaves lost ticks out: the fit starts a new segment after each,
    finds the hidden values as without, and says how many ticks were lost."""
    lines = arcade_csv.read_text().split("\n")
    path = tmp_path / "lost.csv"
    path.write_text("\n".join(lines[:50] + lines[53:200] + lines[201:]))  # rows 49-51 and 199 lost
    argv = ["fit", "--trace", str(path), "--model", "arcade", "--free", "engine_power,traction_slow"]
    assert main(argv + ["--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["missing_ticks"] == 4 and found["seconds"] == pytest.approx(6.0)
    for name, value in HIDDEN.items():
        assert found["fits"][0]["params"][name] == pytest.approx(value, rel=1e-6)
    assert main(argv) == 0
    assert "4 ticks missing (lost in 2 places): the car is put back on the recording after each" in (
        capsys.readouterr().out
    )
    assert (
        main(["fit", "--trace", str(arcade_csv), "--model", "arcade", "--free", "engine_power,traction_slow", "--json"])
        == 0
    )
    assert json.loads(capsys.readouterr().out)["missing_ticks"] == 0


def test_a_drive_no_model_can_explain_is_refused_with_nothing_written(tmp_path, capsys):
    """The throttle held down while the recorded car creeps along at 10 px/s (stuck
    against a wall): with its engine as it is, the arcade drives away from the
    recording in every segment, further than the recorded car moves in one."""
    n = 240
    controls = np.zeros((n, 5))
    controls[:, 1] = 1.0
    t = np.arange(n) / 60
    pose = np.column_stack([10.0 * t, np.zeros(n), np.zeros(n)])
    path = tmp_path / "stuck.csv"
    save_recording(path, Recording(controls, pose, hz=60, t=t))
    argv = ["fit", "--trace", str(path), "--model", "arcade", "--free", "steering_angle"]
    _refused(argv, capsys, "no model explains this drive at all (nothing written)", tmp_path / "o.json")


def test_a_trace_beside_the_simulate_output_is_a_recording(tmp_path, capsys):
    """A control trace and `simulate`'s trajectory of it, pasted side by side line by line
    (t,x,y,heading,vx,vy,speed,slip_angle after the controls), make a recording: the fit
    of the tuning that drove it is exact, and finds a value it is not told."""
    preset = load_preset(BUILTIN_DIR / "recipe_defaults.json")
    trace = BUILTIN_TRACES / "slalom.csv"
    hidden = dict(preset.tuning, engine_power=1037.0)
    made = tmp_path / "made.json"
    save_preset(Preset(preset.model, Tuning(preset.model.PARAMS, hidden), name="hidden"), made)
    assert main(["simulate", "--preset", str(made), "--controls", str(trace), "--out", str(tmp_path / "out.csv")]) == 0
    controls = trace.read_text(encoding="utf-8").splitlines()
    states = (tmp_path / "out.csv").read_text(encoding="utf-8").splitlines()
    assert len(controls) == len(states)
    merged = tmp_path / "merged.csv"
    merged.write_text("\n".join(f"{a},{b}" for a, b in zip(controls, states)) + "\n", encoding="utf-8")
    capsys.readouterr()
    args = ["fit", "--trace", str(merged), "--model", "arcade", "--free", "engine_power", "--json"]
    assert main(args) == 0
    fit = json.loads(capsys.readouterr().out)["fits"][0]
    assert fit["params"]["engine_power"] == pytest.approx(1037.0, rel=1e-6)
    assert fit["rms_position"] < 1e-6
