"""Godot's text scenes read as sections of values, in the spellings Godot 3 and Godot 4
write (the texts below are as the editors save them), and malformed ones refused naming
the line."""

import math
from pathlib import Path

import pytest

from sandbox.files.tscn_reader import Call, SceneError, parse_scene

GODOT3 = """[gd_scene load_steps=3 format=2]

[ext_resource path="res://wall.tscn" type="PackedScene" id=1]

[sub_resource type="Curve2D" id=1]
_data = {
"points": PoolVector2Array( 0, 0, 0, 0, 10.5, -2, -1e+06, 0, 0, 0, 3, 4 ),
"tilts": PoolRealArray( 0, 0 )
}

[sub_resource type="GDScript" id=2]
script/source = "extends StaticBody2D
# a \\"quoted\\" word; and a ] bracket
"

[node name="Level" type="Node2D"]
transform = Transform2D( 1, 0, 0, 1, 5, 6 )

[node name="Wall" parent="." instance=ExtResource( 1 )]
position = Vector2( -3.5, 1e-05 )
rotation = inf
polygon = PoolVector2Array(  )
colors = [ Color( 1, 0, 0, 1 ), null, true, false, "a;b" ]

[editable path="Wall"]

[connection signal="body_entered" from="Wall" to="." method="_on_wall"]
"""

GODOT4 = """[gd_scene load_steps=3 format=3 uid="uid://abc123"]

[ext_resource type="PackedScene" uid="uid://b62" path="res://car.tscn" id="2_aokqd"]

[sub_resource type="TileSetAtlasSource" id="TileSetAtlasSource_2hygs"]
separation = Vector2i(2, 2)
14:2/0/physics_layer_0/polygon_0/points = PackedVector2Array(64, 2.5, 64, 64, -64, 64, -64, 5)

[node name="Main" type="Node2D"]
metadata/_edit_lock_ = true

[node name="Car" parent="." unique_id=12 instance=ExtResource("2_aokqd")]
position = Vector2(563, 512)
player_path = NodePath("../../Car")
names = Array[StringName]([&"a", &"b"])
table = Dictionary[String, int]({
"x": 1
})
path = ^"Car/Body"
"""


def test_godot3_sections_and_values():
    scene = parse_scene(GODOT3, "level.tscn")
    assert scene.format == 2 and scene.header.attrs == {"load_steps": 3, "format": 2}
    assert scene.ext[1].attrs == {"path": "res://wall.tscn", "type": "PackedScene", "id": 1}
    curve = scene.sub[1].props["_data"]
    assert curve["points"] == Call("PoolVector2Array", (0, 0, 0, 0, 10.5, -2, -1e6, 0, 0, 0, 3, 4))
    assert scene.sub[2].props["script/source"] == 'extends StaticBody2D\n# a "quoted" word; and a ] bracket\n'
    level, wall = scene.nodes
    assert level.props["transform"] == Call("Transform2D", (1, 0, 0, 1, 5, 6))
    assert wall.attrs["instance"] == Call("ExtResource", (1,)) and wall.attrs["parent"] == "."
    assert wall.props["position"] == Call("Vector2", (-3.5, 1e-05))
    assert wall.props["rotation"] == math.inf and wall.props["polygon"] == Call("PoolVector2Array", ())
    assert wall.props["colors"] == [Call("Color", (1, 0, 0, 1)), None, True, False, "a;b"]
    assert wall.line == 19


def test_godot4_sections_and_values():
    scene = parse_scene(GODOT4, "main.tscn")
    assert scene.format == 3 and scene.header.attrs["uid"] == "uid://abc123"
    atlas = scene.sub["TileSetAtlasSource_2hygs"].props
    assert atlas["separation"] == Call("Vector2i", (2, 2))
    assert atlas["14:2/0/physics_layer_0/polygon_0/points"] == Call(
        "PackedVector2Array", (64, 2.5, 64, 64, -64, 64, -64, 5)
    )
    main, car = scene.nodes
    assert main.props["metadata/_edit_lock_"] is True
    assert car.attrs["instance"] == Call("ExtResource", ("2_aokqd",))
    assert car.props["player_path"] == Call("NodePath", ("../../Car",))
    assert car.props["names"] == ["a", "b"] and car.props["table"] == {"x": 1} and car.props["path"] == "Car/Body"


def test_a_nan_is_read_as_nan_for_the_level_to_name():
    scene = parse_scene('[gd_scene format=3]\n\n[node name="A" type="Node2D"]\nposition = Vector2(nan, -inf)\n')
    x, y = scene.nodes[0].props["position"].args
    assert math.isnan(x) and y == -math.inf


@pytest.mark.parametrize(
    "text, words",
    [
        ("[gd_scene format=2]\n\n[weird]\n", ("line 3", "unknown section [weird]")),
        (
            '[gd_scene format=2]\n\n[node name="A" type="Node2D"]\nposition = Vector2( 1, 2\n',
            ("line 4", "position", "not closed"),
        ),
        ('[gd_scene format=2]\n\n[node name="A" type="Node2D"]\nposition = Vector2( 1 2 )\n', ("line 4", "expected")),
        ('[gd_scene format=2]\n\n[node name="A" type="Node2D"]\nposition = Banana\n', ("line 4", "Banana")),
        ("position = Vector2( 1, 2 )\n", ("line 1", "before the file's first section")),
        ('[node name="A" type="Node2D"]\n', ("not a Godot scene",)),
        ("[gd_scene format=1]\n", ("format=1", "format=2", "format=3")),
        ('[gd_scene format=2]\n\n[sub_resource type="A" id=1]\n\n[sub_resource type="B" id=1]\n', ("line 5", "second")),
        ("[gd_scene format=2]\n\n" + "[" * 100, ("line 3",)),
        ('[gd_scene format=2]\n\n[node name="A" type="Node2D"]\nv = ' + "[" * 100 + "]" * 100 + "\n", ("nested",)),
    ],
)
def test_malformed_scenes_name_the_line_and_the_problem(text, words):
    with pytest.raises(SceneError) as caught:
        parse_scene(text, "level.tscn")
    message = str(caught.value)
    assert message.startswith("level.tscn")
    for word in words:
        assert word in message, message


def test_the_recipe_demo_main_scene_reads():
    """The recipe "Car steering" demo's main scene (Godot 4.4, MIT) as its repository holds
    it (kept in tests/data/godot_levels/recipe_demo)."""
    text = (Path(__file__).parent / "data" / "godot_levels" / "recipe_demo" / "main.tscn").read_text(encoding="utf-8")
    scene = parse_scene(text, "main.tscn")
    assert [n.attrs["name"] for n in scene.nodes] == ["Main", "TileMap", "Car", "CanvasLayer", "ControlPanel"]
