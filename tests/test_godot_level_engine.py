"""A Godot 3 level read into a track holds the walls the real engine holds.

The level (tests/data/godot_levels/godot3) was written as people write levels: walls
under nested Node2D transforms (rotation, uniform and non-uniform scale, a whole
transform with and without a skew, a position set after one, rotation_degrees), bodies
under a plain Node and a CanvasLayer, a scene instanced twice and once inside another instanced
scene, an editable child of an instance moved, a shape in a .tres, shapes of every kind,
a Path2D, and what must not become a wall (a disabled shape, a body on layers 2 and 3,
moving bodies, an area, a sprite's shape, a tile map). The engine loads it and says, for
each static body, the shapes its physics server holds with their global transforms, and,
for points just inside and just outside every wall the import made, whether a static
body on the car's layer holds them.
"""

from pathlib import Path

import numpy as np
import pytest

from sandbox.devtools.level_oracle import engine_level
from sandbox.devtools.oracle import godot_binary
from sandbox.files.godot_level import read_level
from sandbox.physics.track import Polyline

PROJECT = Path(__file__).parent / "data" / "godot_levels" / "godot3"
CORNER_PX = 1e-3
PROBE_PX = 0.05
"""Probe points sit this far inside and outside each wall's outline (Godot's float32
coordinates are good to about 1e-4 px here)."""
CURVE_PX = 0.5
"""The engine's curve keeps within this of the centre line (sampled about every 5 px)."""
ON_CURVE_PX = 0.05
"""The centre line's points lie on the engine's curve (written 400 points a stretch)."""

needs_godot = pytest.mark.skipif(godot_binary() is None, reason="godot3-server is not installed")


def corners(transform, half_w, half_h) -> np.ndarray:
    a, b, c, d, e, f = transform
    local = np.array([(-half_w, -half_h), (half_w, -half_h), (half_w, half_h), (-half_w, half_h)])
    return np.column_stack((a * local[:, 0] + c * local[:, 1] + e, b * local[:, 0] + d * local[:, 1] + f))


def same_points(p: np.ndarray, q: np.ndarray, tolerance: float) -> bool:
    """The same points in any order, each within `tolerance`."""
    if len(p) != len(q):
        return False
    distances = np.linalg.norm(p[:, None, :] - q[None, :, :], axis=2)
    return bool((distances.min(axis=1) <= tolerance).all() and (distances.min(axis=0) <= tolerance).all())


def inside_polygon(points: np.ndarray, polygon: np.ndarray) -> np.ndarray:
    """Even-odd rule: which of `points` are inside `polygon`."""
    x, y = points[:, 0:1], points[:, 1:2]
    x0, y0 = polygon[:, 0], polygon[:, 1]
    x1, y1 = np.roll(x0, -1), np.roll(y0, -1)
    crosses = ((y0 > y) != (y1 > y)) & (x < x0 + (y - y0) * (x1 - x0) / np.where(y1 == y0, 1e-300, y1 - y0))
    return crosses.sum(axis=1) % 2 == 1


def solid_outlines(track) -> list[np.ndarray]:
    """Every solid wall but circles as a closed outline."""
    return [r.corners() for r in track.rects] + [p.points for p in track.polylines if p.closed]


def inside_track(track, points: np.ndarray) -> np.ndarray:
    inside = np.zeros(len(points), dtype=bool)
    for outline in solid_outlines(track):
        inside |= inside_polygon(points, outline)
    for c in track.circles:
        inside |= np.hypot(points[:, 0] - c.x, points[:, 1] - c.y) < c.radius
    return inside


def probes(track) -> np.ndarray:
    """Points PROBE_PX either side of every solid wall's outline: at each edge's middle
    and near both its ends, and around every circle."""
    found = []
    for outline in solid_outlines(track):
        ends = np.roll(outline, -1, axis=0)
        for p, q in zip(outline, ends):
            along = (q - p) / np.linalg.norm(q - p)
            normal = np.array([-along[1], along[0]])
            for at in (p + (q - p) * 0.5, p + along * 1.0, q - along * 1.0):
                found += [at + normal * PROBE_PX, at - normal * PROBE_PX]
    for c in track.circles:
        for angle in np.linspace(0, 2 * np.pi, 12, endpoint=False):
            direction = np.array([np.cos(angle), np.sin(angle)])
            for r in (c.radius - PROBE_PX, c.radius + PROBE_PX):
                found.append(np.array([c.x, c.y]) + direction * r)
    return np.array(found)


@pytest.fixture(scope="module")
def level():
    track = read_level(PROJECT / "level.tscn")
    points = probes(track)
    return track, points, engine_level(PROJECT, "res://level.tscn", points, meets=LAYERED)


LAYERED = ("Upstairs", "Both", "Watcher")
"""Bodies on other layers than Godot's default (the rest are on layer 1 with mask 1)."""


def meets(engine, body: str) -> bool:
    return engine.meets.get(body, True)


def walls_in_engine(engine):
    """The engine's shapes a car on Godot's default layer and mask meets."""
    return [s for s in engine.shapes if not s.disabled and meets(engine, s.node.rsplit("/", 1)[0])]


@needs_godot
def test_a_car_meets_a_body_when_either_layer_is_in_the_others_mask(level):
    track, _, engine = level
    assert engine.meets == {"Upstairs": False, "Both": True, "Watcher": True}  # Godot 3 tests both ways
    notes = "\n".join(track.notes)
    assert "Level/Upstairs/Dot" in notes and "Watcher" not in notes and "Level/Both" not in notes
    assert {(c.x, c.y) for c in track.circles} >= {(1500.0, 600.0), (1500.0, 800.0)}


@needs_godot
def test_every_rectangle_has_the_engines_corners(level):
    track, _, engine = level
    mine = [r.corners() for r in track.rects] + [p.points for p in track.polylines if p.closed and len(p.points) == 4]
    rectangles = [s for s in walls_in_engine(engine) if s.kind == "rectangle"]
    assert len(rectangles) == 10
    for shape in rectangles:
        expected = corners(shape.transform, *shape.data)
        assert any(same_points(expected, m, CORNER_PX) for m in mine), f"{shape.node}: no wall with its corners"
        # a rotation under a non-uniform scale, or a whole transform with a skew (kept whole;
        # Moved/Block/Shape: a position set after it rebuilds it without its skew)
        sheared = shape.node in ("Stretched/Slanted/Box", "Placed/Block/Shape", "Sheared/Block/Shape")
        as_rect = any(same_points(expected, r.corners(), CORNER_PX) for r in track.rects)
        assert as_rect != sheared, f"{shape.node}: a parallelogram is a closed polyline, a rectangle a Rect"


@needs_godot
def test_circles_and_capsules_as_many_as_the_engines(level):
    track, _, engine = level
    shapes = walls_in_engine(engine)
    count = {kind: sum(s.kind == kind for s in shapes) for kind in ("rectangle", "circle", "capsule")}
    assert count["capsule"] == 4
    assert len(track.circles) == count["circle"] + 2 * count["capsule"]
    assert len(track.rects) == count["rectangle"] - 3 + count["capsule"]  # the three sheared ones are polylines
    for shape in (s for s in shapes if s.kind == "circle"):
        a, b = shape.transform[:2]
        radius = shape.data[0] * np.hypot(a, b)
        centre = np.array(shape.transform[4:])
        assert any(
            np.hypot(c.x - centre[0], c.y - centre[1]) < CORNER_PX and abs(c.radius - radius) < CORNER_PX
            for c in track.circles
        ), f"{shape.node}: no circle at {centre} of radius {radius}"


@needs_godot
def test_segments_are_the_engines(level):
    track, _, engine = level
    theirs = []
    for shape in walls_in_engine(engine):
        if shape.kind in ("segment", "concave"):
            a, b, c, d, e, f = shape.transform
            local = np.array(shape.data).reshape(-1, 2)
            if shape.kind == "segment":  # a Rect2(a, b): position a, size b
                local = local.reshape(2, 2)
            ends = np.column_stack((a * local[:, 0] + c * local[:, 1] + e, b * local[:, 0] + d * local[:, 1] + f))
            theirs += [ends[i : i + 2] for i in range(0, len(ends), 2)]
    mine = [p.points[i : i + 2] for p in track.polylines if not p.closed for i in range(len(p.points) - 1)]
    assert len(mine) == len(theirs) == 10
    for segment in theirs:
        assert any(same_points(segment, m, CORNER_PX) for m in mine), f"no wall segment {segment.tolist()}"


@needs_godot
def test_the_solid_walls_are_where_the_engine_has_them(level):
    track, points, engine = level
    in_engine = np.array([any(meets(engine, body) for body in bodies) for bodies in engine.probes])
    mine = inside_track(track, points)
    wrong = np.flatnonzero(in_engine != mine)
    assert len(points) > 400 and mine.any() and not mine.all()
    assert not len(wrong), "points the engine and the import disagree on: " + ", ".join(
        f"{points[i].round(3).tolist()} (engine: {engine.probes[i] or 'outside'})" for i in wrong[:5]
    )


@needs_godot
def test_the_centre_line_follows_the_engines_curve(level):
    track, _, engine = level
    curve = engine.paths["Racing"]  # the exact Bézier, densely
    line = track.centre_line
    assert isinstance(line, Polyline) and line.closed
    loop = np.vstack([line.points, line.points[:1]])
    assert max(distance_to_line(p, curve) for p in line.points) < ON_CURVE_PX
    assert max(distance_to_line(p, loop) for p in curve) < CURVE_PX


def distance_to_line(point: np.ndarray, line: np.ndarray) -> float:
    a, b = line[:-1], line[1:]
    ab = b - a
    t = np.clip(((point - a) * ab).sum(axis=1) / np.maximum((ab * ab).sum(axis=1), 1e-300), 0, 1)
    return float(np.linalg.norm(a + ab * t[:, None] - point, axis=1).min())


@needs_godot
def test_what_the_engine_holds_but_the_car_does_not_meet_is_named_in_the_notes(level):
    track, _, engine = level
    notes = "\n".join(track.notes)
    for shape in engine.shapes:
        if shape.disabled or not meets(engine, shape.node.rsplit("/", 1)[0]):
            assert f"Level/{shape.node}" in notes
        if shape.one_way:
            assert "one-way" in notes and f"Level/{shape.node}" in notes
    for name in ("Crate/Box", "Npc/Body", "Checkpoint/Zone", "Tree/Trunk", "Ground"):
        assert f"Level/{name}" in notes
