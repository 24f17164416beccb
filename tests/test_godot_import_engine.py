"""import-godot sets the tuning's engine (whose move_and_slide rules the kinematic cars
meet walls by) from what it reads: a Godot 3 script or a `format=2` scene gives Godot 3,
a Godot 4 script or a `format=3` scene Godot 4; scripts as users write them."""

import subprocess
import sys
from pathlib import Path

import pytest

from sandbox.files.godot import export_script
from sandbox.files.godot_car_scene import load_car
from sandbox.files.godot_import import parse_script
from sandbox.files.presets import BUILTIN_DIR, load_preset
from sandbox.physics.car_shape import GODOT3, GODOT4
from sandbox.physics.models import arcade, bicycle, rigid_body
from test_godot_car_scene_import import DEMO_GODOT3, DEMO_GODOT4, _project

SCRIPTS = Path(__file__).parent / "data" / "godot_scripts"


@pytest.mark.parametrize(
    "name, engine",
    [
        ("recipe_2020_godot3.gd", GODOT3),  # untyped, `extends KinematicBody2D`
        ("godot3_export_port.gd", GODOT3),  # `export(float, …) var`
        ("recipe_demo_godot4.gd", GODOT4),  # the demo's own, untyped, `extends CharacterBody2D`
        ("typed_godot4_port.gd", GODOT4),  # typed
        ("commented_godot4_port.gd", GODOT4),  # @export_range
    ],
)
def test_a_users_script_sets_the_engine_it_is_written_for(name, engine):
    result = parse_script((SCRIPTS / name).read_text(), None, name, fallback=arcade)
    assert result.values["godot_engine"] == engine
    godot = "Godot 3" if engine == GODOT3 else "Godot 4"
    assert any(f"{godot}'s move_and_slide" in note for note in result.warnings), result.warnings


@pytest.mark.parametrize(
    "base, body, engine",
    [
        ("KinematicBody2D", "export(float, 0, 60) var max_speed = 20", GODOT3),
        ("CharacterBody2D", "@export var max_speed: float = 20", GODOT4),
        ('"res://vehicle.gd"', "export var max_speed = 20", GODOT3),  # a class of the game's own
        ('"res://vehicle.gd"', "@export_range(0, 60) var max_speed := 20.0", GODOT4),
        ('"res://vehicle.gd"', "onready var max_speed = 20", GODOT3),
        ('"res://vehicle.gd"', "var max_speed = 20", None),  # nothing tells: left as it is
    ],
)
def test_the_script_tells_its_godot_by_its_base_else_by_its_spellings(base, body, engine):
    text = f"extends {base}\n\n{body}\nvar wheel_base = 2.5\n"
    values = parse_script(text, bicycle, "car.gd").values
    assert values.get("godot_engine") == engine


def test_an_exported_script_sets_the_engine_of_its_target():
    preset = load_preset(BUILTIN_DIR / "bicycle_blog.json")
    for godot, engine in ((3, GODOT3), (4, GODOT4)):
        assert parse_script(export_script(preset, godot), None).values["godot_engine"] == engine


def test_a_model_that_does_not_slide_gets_no_engine():
    preset = load_preset(BUILTIN_DIR / "rigid_body_seed.json")
    result = parse_script(export_script(preset, 3), rigid_body)
    assert "godot_engine" not in result.values
    assert not any("move_and_slide" in note for note in result.warnings)


@pytest.mark.parametrize(
    "scene, script, engine, disagree",
    [
        (DEMO_GODOT3, "godot3_export_port.gd", GODOT3, False),
        (DEMO_GODOT4, "recipe_demo_godot4.gd", GODOT4, False),
        (DEMO_GODOT3, "recipe_demo_godot4.gd", GODOT3, True),  # the scene's format decides
        (DEMO_GODOT4, "recipe_2020_godot3.gd", GODOT4, True),
    ],
)
def test_a_car_scene_sets_the_engine_of_its_format(tmp_path, scene, script, engine, disagree):
    result = load_car(_project(tmp_path, scene, SCRIPTS / script), None, fallback=arcade)
    assert result.values["godot_engine"] == engine
    notes = [note for note in result.warnings if "move_and_slide" in note]
    assert len(notes) == 1 and ("another Godot" in notes[0]) == disagree, notes


def test_a_scene_whose_script_does_not_tell_takes_the_scenes_godot(tmp_path):
    script = "extends Node2D\nvar wheel_base = 2.5\nvar max_speed = 20\n"
    result = load_car(_project(tmp_path, DEMO_GODOT3, script), None, fallback=bicycle)
    assert result.values["godot_engine"] == GODOT3
    assert any("as the scene is written for Godot 3" in note for note in result.warnings)


def test_import_godot_writes_the_engine_into_the_preset(tmp_path):
    out = tmp_path / "mine.json"
    run = subprocess.run(
        [sys.executable, "-m", "sandbox", "import-godot", str(SCRIPTS / "recipe_2020_godot3.gd"), "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert load_preset(out).tuning["godot_engine"] == GODOT3
    assert "Godot 3's move_and_slide" in run.stdout + run.stderr


def test_an_export_for_the_other_engine_says_so_and_is_written():
    """A tuning meeting walls by Godot 4's rules exported for Godot 3: the script's header
    says the game's car meets walls as Godot 3 does; for Godot 4, and for a model that
    does not slide, nothing is said."""
    preset = load_preset(BUILTIN_DIR / "ackermann_van.json")  # Engine: Godot 4, the default
    said = "meets walls by Godot 4's move_and_slide rules"
    assert said in " ".join(line.lstrip("# ") for line in export_script(preset, 3).splitlines())
    assert "move_and_slide rules" not in export_script(preset, 4)
    preset.tuning["godot_engine"] = GODOT3
    assert "Godot 3's move_and_slide rules" in export_script(preset, 4).replace("\n# ", " ")
    rigid = load_preset(BUILTIN_DIR / "rigid_body_seed.json")
    assert "move_and_slide rules" not in export_script(rigid, 3)


def test_export_godot_prints_the_engine_note(tmp_path):
    out = tmp_path / "car.gd"
    run = subprocess.run(
        [sys.executable, "-m", "sandbox", "export-godot", "--preset", str(BUILTIN_DIR / "recipe_defaults.json")]
        + ["--godot", "3", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert out.is_file() and "note: this tuning meets walls by Godot 4's move_and_slide rules" in run.stdout
