"""The car's collision shape in exported Godot scenes: the scene's CollisionShape2D is
the tuning's shape, in Godot 3 and 4, and the Godot 3 engine, loading the scene, finds
the shape's edges where the tuning puts them."""

import math
import os
import subprocess
import tempfile
from dataclasses import replace
from pathlib import Path

import pytest

from sandbox.devtools.oracle import godot_binary
from sandbox.files.godot import export_script
from sandbox.files.godot_scene import export_scene
from sandbox.files.godot_shape import GodotShape, from_godot, to_godot
from sandbox.files.presets import BUILTIN_DIR, declared_preset, load_preset
from sandbox.physics.car_shape import CarShape
from sandbox.physics.models import MODELS

needs_godot = pytest.mark.skipif(godot_binary() is None, reason="godot3-server is not installed")


def test_the_recipe_demos_capsule_is_written_as_each_godot_reads_a_capsules_height():
    """Radius 34, height 70 turned 90° in Godot 3 (the straight middle: 138 px end to end);
    Godot 4's height is the whole length, round ends included (its class reference)."""
    demo = CarShape("capsule", 138, 68)
    three, four = to_godot(demo, 3), to_godot(demo, 4)
    assert three.type == four.type == "CapsuleShape2D"
    assert three.properties == {"radius": 34, "height": 70} and three.rotation == 90
    assert four.properties == {"radius": 34, "height": 138} and four.rotation == 90
    for godot, shape in ((3, three), (4, four)):
        assert from_godot(shape, godot) == demo


@pytest.mark.parametrize("godot", (3, 4))
@pytest.mark.parametrize(
    "shape",
    [
        CarShape("rectangle", 100, 48, 5, -3, 30),
        CarShape("capsule", 120, 50, -10, 0, -150),
        CarShape("circle", 60, 60, 0, 12, 0),
    ],
    ids=lambda s: s.kind,
)
def test_a_shape_written_for_godot_reads_back_the_same(shape, godot):
    back = from_godot(to_godot(shape, godot), godot)
    assert back.kind == shape.kind and back.length == pytest.approx(shape.length)
    assert back.width == pytest.approx(shape.width) and back.rotation == pytest.approx(shape.rotation)
    assert (back.offset_x, back.offset_y) == (shape.offset_x, shape.offset_y)


def test_rectangle_sizes_are_half_extents_in_godot_3_and_the_size_in_godot_4():
    box = CarShape("rectangle", 100, 48)
    assert to_godot(box, 3).properties == {"extents": (50, 24)}
    assert to_godot(box, 4).properties == {"size": (100, 48)}


def test_an_unevenly_scaled_capsule_is_read_with_a_note():
    found = GodotShape("CapsuleShape2D", {"radius": 10.0, "height": 20.0}, (0.0, 0.0), 90.0, (2.0, 1.0))
    shape = from_godot(found, 3)
    assert (shape.length, shape.width, shape.rotation) == (40.0, 40.0, 0.0)
    assert "scaled unevenly" in found.notes[0]


@pytest.mark.parametrize("godot", (3, 4))
@pytest.mark.parametrize("path", sorted(BUILTIN_DIR.glob("*.json")), ids=lambda p: p.stem)
def test_every_exported_scene_carries_the_tunings_shape(path, godot):
    preset = load_preset(path)
    text = export_scene(preset, godot, px_per_metre=20.0)
    scale = 20.0 if preset.model.LENGTH_UNIT == "m" else 1.0
    expected = to_godot(CarShape.of(preset.tuning).scaled(scale), godot)
    assert f'[sub_resource type="{expected.type}"' in text
    assert text.count('type="CollisionShape2D"') == 1


def _probe_points(shape: CarShape, inset: float) -> list[tuple[tuple[float, float], bool]]:
    """Points just inside and just outside the shape's edges (car frame, px), from what
    its parameters mean: along its axis at ±length/2, across it at ±width/2, and its
    corner (inside a rectangle, outside the round end of a capsule)."""
    a, b = shape.length / 2, shape.width / 2
    if shape.kind == "circle":
        a = b
    local = []
    for sign in (1, -1):
        local += [((sign * (a - inset), 0.0), True), ((sign * (a + inset), 0.0), False)]
        local += [((0.0, sign * (b - inset)), True), ((0.0, sign * (b + inset)), False)]
    if shape.kind != "circle":
        local.append(((a - inset, b - inset), shape.kind == "rectangle"))
    c, s = math.cos(math.radians(shape.rotation)), math.sin(math.radians(shape.rotation))
    return [((x * c - y * s + shape.offset_x, x * s + y * c + shape.offset_y), inside) for (x, y), inside in local]


PROBE = """extends SceneTree

func _init():
    var car = load("res://car.tscn").instance()
    var node = car.get_node("CollisionShape2D")
    var probe = CircleShape2D.new()
    probe.radius = 0.25
    var out = File.new()
    out.open(OS.get_environment("PROBE_OUT"), File.WRITE)
    out.store_line(node.shape.get_class())
    for point in OS.get_environment("PROBE_POINTS").split(";"):
        var xy = point.split(",")
        var at = Transform2D(0.0, Vector2(float(xy[0]), float(xy[1])))
        out.store_line("1" if node.shape.collide(node.transform, probe, at) else "0")
    out.close()
    quit()
"""


def _engine_probe(files: dict[str, str], points: list[tuple[float, float]]) -> list[str]:
    """Load car.tscn in the Godot 3 engine and ask its shape which points it covers."""
    with tempfile.TemporaryDirectory(prefix="car-shape-") as tmp:
        project = Path(tmp)
        (project / "project.godot").write_text("config_version=4\n")
        (project / "probe.gd").write_text(PROBE)
        for name, text in files.items():
            (project / name).write_text(text)
        out = project / "probe.txt"
        env = {**os.environ, "PROBE_OUT": str(out), "PROBE_POINTS": ";".join(f"{x!r},{y!r}" for x, y in points)}
        done = subprocess.run(
            [godot_binary(), "--path", str(project), "-s", "res://probe.gd"],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert out.exists(), done.stdout + done.stderr
        return out.read_text().split()


SHAPES = {
    "the arcade's default: the recipe demo's capsule": ("arcade", {}),
    "a capsule moved and turned": (
        "arcade",
        {"shape_length": 110, "shape_width": 40, "shape_offset_x": 12, "shape_offset_y": -7, "shape_rotation": 30},
    ),
    "a rectangle turned backwards": (
        "arcade",
        {
            "shape_kind": "rectangle",
            "shape_length": 96,
            "shape_width": 44,
            "shape_offset_x": -6,
            "shape_rotation": -135,
        },
    ),
    "a circle off centre": ("arcade", {"shape_kind": "circle", "shape_width": 60, "shape_offset_y": 9}),
    "a metric car's rectangle (m, at 25 px/m)": ("bicycle", {"shape_offset_x": 0.4, "shape_rotation": 10}),
}


@needs_godot
@pytest.mark.parametrize("case", SHAPES)
def test_the_godot3_engine_finds_the_exported_shapes_edges_where_the_tuning_puts_them(case):
    name, values = SHAPES[case]
    preset = declared_preset(MODELS[name], "shape")
    tuning = preset.tuning.copy()
    tuning.set_many(values)
    preset = replace(preset, tuning=tuning)
    scale = 25.0 if preset.model.LENGTH_UNIT == "m" else 1.0
    shape = CarShape.of(tuning).scaled(scale)
    probes = _probe_points(shape, inset=1.0)
    files = {"car.tscn": export_scene(preset, 3, "car.gd", 25.0), "car.gd": export_script(preset, 3, 25.0)}
    answer = _engine_probe(files, [point for point, _ in probes])
    expected_type = {"rectangle": "RectangleShape2D", "capsule": "CapsuleShape2D", "circle": "CircleShape2D"}
    assert answer[0] == expected_type[shape.kind]
    assert answer[1:] == ["1" if inside else "0" for _, inside in probes], probes


def test_a_godot4_capsule_shorter_than_its_width_is_the_circle_the_setters_leave():
    """Godot 4 keeps height ≥ 2 × radius as each property is set, in the file's order: a
    height set after the radius lowers the radius, a radius set after the height raises it."""
    height_last = GodotShape("CapsuleShape2D", {"radius": 34.0, "height": 50.0})
    radius_last = GodotShape("CapsuleShape2D", {"height": 50.0, "radius": 34.0})
    assert (from_godot(height_last, 4).length, from_godot(height_last, 4).width) == (50, 50)
    assert (from_godot(radius_last, 4).length, from_godot(radius_last, 4).width) == (68, 68)
    assert from_godot(GodotShape("CapsuleShape2D", {"radius": 5.0}), 4).length == 30  # the default height
