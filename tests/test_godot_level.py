"""A Godot 4 level (format=3) read into a track, held to hand-worked walls (no Godot 4
engine here: the expectations come from Godot 4's documented meaning of each property:
`size` is a rectangle's full size, a capsule's `height` its whole length with both caps,
skew turns a node's y axis), what is not read named in the notes, and bad levels refused
with one message naming the file, the node and the problem. The Godot 3 importer is held
to the engine itself in test_godot_level_engine.py."""

import math
import os
from pathlib import Path

import numpy as np
import pytest

from godot_level_projects import HEADER4, project
from sandbox.errors import UserError
from sandbox.files.godot_level import SCENE_LIMIT, read_level
from sandbox.physics.track import Circle, Rect

CONE = """[gd_scene load_steps=2 format=3 uid="uid://cone"]

[sub_resource type="CircleShape2D" id="CircleShape2D_cone"]
radius = 8.0

[node name="Cone" type="StaticBody2D"]

[node name="Shape" type="CollisionShape2D" parent="."]
shape = SubResource("CircleShape2D_cone")
"""
LEVEL4 = (
    HEADER4
    + """[ext_resource type="PackedScene" uid="uid://cone" path="res://props/cone.tscn" id="1_cone"]
[ext_resource type="Script" path="res://fancy_wall.gd" id="2_script"]

[sub_resource type="RectangleShape2D" id="RectangleShape2D_long"]
size = Vector2(100, 20)

[sub_resource type="RectangleShape2D" id="RectangleShape2D_default"]

[sub_resource type="CapsuleShape2D" id="CapsuleShape2D_car"]
radius = 34.0
height = 138.0

[sub_resource type="CapsuleShape2D" id="CapsuleShape2D_short"]
radius = 20.0
height = 30.0

[sub_resource type="Curve2D" id="Curve2D_line"]
_data = {
"points": PackedVector2Array(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 300, 0)
}
point_count = 2

[node name="Track" type="Node2D"]
metadata/_edit_lock_ = true

[node name="Turned" type="StaticBody2D" parent="."]
transform = Transform2D(0, 1, -1, 0, 100, 50)
unique_name_in_owner = true

[node name="Long" type="CollisionShape2D" parent="Turned"]
position = Vector2(10, 0)
shape = SubResource("RectangleShape2D_long")

[node name="Block" type="StaticBody2D" parent="." groups=["walls"]]
position = Vector2(500, 500)
scale = Vector2(2, 3)

[node name="Shape" type="CollisionShape2D" parent="Block"]
shape = SubResource("RectangleShape2D_default")

[node name="Pill" type="AnimatableBody2D" parent="."]
position = Vector2(0, 300)

[node name="Shape" type="CollisionShape2D" parent="Pill"]
shape = SubResource("CapsuleShape2D_car")

[node name="Stub" type="StaticBody2D" parent="."]
position = Vector2(-300, 0)

[node name="Shape" type="CollisionShape2D" parent="Stub"]
shape = SubResource("CapsuleShape2D_short")

[node name="Leaning" type="StaticBody2D" parent="."]
position = Vector2(800, 0)
skew = 0.5

[node name="Shape" type="CollisionShape2D" parent="Leaning"]
shape = SubResource("RectangleShape2D_default")

[node name="Cone1" parent="." instance=ExtResource("1_cone")]
position = Vector2(50, 60)

[node name="Cone2" parent="." instance=ExtResource("1_cone")]
position = Vector2(70, 60)

[node name="Rail" type="StaticBody2D" parent="."]
position = Vector2(0, -200)

[node name="Outline" type="CollisionPolygon2D" parent="Rail"]
build_mode = 1
polygon = PackedVector2Array(0, 0, 40, 0, 40, 30)

[node name="Fancy" type="FancyWall" parent="."]
position = Vector2(0, 900)
script = ExtResource("2_script")

[node name="Shape" type="CollisionShape2D" parent="Fancy"]
shape = SubResource("RectangleShape2D_default")

[node name="Player" type="CharacterBody2D" parent="."]
motion_mode = 1

[node name="Shape" type="CollisionShape2D" parent="Player"]
shape = SubResource("CapsuleShape2D_car")

[node name="Upper" type="StaticBody2D" parent="."]
collision_layer = 2

[node name="Shape" type="CollisionShape2D" parent="Upper"]
shape = SubResource("RectangleShape2D_default")

[node name="Oddity" type="Gizmo" parent="."]

[node name="Shape" type="CollisionShape2D" parent="Oddity"]
shape = SubResource("RectangleShape2D_default")

[node name="Ground" type="TileMapLayer" parent="."]
tile_map_data = PackedByteArray(0, 0)

[node name="Line" type="Path2D" parent="."]
position = Vector2(0, 100)
curve = SubResource("Curve2D_line")

[node name="Label" type="Label" parent="."]
text = &"Lap [1]"
"""
)


@pytest.fixture
def level4(tmp_path):
    root = project(
        tmp_path,
        {"level.tscn": LEVEL4, "props/cone.tscn": CONE, "fancy_wall.gd": "@tool\nextends StaticBody2D\n"},
    )
    return read_level(root / "level.tscn")


def near(a, b) -> bool:
    return all(math.isclose(x, y, rel_tol=0, abs_tol=1e-9) for x, y in zip(a, b))


def test_godot4_rectangles_are_full_sizes_through_every_transform(level4):
    rects = {(round(r.x, 9), round(r.y, 9)): r for r in level4.rects}
    turned = rects[(100.0, 60.0)]  # (10, 0) turned 90°: x axis (0, 1), y axis (-1, 0), from (100, 50)
    assert near((turned.width, turned.height, turned.angle), (100, 20, math.pi / 2))
    block = rects[(500.0, 500.0)]  # Godot 4's default size 20 × 20, scaled 2 and 3
    assert near((block.width, block.height, block.angle), (40, 60, 0))
    assert rects[(0.0, 900.0)] == Rect(0, 900, 20, 20, 0)  # its script extends StaticBody2D


def test_godot4_capsule_height_is_the_whole_length(level4):
    # radius 34, height 138: a straight part of 138 - 2 × 34 = 70 between the caps' centres
    # (the recipe's car: Godot 3's height 70)
    assert Rect(0, 300, 68, 70, 0) in level4.rects
    assert Circle(0, 265, 34) in level4.circles and Circle(0, 335, 34) in level4.circles
    # radius 20 then height 30: Godot 4's setters leave radius 15, height 30: a circle
    assert Circle(-300, 0, 15) in level4.circles
    assert not any(math.isclose(r.x, -300) for r in level4.rects)


def test_a_skewed_rectangle_is_a_parallelogram(level4):
    leaning = [p for p in level4.polylines if p.closed]
    assert len(leaning) == 1
    s = 0.5  # skew turns the y axis to (-sin s, cos s)
    expected = [(800 + x - y * math.sin(s), y * math.cos(s)) for x, y in ((-10, -10), (10, -10), (10, 10), (-10, 10))]
    np.testing.assert_allclose(leaning[0].points, expected, atol=1e-9)


def test_instances_segments_and_the_centre_line(level4):
    assert Circle(50, 60, 8) in level4.circles and Circle(70, 60, 8) in level4.circles
    rail = [p for p in level4.polylines if not p.closed]
    assert len(rail) == 1  # segments mode joins the last point to the first, hollow
    np.testing.assert_array_equal(rail[0].points, [(0, -200), (40, -200), (40, -170), (0, -200)])
    np.testing.assert_array_equal(level4.centre_line.points, [(0, 100), (300, 100)])
    assert not level4.centre_line.closed and level4.unit == "px" and level4.name == "level"


def test_godot4_notes_name_what_is_not_a_wall(level4):
    notes = "\n".join(level4.notes)
    assert "CharacterBody2D" in notes and "Track/Player/Shape" in notes
    assert "does not meet" in notes and "Track/Upper/Shape" in notes  # Godot 4: the wall's layer only
    assert "not a static body" in notes and "Track/Oddity/Shape" in notes
    assert "tile maps" in notes and "Track/Ground" in notes
    assert len(level4.rects) == 4 and len(level4.circles) == 5


def write(tmp_path, text: str, files: dict[str, str] | None = None) -> Path:
    return project(tmp_path, {"level.tscn": text, **(files or {})}) / "level.tscn"


def refused(path: Path, *words: str) -> str:
    with pytest.raises(UserError) as caught:
        read_level(path)
    message = str(caught.value)
    assert "Traceback" not in message and "\n" not in message
    for word in words:
        assert word in message, message
    return message


WALL3 = (
    HEADER4
    + """[sub_resource type="CircleShape2D" id="c"]

[node name="Level" type="Node2D"]

[node name="Walls" type="Node2D" parent="."]

[node name="Wall3" type="StaticBody2D" parent="Walls"]
position = Vector2(nan, 0)

[node name="Shape" type="CollisionShape2D" parent="Walls/Wall3"]
shape = SubResource("c")
"""
)


def test_nan_in_a_vector_names_the_node_and_the_property(tmp_path):
    message = refused(write(tmp_path, WALL3), "Level/Walls/Wall3", "position", "not a finite number")
    assert message == "level.tscn: Level/Walls/Wall3: position: nan is not a finite number"
    points = WALL3.replace("Vector2(nan, 0)", "Vector2(0, 0)").replace(
        '[sub_resource type="CircleShape2D" id="c"]',
        '[sub_resource type="ConvexPolygonShape2D" id="c"]\npoints = PackedVector2Array(0, 0, 1e999, 0, 1, 1)',
    )
    refused(write(tmp_path, points), "Level/Walls/Wall3/Shape", "point 1", "not finite")


def test_a_missing_sub_resource_names_the_node_and_the_id(tmp_path):
    broken = WALL3.replace("Vector2(nan, 0)", "Vector2(0, 0)").replace('SubResource("c")', 'SubResource("gone")')
    refused(write(tmp_path, broken), "Level/Walls/Wall3/Shape", "SubResource(gone)", "no [sub_resource]")


def test_unknown_and_malformed_sections_name_the_line(tmp_path):
    refused(
        write(tmp_path, WALL3.replace('[node name="Walls"', '[bogus]\n\n[node name="Walls"')),
        "level.tscn line",
        "unknown section [bogus]",
    )
    message = refused(write(tmp_path, WALL3.replace("Vector2(nan, 0)", "Vector2(1, 2")), "level.tscn line")
    assert "expected" in message
    refused(write(tmp_path, "hello\n"), "level.tscn")


def test_an_instance_outside_the_project_missing_or_looping_is_named(tmp_path):
    instance = (
        HEADER4 + '[ext_resource type="PackedScene" path="{path}" id="1"]\n\n[node name="Level" type="Node2D"]\n\n'
        '[node name="Gate" parent="." instance=ExtResource("1")]\n'
    )
    (tmp_path / "outside.tscn").write_text(CONE, encoding="utf-8")
    refused(write(tmp_path, instance.format(path="res://../outside.tscn")), "Level/Gate", "outside the project")
    refused(write(tmp_path, instance.format(path="res://props/nothing.tscn")), "Level/Gate", "missing", "nothing.tscn")
    loop = {"props/a.tscn": instance.format(path="res://props/b.tscn"), "props/b.tscn": instance.format(path="a.tscn")}
    refused(
        write(tmp_path, instance.format(path="res://props/a.tscn"), loop),
        "Level/Gate/Gate",
        "loop",
        "a.tscn → b.tscn → a.tscn",
    )


def test_an_instance_without_a_project_is_refused(tmp_path):
    level = tmp_path / "loose" / "level.tscn"
    level.parent.mkdir()
    level.write_text(
        HEADER4
        + '[ext_resource type="PackedScene" path="res://cone.tscn" id="1"]\n\n[node name="Level" type="Node2D"]\n\n'
        '[node name="Cone" parent="." instance=ExtResource("1")]\n',
        encoding="utf-8",
    )
    refused(level, "Level/Cone", "no project.godot")


def test_a_100_mb_scene_is_refused_by_its_size_unread(tmp_path):
    path = write(tmp_path, WALL3)
    with open(path, "r+b") as f:
        f.truncate(100 * 1024 * 1024)  # sparse: nothing written, nothing to read
    refused(path, "level.tscn", f"{SCENE_LIMIT // 1024} KiB", "too large")
    os.remove(path)


def test_unknown_nodes_are_skipped_and_their_shapes_named(tmp_path):
    text = WALL3.replace("Vector2(nan, 0)", "Vector2(5, 5)").replace('type="StaticBody2D"', 'type="MysteryBody"')
    text = text.replace(
        '[sub_resource type="CircleShape2D"',
        '[ext_resource type="Script" path="res://gone.gd" id="9"]\n\n[sub_resource type="CircleShape2D"',
    ).replace("position = Vector2(5, 5)", 'position = Vector2(5, 5)\nscript = ExtResource("9")')
    track = read_level(write(tmp_path, text))  # its script is missing: it cannot say what the node is
    assert track.is_open_field
    assert any("Level/Walls/Wall3/Shape" in note for note in track.notes)


def test_a_circle_or_capsule_stretched_one_way_is_left_out_and_named(tmp_path):
    text = WALL3.replace("position = Vector2(nan, 0)", "position = Vector2(0, 0)\nscale = Vector2(2, 1)")
    track = read_level(write(tmp_path, text))
    assert track.is_open_field
    assert track.notes == (
        "left out, a non-uniform scale or a skew on a circle or capsule (Godot does not support it): "
        "Level/Walls/Wall3/Shape",
    )
    mirrored = WALL3.replace("position = Vector2(nan, 0)", "position = Vector2(0, 0)\nscale = Vector2(-2, 2)")
    assert read_level(write(tmp_path, mirrored)).circles == (Circle(0, 0, 20),)  # a mirror keeps a circle round


def test_an_endless_line_is_named_and_a_texture_is_no_shape(tmp_path):
    endless = WALL3.replace("Vector2(nan, 0)", "Vector2(0, 0)").replace("CircleShape2D", "WorldBoundaryShape2D")
    track = read_level(write(tmp_path, endless))
    assert (
        track.is_open_field and "WorldBoundaryShape2D" in track.notes[0] and "Level/Walls/Wall3/Shape" in track.notes[0]
    )
    texture = WALL3.replace("Vector2(nan, 0)", "Vector2(0, 0)").replace("CircleShape2D", "GradientTexture2D")
    refused(write(tmp_path, texture), "Level/Walls/Wall3/Shape", "GradientTexture2D", "not a 2D collision shape")


def test_a_level_outside_the_project_given_is_refused(tmp_path):
    level = write(tmp_path, WALL3.replace("Vector2(nan, 0)", "Vector2(0, 0)"))
    other = tmp_path / "other"
    other.mkdir()
    with pytest.raises(UserError, match="not inside the project folder"):
        read_level(level, project=other)
    assert read_level(level, project=level.parent).circles == (Circle(0, 0, 10),)  # Godot's default radius
