"""Numbers written into GDScript: the shortest decimal within half the value's slider
step (its own precision), exact for a value on the step, never an exponent. The
expected literals are worked out by hand from that rule."""

import pytest

from sandbox.files.godot import export_script, gdscript_float, gdscript_literal, off_step
from sandbox.files.presets import BUILTIN_DIR, load_preset

BY_THE_RULE = [
    # value, step, literal: the fewest digits whose number lies within step/2 of the value
    (74.9747302957341, 1, "75"),  # 75 is 0.025 away, within 0.5; 70 or 7e1 are not
    (74.9747302957341, 0.1, "75"),  # 75 is 0.025 away, within 0.05
    (74.94, 0.1, "74.9"),  # 75 is 0.06 away: too far; 74.9 is 0.04 away
    (0.123, 0.05, "0.1"),  # 0.1 is 0.023 away, within 0.025
    (0.13, 0.05, "0.13"),  # 0.1 is 0.03 away: too far; 0.13 is exact
    (1234.5678, 1, "1235"),
    (9999.97, 0.1, "10000"),  # 0.03 away, and shorter
    (12345.0, 10, "12345"),  # 12340 is as long: the exact value
    (-0.0452, 0.001, "-0.045"),
    (-0.0004, 0.001, "0"),  # 0.0004 from 0: within half a step of 0.001
    (0.1 + 0.2, 0.01, "0.3"),  # the float's noise is no part of its value
    (22.5, 0.5, "22.5"),  # on its step: exact
    (-450.0, 10, "-450"),
]


@pytest.mark.parametrize("value, step, literal", BY_THE_RULE)
def test_the_shortest_literal_within_half_a_step(value, step, literal):
    assert gdscript_literal(value, step) == literal
    assert abs(float(literal) - value) <= step / 2 + 1e-12  # it reads back within the step


@pytest.mark.parametrize(
    "value, literal", [(-0.06, "-0.06"), (1e-7, "0.0000001"), (1e21, "1000000000000000000000"), (70.0, "70")]
)
def test_without_a_step_the_literal_reads_back_exactly(value, literal):
    assert gdscript_literal(value) == literal and float(literal) == value


def test_a_float_literal_keeps_its_point():
    assert gdscript_float(74.9747302957341, 1) == "75.0" and gdscript_float(0.13, 0.05) == "0.13"


@pytest.mark.parametrize("path", sorted(BUILTIN_DIR.glob("*.json")), ids=lambda p: p.stem)
def test_every_built_in_preset_is_on_its_steps_so_its_script_holds_its_exact_values(path):
    """What the engine runs is what the sandbox drives: no built-in value is rounded."""
    assert off_step(load_preset(path)) == {}


def test_an_exported_script_writes_a_fits_value_to_its_step_and_says_so(tmp_path, capsys):
    from sandbox.cli import main
    from sandbox.files.presets import save_preset

    preset = load_preset(BUILTIN_DIR / "recipe_defaults.json")
    preset.tuning.set("wheel_base", 74.9747302957341)
    text = export_script(preset, 4)
    assert "var wheel_base: float = 75.0\n" in text and "74.97" not in text
    save_preset(preset, tmp_path / "fitted.json")
    out = tmp_path / "car.gd"
    assert main(["export-godot", "--preset", str(tmp_path / "fitted.json"), "--out", str(out)]) == 0
    assert out.read_text() == text
    assert "wheel_base 74.9747302957341 as 75 (step 1)" in capsys.readouterr().out
