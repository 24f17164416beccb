"""The JSON track format: a hand-written file read into the track it says, tracks
written and read back unchanged, the built-in tracks found by name, and every kind of
bad file refused with one message naming the element (after which a good file still
loads)."""

from __future__ import annotations

import copy
import json
import math
import sys
import types

import numpy as np
import pytest

from sandbox.errors import UserError
from sandbox.files import tracks as track_files
from sandbox.files.tracks import (
    MAX_ELEMENTS,
    TrackError,
    builtin_track_names,
    find_builtin_track,
    load_track,
    open_track,
    save_track,
    track_from_json,
    track_to_json,
)
from sandbox.physics.track import OPEN_FIELD, Polyline, Track

GOOD = {
    "format": "car-sandbox track",
    "version": 1,
    "name": "Test yard",
    "unit": "m",
    "pixels_per_metre": 20,
    "walls": [
        {"polyline": [[-50, -50], [50, -50], [50, 50], [-50, 50], [-50, -50]], "closed": False},
        {"rect": {"x": 0, "y": 30, "width": 10, "height": 4, "angle_deg": 90}},
        {"circle": {"x": -30, "y": 0, "radius": 3}},
        {"polyline": [[20, -10], [30, -10], [30, 0]], "closed": True},
    ],
    "cones": [{"x": 10, "y": 0, "radius": 0.2}],
    "start": {"from": [0, -20], "to": [0, -40], "direction": [3, 0]},
    "sectors": [{"from": [0, 20], "to": [0, 40], "direction": [-1, 0]}],
    "centre_line": {"points": [[-30, -30], [30, -30], [30, 30], [-30, 30]], "closed": True},
    "surfaces": [{"polygon": [[-40, -40], [-35, -40], [-35, -35]], "grip": 0.5}],
    "spawn": {"x": -10, "y": -30, "heading_deg": 90},
}
"""A yard inside a hollow square wall, one of every element, a lap round it."""


def write(tmp_path, data, name="track.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_hand_written_file_reads_as_the_track_it_describes(tmp_path):
    track = load_track(write(tmp_path, GOOD))
    assert (track.name, track.unit, track.pixels_per_metre) == ("Test yard", "m", 20.0)
    hollow, solid = track.polylines
    assert not hollow.closed and hollow.points.shape == (5, 2) and solid.closed
    (rect,) = track.rects
    assert (rect.x, rect.y, rect.width, rect.height) == (0, 30, 10, 4) and rect.angle == pytest.approx(math.pi / 2)
    # turned a quarter, the 10 m side stands upright: its corners span 4 m across and 10 m down
    corners = rect.corners()
    assert np.ptp(corners[:, 0]) == pytest.approx(4) and np.ptp(corners[:, 1]) == pytest.approx(10)
    assert (track.circles[0].radius, track.cones[0].x, track.cones[0].radius) == (3, 10, 0.2)
    assert track.start.direction == (1.0, 0.0)  # made a unit vector
    assert (track.start.x1, track.start.y1, track.start.x2, track.start.y2) == (0, -20, 0, -40)
    assert track.sectors[0].direction == (-1.0, 0.0)
    assert track.centre_line.closed and len(track.centre_line.points) == 4
    assert track.surfaces[0].grip == 0.5
    assert (track.spawn.x, track.spawn.y) == (-10, -30) and track.spawn.heading == pytest.approx(math.pi / 2)


def test_a_track_written_reads_back_the_same(tmp_path):
    track = load_track(write(tmp_path, GOOD))
    path = tmp_path / "again.json"
    save_track(track, path)
    assert track_to_json(load_track(path)) == track_to_json(track)
    assert track_to_json(track)["walls"][2]["rect"]["angle_deg"] == 90  # polylines first, then rectangles
    assert sorted(p.name for p in tmp_path.iterdir()) == ["again.json", "track.json"]  # no temporary file left
    text = path.read_text(encoding="utf-8")
    assert '"name": "Test yard"' in text and max(len(line) for line in text.splitlines()) <= 120


def test_a_track_in_px_reads_in_m_at_its_scale(tmp_path):
    data = copy.deepcopy(GOOD) | {"unit": "px"}
    track = load_track(write(tmp_path, data)).in_unit("m")
    assert track.unit == "m" and track.cones[0].x == pytest.approx(10 / 20)


@pytest.mark.parametrize("name", ["skid_pad", "Skid pad", "SKID_PAD.json", "skid pad"])
def test_a_built_in_track_is_found_by_its_name_or_file_stem(name):
    assert find_builtin_track(name).name == "skid_pad.json"


def test_the_built_in_tracks_all_load_and_a_miss_lists_them():
    names = builtin_track_names()
    expected = {"open_field", "skid_pad", "slalom", "drag_strip", "parking_lot", "club_circuit"}
    assert expected <= set(names)
    for name in names:
        assert load_track(find_builtin_track(name)).name
    with pytest.raises(TrackError, match="close built-in tracks: slalom"):
        find_builtin_track("slalon")


def test_the_built_in_open_field_is_todays_empty_field():
    field = load_track(find_builtin_track("open_field"))
    assert field.is_open_field
    assert track_to_json(field) | {"description": ""} == track_to_json(OPEN_FIELD) | {"description": ""}


def changed(path: str, value):
    """GOOD with the element at `path` ("walls.0.polyline.2.0") set to `value` (DELETE removes it)."""
    data = copy.deepcopy(GOOD)
    *parents, last = [int(p) if p.isdigit() else p for p in path.split(".")]
    node = data
    for key in parents:
        node = node[key]
    if value is DELETE:
        del node[last]
    else:
        node[last] = value
    return data


DELETE = object()

BAD = [
    ("walls.0.polyline.3.0", float("nan"), "walls[0].polyline point 3: x is NaN"),
    ("cones.0.y", 1e300, "cones[0].y is 1e+300, outside"),
    ("spawn.x", float("inf"), "spawn.x is inf, outside"),
    ("walls.3.polyline", [[20, -10], [30, 0], [30, -10], [20, 0]], "walls[3].polyline: the wall crosses itself"),
    ("walls.0.polyline.2", [-60, 0], "walls[0].polyline: the wall crosses itself"),
    ("start", DELETE, "start: a circuit (a closed centre line, or sectors) needs a start line"),
    ("start", {"from": [100, 0], "to": [120, 0], "direction": [0, 1]}, "start: the line does not cross the centre"),
    ("sectors.0.to", [5, 5], "sectors[0]: the line does not cross the centre line"),
    ("spawn", {"x": 0, "y": 30}, "spawn: (0, 30) is inside the wall walls[1].rect"),
    ("spawn", {"x": 25, "y": -7}, "spawn: (25, -7) is inside the wall walls[3].polyline"),
    ("spawn", {"x": -29, "y": 1}, "spawn: (-29, 1) is inside the wall walls[2].circle"),
    ("format", "car-sandbox preset", 'format: "car-sandbox preset" is not a car-sandbox track'),
    ("version", 3, "version: 3 is not a version this car-sandbox reads (it reads versions 1, 2"),
    ("wall_restitution", 1.5, "wall_restitution: 1.5 is outside 0 … 1"),
    ("wall_restitution", -0.1, "wall_restitution: -0.1 is outside 0 … 1"),
    ("wall_friction", -0.5, "wall_friction: -0.5 is outside 0 … 10"),
    ("wall_friction", "high", "wall_friction is text, not a number"),
    ("wall_restitution", float("nan"), "wall_restitution is NaN"),
    ("colour", "red", 'unknown key "colour"'),
    ("walls.1.rect.depth", 3, 'walls[1].rect: unknown key "depth"'),
    ("walls.2", {"ellipse": {}}, 'walls[2]: expected {"polyline": …}, {"rect": …} or {"circle": …}'),
    ("walls.2.circle.radius", -3, "walls[2].circle.radius is -3, outside 0"),
    ("walls.1.rect.width", 0, "walls[1].rect.width: must be more than 0"),
    ("start.direction", [0, 0], "start.direction: is [0, 0]"),
    ("start.direction", [0, 1], "start.direction: runs along the line"),
    ("walls.0.polyline.1", [-50, -50], "walls[0].polyline: point 1 is point 0 again"),
    ("walls.3.polyline", [[20, -10], [30, -10]], "walls[3].polyline: 2 point(s); at least 3 are needed"),
    (
        "walls.3.polyline",
        [[20, -10], [30, -10], [30, 0], [20, -10]],
        "walls[3].polyline: point 0 is point 3 again (a closed line joins its ends",
    ),
    ("unit", "ft", 'unit: "ft": expected "px" or "m"'),
    ("cones.0.x", "10", "cones[0].x is text, not a number"),
    ("walls.0.polyline.1.1", True, "walls[0].polyline point 1: y is true/false, not a number"),
    ("centre_line.points.2", [1, 2, 3], "centre_line.points point 2: expected [x, y], got a list"),
    ("name", DELETE, "name is missing"),
    ("surfaces.0.grip", 50, "surfaces[0].grip is 50, outside 0 … 10"),
    ("pixels_per_metre", 0, "pixels_per_metre is 0, outside"),
]


@pytest.mark.parametrize("path, value, message", BAD, ids=[b[2][:40] for b in BAD])
def test_a_bad_track_is_refused_naming_the_element_and_a_good_one_still_loads(tmp_path, path, value, message):
    bad = write(tmp_path, changed(path, value), "bad.json")
    with pytest.raises(TrackError) as refused:
        load_track(bad)
    text = str(refused.value)
    assert text.startswith(f"{bad}: ") and message in text, text
    assert isinstance(refused.value, UserError) and "\n" not in text
    assert load_track(write(tmp_path, GOOD)).name == "Test yard"


def test_a_version_1_file_loads_with_the_default_wall_restitution_and_friction(tmp_path):
    """A file written before the walls' restitution and friction (version 1) reads with
    their stated defaults (0.2 and 0.5); written again it is version 2 and holds them."""
    track = load_track(write(tmp_path, GOOD))
    assert GOOD["version"] == 1 and "wall_restitution" not in GOOD
    assert (track.wall_restitution, track.wall_friction) == (0.2, 0.5)
    again = track_to_json(track)
    assert again["version"] == 2 and (again["wall_restitution"], again["wall_friction"]) == (0.2, 0.5)


def test_a_version_2_file_keeps_its_wall_restitution_and_friction(tmp_path):
    data = changed("version", 2) | {"wall_restitution": 0.65, "wall_friction": 1.25}
    track = load_track(write(tmp_path, data))
    assert (track.wall_restitution, track.wall_friction) == (0.65, 1.25)
    saved = save_track(track, tmp_path / "again.json")
    assert (load_track(saved).wall_restitution, load_track(saved).wall_friction) == (0.65, 1.25)


def test_not_json_and_not_an_object_are_refused(tmp_path):
    path = tmp_path / "t.json"
    path.write_text("{ nope", encoding="utf-8")
    with pytest.raises(TrackError, match="not JSON"):
        load_track(path)
    with pytest.raises(TrackError, match="expected an object"):
        track_from_json([1, 2], "list.json")


def test_a_million_segments_are_refused_before_they_are_read(tmp_path):
    points = [[i, (i % 2) * 0.5] for i in range(1_000_001)]
    data = copy.deepcopy(GOOD)
    data["walls"].append({"polyline": points})
    with pytest.raises(TrackError, match=rf"1,000,0\d\d points and shapes; a track holds at most {MAX_ELEMENTS:,d}"):
        track_from_json(data, "huge.json")
    path = write(tmp_path, data, "huge.json")
    with pytest.raises(TrackError, match="a track holds at most"):
        load_track(path)


def test_a_wall_of_two_hundred_thousand_points_is_checked_whole():
    """A ring just under the limit is read, and a crossing at its far end found."""
    n = MAX_ELEMENTS - 50
    a = np.linspace(0, 2 * math.pi, n, endpoint=False)
    ring = np.c_[1000 * np.cos(a), 1000 * np.sin(a)]
    data = {"format": "car-sandbox track", "version": 1, "name": "ring", "walls": [{"polyline": ring.tolist()}]}
    data["spawn"] = {"x": 2000, "y": 0}
    assert len(track_from_json(data, "ring.json").polylines[0].points) == n
    ring[-3] = [-2000, 0]  # a spike through the centre crosses the ring's far side
    data["walls"][0]["polyline"] = ring.tolist()
    with pytest.raises(TrackError, match="walls\\[0\\].polyline: the wall crosses itself"):
        track_from_json(data, "ring.json")


def test_saving_a_track_that_would_not_load_writes_nothing(tmp_path):
    bow = Track(name="bow", polylines=(Polyline([[0, 0], [10, 10], [10, 0], [0, 10]], closed=True),))
    path = tmp_path / "bow.json"
    with pytest.raises(TrackError, match="walls\\[0\\].polyline: the wall crosses itself"):
        save_track(bow, path)
    assert not path.exists()


def test_a_godot_level_is_read_by_the_level_reader_when_there_is_one(tmp_path, monkeypatch):
    level = tmp_path / "level.tscn"
    level.write_text("[gd_scene format=3]\n", encoding="utf-8")
    reader = types.ModuleType("fake_level_reader")
    reader.read_level = lambda path: Track(name=f"read {path.name}")
    monkeypatch.setitem(sys.modules, "fake_level_reader", reader)
    monkeypatch.setattr(track_files, "GODOT_LEVELS", "fake_level_reader")
    assert open_track(level).name == "read level.tscn"
    monkeypatch.setattr(track_files, "GODOT_LEVELS", "sandbox.files.no_such_level_reader")
    with pytest.raises(TrackError, match="level.tscn: reading Godot levels \\(.tscn\\) is not available"):
        open_track(level)


def test_a_file_of_another_kind_is_refused_by_its_ending(tmp_path):
    with pytest.raises(TrackError, match="not a kind of track file"):
        open_track(tmp_path / "track.txt")
