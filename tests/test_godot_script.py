"""Godot script export and import without Godot: structure, literals, and never
running what a file says."""

import re
from pathlib import Path

import pytest

from sandbox.files.godot import GODOT_VERSIONS, LINE_WIDTH, GodotError, export_script, gdscript_literal, variable_name
from sandbox.files.godot_engine_of import engine_values
from sandbox.files.godot_import import load_script, parse_script
from sandbox.files.godot_scene import save_scene
from sandbox.files.presets import BUILTIN_DIR, load_preset
from sandbox.physics.models import arcade
from sandbox.physics.params import script_params

RECIPE_ACTIONS = ('"accelerate"', '"brake"', '"steer_left"', '"steer_right"')
_DEMO = (Path(__file__).parent / "data" / "godot_scripts" / "recipe_demo_godot4.gd").read_text()
RECIPE_CODE = _DEMO[_DEMO.index("\nfunc _physics_process") :]
"""The recipe demo's functions: appended to a few declarations, they say which
formula the numbers are for (a script without them is refused: it could be either)."""


@pytest.mark.parametrize(
    "godot, base, api",
    [
        (
            4,
            "extends CharacterBody2D",
            (
                "Input.get_axis",
                "deg_to_rad",
                "move_and_slide()",
                ".lerp(",
                "physical_keycode",
                "func _get_input() -> void:",
                "func _apply_friction(delta: float) -> void:",
                "func _calculate_steering(delta: float) -> void:",
            ),
        ),
        (
            3,
            "extends KinematicBody2D",
            (
                "get_action_strength",
                "deg2rad",
                "move_and_slide(velocity)",
                "linear_interpolate",
                "scancode",
                "func get_input():",
                "func apply_friction(delta):",
                "func calculate_steering(delta):",
            ),
        ),
    ],
)
def test_export_has_the_recipes_structure_and_actions(godot, base, api):
    preset = load_preset(BUILTIN_DIR / "drift.json")
    text = export_script(preset, godot)
    assert base in text
    for piece in api + RECIPE_ACTIONS:
        assert piece in text
    for p in script_params(arcade.PARAMS):  # the collision shape is the scene's
        typed = "" if godot == 3 else ": bool" if p.is_bool else ": float"
        if p.name == "recipe_2020":  # not a variable: the script's code is the Godot 4 recipe's
            assert "recipe_2020" not in text
            continue
        assert f"var {p.name}{typed} = {gdscript_literal(preset.tuning[p.name])}" in text
    other = (
        ("Input.get_axis", "deg_to_rad", "physical_keycode")
        if godot == 3
        else ("deg2rad", "linear_interpolate", "scancode", "Godot 3")
    )
    assert not any(piece in text for piece in other)
    assert "{{" not in text and "}}" not in text  # every placeholder of the template filled


def test_literals_look_like_the_recipes():
    assert [gdscript_literal(v) for v in (70.0, -0.06, 2.5, False, True, -450.0)] == [
        "70",
        "-0.06",
        "2.5",
        "false",
        "true",
        "-450",
    ]


def test_import_reads_var_lines_in_every_common_spelling():
    text = (
        "\n".join(
            [
                "extends KinematicBody2D",
                "var wheel_base = 90  # px",
                "export var steering_angle = 20.5",
                "@export var engine_power: float = 1.2e3",
                "var drag := -0.07",
                "var rate_independent = true",
                "var velocity = Vector2.ZERO",  # a state variable, not a parameter
                "@export var colour = 3",  # an exported variable of the user's own
                "func _ready():",
                "\tvar slip_speed = 1",  # a local inside a function: not a declaration of the car
                "\tprint(rate_independent)",  # the switch is read: its declared value is what the code does
            ]
        )
        + RECIPE_CODE
    )
    result = parse_script(text, arcade)
    assert result.values == {
        "godot_engine": 1.0,  # extends KinematicBody2D: Godot 3
        "wheel_base": 90,
        "steering_angle": 20.5,
        "engine_power": 1200,
        "drag": -0.07,
        "rate_independent": True,
        "recipe_2020": False,
        "analog_pedals": False,
    }
    joined = "\n".join(result.warnings)
    assert "line 8: colour is not a tuning parameter" in joined
    assert not any(w.startswith(("line 7", "line 10")) for w in result.warnings)  # no word on those
    # the recipe's own script has no SANDBOX_MODEL line: what it lacks is left as it is, and said
    assert "not in the script (left as they are): braking" in joined
    # friction and the tractions are the 2020 recipe's switch's to change: said so
    assert re.search(
        r"not in the script: friction, traction_fast, traction_slow; they take their defaults "
        r"under Godot 3 recipe \(2020\) off where that switch changes",
        joined,
    )


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
    assert parse_script(text, arcade).values == {
        "wheel_base": 80,
        "rate_independent": False,
        "recipe_2020": False,
        "analog_pedals": False,
    }
    spaces = "var wheel_base = 80" + " " * (SCRIPT_LIMIT // 2) + "x" + RECIPE_CODE  # unreadable, just as fast
    with pytest.raises(GodotError, match="line 1"):
        parse_script(spaces, arcade)


def test_underscores_between_digits_are_valid_gdscript():
    result = parse_script("var engine_power = 1_000\nvar slip_speed = 4_0_0.5\nvar drag = -0.0_6" + RECIPE_CODE, arcade)
    assert result.values == {
        "engine_power": 1000,
        "slip_speed": 400.5,
        "drag": -0.06,
        "rate_independent": False,
        "recipe_2020": False,
        "analog_pedals": False,
    }
    for wrong in ("1__000", "_1", "1_"):
        with pytest.raises(GodotError, match=f"line 1: engine_power = {wrong} is not a plain number"):
            parse_script(f"var engine_power = {wrong}\nvar wheel_base = 80" + RECIPE_CODE, arcade)


def test_a_line_separator_inside_a_comment_hides_nothing():
    """Godot ends lines at line feeds only: U+2028 in a comment is part of the comment,
    and the declarations before and after it are read."""
    text = "var wheel_base = 80  # note\u2028still the note\nvar drag = -0.07" + RECIPE_CODE
    assert parse_script(text, arcade).values == {
        "wheel_base": 80,
        "drag": -0.07,
        "rate_independent": False,
        "recipe_2020": False,
        "analog_pedals": False,
    }


def test_a_script_of_only_unusable_values_names_its_lines():
    with pytest.raises(GodotError) as err:
        parse_script("extends Node\nvar wheel_base = big\nvar drag = -5\n" + RECIPE_CODE, arcade)
    message = str(err.value)
    assert "line 2: wheel_base = big" in message and "line 3: drag: -5" in message and "no parameter" not in message


def test_an_annotation_with_arguments_is_read():
    result = parse_script(
        "@export_range(10, 300) var wheel_base = 80\nexport(float, 0, 60) var steering_angle = 20" + RECIPE_CODE, arcade
    )
    assert result.values == {
        "godot_engine": 0.0,  # the first declaration's spelling is Godot 4's
        "wheel_base": 80,
        "steering_angle": 20,
        "rate_independent": False,
        "recipe_2020": False,
        "analog_pedals": False,
    }


def test_godot4_groups_doc_comments_and_a_unit_with_brackets_are_read():
    text = "\n".join(
        [
            'const SANDBOX_MODEL: String = "arcade"',
            '@export_group("Resistance")',
            "## Drag (1/(px·s)): air drag, proportional to speed squared.",
            '@export_range(-1, 0, 0.001, "exp", "suffix:1/(px·s)") var drag: float = -0.07',
            '@export_range(10, 300, 1, "suffix:px") var wheel_base: float = 80.0  # (a comment)',
        ]
    )
    with pytest.raises(GodotError) as err:  # the rest of the arcade's parameters are missing
        parse_script(text, arcade)
    assert "missing: var steering_angle" in str(err.value) and "var drag" not in str(err.value)
    assert "var wheel_base" not in str(err.value)


PRESETS = sorted(BUILTIN_DIR.glob("*.json"))


GDLINTRC = Path(__file__).resolve().parents[1] / "gdlintrc"


def _gdlint(text: str) -> list:
    """gdlint's problems with a script, with the repository's gdlintrc (as `gdlint`
    run in the repository reads it)."""
    import yaml
    from gdtoolkit.linter import DEFAULT_CONFIG, lint_code

    return lint_code(text, {**DEFAULT_CONFIG, **yaml.safe_load(GDLINTRC.read_text(encoding="utf-8"))})


@pytest.mark.parametrize("path", PRESETS, ids=lambda p: p.stem)
def test_every_godot4_script_and_scene_is_as_gdformat_writes_it_and_lint_clean(path, tmp_path):
    """No Godot 4 binary can be installed here: gdtoolkit's parser, formatter and
    linter stand in for it. The scene's script is the script itself."""
    from gdtoolkit.formatter import format_code
    from gdtoolkit.parser import parser

    preset = load_preset(path)
    text = export_script(preset, 4)
    _, beside = save_scene(preset, tmp_path / "car.tscn", 4)
    assert beside.read_text(encoding="utf-8") == text
    parser.parse(text)  # raises on a syntax error
    assert format_code(text, max_line_length=LINE_WIDTH) == text  # gdformat --check
    assert _gdlint(text) == []


def test_the_lint_check_can_fail():
    text = export_script(load_preset(BUILTIN_DIR / "drift.json"), 4)
    long_line = text.replace("var _steer_direction: float = 0.0", "var _steer_direction: float = 0.0" + " " * 80 + "#")
    problems = _gdlint(long_line.replace("func _get_input()", "func GetInput()"))
    assert {problem.name for problem in problems} == {"max-line-length", "function-name"}


def test_the_corvettes_values_show_in_the_inspector_in_the_tuning_panels_groups():
    """Godot 4: each value under its @export_group, in the panel's order, with its doc
    comment (the Inspector's tooltip) above it and its unit after the number."""
    preset = load_preset(BUILTIN_DIR / "monster_corvette_c5.json")
    lines = export_script(preset, 4).split("\n")
    group, seen = None, []
    for number, line in enumerate(lines):
        if line.startswith("@export_group("):
            group = line[len('@export_group("') : -2]
        elif line.startswith("@export"):
            name = line.split(" var ")[1].split(":")[0]
            assert lines[number - 1].startswith("## "), line
            seen.append((group, name, line))
    assert len(seen) == 47 + 15  # the Corvette's 47, and the steering feel's 11 and its 4 assists
    assert seen[0][:2] == (None, "pixels_per_metre")  # above the groups
    assert list(dict.fromkeys(g for g, _, _ in seen[1:])) == [
        "Chassis",
        "Wheels and tyres",
        "Resistance",
        "Steering",
        "Brakes",
        "Gearbox",
        "Engine",
        "Steering feel",
    ]
    by_name = {name: (g, line) for g, name, line in seen}
    assert by_name["mu"][0] == "Wheels and tyres"  # declared after the resistance, shown with the tyres
    assert by_name["anti_lock_brakes"] == ("Brakes", "@export var anti_lock_brakes: bool = false")
    assert by_name["shift_up_rpm"][1] == '@export_range(2000, 9000, 100, "suffix:rpm") var shift_up_rpm: float = 5500.0'
    assert by_name["yaw_inertia"][1].startswith('@export_range(100, 20000, 50, "exp", "suffix:kg·m²") var yaw_inertia')
    assert by_name["mu"][1].startswith("@export_range(0.1, 2, 0.01) var mu: float = ")  # a coefficient: no unit


@pytest.mark.parametrize("godot", GODOT_VERSIONS)
@pytest.mark.parametrize("path", PRESETS, ids=lambda p: p.stem)
def test_export_then_import_gives_the_same_tuning_and_the_range_as_export_hint(path, godot):
    preset = load_preset(path)
    text = export_script(preset, godot)
    result = parse_script(text, None)
    script = {p.name: preset.tuning[p.name] for p in script_params(preset.model.PARAMS)}  # the shape: the scene's
    engine, said = engine_values(preset.model, godot, "script")  # and the engine it is written for
    assert result.model is preset.model and result.values == script | engine  # bit for bit
    assert result.warnings == said
    for p in script_params(preset.tuning.effective()):  # each with the range it has under the tuning's switches
        name = variable_name(p.name)
        if not re.search(rf"\b{name}\b", text):
            # the switch that chose this script's formula, or an option that formula has not
            assert p.name in ("recipe_2020", "rate_independent") and p.is_bool
            assert p.name != "rate_independent" or preset.tuning["recipe_2020"]
            continue
        if godot == 3:
            hint = (
                f"export(float, {p.min:g}, {p.max:g}, {p.step:g}) var {name} = "
                if not p.is_bool
                else f"export(bool) var {name} = "
            )
            assert hint in text
        elif not p.is_bool:
            hint = re.search(rf"\n@export_range\({p.min:g}, {p.max:g}, {p.step:g}(, .*)?\) var {name}: float = ", text)
            assert hint
        else:
            assert f"\n@export var {name}: bool = " in text
        assert p.help.split()[0] in text  # its help as a comment above it
    assert max(len(line) for line in text.splitlines()) <= 100
    assert "{{" not in text and "}}" not in text  # every placeholder filled
