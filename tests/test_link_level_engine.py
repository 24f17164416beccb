"""The link brings the game's level, in the real engine (Godot 3, headless): a game runs
the level of tests/data/godot_levels/godot3 (walls under rotated, scaled, sheared and
mirrored parents, an instanced scene moved, shapes of every kind, a disabled and a one-way
shape, bodies on other layers, moving bodies, an area, a tile map) beside a car with the
link node, and the sandbox's end pulls the level over UDP on 127.0.0.1. What the node sends
(the running engine's global transforms) gives the walls and the centre line (its Path2D)
`read_level` reads from the same .tscn (the file, another path) within 1e-3 px; a metric
car's `pixels_per_metre` comes with them and is the track's scale."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from link_engine_end import TOKEN, arcade_scene, drive
from sandbox.devtools.link_game import start_link_game
from sandbox.devtools.oracle import godot_binary
from sandbox.files.godot_level import read_level
from sandbox.files.godot_link import export_link_node
from sandbox.link.level_track import level_of_game
from sandbox.link.protocol import LEVEL_SHAPES
from sandbox.link.server import LinkServer
from sandbox.physics.track import Circle

pytestmark = pytest.mark.skipif(godot_binary() is None, reason="godot3-server is not installed")

LEVEL = Path(__file__).parent / "data" / "godot_levels" / "godot3"
WALL_PX = 1e-3
"""The engine's 32-bit transforms and Godot 3's six decimals keep within this."""


def level_files(folder: Path, first: str) -> dict[str, str]:
    """A level's files (path in the project -> text), its scene first."""
    files = {str(p.relative_to(folder)): p.read_text() for p in sorted(folder.rglob("*")) if p.is_file()}
    files.pop("project.godot", None)
    return {first: files.pop(first), **files}


def pulled(level: dict[str, str], params: dict | None = None, timeout: float = 30.0, preset="recipe_defaults.json"):
    """The level a running game with `level` beside its car (the exported script and
    scene of the built-in `preset`) sends, and the game's log."""
    scene, preset = arcade_scene(preset)
    node = export_link_node(preset.model, 3, tuning=preset.tuning)
    server = LinkServer(port=0, token=TOKEN)
    server.start()
    try:
        port = server.status().address[1]
        with start_link_game(node, port, drive(3000), TOKEN, scene=scene, fixed_fps=False, level=level,
                             params=params, timeout=300) as game:  # fmt: skip
            assert server.wait_for_game(60) is not None, game.log()
            return server.request_level(timeout), game.log()
    finally:
        server.stop()


def outlines(track) -> list[tuple[str, np.ndarray]]:
    """Every wall as (kind, numbers): a rectangle by its corners, a circle by centre and
    radius, a polyline by its points (closed or open)."""
    found = [("rect", r.corners()) for r in track.rects]
    found += [("circle", np.array([c.x, c.y, c.radius])) for c in track.circles]
    found += [("closed" if p.closed else "open", p.points) for p in track.polylines]
    return found


def same_walls(mine, theirs, tolerance: float) -> list[str]:
    """What of `mine` has no wall of `theirs` within `tolerance` (each matched once), and
    what of `theirs` is left over."""
    left = list(theirs)
    problems = []
    for kind, numbers in mine:
        match = next(
            (i for i, (k, n) in enumerate(left) if k == kind and n.shape == numbers.shape
             and np.abs(n - numbers).max() <= tolerance),
            None,
        )  # fmt: skip
        if match is None:
            problems.append(f"{kind} {numbers.round(3).tolist()}: not in the file's walls")
        else:
            left.pop(match)
    return problems + [f"{kind} {numbers.round(3).tolist()}: not sent by the game" for kind, numbers in left]


@pytest.mark.parametrize("mask", (1, 3))
def test_the_walls_the_game_sends_are_the_walls_of_its_scene_file(mask):
    """The car's collision mask (set on the car in the engine) picks the bodies: with 3
    the body on layers 2 and 3 is met as well, as `read_level` with the same mask says."""
    game_level, log = pulled(level_files(LEVEL, "level.tscn"), params={"collision_mask": mask})
    track = level_of_game(game_level)
    expected = read_level(LEVEL / "level.tscn", mask=mask)
    assert len(outlines(track)) == len(outlines(expected)) > 20
    assert same_walls(outlines(track), outlines(expected), WALL_PX) == []
    # kinds kept as the file's: a sheared rectangle is a closed polyline, a mirrored circle round
    assert len(track.rects) == len(expected.rects) and len(track.circles) == len(expected.circles)
    notes = "\n".join(track.notes)
    assert "disabled shapes: not read: Driver/Level/Ghost/Off" in notes
    assert "one-way collision is not read: these are walls from both sides: Level/Ghost/OneWay" in notes.replace(
        "Driver/", ""
    )
    assert "tile maps' collision: not read: Driver/Level/Ground" in notes
    # Upstairs (layers 2 and 3, mask 4) is met by a car whose mask holds layer 2
    assert ("its layer 1, mask 1): not read: Driver/Level/Upstairs/Dot" in notes) == (mask == 1)
    assert any(isinstance(c, Circle) and (c.x, c.y) == (1500, 400) for c in track.circles) == (mask == 3)
    assert game_level.left_out == 0 and game_level.parts == 1
    assert track.spawn.x == pytest.approx(game_level.car["x"]) and track.name.endswith("(from the game)")
    # the level's Path2D (turned, moved, a curved stretch) is the centre line the file gives
    assert same_centre(track, expected)
    assert game_level.pixels_per_metre is None  # a car in px has no scale


def same_centre(track, expected) -> bool:
    line, theirs = track.centre_line, expected.centre_line
    assert line is not None and theirs is not None and len(theirs.points) > 10
    return (
        line.closed == theirs.closed
        and line.points.shape == theirs.points.shape
        and bool(np.abs(line.points - theirs.points).max() <= WALL_PX)
    )


def test_a_metric_car_sends_its_scale_and_its_level_is_in_metres_at_that_scale():
    """The exported bicycle (its script has `pixels_per_metre`), set to 40 px a metre in
    the game: the track takes 40, so in metres every wall is the file's px / 40 (at the
    default scale they would be px / 25)."""
    game_level, log = pulled(level_files(LEVEL, "level.tscn"), params={"pixels_per_metre": 40.0},
                             preset="bicycle_blog.json")  # fmt: skip
    assert game_level.pixels_per_metre == 40.0, log
    track = level_of_game(game_level)
    expected = read_level(LEVEL / "level.tscn")
    assert track.pixels_per_metre == 40.0 and same_centre(track, expected)
    in_metres = [(kind, numbers / 40.0) for kind, numbers in outlines(expected)]  # the file's px at 40 px/m
    assert same_walls(outlines(track.in_unit("m")), in_metres, WALL_PX / 40) == []


def crowd_scene(bodies: int) -> str:
    """A Godot 3 level of `bodies` static bodies, each with one circle, on a 100-px grid."""
    lines = ['[gd_scene load_steps=2 format=2]', "", '[sub_resource type="CircleShape2D" id=1]', "radius = 5.0", "",
             '[node name="Crowd" type="Node2D"]', ""]  # fmt: skip
    for k in range(bodies):
        x, y = 1000 + 100 * (k % 200), 1000 + 100 * (k // 200)
        lines += [f'[node name="B{k}" type="StaticBody2D" parent="."]', f"position = Vector2( {x}, {y} )", "",
                  f'[node name="S" type="CollisionShape2D" parent="B{k}"]', "shape = SubResource( 1 )", ""]  # fmt: skip
    return "\n".join(lines)


def test_a_level_over_the_bound_comes_in_parts_and_says_how_many_were_left_out():
    """10 050 shapes: the first 10 000 come (in many parts, each under a datagram's
    size), and the 50 others are counted in the track's notes."""
    bodies = LEVEL_SHAPES + 50
    game_level, _ = pulled({"crowd.tscn": crowd_scene(bodies)}, timeout=60)
    assert game_level.parts > 10 and len(game_level.shapes) == LEVEL_SHAPES and game_level.left_out == 50
    track = level_of_game(game_level)
    assert len(track.circles) == LEVEL_SHAPES and all(isinstance(c, Circle) for c in track.circles)
    centres = {(round(c.x), round(c.y)) for c in track.circles}
    assert centres == {(1000 + 100 * (k % 200), 1000 + 100 * (k // 200)) for k in range(LEVEL_SHAPES)}  # the first ones
    assert any("left out: 50" in note for note in track.notes), track.notes
