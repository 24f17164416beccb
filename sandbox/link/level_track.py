"""The running game's level, as its link node sends it (docs/link.md, `level`), as a track
in px: each shape in the game's global coordinates becomes walls through the same code
as a shape read from a level's .tscn (files/godot_level_walls.py: shape_walls and
polygon_walls), so the game and the file give the same walls; the first Path2D's curve is
the centre line (curve_line, as from the file) and the car's `pixels_per_metre` the
track's scale. Bad data (a value not a finite number, a shape of an unknown kind, too
many shapes, a scale that is not a positive number) is a LevelError naming the game's
node or the field; what the node did not read, and shapes it left out beyond its bound,
are the track's notes."""

from __future__ import annotations

import math

import numpy as np

from ..files.godot_level import NOTE_PATHS, LevelError
from ..files.godot_level_shapes import ShapeRefused
from ..files.godot_level_walls import curve_line, number, polygon_walls, shape_walls
from ..files.track_checks import MAX_COORDINATE
from ..files.tscn_reader import Call
from ..physics.track import DEFAULT_PIXELS_PER_METRE, Circle, Polyline, Pose, Rect, Track
from .game import from_game
from .level_parts import GameLevel
from .protocol import LEVEL_SHAPES

GAME_TOLERANCE = 1e-5
"""Relative: how far the game's transform of a rectangle, circle or capsule may be from
keeping angles (or one scale) and still be taken as keeping them. The engine's transforms
are 32-bit floats (about 6e-8 relative) and Godot 3 sends six decimals (a few 1e-7 of a
transform's entries near 1); a real skew or a non-uniform scale is far larger."""
VECTORS = ("extents", "size", "a", "b")
"""Shape properties sent as [x, y]."""
ARRAYS = ("points", "segments")
"""Shape properties sent as flat lists of numbers, x then y."""
NUMBERS = ("radius", "height")
SOURCE = "the game's level"
"""How the messages name where the data came from."""


def godot_major(version: str) -> int:
    """3 or 4 from a hello's Godot version ("3.2.3"); 4 when it cannot tell (a capsule's
    height is read as Godot 4 reads it)."""
    head = version.split(".", 1)[0].strip()
    return 3 if head == "3" else 4


def _finite(value, where: str) -> float:
    if value is None:
        raise LevelError(f"{where}: not a finite number (the game sent null: its value is NaN or infinite)")
    found = number(value, where, LevelError)
    if abs(found) > MAX_COORDINATE:
        raise LevelError(f"{where}: {found!r} is beyond ±{MAX_COORDINATE:g}, too large for a level")
    return found


def _flat(value, where: str) -> np.ndarray:
    """A flat list of numbers (x, y, x, y, …) as (n, 2)."""
    if not isinstance(value, list) or len(value) % 2:
        raise LevelError(f"{where}: not a list of x, y numbers")
    return np.array([_finite(v, f"{where}[{i}]") for i, v in enumerate(value)], dtype=np.float64).reshape(-1, 2)


def _props(shape: dict, where: str) -> dict:
    """The shape's properties as a .tscn gives them (a Vector2 or a packed array as a call)."""
    props = {}
    for name in VECTORS:
        if name in shape:
            points = _flat(shape[name], f"{where}: {name}")
            if len(points) != 1:
                raise LevelError(f"{where}: {name}: not a vector [x, y]")
            props[name] = Call("Vector2", (float(points[0, 0]), float(points[0, 1])))
    for name in ARRAYS:
        if name in shape:
            props[name] = Call("PackedVector2Array", tuple(_flat(shape[name], f"{where}: {name}").reshape(-1)))
    for name in NUMBERS:
        if name in shape:
            props[name] = _finite(shape[name], f"{where}: {name}")
    return props


def shape_of_game(shape, godot: int, index: int, notes: dict) -> list:
    """The walls of one shape the game sent (see docs/link.md for its fields); LevelError
    naming the game's node for bad data; a shape that cannot be a wall is noted."""
    if not isinstance(shape, dict):
        raise LevelError(f"{SOURCE}: shape {index}: not an object")
    node = shape.get("node")
    where = f"{SOURCE}: {from_game(node) if isinstance(node, str) and node else f'shape {index}'}"
    kind, transform = shape.get("type"), shape.get("transform")
    if not isinstance(kind, str):
        raise LevelError(f"{where}: type: not text")
    if not isinstance(transform, list) or len(transform) != 6:
        raise LevelError(f"{where}: transform: not a list of six numbers")
    here = tuple(_finite(v, f"{where}: transform[{i}]") for i, v in enumerate(transform))
    if shape.get("one_way") is True:
        _note(notes, "one-way collision is not read: these are walls from both sides", where)
    try:
        if kind == "CollisionPolygon2D":
            mode = shape.get("build_mode", 0)
            if mode not in (0, 1):
                raise LevelError(f"{where}: build_mode: {from_game(mode)} is not 0 or 1")
            walls = polygon_walls(here, _flat(shape.get("polygon", []), f"{where}: polygon"), mode)
            if walls is None:
                _note(notes, "collision polygons of too few points: not walls", where)
                return []
        else:
            walls = shape_walls(from_game(kind), _props(shape, where), godot, here, f"{where}: shape {from_game(kind)}",
                                LevelError, GAME_TOLERANCE)  # fmt: skip
    except ShapeRefused as refused:
        _note(notes, f"left out, {refused}", where)
        return []
    _check_reach(walls, where)
    return walls


def _check_reach(walls: list, where: str) -> None:
    """LevelError when a wall reaches beyond ±MAX_COORDINATE (a huge scale, say)."""
    for wall in walls:
        if isinstance(wall, Circle):
            values = (wall.x, wall.y, wall.radius)
        elif isinstance(wall, Rect):
            values = wall.corners().reshape(-1)
        else:
            values = wall.points.reshape(-1)
        if not all(math.isfinite(v) and abs(v) <= MAX_COORDINATE for v in values):
            raise LevelError(f"{where}: the shape reaches beyond ±{MAX_COORDINATE:g} px, too far for a level")


def _note(notes: dict, what: str, where: str) -> None:
    notes.setdefault(what, [0, []])
    notes[what][0] += 1
    if len(notes[what][1]) < NOTE_PATHS:
        notes[what][1].append(where.removeprefix(f"{SOURCE}: "))


def _scale(value) -> float:
    """px/m: the game's car's `pixels_per_metre`, or the export's default when the game
    did not send it (a node from before it, a car in px); LevelError when it is not a
    positive finite number."""
    if value is None:
        return DEFAULT_PIXELS_PER_METRE
    where = f"{SOURCE}: the car's pixels_per_metre"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        kind = "true/false" if isinstance(value, bool) else "text" if isinstance(value, str) else "a list or object"
        raise LevelError(f"{where} is {kind}, not a number (px per metre)")
    if not (math.isfinite(value) and value > 0):
        said = "NaN or infinite in the game" if not math.isfinite(value) else f"{value:g}"
        raise LevelError(f"{where} is {said}: it must be a positive finite number (px per metre)")
    return float(value)


def centre_of_game(centre) -> Polyline | None:
    """The first Path2D's curve the game sent (`node`, `transform`, flat `points`: in, out
    and position of each point) as the centre line, through the same code as a level's
    .tscn; None when it was not sent; LevelError naming the node for bad data."""
    if centre is None:
        return None
    if not isinstance(centre, dict):
        raise LevelError(f"{SOURCE}: centre_line: not an object")
    node = centre.get("node")
    where = f"{SOURCE}: {from_game(node) if isinstance(node, str) and node else 'centre line'}"
    transform = centre.get("transform")
    if not isinstance(transform, list) or len(transform) != 6:
        raise LevelError(f"{where}: transform: not a list of six numbers")
    here = tuple(_finite(v, f"{where}: transform[{i}]") for i, v in enumerate(transform))
    line = curve_line(here, _flat(centre.get("points"), f"{where}: curve points"), where, LevelError)
    if line is not None:
        _check_reach([line], where)
    return line


def level_of_game(level: GameLevel) -> Track:
    """The game's level as a track in px, named after the game ("… (from the game)"),
    the car starting where the game's car is; LevelError (a UserError) naming the
    problem and the game's node for bad data."""
    if len(level.shapes) > LEVEL_SHAPES:
        raise LevelError(
            f"{SOURCE}: {len(level.shapes):,d} shapes, more than the {LEVEL_SHAPES:,d} the link takes; "
            "the track is unchanged"
        )
    godot, notes = godot_major(level.godot), {}
    for note in level.not_read:
        what, count, nodes = from_game(note["why"], 200), int(note["count"]), [from_game(n) for n in note["nodes"]]
        notes.setdefault(what, [0, []])
        notes[what][0] += count
        notes[what][1].extend(nodes[: NOTE_PATHS - len(notes[what][1])])
    walls = [wall for index, shape in enumerate(level.shapes) for wall in shape_of_game(shape, godot, index, notes)]
    if level.left_out:
        notes[f"shapes beyond the {LEVEL_SHAPES:,d} the link sends, left out"] = [int(level.left_out), []]
    scale, centre_line = _scale(level.pixels_per_metre), centre_of_game(level.centre_line)
    car = level.car or {}
    spawn = Pose(car["x"], car["y"], car["rotation"]) if car else Pose()
    name = from_game(level.game) if level.game else "the game"
    return Track(
        name=f"{name} (from the game)",
        unit="px",
        polylines=tuple(w for w in walls if not isinstance(w, (Rect, Circle))),
        rects=tuple(w for w in walls if isinstance(w, Rect)),
        circles=tuple(w for w in walls if isinstance(w, Circle)),
        centre_line=centre_line,
        pixels_per_metre=scale,
        spawn=spawn,
        notes=tuple(_said(what, count, nodes) for what, (count, nodes) in notes.items()),
        description=f"The static collision shapes of {name}, sent by its link node",
    )


def _said(what: str, count: int, nodes: list[str]) -> str:
    more = count - len(nodes)
    if not nodes:
        return f"{what}: {count:,d}"
    return f"{what}: {', '.join(nodes)}" + (f" and {more:,d} more" if more > 0 else "")
