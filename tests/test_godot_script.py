"""Godot script export and import without Godot: structure, literals, and never
running what a file says."""

import pytest

from sandbox.files.godot import GODOT_VERSIONS, GodotError, export_script, gdscript_literal, load_script, parse_script
from sandbox.physics.models import arcade
from sandbox.files.presets import BUILTIN_DIR, load_preset

RECIPE_ACTIONS = ('"accelerate"', '"brake"', '"steer_left"', '"steer_right"')


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
        "var friction = -55 * 2",       # an expression: never evaluated
        "var braking = -99999",         # outside the range
        "var rate_independent = true",
        "var velocity = Vector2.ZERO",  # a state variable, not a parameter
        "func _ready():",
        "\tvar slip_speed = 1",         # a local inside a function: not a declaration of the car
    ])
    result = parse_script(text, arcade)
    assert result.values == {"wheel_base": 90, "steering_angle": 20.5, "engine_power": 1200, "drag": -0.07,
                             "rate_independent": True}
    joined = "\n".join(result.warnings)
    assert "line 6: friction = -55 * 2 is not a plain number" in joined
    assert "line 7: braking: -99999 is outside the allowed range -4000 … 0 px/s²" in joined
    assert "line 9: velocity is not a tuning parameter" in joined
    assert "slip_speed" not in joined


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
    text = head + " " * (SCRIPT_LIMIT - len(head) - 4) + " 80"
    assert parse_script(text, arcade).values == {"wheel_base": 80}
    spaces = "var wheel_base = 80" + " " * (SCRIPT_LIMIT // 2) + "x"  # unreadable, just as fast
    with pytest.raises(GodotError, match="line 1"):
        parse_script(spaces, arcade)


def test_underscores_between_digits_are_valid_gdscript():
    result = parse_script("var engine_power = 1_000\nvar slip_speed = 4_0_0.5\nvar drag = -0.0_6", arcade)
    assert result.values == {"engine_power": 1000, "slip_speed": 400.5, "drag": -0.06}
    result = parse_script("var engine_power = 1__000\nvar wheel_base = 80\nvar drag = _1", arcade)
    assert result.values == {"wheel_base": 80}
    assert any("line 1: engine_power = 1__000 is not a plain number" in w for w in result.warnings)


def test_a_line_separator_inside_a_comment_hides_nothing():
    """Godot ends lines at line feeds only: U+2028 in a comment is part of the comment,
    and the declarations before and after it are read."""
    text = "var wheel_base = 80  # note\u2028still the note\nvar drag = -0.07"
    assert parse_script(text, arcade).values == {"wheel_base": 80, "drag": -0.07}


def test_a_script_of_only_unusable_values_names_its_lines():
    with pytest.raises(GodotError) as err:
        parse_script("extends Node\nvar wheel_base = big\nvar drag = -5\n", arcade)
    message = str(err.value)
    assert "lines 2, 3 could not be used" in message and "no parameter" not in message


def test_an_annotation_with_arguments_is_read():
    result = parse_script("@export_range(10, 300) var wheel_base = 80\nexport(float, 0, 60) var steering_angle = 20",
                          arcade)
    assert result.values == {"wheel_base": 80, "steering_angle": 20}


ARCADE_PRESETS = [path for path in sorted(BUILTIN_DIR.glob("*.json")) if load_preset(path).model is arcade]


@pytest.mark.parametrize("path", ARCADE_PRESETS, ids=lambda p: p.stem)
def test_every_godot4_export_parses_and_passes_gdlint(path):
    """No Godot 4 binary can be installed here: gdtoolkit's parser and linter, with
    their default settings, stand in for it."""
    from gdtoolkit.linter import DEFAULT_CONFIG, lint_code
    from gdtoolkit.parser import parser

    text = export_script(load_preset(path), 4)
    parser.parse(text)  # raises on a syntax error
    assert lint_code(text, DEFAULT_CONFIG) == []


@pytest.mark.parametrize("godot", GODOT_VERSIONS)
@pytest.mark.parametrize("path", ARCADE_PRESETS, ids=lambda p: p.stem)
def test_export_then_import_gives_the_same_tuning_and_the_range_as_export_hint(path, godot):
    preset = load_preset(path)
    text = export_script(preset, godot)
    assert parse_script(text, arcade).values == dict(preset.tuning)  # bit for bit
    for p in arcade.PARAMS:
        if not p.is_bool:
            hint = f"({p.min:g}, {p.max:g}, {p.step:g})" if godot == 4 else f"(float, {p.min:g}, {p.max:g}, {p.step:g})"
            assert f"{hint} var {p.name} = " in text
            assert p.help.split()[0] in text  # its help as a comment above it
    assert max(len(line) for line in text.splitlines()) <= 100
