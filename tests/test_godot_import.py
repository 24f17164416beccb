"""Reading exported Godot scripts of every model back: what a user may do to one by
hand, and what is refused (with the line named, and nothing imported)."""

import re

import pytest

from sandbox.files.godot import GodotError, export_script, variable_name
from sandbox.files.godot_import import parse_script
from sandbox.files.presets import BUILTIN_DIR, load_preset
from sandbox.physics.models import MODELS
from sandbox.physics.params import script_params

FIRST_PRESETS = {}
for _path in sorted(BUILTIN_DIR.glob("*.json")):
    FIRST_PRESETS.setdefault(load_preset(_path).model.NAME, _path)
MODEL_PRESETS = sorted(FIRST_PRESETS.values())


def _line_of(text: str, name: str) -> int:
    for number, line in enumerate(text.split("\n"), start=1):
        if re.match(rf"^(@export(_range\(.*\))?|export\([^)]*\)) var {name}(: \w+)? = ", line):
            return number
    raise AssertionError(name)


def _slider(model):
    return next(p for p in model.PARAMS if not p.is_bool and p.max - p.min >= 4 * p.step)


@pytest.mark.parametrize("godot", (3, 4))
@pytest.mark.parametrize("path", MODEL_PRESETS, ids=lambda p: p.stem)
def test_a_script_edited_by_hand_is_read(path, godot):
    """Changed values, added comments, variables in another order: the values the user
    wrote are read, the rest as exported."""
    preset = load_preset(path)
    lines = export_script(preset, godot).split("\n")
    p = _slider(preset.model)
    number = _line_of("\n".join(lines), variable_name(p.name))
    new = p.min + 2 * p.step  # within the range, and not the preset's value
    if new == preset.tuning[p.name]:
        new = p.min + 3 * p.step
    lines[number - 1] = re.sub(r"= \S+$", f"= {new!r}  # tried on the track", lines[number - 1])
    declarations = [i for i, line in enumerate(lines) if re.match(r"^(@export|export)", line)]
    first, last = declarations[0], declarations[-1]
    moved = lines.pop(last)  # the last exported variable moved to the top, a comment added
    lines[first:first] = ["# my note: this one matters most", moved]
    result = parse_script("\n".join(lines), preset.model)
    script = {q.name: preset.tuning[q.name] for q in script_params(preset.model.PARAMS)}  # the shape: the scene's
    if any(q.name == "godot_engine" for q in preset.model.PARAMS):  # and the engine the script is written for
        script["godot_engine"] = 1.0 if godot == 3 else 0.0
    assert result.values == {**script, p.name: new}


@pytest.mark.parametrize("path", MODEL_PRESETS, ids=lambda p: p.stem)
def test_a_script_of_another_model_is_refused_naming_its_line(path):
    preset = load_preset(path)
    text = export_script(preset, 4)
    other = next(m for m in MODELS.values() if m is not preset.model)
    line = next(n for n, text in enumerate(text.split("\n"), start=1) if text.startswith("const SANDBOX_MODEL"))
    with pytest.raises(
        GodotError,
        match=rf"car.gd: line {line}: this is a script of the "
        rf"{re.escape(preset.model.TITLE)} model; it cannot be read into a tuning of the "
        rf"{re.escape(other.TITLE)} model",
    ):
        parse_script(text, other, "car.gd")


@pytest.mark.parametrize("path", MODEL_PRESETS, ids=lambda p: p.stem)
def test_out_of_range_missing_and_expression_are_refused_naming_the_line(path):
    preset = load_preset(path)
    text = export_script(preset, 3)
    p = _slider(preset.model)
    name = variable_name(p.name)
    number = _line_of(text, name)
    lines = text.split("\n")
    cases = {
        "out of range": (
            re.sub(r"= \S+$", f"= {p.max + 1000 * p.step!r}", lines[number - 1]),
            rf"line {number}: {name}: .* is outside the allowed range",
        ),
        "expression": (
            re.sub(r"= \S+$", f"= {p.min!r} * 2", lines[number - 1]),
            rf"line {number}: {name} = .* \* 2 is not a plain number",
        ),
        "missing": ("", rf"missing: var {name} \(a {preset.model.NAME} script declares every parameter\)"),
    }
    for replacement, message in cases.values():
        edited = lines.copy()
        edited[number - 1] = replacement
        with pytest.raises(GodotError, match=message):
            parse_script("\n".join(edited), preset.model)


def test_a_parameter_declared_twice_is_refused():
    preset = load_preset(FIRST_PRESETS["bicycle"])
    text = export_script(preset, 4)
    number = _line_of(text, "wheel_base")
    twice = text + "\n" + text.split("\n")[number - 1]
    with pytest.raises(GodotError, match=rf"wheel_base is declared a second time \(first on line {number}\)"):
        parse_script(twice, None)


def test_a_script_from_before_a_parameter_existed_takes_its_default():
    """A dynamic-car script of format 2 (before the four-wheel brakes): the newer
    parameters are not in it and take their declared defaults."""
    preset = load_preset(FIRST_PRESETS["monster"]) if "monster" in FIRST_PRESETS else None
    monster = MODELS["monster"]
    newer = [p for p in script_params(monster.PARAMS) if p.since > 2]  # the shape is the scene's
    assert newer
    lines = ["extends KinematicBody2D", 'const SANDBOX_MODEL = "monster"', "const SANDBOX_FORMAT = 2"]
    lines += [
        f"export(float, {p.min}, {p.max}, {p.step}) var {variable_name(p.name)} = {float(p.default)!r}"
        if not p.is_bool
        else f"export(bool) var {variable_name(p.name)} = {str(bool(p.default)).lower()}"
        for p in monster.PARAMS
        if p.since <= 2
    ]
    result = parse_script("\n".join(lines), None)
    assert result.model is monster
    for p in newer:
        assert result.values[p.name] == p.default
        if p.group != "Steering feel":
            assert any(variable_name(p.name) in w and "newer than the script" in w for w in result.warnings)
    # the steering feel, all of it newer: one note for the whole of it
    assert result.warnings.count("the script is older than the steering feel: its defaults are used (none)") == 1
    assert preset is None or set(result.values) == {p.name for p in script_params(monster.PARAMS)}


def test_a_script_without_a_model_line_needs_one_named():
    with pytest.raises(GodotError, match="no SANDBOX_MODEL line"):
        parse_script("var wheel_base = 80", None, "car.gd")
    with pytest.raises(GodotError, match="line 2: SANDBOX_MODEL hovercraft is not a model"):
        parse_script('extends Node\nconst SANDBOX_MODEL = "hovercraft"\nvar wheel_base = 80', None)


def test_a_script_exported_before_every_model_exported_still_imports():
    """An arcade script from the version before every model had a script (no
    SANDBOX_MODEL line; drag hand-tuned to -0.0123): read for the arcade, bit for bit."""
    from pathlib import Path

    from sandbox.files.godot_import import load_script
    from sandbox.physics.models import arcade

    path = Path(__file__).parent / "data" / "godot3_script_before_every_model_go_kart.gd"
    result = load_script(path, arcade)
    # its code reads the pedals' strength: analog pedals, as that version's scripts drove
    kart = load_preset(BUILTIN_DIR / "go_kart.json").tuning
    # it predates the steering feel and has none: nothing of it is read (a preset of it has its defaults)
    older = [p for p in script_params(arcade.PARAMS) if p.group != "Steering feel"]
    expected = {p.name: kart[p.name] for p in older} | {"drag": -0.0123, "analog_pedals": True}
    expected["godot_engine"] = 1.0  # a KinematicBody2D: Godot 3
    assert result.model is arcade and result.values == expected
    assert result.warnings == [
        "walls are met by Godot 3's move_and_slide rules (Engine: Godot 3), as the script is written for Godot 3"
    ]
