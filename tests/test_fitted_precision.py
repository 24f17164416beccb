"""A value a fit found is written into GDScript to the fit's precision, not its slider's
step: `fit --out` keeps each value's ± in the preset, and `export-godot` writes the
shortest literal within min(half a step, ±). A preset without it (every preset written
before) exports with the step rule. The expected literals are worked out by hand from
that rule; the fitted car's values are the ones its recording was made with."""

import json
import math
import re

import numpy as np
import pytest

from sandbox.cli import main
from sandbox.errors import PresetError
from sandbox.files.godot import export_script, gdscript_literal, off_step
from sandbox.files.presets import BUILTIN_DIR, dump_preset, load_preset, parse_preset, save_preset
from sandbox.files.recordings import drive_recording, save_recording
from sandbox.physics.models import MODELS
from sandbox.physics.params import Tuning

BY_THE_RULE = [
    # value, step, precision, literal: the fewest digits within min(step/2, precision)
    (-47.30021, 1, 0.0004, "-47.3"),  # -47.3 is 0.00021 away, within 0.0004; -47 is 0.3 away
    (-47.30021, 1, 0.0001, "-47.3002"),  # -47.3 is 0.00021 away: too far; -47.3002 is 0.00001 away
    (74.9747302957341, 1, 0.03, "75"),  # 75 is 0.0253 away, within 0.03
    (74.9747302957341, 1, 0.02, "74.97"),  # 75 is 0.0253 away: too far; 74.97 is 0.0047 away
    (0.123, 0.05, 1.0, "0.1"),  # a ± wider than half a step: the step's 0.025 (0.1 is 0.023 away)
    (-47.30021, 1, math.nan, "-47"),  # no finite positive ±: the step rule
    (-47.30021, 1, math.inf, "-47"),
    (-47.30021, 1, 0.0, "-47"),
    (-47.30021, 1, -0.1, "-47"),
    (-47.30021, 1, None, "-47"),
]


@pytest.mark.parametrize("value, step, precision, literal", BY_THE_RULE)
def test_the_shortest_literal_within_the_fits_precision(value, step, precision, literal):
    assert gdscript_literal(value, step, precision) == literal


def _recipe(**values):
    preset = load_preset(BUILTIN_DIR / "recipe_defaults.json")
    preset.tuning.set_many(values)
    return preset


def test_a_value_with_its_precision_is_written_and_named_with_it():
    preset = _recipe(wheel_base=74.9747302957341, friction=-47.30021)
    preset.precision = {"wheel_base": 0.03, "friction": 0.0004}
    text = export_script(preset, 4)
    assert "var wheel_base: float = 75.0\n" in text and "var friction: float = -47.3\n" in text
    assert off_step(preset)["friction"] == "friction -47.30021 as -47.3 (± 0.0004, the fit's)"
    assert off_step(preset)["wheel_base"] == "wheel_base 74.9747302957341 as 75 (± 0.03, the fit's)"


def test_a_preset_written_before_has_no_precision_and_exports_to_the_steps(tmp_path):
    """A preset file of the format before (no "precision"): loads as it did, every value
    to its slider's step; saved again without a fit, it has no such field either."""
    data = json.loads((BUILTIN_DIR / "recipe_defaults.json").read_text())
    assert "precision" not in data
    data["params"].update(wheel_base=74.9747302957341, friction=-47.30021)
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data))
    old = load_preset(path)
    assert old.precision == {}
    text = export_script(old, 3)
    assert "var wheel_base = 75.0\n" in text and "var friction = -47.0\n" in text
    assert "precision" not in json.loads(dump_preset(old))


def test_the_precision_travels_through_a_saved_preset():
    preset = _recipe(friction=-47.30021)
    preset.precision = {"friction": 0.0004}
    again = parse_preset(dump_preset(preset))
    assert again.precision == {"friction": 0.0004} and again.tuning["friction"] == -47.30021


@pytest.mark.parametrize(
    "precision, expected",
    [
        ({"friction": -1}, "field 'precision.friction': -1 is not a positive number"),
        ({"friction": "0.1"}, "field 'precision.friction'"),
        ({"grip": 0.1}, "field 'precision.grip': not a numeric parameter"),
        ({"analog_pedals": 0.1}, "field 'precision.analog_pedals': not a numeric parameter"),
        ([0.1], "field 'precision' must be an object"),
    ],
)
def test_a_bad_precision_is_refused_naming_it(precision, expected):
    data = json.loads((BUILTIN_DIR / "recipe_defaults.json").read_text())
    data["precision"] = precision
    with pytest.raises(PresetError, match=expected):
        parse_preset(json.dumps(data), "bad.json")
    fixes = []
    assert parse_preset(json.dumps(data), "bad.json", fixes).precision == {} and len(fixes) == 1


FRICTION = -47.3
"""The recorded car's rolling friction, off its slider's step of 1."""


@pytest.fixture(scope="module")
def friction_csv(tmp_path_factory):
    """The recipe's car with friction -47.3 driving six seconds (full throttle, a turn, a
    coast), its positions with noise as a game's have (a noise-free drive's ± is the
    floats' rounding)."""
    model = MODELS["arcade"]
    rows = np.zeros((360, 5))
    rows[:240, 1] = 1.0
    rows[120:180, 0] = 0.6
    path = tmp_path_factory.mktemp("fit") / "drive.csv"
    tuning = dict(Tuning(model.PARAMS, dict(load_preset(BUILTIN_DIR / "recipe_defaults.json").tuning)))
    recording = drive_recording(model, {**tuning, "friction": FRICTION}, rows, 60)
    recording.pose[1:, :2] += np.random.default_rng(34).normal(0, 0.002, (len(rows), 2))  # px: a game's noise
    save_recording(path, recording)
    return path


def test_fit_out_then_export_godot_writes_the_fitted_friction_to_the_fits_precision(friction_csv, tmp_path, capsys):
    out = tmp_path / "fitted.json"
    fitted = ["fit", "--trace", str(friction_csv), "--model", "arcade", "--free", "friction", "--out", str(out)]
    assert main(fitted + ["--preset", "recipe_defaults"]) == 0
    saved = json.loads(out.read_text())
    found, precision = saved["params"]["friction"], saved["precision"]["friction"]
    assert abs(found - FRICTION) <= 3 * precision < 0.01, (found, precision)  # the recorded car's, to its ±
    assert set(saved["precision"]) == {"friction"}  # the values it did not move keep their steps
    script = tmp_path / "car.gd"
    assert main(["export-godot", "--preset", str(out), "--godot", "3", "--out", str(script)]) == 0
    (literal,) = re.findall(r"var friction = (\S+)\n", script.read_text())
    assert abs(float(literal) - found) <= precision  # reads back within the fit's ±, so -47.3 to a tenth
    assert round(float(literal), 1) == FRICTION and len(literal) < len(repr(found))  # and not -47.0, the step's
    mine = tmp_path / "mine.gd"
    assert main(["export-godot", "--preset", "recipe_defaults", "--godot", "4", "--out", str(mine)]) == 0
    assert main(["export-godot", "--preset", str(out), "--into", str(mine)]) == 0
    assert f"var friction: float = {literal}\n" in mine.read_text()
    capsys.readouterr()


def test_export_godot_writes_a_saved_fits_value_to_its_precision_and_says_so(tmp_path, capsys):
    """-47.30021 ± 0.0004: -47.3 is 0.00021 away, within; -47 (the step's) is 0.3 away."""
    preset = _recipe(friction=-47.30021, wheel_base=74.9747302957341)
    preset.precision = {"friction": 0.0004, "wheel_base": 0.03}
    save_preset(preset, tmp_path / "fitted.json")
    script, mine = tmp_path / "car.gd", tmp_path / "mine.gd"
    assert main(["export-godot", "--preset", str(tmp_path / "fitted.json"), "--godot", "3", "--out", str(script)]) == 0
    assert "var friction = -47.3\n" in script.read_text() and "var wheel_base = 75.0\n" in script.read_text()
    assert "friction -47.30021 as -47.3 (± 0.0004, the fit's)" in capsys.readouterr().out
    assert main(["export-godot", "--preset", "recipe_defaults", "--godot", "4", "--out", str(mine)]) == 0
    assert main(["export-godot", "--preset", str(tmp_path / "fitted.json"), "--into", str(mine)]) == 0
    assert "var friction: float = -47.3\n" in mine.read_text()


def test_a_value_changed_from_its_fitted_one_drops_its_precision(tmp_path, capsys):
    """tune --out and import-godot write a preset from one with a fit's precision: a
    value they change is another number, written to its step; one they keep keeps its ±."""
    base = _recipe(friction=-47.30021, engine_power=1037.4)
    base.precision = {"friction": 0.0004, "engine_power": 0.01}
    save_preset(base, tmp_path / "fitted.json")
    tuned = tmp_path / "tuned.json"
    argv = ["tune", "--preset", str(tmp_path / "fitted.json"), "--target", "top_speed=500±10", "--free", "engine_power"]
    assert main(argv + ["--out", str(tuned)]) in (0, 1)
    assert load_preset(tuned).tuning["engine_power"] != 1037.4
    assert load_preset(tuned).precision == {"friction": 0.0004}
    script = tmp_path / "car.gd"
    assert main(["export-godot", "--preset", "recipe_defaults", "--out", str(script)]) == 0  # friction -55
    imported = tmp_path / "imported.json"
    assert main(["import-godot", str(script), "--preset", str(tmp_path / "fitted.json"), "--out", str(imported)]) == 0
    assert load_preset(imported).precision == {}
    capsys.readouterr()
