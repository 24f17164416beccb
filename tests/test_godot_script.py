"""Godot script export and import without Godot: structure, literals, and never
running what a file says."""

from pathlib import Path

import pytest

from sandbox.files.godot import (GODOT_VERSIONS, GodotError, export_script, gdscript_literal, load_script,
                                 parse_script, variable_name)
from sandbox.physics.models import arcade
from sandbox.files.presets import BUILTIN_DIR, load_preset

RECIPE_ACTIONS = ('"accelerate"', '"brake"', '"steer_left"', '"steer_right"')
_DEMO = (Path(__file__).parent / "data" / "godot_scripts" / "recipe_demo_godot4.gd").read_text()
RECIPE_CODE = _DEMO[_DEMO.index("\nfunc _physics_process"):]
"""The recipe demo's functions: appended to a few declarations, they say which
formula the numbers are for (a script without them is refused: it could be either)."""


@pytest.mark.parametrize("godot, base, api", [
    (4, "extends CharacterBody2D", ("Input.get_axis", "deg_to_rad", "move_and_slide()", ".lerp(")),
    (3, "extends KinematicBody2D", ("get_action_strength", "deg2rad", "move_and_slide(velocity)", "linear_interpolate")),
])
def test_export_has_the_recipes_structure_and_actions(godot, base, api):
    preset = load_preset(BUILTIN_DIR / "drift.json")
    text = export_script(preset, godot)
    assert base in text
    for piece in api + RECIPE_ACTIONS + ("func get_input", "func apply_friction", "func calculate_steering"):
        assert piece in text
    for p in arcade.PARAMS:
        assert f"var {p.name} = {gdscript_literal(preset.tuning[p.name])}" in text
    other = ("Input.get_axis", "deg_to_rad") if godot == 3 else ("deg2rad", "linear_interpolate")
    assert not any(piece in text for piece in other)
    assert "{{" not in text and "}}" not in text  # every placeholder of the template filled


def test_literals_look_like_the_recipes():
    assert [gdscript_literal(v) for v in (70.0, -0.06, 2.5, False, True, -450.0)] == \
        ["70", "-0.06", "2.5", "false", "true", "-450"]


def test_import_reads_var_lines_in_every_common_spelling():
    text = "\n".join([
        "extends KinematicBody2D",
        "var wheel_base = 90  # px",
        "export var steering_angle = 20.5",
        "@export var engine_power: float = 1.2e3",
        "var drag := -0.07",
        "var rate_independent = true",
        "var velocity = Vector2.ZERO",  # a state variable, not a parameter
        "@export var colour = 3",       # an exported variable of the user's own
        "func _ready():",
        "\tvar slip_speed = 1",         # a local inside a function: not a declaration of the car
    ]) + RECIPE_CODE
    result = parse_script(text, arcade)
    assert result.values == {"wheel_base": 90, "steering_angle": 20.5, "engine_power": 1200, "drag": -0.07,
                             "rate_independent": True, "recipe_2020": False, "analog_pedals": False}
    joined = "\n".join(result.warnings)
    assert "line 8: colour is not a tuning parameter" in joined
    assert not any(w.startswith(("line 7", "line 10")) for w in result.warnings)  # no word on those
    # the recipe's own script has no SANDBOX_MODEL line: what it lacks is left as it is, and said
    assert "not in the script (left as they are): friction, braking" in joined


def test_an_expression_or_a_value_out_of_range_imports_nothing_and_names_the_lines():
    text = "var wheel_base = 90\nvar friction = -55 * 2\nvar braking = -99999\n" + RECIPE_CODE
    with pytest.raises(GodotError) as err:
        parse_script(text, arcade, "car.gd")
    message = str(err.value)
    assert message.startswith("car.gd: nothing was imported")
    assert "line 2: friction = -55 * 2 is not a plain number" in message
    assert "line 3: braking: -99999 is outside the allowed range -4000 … 0 px/s²" in message


def test_bad_scripts_are_refused_with_the_file_name(tmp_path):
    for name, data in (("empty.gd", b""), ("binary.gd", bytes(range(256))), ("huge.gd", b"#" * (1024 * 1024 + 1))):
        path = tmp_path / name
        path.write_bytes(data)
        with pytest.raises(GodotError, match=name):
            load_script(path, arcade)
    with pytest.raises(GodotError, match="is a directory"):
        load_script(tmp_path, arcade)


def test_export_refuses_an_unknown_godot_version():
    with pytest.raises(GodotError, match="Godot version 5"):
        export_script(load_preset(BUILTIN_DIR / "drift.json"), 5)


def test_a_long_run_of_spaces_imports_in_linear_time():
    """The largest allowed script, one declaration padded with a megabyte of spaces:
    read in one pass (a backtracking pattern took minutes on a fraction of this)."""
    from sandbox.files.godot import SCRIPT_LIMIT

    head = "var wheel_base ="
    text = head + " " * (SCRIPT_LIMIT - len(head) - 4 - len(RECIPE_CODE)) + " 80" + RECIPE_CODE
    assert len(text) <= SCRIPT_LIMIT
    assert parse_script(text, arcade).values == {"wheel_base": 80, "rate_independent": False,
        "recipe_2020": False, "analog_pedals": False}
    spaces = "var wheel_base = 80" + " " * (SCRIPT_LIMIT // 2) + "x" + RECIPE_CODE  # unreadable, just as fast
    with pytest.raises(GodotError, match="line 1"):
        parse_script(spaces, arcade)


def test_underscores_between_digits_are_valid_gdscript():
    result = parse_script("var engine_power = 1_000\nvar slip_speed = 4_0_0.5\nvar drag = -0.0_6" + RECIPE_CODE,
                          arcade)
    assert result.values == {"engine_power": 1000, "slip_speed": 400.5, "drag": -0.06, "rate_independent": False,
        "recipe_2020": False, "analog_pedals": False}
    for wrong in ("1__000", "_1", "1_"):
        with pytest.raises(GodotError, match=f"line 1: engine_power = {wrong} is not a plain number"):
            parse_script(f"var engine_power = {wrong}\nvar wheel_base = 80" + RECIPE_CODE, arcade)


def test_a_line_separator_inside_a_comment_hides_nothing():
    """Godot ends lines at line feeds only: U+2028 in a comment is part of the comment,
    and the declarations before and after it are read."""
    text = "var wheel_base = 80  # note\u2028still the note\nvar drag = -0.07" + RECIPE_CODE
    assert parse_script(text, arcade).values == {"wheel_base": 80, "drag": -0.07, "rate_independent": False,
        "recipe_2020": False, "analog_pedals": False}


def test_a_script_of_only_unusable_values_names_its_lines():
    with pytest.raises(GodotError) as err:
        parse_script("extends Node\nvar wheel_base = big\nvar drag = -5\n" + RECIPE_CODE, arcade)
    message = str(err.value)
    assert "line 2: wheel_base = big" in message and "line 3: drag: -5" in message and "no parameter" not in message


def test_an_annotation_with_arguments_is_read():
    result = parse_script("@export_range(10, 300) var wheel_base = 80\nexport(float, 0, 60) var steering_angle = 20"
                          + RECIPE_CODE, arcade)
    assert result.values == {"wheel_base": 80, "steering_angle": 20, "rate_independent": False,
        "recipe_2020": False, "analog_pedals": False}


PRESETS = sorted(BUILTIN_DIR.glob("*.json"))


@pytest.mark.parametrize("path", PRESETS, ids=lambda p: p.stem)
def test_every_godot4_export_parses_and_passes_gdlint(path):
    """No Godot 4 binary can be installed here: gdtoolkit's parser and linter, with
    their default settings, stand in for it."""
    from gdtoolkit.linter import DEFAULT_CONFIG, lint_code
    from gdtoolkit.parser import parser

    text = export_script(load_preset(path), 4)
    parser.parse(text)  # raises on a syntax error
    assert lint_code(text, DEFAULT_CONFIG) == []


@pytest.mark.parametrize("godot", GODOT_VERSIONS)
@pytest.mark.parametrize("path", PRESETS, ids=lambda p: p.stem)
def test_export_then_import_gives_the_same_tuning_and_the_range_as_export_hint(path, godot):
    preset = load_preset(path)
    text = export_script(preset, godot)
    result = parse_script(text, None)
    assert result.model is preset.model and result.values == dict(preset.tuning)  # bit for bit
    assert result.warnings == []
    for p in preset.model.PARAMS:
        name = variable_name(p.name)
        if not p.is_bool:
            hint = f"({p.min:g}, {p.max:g}, {p.step:g})" if godot == 4 else f"(float, {p.min:g}, {p.max:g}, {p.step:g})"
            assert f"{hint} var {name} = " in text
            assert p.help.split()[0] in text  # its help as a comment above it
        else:
            assert f"{'@export' if godot == 4 else 'export(bool)'} var {name} = " in text
    assert max(len(line) for line in text.splitlines()) <= 100
    assert "{{" not in text and "}}" not in text  # every placeholder filled


@pytest.mark.parametrize("path", PRESETS, ids=lambda p: p.stem)
def test_the_two_versions_differ_only_where_the_languages_do(path):
    """One template: the Godot 3 and 4 scripts differ only on lines that name the
    version's own API (its body class, export syntax, key field, sliding call…)."""
    preset = load_preset(path)
    three, four = (export_script(preset, godot).splitlines() for godot in (3, 4))
    api = ("extends", "export", "@export", "scancode", "keycode", "move_and_slide", "get_slide", "velocity",
           "Input.get_axis", "get_action_strength(\"steer_right\")", "Godot 3", "Godot 4", "Physics Fps",
           "Physics Ticks", "deg2rad", "deg_to_rad", "linear_interpolate", "lerp", "if get_slide", "var collided",
           "var slid", "var end_velocity", "if collided", "to 60", "var turn")
    import difflib

    changed = [line for line in difflib.unified_diff(three, four, lineterm="", n=0)
               if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    assert changed, "the versions differ somewhere"
    for line in changed:
        assert any(word in line for word in api) or not line[1:].strip(), line
