"""A level's shape nodes (CollisionShape2D, CollisionPolygon2D) and Path2D nodes read into
walls and a centre line: their resources looked up (a sub-resource of the scene that wrote
the property, or a .tres of the project), their values checked (a NaN or a wrong type is
an error naming the node and the property), Godot's defaults where a value is not written
(Godot writes only what differs from them). The geometry: godot_level_shapes.py.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from ..errors import shown
from ..physics.track import Polyline
from .godot_level_shapes import (
    EXACT,
    ShapeRefused,
    Transform,
    apply,
    capsule,
    capsule_half_straight,
    chained,
    circle,
    curve_points,
    rect,
)
from .tscn_reader import Call, SceneFile

VECTOR_ARRAYS = frozenset({"PoolVector2Array", "PackedVector2Array"})
DEFAULTS = {
    3: {"extents": (10.0, 10.0), "radius": 10.0, "height": 20.0},
    4: {"size": (20.0, 20.0), "radius": 10.0, "height": 30.0},
}
"""Godot's defaults of the shape properties whose default differs between 3 and 4
(RectangleShape2D, CircleShape2D, CapsuleShape2D)."""
ENDLESS = frozenset({"LineShape2D", "WorldBoundaryShape2D", "RayShape2D", "SeparationRayShape2D"})
"""Godot's shapes that are not a bounded outline: named in the notes, not read."""
SEGMENT_DEFAULT = ((0.0, 0.0), (0.0, 10.0))
"""SegmentShape2D's `a` and `b` when not written (both versions)."""


def number(value, where: str, error) -> float:
    """A finite number, or `error` naming `where`."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise error(f"{where}: {shown(value)} is not a number")
    if not math.isfinite(value):
        raise error(f"{where}: {shown(value)} is not a finite number")
    return float(value)


def vector(value, where: str, error) -> tuple[float, float]:
    """A Vector2 of finite numbers as (x, y), or `error` naming `where`."""
    if not (isinstance(value, Call) and value.name in ("Vector2", "Vector2i") and len(value.args) == 2):
        raise error(f"{where}: {shown(value)} is not a Vector2")
    return number(value.args[0], where, error), number(value.args[1], where, error)


@functools.lru_cache(maxsize=1024)
def _packed(value: Call) -> np.ndarray | None:
    """A packed array of vectors as (n, 2), read once however many shapes share it; None
    when it holds something other than pairs of numbers."""
    flat = value.args
    if any(isinstance(v, (str, bool)) or not isinstance(v, (int, float)) for v in flat) or len(flat) % 2:
        return None
    points = np.array(flat, dtype=np.float64).reshape(-1, 2)
    points.setflags(write=False)
    return points


def points_of(value, where: str, error) -> np.ndarray:
    """A PoolVector2Array/PackedVector2Array (or an array of Vector2) as (n, 2)."""
    if isinstance(value, Call) and value.name in VECTOR_ARRAYS:
        points = _packed(value)
        if points is None:
            raise error(f"{where}: {shown(value.name)} holds something other than pairs of numbers")
    elif isinstance(value, list):
        points = np.array([vector(v, where, error) for v in value], dtype=np.float64).reshape(-1, 2)
    else:
        raise error(f"{where}: {shown(value)} is not an array of points")
    if not np.isfinite(points).all():
        bad = int(np.flatnonzero(~np.isfinite(points).all(axis=1))[0])
        raise error(f"{where}: point {bad} is not finite ({shown(points[bad].tolist())})")
    return points


def resource(level, value, file: SceneFile, where: str, error) -> tuple[str, dict, SceneFile] | None:
    """(type, properties, file) of the resource a property names: a sub-resource of
    `file`, or the [resource] of a .tres in the project; None for null."""
    if value is None:
        return None
    if not (isinstance(value, Call) and value.name in ("SubResource", "ExtResource") and value.args):
        raise error(f"{where}: {shown(value)} is not a SubResource or an ExtResource")
    key = value.args[0]
    if value.name == "SubResource":
        section = file.sub.get(key)
        if section is None:
            raise error(f"{where}: SubResource({shown(key)}): {file.source} has no [sub_resource] with that id")
        return str(section.attrs.get("type")), section.props, file
    other = level.load(level.resource_path(file, key, where))
    if other.resource is None:
        raise error(f"{where}: {other.source} is not a resource file (no [resource] section)")
    return str(other.header.attrs.get("type")), other.resource.props, other


def node_walls(level, node, here: Transform, where: str, error) -> list | None:
    """The walls a CollisionShape2D or CollisionPolygon2D makes at its global transform
    `here`; None when it has no shape. ShapeRefused for a shape that cannot be a wall."""
    if node.type == "CollisionPolygon2D":
        value = node.props.get("polygon")
        points = np.zeros((0, 2)) if value is None else points_of(value, f"{where}: polygon", error)
        return polygon_walls(here, points, node.props.get("build_mode", 0))
    value, file = node.source("shape")
    found = resource(level, value, file, f"{where}: shape", error)
    if found is None:
        return None
    kind, props, _ = found
    return shape_walls(kind, props, level.godot, here, f"{where}: shape {kind}", error)


def polygon_walls(here: Transform, points: np.ndarray, mode) -> list | None:
    """A CollisionPolygon2D's `polygon` ((n, 2)) as walls through `here`: `build_mode` 0
    (solids) a closed polyline, 1 (segments) an open one back to its first point; None
    with too few points."""
    if len(points) < (3 if mode == 0 else 2):
        return None
    if mode == 0:
        return [_closed(here, points)]
    return chained(here, np.repeat(np.vstack([points, points[:1]]), 2, axis=0)[1:-1])


def _closed(here: Transform, points: np.ndarray) -> Polyline:
    return Polyline(apply(here, points), closed=True)


def shape_walls(kind: str, props: dict, godot: int, here: Transform, where: str, error, tolerance=EXACT) -> list:
    """A Shape2D resource of type `kind` with `props` as walls through `here`; `tolerance`
    (relative): how far from keeping angles `here` may be and still keep a rectangle
    one and a circle round (godot_level_shapes.py)."""
    defaults = DEFAULTS[godot]

    def get(name, read=number):
        value = props.get(name)
        return defaults[name] if value is None else read(value, f"{where}: {name}", error)

    if kind == "RectangleShape2D":
        if "size" in props or ("extents" not in props and godot == 4):
            width, height = get("size", vector) if "size" in props else defaults["size"]
            return [rect(here, width / 2, height / 2, tolerance)]
        half = vector(props["extents"], f"{where}: extents", error) if "extents" in props else DEFAULTS[3]["extents"]
        return [rect(here, *half, tolerance)]
    if kind == "CircleShape2D":
        radius = get("radius")
        if radius < 0:
            raise error(f"{where}: radius {radius!r} is negative")
        return [circle(here, radius, tolerance)]
    if kind == "CapsuleShape2D":
        radius, height = _capsule_sizes(props, godot, where, error)
        return capsule(here, radius, capsule_half_straight(radius, height, godot), tolerance)
    if kind == "SegmentShape2D":
        a = vector(props["a"], f"{where}: a", error) if "a" in props else SEGMENT_DEFAULT[0]
        b = vector(props["b"], f"{where}: b", error) if "b" in props else SEGMENT_DEFAULT[1]
        return chained(here, np.array([a, b]))
    if kind == "ConvexPolygonShape2D":
        points = points_of(props.get("points", Call("PackedVector2Array", ())), f"{where}: points", error)
        return [_closed(here, points)] if len(points) >= 3 else []
    if kind == "ConcavePolygonShape2D":
        return chained(
            here, points_of(props.get("segments", Call("PackedVector2Array", ())), f"{where}: segments", error)
        )
    if kind in ENDLESS:
        raise ShapeRefused(f"an endless line or a ray ({kind}), not read")
    raise error(f"{where}: not a 2D collision shape")


def _capsule_sizes(props: dict, godot: int, where: str, error) -> tuple[float, float]:
    """(radius, height) as Godot's setters leave them, set in the file's order (Godot 4
    keeps height ≥ 2 × radius; see godot_level_shapes.py)."""
    radius, height = DEFAULTS[godot]["radius"], DEFAULTS[godot]["height"]
    for name, value in props.items():
        if name not in ("radius", "height"):
            continue
        given = number(value, f"{where}: {name}", error)
        if given < 0:
            raise error(f"{where}: {name} {shown(value)} is negative")
        if name == "radius":
            radius = given
            if godot == 4 and radius > height / 2:
                height = radius * 2
        else:
            height = given
            if godot == 4 and radius > height / 2:
                radius = height / 2
    return radius, height


def path_line(level, node, here: Transform, where: str, error):
    """A Path2D's curve (Curve2D `_data.points`) as a polyline through `here`, or None."""
    value, file = node.source("curve")
    found = resource(level, value, file, f"{where}: curve", error)
    if found is None:
        return None
    _, props, _ = found
    data = props.get("_data")
    if not isinstance(data, dict) or "points" not in data:
        raise error(f"{where}: curve: no _data with points (a Curve2D as Godot writes it)")
    return curve_line(here, points_of(data["points"], f"{where}: curve points", error), where, error)


def curve_line(here: Transform, points: np.ndarray, where: str, error):
    """A curve's (in, out, position) points ((3n, 2), as Curve2D `_data.points` holds them)
    as a polyline through `here`, or None for fewer than two points."""
    if len(points) % 3:
        raise error(f"{where}: curve points: {len(points)} vectors, not (in, out, position) triples")
    return curve_points(here, points)
