"""`import-godot car.tscn`: the car scene's script read as a script is, and its body's
CollisionShape2D (Godot 3 and 4 text scenes, its transform on the body applied) as the
tuning's collision shape; what is not a car's shape is said in the notes."""

import math
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from sandbox.files.godot import GodotError, export_script
from sandbox.files.godot_car_scene import load_car
from sandbox.files.godot_scene import export_scene
from sandbox.files.presets import declared_preset, load_preset
from sandbox.physics.car_shape import CarShape
from sandbox.physics.models import MODELS, arcade

SCRIPTS = Path(__file__).parent / "data" / "godot_scripts"

DEMO_GODOT3 = """[gd_scene load_steps=4 format=2]

[ext_resource path="res://car.gd" type="Script" id=1]
[ext_resource path="res://assets/car_red_1.png" type="Texture" id=2]

[sub_resource type="CapsuleShape2D" id=1]
radius = 34.0
height = 70.0

[node name="Car" type="KinematicBody2D"]
script = ExtResource( 1 )

[node name="Sprite" type="Sprite" parent="."]
rotation = 1.5708
texture = ExtResource( 2 )

[node name="CollisionShape2D" type="CollisionShape2D" parent="."]
rotation = 1.5708
shape = SubResource( 1 )

[node name="Camera2D" type="Camera2D" parent="."]
current = true
"""
"""The recipe demo's car as a Godot 3 editor saves it (its rotation set in code-like radians,
as `rotation` is also a stored property in 3.x scenes written by hand or by tools)."""

DEMO_GODOT4 = """[gd_scene load_steps=4 format=3 uid="uid://b6x1k3v0car"]

[ext_resource type="Script" path="res://car.gd" id="1_5u0fa"]
[ext_resource type="Texture2D" uid="uid://c3ckp3yl2d8y" path="res://assets/car_red_1.png" id="2_b1t8c"]

[sub_resource type="CapsuleShape2D" id="CapsuleShape2D_7k0mh"]
radius = 34.0
height = 70.0

[node name="Car" type="CharacterBody2D"]
motion_mode = 1
script = ExtResource("1_5u0fa")

[node name="Sprite2D" type="Sprite2D" parent="."]
rotation = 1.5708
texture = ExtResource("2_b1t8c")

[node name="CollisionShape2D" type="CollisionShape2D" parent="."]
rotation = 1.5708
shape = SubResource("CapsuleShape2D_7k0mh")

[node name="Camera2D" type="Camera2D" parent="."]
"""


def _project(tmp_path: Path, scene: str, script: Path | str) -> Path:
    (tmp_path / "project.godot").write_text("config_version=5\n")
    if isinstance(script, Path):
        shutil.copy(script, tmp_path / "car.gd")
    else:
        (tmp_path / "car.gd").write_text(script)
    path = tmp_path / "scenes" / "car.tscn"  # res:// paths are from the project's folder
    path.parent.mkdir()
    path.write_text(scene)
    return path


def test_the_recipe_demos_godot3_scene_gives_its_capsule_beside_the_scripts_values(tmp_path):
    path = _project(tmp_path, DEMO_GODOT3, SCRIPTS / "godot3_export_port.gd")
    result = load_car(path, None, fallback=arcade)
    script = load_car(tmp_path / "car.gd", None, fallback=arcade)
    assert {k: v for k, v in result.values.items() if not k.startswith("shape_")} == script.values
    shape = CarShape.of(result.values)
    # radius 34, height 70 as Godot 3 reads it (the straight middle), turned to lie along the heading
    assert (shape.kind, shape.length, shape.width, shape.offset_x, shape.offset_y) == ("capsule", 138, 68, 0, 0)
    assert shape.rotation == pytest.approx(0, abs=1e-3)


def test_the_godot4_scene_reads_a_capsules_height_as_its_whole_length(tmp_path):
    path = _project(tmp_path, DEMO_GODOT4, SCRIPTS / "recipe_demo_godot4.gd")
    shape = CarShape.of(load_car(path, None, fallback=arcade).values)
    assert (shape.kind, shape.length, shape.width) == ("capsule", 70, 68)  # Godot 4: height is end to end


@pytest.mark.parametrize("godot", (3, 4))
@pytest.mark.parametrize("name", MODELS)
def test_an_exported_scene_imports_with_its_shape(tmp_path, name, godot):
    preset = declared_preset(MODELS[name], "mine")
    tuning = preset.tuning.copy()
    metric = preset.model.LENGTH_UNIT == "m"
    tuning.set_many(
        {
            "shape_kind": "rectangle",
            "shape_length": 4.2 if metric else 90,
            "shape_width": 1.9 if metric else 40,
            "shape_offset_x": 0.3 if metric else 6,
            "shape_offset_y": -0.1 if metric else -2,
            "shape_rotation": 12.5,
        }
    )
    preset = replace(preset, tuning=tuning)
    (tmp_path / "car.gd").write_text(export_script(preset, godot, 40.0))
    (tmp_path / "car.tscn").write_text(export_scene(preset, godot, "car.gd", 40.0))
    result = load_car(tmp_path / "car.tscn", None)
    for key in ("shape_kind", "shape_length", "shape_width", "shape_offset_x", "shape_offset_y", "shape_rotation"):
        assert result.values[key] == pytest.approx(tuning[key], abs=1e-6), key


def test_the_shapes_position_rotation_and_scale_on_the_body_are_applied(tmp_path):
    scene = DEMO_GODOT3.replace(
        "rotation = 1.5708\nshape",
        "position = Vector2( 8, -3 )\nrotation_degrees = 60.0\nscale = Vector2( 1.5, 1.5 )\nshape",
    )
    path = _project(tmp_path, scene, SCRIPTS / "godot3_export_port.gd")
    shape = CarShape.of(load_car(path, None, fallback=arcade).values)
    assert (shape.length, shape.width) == (1.5 * 138, 1.5 * 68)
    assert (shape.offset_x, shape.offset_y, shape.rotation) == (8, -3, pytest.approx(-30))


@pytest.mark.parametrize(
    "change, note",
    [
        (
            ('type="CapsuleShape2D" id=1]\nradius = 34.0\nheight = 70.0', 'type="ConvexPolygonShape2D" id=1]'),
            "a ConvexPolygonShape2D is not one of the car's shapes",
        ),
        (
            ('type="CapsuleShape2D" id=1]\nradius = 34.0\nheight = 70.0', 'type="SegmentShape2D" id=1]'),
            "a SegmentShape2D is not one of the car's shapes",
        ),
        (("shape = SubResource( 1 )", "disabled = true\nshape = SubResource( 1 )"), "disabled: not read"),
        (("shape = SubResource( 1 )", "shape = ExtResource( 2 )"), "its shape is in another file"),
        (
            (
                '[node name="CollisionShape2D" type="CollisionShape2D" parent="."]',
                '[node name="CollisionPolygon2D" type="CollisionPolygon2D" parent="."]',
            ),
            "a CollisionPolygon2D is not one of the car's shapes",
        ),
    ],
    ids=["polygon", "segment", "disabled", "another file", "collision polygon"],
)
def test_a_shape_that_is_not_a_cars_is_named_in_the_notes_and_the_shape_left(tmp_path, change, note):
    path = _project(tmp_path, DEMO_GODOT3.replace(*change), SCRIPTS / "godot3_export_port.gd")
    result = load_car(path, None, fallback=arcade)
    assert any(note in w for w in result.warnings), result.warnings
    assert any("no collision shape" in w and "left as it is" in w for w in result.warnings)
    assert not any(k.startswith("shape_") for k in result.values)


def test_a_shape_too_large_for_the_car_is_refused_naming_it(tmp_path):
    path = _project(
        tmp_path, DEMO_GODOT3.replace("radius = 34.0", "radius = 3400.0"), SCRIPTS / "godot3_export_port.gd"
    )
    with pytest.raises(GodotError, match=r"shape_width: 6800(\.0)? is outside the allowed range 4 … 400 px"):
        load_car(path, None, fallback=arcade)


def test_a_file_that_is_not_a_scene_is_refused(tmp_path):
    path = tmp_path / "car.tscn"
    path.write_text("extends KinematicBody2D\n")
    with pytest.raises(GodotError, match="not a Godot text scene"):
        load_car(path, None, fallback=arcade)
    path.write_text("[gd_scene load_steps=1 format=7]\n")
    with pytest.raises(GodotError, match="scene format 7"):
        load_car(path, None, fallback=arcade)


def test_import_godot_writes_the_scenes_shape_into_the_preset(tmp_path):
    path = _project(tmp_path, DEMO_GODOT3, SCRIPTS / "godot3_export_port.gd")
    out = tmp_path / "mine.json"
    run = subprocess.run(
        [sys.executable, "-m", "sandbox", "import-godot", str(path), "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    preset = load_preset(out)
    assert CarShape.of(preset.tuning).kind == "capsule" and preset.tuning["shape_length"] == 138
    assert math.isclose(preset.tuning["shape_rotation"], 0, abs_tol=1e-3)


def test_a_second_shape_a_nested_one_and_a_skew_are_named_in_the_notes(tmp_path):
    second = (
        '\n[node name="Bumper" type="CollisionShape2D" parent="."]\nshape = SubResource("CapsuleShape2D_7k0mh")\n'
        '\n[node name="Deep" type="CollisionShape2D" parent="Sprite2D"]\nshape = SubResource("CapsuleShape2D_7k0mh")\n'
    )
    scene = DEMO_GODOT4.replace("rotation = 1.5708\nshape", "rotation = 1.5708\nskew = 0.2\nshape") + second
    path = _project(tmp_path, scene, SCRIPTS / "recipe_demo_godot4.gd")
    result = load_car(path, None, fallback=arcade)
    notes = "\n".join(result.warnings)
    assert "CollisionShape2D: its skew is not read" in notes
    assert "Deep: not a direct child of the car's body" in notes
    assert "the car has 2 collision shapes: the first is read" in notes
    assert CarShape.of(result.values).length == 70  # the first: CollisionShape2D


def test_an_inherited_car_scene_says_its_parts_are_in_the_other_scene(tmp_path):
    scene = (
        "[gd_scene load_steps=2 format=3]\n\n"
        '[ext_resource type="PackedScene" path="res://base_car.tscn" id="1_base"]\n\n'
        '[node name="Car" instance=ExtResource("1_base")]\n'
    )
    path = _project(tmp_path, scene, SCRIPTS / "recipe_demo_godot4.gd")
    result = load_car(path, None, fallback=arcade)
    assert "an instance of another scene" in result.warnings[0] and result.values == {"godot_engine": 0.0}  # format=3


@pytest.mark.parametrize(
    "line, message",
    [
        ("position = Vector2( 1, nan )", "CollisionShape2D: its position"),
        ("rotation_degrees = inf", "CollisionShape2D: its rotation"),
        ("scale = 2", "CollisionShape2D: its scale"),
    ],
)
def test_a_transform_that_is_no_transform_is_refused_naming_the_node(tmp_path, line, message):
    scene = DEMO_GODOT3.replace("rotation = 1.5708\nshape", f"{line}\nshape")
    path = _project(tmp_path, scene, SCRIPTS / "godot3_export_port.gd")
    with pytest.raises(GodotError, match=f"nothing was imported: line \\d+: {message}"):
        load_car(path, None, fallback=arcade)


def test_the_recipe_demos_own_car_scene_gives_its_capsule():
    """The demo's car.tscn as its repository holds it (Godot 4.4, MIT): a CapsuleShape2D of
    radius 34 and height 138 (Godot 4: tip to tip), turned 1.5708 rad on the body: a
    capsule 138 px long along the heading and 68 px wide, with the script's values."""
    demo = Path(__file__).parent / "data" / "godot_levels" / "recipe_demo" / "car.tscn"
    result = load_car(demo, arcade)
    assert result.model is arcade
    values = result.values
    assert arcade.PARAMS[[p.name for p in arcade.PARAMS].index("shape_kind")].choices[int(values["shape_kind"])] == (
        "capsule"
    )
    assert (values["shape_length"], values["shape_width"]) == (138.0, 68.0)
    assert values["shape_rotation"] == pytest.approx(math.degrees(1.5708) - 90.0, abs=1e-9)  # along the heading
    assert values["engine_power"] == 900.0  # car.gd's `engine_power = 900`
