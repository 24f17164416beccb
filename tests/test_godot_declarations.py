"""Every shape a parameter's declaration may take in Godot 3 and 4, and every shape
of the declarations around it that is not a parameter (passed by, whatever it is)."""

import itertools
import re
from pathlib import Path

import pytest

from sandbox.files.godot import GodotError, export_script
from sandbox.files.godot_import import declarations, parse_script
from sandbox.files.presets import BUILTIN_DIR, load_preset
from sandbox.physics.models import MODELS, arcade

_DEMO = (Path(__file__).parent / "data" / "godot_scripts" / "recipe_demo_godot4.gd").read_text()
RECIPE_CODE = _DEMO[_DEMO.index("\nfunc _physics_process") :]
"""The recipe's functions: they tell the formula, so a few declarations import."""

ANNOTATIONS = (
    "",
    "export ",
    "export(float) ",
    "export(float, 0, 4000) ",
    "export(float, EXP, 1, 4000) ",
    "onready ",
    "@export ",
    "@export_range(0, 4000, 10) ",
    '@export_range(0, 4000, 10, "suffix:px/s²") ',
    '@export_range(0, 4000, 10, "suffix:1/(px·s)") ',
    "@export_range(0, 4000,\n\t10) ",
    "@export_range(0, 4000)\n",
    "@export\n",
    "@onready ",
    "static ",
    '@export @warning_ignore("x") ',
)
FORMS = (
    "var {name} = {value}",
    "var {name}: float = {value}",
    "var {name} := {value}",
    "var {name}:float={value}",
    "var {name}\t=\t{value}",
    "var {name} = \\\n\t{value}",
    "var {name}: float = {value}:\n\tset(v):\n\t\tpass",
)
SPELLINGS = (
    ("900", 900.0),
    ("900.", 900.0),
    ("900.0", 900.0),
    (".5", 0.5),
    ("+9e2", 900.0),
    ("9E+2", 900.0),
    ("1_000", 1000.0),
    ("1_000.25", 1000.25),
    ("0.000_5", 0.0005),
    ("2.5e-1", 0.25),
    ("4000", 4000.0),
    ("0", 0.0),
    ("-0.0", -0.0),
)
"""engine_power spelt every way GDScript allows, with the value written (range 0 … 4000)."""
TRAILERS = ("", "  # px/s²", "  # = 5, a comment ) with a bracket", "\t")
ENDINGS = ("\n", "\r\n")


@pytest.mark.parametrize("annotation, form", list(itertools.product(ANNOTATIONS, FORMS)))
def test_every_declaration_shape_reads_the_number_written(annotation, form):
    trailers = itertools.cycle(TRAILERS)
    for (literal, value), ending in itertools.product(SPELLINGS, ENDINGS):
        trailer = next(trailers)
        line = annotation + form.format(name="engine_power", value=literal) + trailer
        text = ("extends CharacterBody2D\n# a car\n" + line + "\nvar wheel_base = 80\n").replace("\n", ending)
        values = parse_script(text + RECIPE_CODE.replace("\n", ending), arcade).values
        assert values["engine_power"] == value and values["wheel_base"] == 80, repr(line)


@pytest.mark.parametrize("value", ("true", "false"))
@pytest.mark.parametrize(
    "form", ("var {name} = {value}", "@export var {name}: bool = {value}", "export(bool) var {name} := {value}")
)
def test_a_switch_reads_true_or_false(form, value):
    reads = "\nfunc _steady():\n\treturn rate_independent\n"  # a switch its code reads
    text = form.format(name="rate_independent", value=value) + RECIPE_CODE + reads
    assert parse_script(text, arcade).values["rate_independent"] is (value == "true")


def test_a_switch_declared_but_never_read_is_what_the_code_computes():
    """`var analog_pedals = true` above code that reads the pedals with is_action_pressed:
    the car is on/off, so that is imported, and the declaration is named in a note."""
    result = parse_script("var analog_pedals = true\n" + RECIPE_CODE, arcade)
    assert result.values["analog_pedals"] is False
    assert any("analog_pedals is declared true but the code never reads it" in w for w in result.warnings)


NOT_PARAMETERS = """\ufeff@tool
class_name Car
extends CharacterBody2D
## A doc comment: var engine_power = 1
# var wheel_base = 1
signal crashed(speed: float)
enum Gear { REVERSE = -1, NEUTRAL, FIRST }
enum { LEFT, RIGHT }
const LIMIT = 20000.0
const NAMES := ["a", "b"]
static var built := 0
@export_group("Engine (main)")
@export_subgroup("Hidden")
@export_category("Look")
var steer_direction
var _steer_direction: float
var acceleration = Vector2.ZERO  # the car's
var dictionary = {
    "engine_power": 1,
    "friction": 2,
}
var text = "var drag = -1  # ) not a comment"
var more = 'var drag = -1' + \\
    "var drag = -2"
var call = max(
    1,
    2)
@onready var sprite: Sprite2D = $Sprite
@onready var trail = $"Trail (var drag = 5)"
var long_text = \"\"\"
var braking = -1
\"\"\"
var typed_array: Array[float] = [1.0, 2.0]
var with_setter: int = 3:
    set(value):
        var slip_speed = 5
        with_setter = value
var old_style = 1 setget set_old_style


func _ready() -> void:
    var engine_power = 1
    var friction := 2


func set_old_style(value): old_style = value
"""


def test_declarations_that_are_not_parameters_are_passed_by_whatever_their_shape():
    text = NOT_PARAMETERS + "var engine_power = 1234\n" + RECIPE_CODE
    result = parse_script(text, arcade)
    assert result.values == {
        "godot_engine": 0.0,  # extends CharacterBody2D: Godot 4
        "engine_power": 1234,
        "rate_independent": False,
        "recipe_2020": False,
        "analog_pedals": False,
    }
    assert not any(w.startswith("line") for w in result.warnings)  # none is an exported variable


def test_the_declarations_read_name_their_lines_and_values():
    names = [(d.line, d.name, d.value) for d in declarations(NOT_PARAMETERS)]
    assert names == [
        (9, "LIMIT", "20000.0"),
        (10, "NAMES", '["a", "b"]'),
        (11, "built", "0"),
        (15, "steer_direction", None),
        (16, "_steer_direction", None),
        (17, "acceleration", "Vector2.ZERO"),
        (18, "dictionary", '{\n    "engine_power": 1,\n    "friction": 2,\n}'),
        (22, "text", '"var drag = -1  # ) not a comment"'),
        (23, "more", "'var drag = -1' + \\\n    \"var drag = -2\""),
        (25, "call", "max(\n    1,\n    2)"),
        (28, "sprite", "$Sprite"),
        (29, "trail", '$"Trail (var drag = 5)"'),
        (30, "long_text", '"""\nvar braking = -1\n"""'),
        (33, "typed_array", "[1.0, 2.0]"),
        (34, "with_setter", "3"),
        (38, "old_style", "1"),
    ]


@pytest.mark.parametrize(
    "line, message",
    [
        ("var engine_power", "line 2: engine_power has no value (expected a plain number: var engine_power = 900)"),
        ("var engine_power: float", "line 2: engine_power has no value"),
        ("var engine_power = BASE_POWER * 2", "line 2: engine_power = BASE_POWER * 2 is not a plain number"),
        ("var engine_power = (\n\t900)", "line 2: engine_power = ( 900) is not a plain number"),
        ("var engine_power = - 900", "line 2: engine_power = - 900 is not a plain number"),
        ("var engine_power = 0x384", "line 2: engine_power = 0x384 is not a plain number"),
        ("var engine_power = true", "line 2: engine_power = true is not a plain number"),
        ("var rate_independent = 1", "line 2: rate_independent = 1 is not a plain true or false"),
        ("var engine_power = 9000", "line 2: engine_power: 9000 is outside the allowed range 0 … 4000 px/s²"),
    ],
)
def test_a_parameter_that_is_not_a_literal_is_refused_naming_its_line(line, message):
    with pytest.raises(GodotError) as err:
        parse_script("extends Node\n" + line + "\nvar wheel_base = 80\n" + RECIPE_CODE, arcade, "car.gd")
    assert str(err.value).startswith("car.gd: nothing was imported:\n")
    assert message in str(err.value)


def _monster_script() -> str:
    return export_script(load_preset(BUILTIN_DIR / "monster_corvette_c5.json"), 4)


def test_the_dynamic_cars_shift_points_read_under_either_name():
    text = _monster_script()
    assert re.search(r"\bvar shift_up_rpm\b", text) and re.search(r"\bvar shift_down_rpm\b", text)  # as exported
    exported = parse_script(text, None).values
    own_names = re.sub(r"\bshift_(up|down)_rpm\b", r"shift_\1", text)  # the variables renamed, not the actions
    assert '"shift_up"' in own_names and not re.search(r"\bvar shift_up_rpm\b", own_names)
    assert parse_script(own_names, None).values == exported


def test_a_parameter_under_both_its_names_is_declared_twice():
    text = _monster_script()
    line = next(n for n, text in enumerate(text.split("\n"), start=1) if re.search(r"\bvar shift_up_rpm\b", text))
    text += "\nvar shift_up = 4000.0\n"
    last = text.count("\n")
    with pytest.raises(
        GodotError,
        match=rf"line {last}: shift_up is declared a second time "
        rf"\(first on line {line}, as shift_up_rpm\)",
    ):
        parse_script(text, None)


def test_a_name_gdscript_reserves_is_read_only_under_the_exported_name():
    """`abs` is a built-in function in GDScript: a variable of that name is not the
    dynamic car's ABS switch (anti_lock_brakes)."""
    text = _monster_script()
    renamed = re.sub(r"\banti_lock_brakes\b", "abs", text)
    assert re.search(r"\bvar abs\b", renamed)
    with pytest.raises(GodotError, match=r"missing: var anti_lock_brakes"):
        parse_script(renamed, MODELS["monster"])
