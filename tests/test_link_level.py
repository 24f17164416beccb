"""The game's level over the link (docs/link.md, `get_level` and `level`): the messages
checked, the parts gathered (a lost or broken part asked for again), a game whose node
speaks version 1 still linked and told why it cannot send its level, and the shapes the
game sends made walls: hand-worked shapes in global coordinates, and bad data named."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from sandbox.files.godot_level import LevelError
from sandbox.link.level_parts import GameLevel
from sandbox.link.level_track import level_of_game
from sandbox.link.protocol import LEVEL_PARTS, LEVEL_SHAPES, LinkError, ProtocolError, decode, encode
from sandbox.physics.track import Circle, Rect

TOKEN = "5eed0123abcdef45"


def dot(k: int) -> dict:
    return {"node": f"Main/Dot{k}", "type": "CircleShape2D", "transform": [1, 0, 0, 1, 10.0 * k, 0], "radius": 2}


# --- the messages ------------------------------------------------------------------------
def level_message(**fields) -> bytes:
    message = {"v": 2, "type": "level", "token": TOKEN, "seq": 3, "level": 3, "part": 0, "parts": 1, "shapes": [],
               "left_out": 0, "not_read": [], **fields}  # fmt: skip
    return json.dumps(message).encode()


@pytest.mark.parametrize(
    "fields, field",
    [
        ({"part": 2, "parts": 2}, "level.part"),
        ({"parts": 0}, "level.parts"),
        ({"parts": LEVEL_PARTS + 1}, "level.parts"),
        ({"shapes": {"a": 1}}, "level.shapes"),
        ({"shapes": [1, 2]}, "level.shapes"),
        ({"not_read": [{"why": "x"}]}, "level.not_read"),
        ({"car": {"x": None, "y": 0, "rotation": 0}}, "level.car.x"),
        ({"left_out": -1}, "level.left_out"),
    ],
)
def test_a_level_message_with_a_bad_field_is_refused_naming_it(fields, field):
    with pytest.raises(ProtocolError) as caught:
        decode(level_message(**fields), TOKEN)
    assert caught.value.reason == "bad field" and field in str(caught.value)


def test_a_game_of_version_1_is_read_and_a_message_to_it_is_written_in_version_1():
    hello = {"v": 1, "type": "hello", "token": TOKEN, "game": "Old", "godot": "3.5", "model": "arcade",
             "format": None, "hz": 60, "units": "px", "params": {}, "missing": []}  # fmt: skip
    assert decode(json.dumps(hello).encode(), TOKEN)["v"] == 1
    assert json.loads(encode({"type": "ping", "token": TOKEN, "seq": 1}, 1))["v"] == 1
    with pytest.raises(ProtocolError) as caught:
        decode(json.dumps({**hello, "v": 3}).encode(), TOKEN)
    assert caught.value.reason == "version" and "expected 1 or 2" in str(caught.value)


# --- the parts -----------------------------------------------------------------------------
def test_the_level_comes_in_parts_in_order_and_a_lost_or_broken_part_is_asked_for_again(server, peer):
    peer.level_parts = [[dot(0), dot(1)], [dot(2)], [dot(3), dot(4)]]
    peer.level_first = {"left_out": 7, "car": {"x": 5, "y": 6, "rotation": 0.5}}
    peer.spoil = {1: b"", 2: b'{"v":2,"type":"level",'}  # the first answers for parts 1 and 2: not JSON
    peer.hello()
    assert server.wait_for_game(20) is not None
    level = server.request_level(timeout=20)
    assert [shape["node"] for shape in level.shapes] == [f"Main/Dot{k}" for k in range(5)]
    assert level.parts == 3 and level.left_out == 7 and level.car == {"x": 5.0, "y": 6.0, "rotation": 0.5}
    asked = [m["part"] for m in peer.of_type("get_level")]
    assert asked.count(1) == 2 and asked.count(2) == 2 and asked.count(0) == 1
    assert server.status().dropped.get("not JSON") == 2
    assert all(m["level"] == peer.level_id for m in peer.of_type("get_level") if m["part"] > 0)


def test_an_older_link_node_is_linked_and_its_level_refused_with_what_to_do(server, peer):
    peer.send_raw(json.dumps({"v": 1, "type": "hello", "token": TOKEN, "game": "Old", "godot": "3.5",
                              "model": "arcade", "format": None, "hz": 60, "units": "px", "params": {},
                              "missing": []}).encode())  # fmt: skip
    game = server.wait_for_game(20)
    assert game is not None and game.protocol == 1
    assert peer.wait_for("welcome")[0]["v"] == 1  # answered in its own version
    with pytest.raises(LinkError, match="version 1, which does not send the level: export the link node again"):
        server.request_level(timeout=5)
    assert peer.of_type("get_level") == []


def test_a_game_that_does_not_answer_is_said_with_the_time_waited(server, peer):
    peer.hello()
    assert server.wait_for_game(20) is not None
    with pytest.raises(LinkError, match="did not send its level within 0.3 s"):
        server.request_level(timeout=0.3)


def test_without_a_game_there_is_no_level_to_pull(server):
    with pytest.raises(LinkError, match="No game is linked"):
        server.request_level(timeout=1)


# --- the walls ------------------------------------------------------------------------------
def track_of(*shapes, godot: str = "3.5.1", **fields):
    return level_of_game(GameLevel(tuple(shapes), godot=godot, game="Demo", **fields))


TURNED = [0.0, 1.0, -1.0, 0.0, 5.0, 6.0]
"""A quarter turn (x axis to +y) and a move to (5, 6)."""


def test_a_rectangle_turned_by_its_parents_is_a_rectangle_even_with_the_games_float_noise():
    noisy = [0.0000003, 1.0, -0.9999996, 0.0000002, 5.0, 6.0]  # 32-bit floats printed with six decimals
    track = track_of({"node": "W", "type": "RectangleShape2D", "transform": noisy, "extents": [10, 20]})
    (rect,) = track.rects
    # half sizes 10 along the shape's x (now +y) and 20 along its y (now −x): corners by hand
    assert sorted(map(tuple, rect.corners().round(4).tolist())) == [(-15, -4), (-15, 16), (25, -4), (25, 16)]
    assert isinstance(rect, Rect) and rect.angle == pytest.approx(math.pi / 2, abs=1e-6)


def test_a_sheared_rectangle_is_a_closed_polyline_through_its_corners():
    shear = [1, 0, 0.5, 1, 100, 0]
    (line,) = track_of({"node": "S", "type": "RectangleShape2D", "transform": shear, "extents": [30, 15]}).polylines
    assert line.closed
    assert line.points.tolist() == [[62.5, -15], [122.5, -15], [137.5, 15], [77.5, 15]]


def test_a_circle_takes_its_scale_and_one_scaled_unevenly_is_left_out_and_named():
    round_one = {"node": "Big", "type": "CircleShape2D", "transform": [0, 2, -2, 0, 1, 2], "radius": 5}
    egg = {"node": "Egg", "type": "CircleShape2D", "transform": [2, 0, 0, 1, 0, 0], "radius": 5}
    track = track_of(round_one, egg)
    assert track.circles == (Circle(1, 2, 10),)
    assert any(note.startswith("left out, a non-uniform scale") and "Egg" in note for note in track.notes)


@pytest.mark.parametrize("godot, caps", [("3.5.1", 20), ("4.2.1", 10)])
def test_a_capsules_height_is_read_as_its_engine_reads_it(godot, caps):
    """Radius 10, height 40: Godot 3's height is the straight part (caps' centres at ±20),
    Godot 4's the whole length (±(20 − 10))."""
    pill = {"node": "Pill", "type": "CapsuleShape2D", "transform": [1, 0, 0, 1, 0, 0], "radius": 10, "height": 40}
    track = track_of(pill, godot=godot)
    assert sorted((c.x, c.y) for c in track.circles) == [(0, -caps), (0, caps)]
    assert track.rects[0].height == 2 * caps and track.rects[0].width == 20


def test_polygons_and_segments_keep_their_points_in_global_coordinates():
    moved = [1, 0, 0, 1, 10, 20]
    outline = {"node": "Ledge", "type": "CollisionPolygon2D", "transform": moved, "polygon": [0, 0, 6, 0, 6, 4],
               "build_mode": 1}  # fmt: skip
    fence = {"node": "Fence", "type": "ConcavePolygonShape2D", "transform": moved, "segments": [0, 0, 1, 0, 1, 0, 1, 1]}
    rock = {"node": "Rock", "type": "ConvexPolygonShape2D", "transform": moved, "points": [0, 0, 2, 0, 0, 2]}
    kerb = {"node": "Kerb", "type": "SegmentShape2D", "transform": moved, "a": [0, 0], "b": [3, 0]}
    lines = track_of(outline, fence, rock, kerb).polylines
    assert [(line.closed, line.points.tolist()) for line in lines] == [
        (False, [[10, 20], [16, 20], [16, 24], [10, 20]]),  # segments mode: back to its first point, open
        (False, [[10, 20], [11, 20], [11, 21]]),  # connected segments are one line
        (True, [[10, 20], [12, 20], [10, 22]]),
        (False, [[10, 20], [13, 20]]),
    ]


def test_what_the_game_did_not_read_and_left_out_are_the_tracks_notes():
    one_way = {**dot(1), "node": "Main/Platform", "one_way": True}
    not_read = ({"why": "disabled shapes: not read", "nodes": ["Main/Gate/Bar"], "count": 3},)
    track = track_of(dot(0), one_way, not_read=not_read, left_out=12, car={"x": 1, "y": 2, "rotation": 3})
    assert len(track.circles) == 2  # a one-way shape is a wall from both sides, as in a level read from its file
    assert track.notes == (
        "disabled shapes: not read: Main/Gate/Bar and 2 more",
        "one-way collision is not read: these are walls from both sides: Main/Platform",
        f"shapes beyond the {LEVEL_SHAPES:,d} the link sends, left out: 12",
    )
    assert (track.spawn.x, track.spawn.y, track.spawn.heading) == (1, 2, 3)
    assert track.name == "Demo (from the game)" and track.unit == "px"


@pytest.mark.parametrize(
    "shape, said",
    [
        ({**dot(0), "transform": [1, 0, 0, 1, None, 0]}, "Main/Dot0: transform[4]: not a finite number (the game"),
        ({**dot(0), "radius": None}, "Main/Dot0: radius: not a finite number"),
        ({**dot(0), "transform": [1, 0, 0, 1, 1e300, 0]}, "transform[4]: 1e+300 is beyond ±1e+07"),
        ({**dot(0), "transform": [1, 0, 0, 1]}, "Main/Dot0: transform: not a list of six numbers"),
        ({**dot(0), "type": "SphereShape3D"}, "Main/Dot0: shape SphereShape3D: not a 2D collision shape"),
        ({**dot(0), "radius": -1}, "radius -1.0 is negative"),
        ({**dot(0), "transform": [1e7, 0, 0, 1e7, 0, 0]}, "Main/Dot0: the shape reaches beyond ±1e+07 px"),
        ({"type": "SegmentShape2D", "transform": [1, 0, 0, 1, 0, 0], "a": [0, 0, 1, 1]}, "shape 0: a: not a vector"),
        ({**dot(0), "node": "Evil\nname", "radius": None}, "Evil\\x0aname: radius"),  # the game's text on one line
        ("text", "shape 0: not an object"),
    ],
)
def test_bad_data_from_the_game_is_one_error_naming_the_node_and_the_field(shape, said):
    with pytest.raises(LevelError) as caught:
        track_of(shape)
    assert str(caught.value).startswith("the game's level: ") and said in str(caught.value)


def test_more_shapes_than_the_link_takes_are_refused_whole():
    with pytest.raises(LevelError, match=f"{LEVEL_SHAPES + 1:,d} shapes, more than the {LEVEL_SHAPES:,d}"):
        track_of(*[dot(k % 100) for k in range(LEVEL_SHAPES + 1)])


def test_a_level_of_the_bound_becomes_walls_quickly_enough_to_pull_in_the_window():
    """10 000 shapes: every one a wall (the figure: docs/link.md)."""
    shapes = [{**dot(0), "transform": [1, 0, 0, 1, float(k % 100) * 50, float(k // 100) * 50]} for k in range(10_000)]
    track = track_of(*shapes)
    assert len(track.circles) == LEVEL_SHAPES
    assert np.isfinite([c.x for c in track.circles]).all()
