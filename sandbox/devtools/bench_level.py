"""How long importing a large Godot level takes: a Godot 3 level of 10 000 collision
shapes of every kind, in nested rotated and scaled Node2Ds and an instanced scene, written
to a temporary project and read into a track (best of a few runs). `car-sandbox bench`
can report it against its target; `python -m sandbox.devtools.bench_level` prints it.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from ..files.godot_level import read_level
from .bench_lines import verdict

SHAPES = 10_000
TARGET_SECONDS = 1.0
"""Importing a level of 10 000 shapes takes at most this long."""
_RESOURCES = """[sub_resource type="RectangleShape2D" id=1]
extents = Vector2( 40, 8 )

[sub_resource type="CircleShape2D" id=2]
radius = 12.0

[sub_resource type="CapsuleShape2D" id=3]
radius = 6.0
height = 20.0

[sub_resource type="ConvexPolygonShape2D" id=4]
points = PoolVector2Array( 0, 0, 30, 0, 36, 20, 4, 26 )

[sub_resource type="ConcavePolygonShape2D" id=5]
segments = PoolVector2Array( 0, 0, 50, 0, 50, 0, 50, 40, 50, 40, 0, 40 )
"""
_PROP = """[gd_scene load_steps=2 format=2]

[sub_resource type="CircleShape2D" id=1]
radius = 9.0

[node name="Cone" type="StaticBody2D"]

[node name="Shape" type="CollisionShape2D" parent="."]
shape = SubResource( 1 )
"""


def level_text(shapes: int = SHAPES) -> str:
    """A Godot 3 level of `shapes` collision shapes: blocks of ten bodies under a rotated,
    scaled Node2D, each body a shape of a kind in turn (a tenth of them instanced cones,
    some CollisionPolygon2D)."""
    lines = [
        f"[gd_scene load_steps={7} format=2]\n",
        '[ext_resource path="res://cone.tscn" type="PackedScene" id=1]\n',
        _RESOURCES,
        '[node name="Level" type="Node2D"]\n',
    ]
    for block in range(shapes // 10):
        lines.append(
            f'[node name="Block{block}" type="Node2D" parent="."]\n'
            f"position = Vector2( {block % 50 * 400}, {block // 50 * 300} )\nrotation = {block * 0.01:.4f}\n"
            "scale = Vector2( 1.1, 1.1 )\n"
        )
        for i in range(10):
            parent, name = f"Block{block}", f"Wall{i}"
            if i == 9:
                lines.append(f'[node name="{name}" parent="{parent}" instance=ExtResource( 1 )]\n')
                lines.append(f"position = Vector2( {i * 30}, 200 )\n")
                continue
            lines.append(
                f'[node name="{name}" type="StaticBody2D" parent="{parent}"]\n'
                f"position = Vector2( {i * 30}, {i * 12} )\nrotation = {i * 0.3:.2f}\n"
            )
            if i == 8:
                lines.append(
                    f'[node name="Shape" type="CollisionPolygon2D" parent="{parent}/{name}"]\n'
                    "polygon = PoolVector2Array( 0, 0, 40, 0, 40, 30, 20, 10, 0, 30 )\n"
                )
            else:
                lines.append(
                    f'[node name="Shape" type="CollisionShape2D" parent="{parent}/{name}"]\n'
                    f"shape = SubResource( {i % 5 + 1} )\n"
                )
    return "\n".join(lines)


def level_import_seconds(shapes: int = SHAPES, runs: int = 3, clock=time.perf_counter) -> float:
    """Seconds to read a level of `shapes` shapes into a track (the best of `runs`), on
    `clock` (wall time; time.process_time for the process's own CPU time, which other
    work on a loaded machine does not stretch)."""
    with tempfile.TemporaryDirectory(prefix="car-level-bench-") as tmp:
        project = Path(tmp)
        (project / "project.godot").write_text("config_version=4\n", encoding="utf-8")
        (project / "cone.tscn").write_text(_PROP, encoding="utf-8")
        scene = project / "level.tscn"
        scene.write_text(level_text(shapes), encoding="utf-8")
        best = float("inf")
        for _ in range(runs):
            start = clock()
            track = read_level(scene)
            best = min(best, clock() - start)
        walls = len(track.rects) + len(track.circles) + len(track.polylines)
        if walls < shapes:  # capsules make three walls each, concave shapes one or more
            raise RuntimeError(f"the benchmark level made {walls} walls from {shapes} shapes")
    return best


def report(seconds: float, cpu: float) -> list[str]:
    """The figure as `car-sandbox bench` words it."""
    return [
        f"Godot level import, {SHAPES:,d} shapes: {seconds:.2f} s ({cpu:.2f} s of CPU)  "
        f"target ≤ {TARGET_SECONDS:g} s: {verdict(seconds <= TARGET_SECONDS)}"
    ]


if __name__ == "__main__":
    print("\n".join(report(level_import_seconds(), level_import_seconds(clock=time.process_time))))
