"""The game's level over the link with the car's scale and the level's centre line
(docs/link.md, `level`): the car's `pixels_per_metre` becomes the track's, so a metric
model meets the walls where the game has them; the first Path2D's curve becomes the
centre line as a level's .tscn gives it; a node from before them gives today's track;
bad values are one message naming them."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sandbox.files.godot_level import LevelError
from sandbox.link.level_parts import GameLevel
from sandbox.link.level_track import level_of_game
from sandbox.physics.track import DEFAULT_PIXELS_PER_METRE

TOKEN = "5eed0123abcdef45"
WALL = {"node": "Main/Walls/East", "type": "RectangleShape2D", "transform": [0, 1, -1, 0, 400, 0], "extents": [300, 10]}
"""A wall turned 90°: x = 390 … 410 px, centred on (400, 0)."""
SQUARE = {
    "node": "Main/Racing",
    "transform": [0, 1, -1, 0, 5, 6],  # a quarter turn (x axis to +y) and a move to (5, 6)
    "points": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 10, 0, 0, 0, 0, 0, 10, 20, 0, 0, 0, 0, 0, 0],
}
"""A closed curve of straight stretches, (0, 0) → (10, 0) → (10, 20) → (0, 0) in its own
coordinates (each point: in handle, out handle, position); turned and moved: (5, 6),
(5, 16), (-15, 16)."""


def track_of(**fields):
    return level_of_game(GameLevel((WALL,), game="Demo", godot="3.5.1", **fields))


def test_the_cars_scale_puts_the_games_wall_where_the_game_has_it_in_metres():
    track = track_of(pixels_per_metre=40)
    assert track.unit == "px" and track.pixels_per_metre == 40
    (wall,) = track.in_unit("m").rects
    assert wall.corners()[:, 0].mean() == pytest.approx(10.0)  # 400 px at 40 px a metre
    assert wall.corners()[:, 0].min() == pytest.approx(9.75) and wall.corners()[:, 0].max() == pytest.approx(10.25)


def test_a_level_without_the_scale_keeps_the_exports_default():
    """A node from before the field, or a car in px, sends none: the track's scale is
    the default, as before."""
    track = track_of()
    assert track.pixels_per_metre == DEFAULT_PIXELS_PER_METRE == 25.0
    (wall,) = track.in_unit("m").rects
    assert wall.corners()[:, 0].mean() == pytest.approx(16.0)


@pytest.mark.parametrize(
    "value, said",
    [
        (0, "is 0: it must be a positive finite number"),
        (-40, "is -40: it must be a positive finite number"),
        (math.nan, "is NaN or infinite in the game"),
        ("40", "is text, not a number"),
        (True, "is true/false, not a number"),
    ],
)
def test_a_bad_scale_is_one_message_naming_it(value, said):
    with pytest.raises(LevelError) as caught:
        track_of(pixels_per_metre=value)
    assert "the car's pixels_per_metre" in str(caught.value) and said in str(caught.value)


def test_the_first_path_is_the_centre_line_in_global_coordinates():
    line = track_of(centre_line=SQUARE).centre_line
    assert line.closed
    assert np.allclose(line.points, [(5, 6), (5, 16), (-15, 16)], rtol=0, atol=1e-12)
    assert track_of().centre_line is None


def test_a_curved_stretch_is_sampled_on_its_bezier():
    """One stretch (0, 0) → (100, 0) with handles (0, 50) out and (0, 50) in: the curve's
    middle (s = 1/2) is at (50, 37.5) (3/8 of each handle's reach, 0.375 * 100); the
    samples lie on it and end at the point."""
    centre = {"node": "Main/Arc", "transform": [1, 0, 0, 1, 0, 0],
              "points": [0, 0, 0, 50, 0, 0, 0, 50, 0, 0, 100, 0]}  # fmt: skip
    points = track_of(centre_line=centre).centre_line.points
    assert tuple(points[0]) == (0, 0) and tuple(points[-1]) == (100, 0) and len(points) > 4
    mid = points[np.argmin(np.abs(points[:, 0] - 50))]
    assert mid == pytest.approx((50, 37.5), abs=1e-9)


@pytest.mark.parametrize(
    "centre, said",
    [
        ({**SQUARE, "points": SQUARE["points"][:-2]}, "Main/Racing: curve points: 11 vectors, not (in, out, position)"),
        ({**SQUARE, "points": [*SQUARE["points"][:-1], None]}, "Main/Racing: curve points[23]: not a finite number"),
        ({**SQUARE, "transform": [1, 0, 0, 1, None, 0]}, "Main/Racing: transform[4]: not a finite number"),
        ({**SQUARE, "transform": [1, 0]}, "Main/Racing: transform: not a list of six numbers"),
        ([1, 2], "centre_line: not an object"),
    ],
)
def test_a_bad_centre_line_is_one_message_naming_its_node(centre, said):
    with pytest.raises(LevelError) as caught:
        track_of(centre_line=centre)
    assert said in str(caught.value)


def test_the_scale_and_the_centre_line_come_in_the_first_part(server, peer):
    peer.level_parts = [[WALL], [WALL]]
    peer.level_first = {"pixels_per_metre": 40, "centre_line": SQUARE}
    peer.hello()
    assert server.wait_for_game(20) is not None
    level = server.request_level(timeout=20)
    assert level.pixels_per_metre == 40 and level.centre_line == SQUARE
    track = level_of_game(level)
    assert track.pixels_per_metre == 40 and len(track.centre_line.points) == 3


def test_a_scale_the_game_sent_as_null_is_refused_not_taken_as_missing(server, peer):
    peer.level_parts = [[WALL]]
    peer.level_first = {"pixels_per_metre": None}  # NaN or infinite in the game
    peer.hello()
    assert server.wait_for_game(20) is not None
    level = server.request_level(timeout=20)
    with pytest.raises(LevelError, match="pixels_per_metre is NaN or infinite in the game"):
        level_of_game(level)
