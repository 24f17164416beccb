"""The car's collision shape as Godot holds it: the CollisionShape2D a tuning's shape is
exported as, and the shape read back from one (Godot 3 or 4), both ways here.

What differs between the versions:
- RectangleShape2D: Godot 3 stores half sizes (`extents`), Godot 4 the whole `size`.
- CapsuleShape2D: `height` is the straight middle part in Godot 3 (the distance
  between the centres of the round ends: the capsule is height + 2 × radius long);
  in Godot 4 it is the capsule's full height, both round ends included (Godot 4's
  class reference, CapsuleShape2D.height: "The capsule's full height, including the
  semicircles"; a height below twice the radius makes a circle). The engine test
  tests/test_godot_car_shape.py measures the Godot 3 reading in the engine itself.
- A Node2D's rotation: Godot 3 scenes store `rotation_degrees`, Godot 4 `rotation`
  (radians).
A capsule stands along its own y axis in Godot; the car's shape lies along x (the
heading), so an exported capsule's node is turned a further CAPSULE_TURN.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..physics.car_shape import CarShape

CAPSULE_TURN = 90.0
"""degrees: Godot's capsule stands along y, the car's shape lies along x."""
KINDS = {"RectangleShape2D": "rectangle", "CapsuleShape2D": "capsule", "CircleShape2D": "circle"}
"""The Godot shapes a car's shape can be, and the kind each is."""


@dataclass(frozen=True)
class GodotShape:
    """A CollisionShape2D and its shape resource, in px (y down) and degrees."""

    type: str
    properties: dict[str, float | tuple[float, float]]
    position: tuple[float, float] = (0.0, 0.0)
    rotation: float = 0.0
    scale: tuple[float, float] = (1.0, 1.0)
    notes: list[str] = field(default_factory=list, compare=False)


def to_godot(shape: CarShape, godot: int) -> GodotShape:
    """The CollisionShape2D of `shape` (already in px) in Godot `godot` (3 or 4)."""
    position, rotation = (shape.offset_x, shape.offset_y), shape.rotation
    if shape.kind == "rectangle":
        if godot == 3:
            size = {"extents": (shape.length / 2, shape.width / 2)}
        else:
            size = {"size": (shape.length, shape.width)}
        return GodotShape("RectangleShape2D", size, position, rotation)
    radius = shape.width / 2
    if shape.kind == "circle":
        return GodotShape("CircleShape2D", {"radius": radius}, position, rotation)
    height = shape.straight if godot == 3 else float(max(shape.length, shape.width))
    return GodotShape("CapsuleShape2D", {"radius": radius, "height": height}, position, _turned(rotation, CAPSULE_TURN))


def from_godot(found: GodotShape, godot: int) -> CarShape:
    """The car's shape (px) a CollisionShape2D gives, its node's transform relative to
    the car's body applied; ValueError naming what is missing or not a shape of a car.
    A scale that is not the same along both axes (or a mirror) is applied to the
    lengths along and across the shape; the result is noted in `found.notes`."""
    kind = KINDS.get(found.type)
    if kind is None:
        raise ValueError(f"a {found.type} is not one of the car's shapes ({', '.join(KINDS)})")
    sx, sy = (abs(found.scale[0]), abs(found.scale[1]))
    p = found.properties
    if kind == "rectangle":
        if godot == 3:
            ex, ey = _vector(p, "extents", (10.0, 10.0))
            length, width = 2 * ex, 2 * ey
        else:
            length, width = _vector(p, "size", (20.0, 20.0))
        length, width, rotation = abs(length) * sx, abs(width) * sy, found.rotation
    else:
        radius = abs(_number(p, "radius", 10.0))
        if kind == "circle":
            length = width = 2 * radius * max(sx, sy)
            rotation = 0.0
        else:
            if godot == 3:
                length = abs(_number(p, "height", 20.0)) + 2 * radius
            else:
                radius, length = _godot4_capsule(p)
            length, width = length * sy, 2 * radius * sx  # the capsule stands along its y
            rotation = _turned(found.rotation, -CAPSULE_TURN)
        if sx != sy:
            how = "read as a circle of the larger" if kind == "circle" else "its length and width are scaled"
            found.notes.append(f"the {kind} is scaled unevenly ({sx:g} × {sy:g}): {how}")
    if found.scale[0] < 0 or found.scale[1] < 0:
        found.notes.append("the shape is mirrored (a negative scale): read as the same shape unmirrored")
    return CarShape(kind, length, width, found.position[0], found.position[1], rotation)


def _godot4_capsule(properties: dict) -> tuple[float, float]:
    """(radius, height) of a Godot 4 CapsuleShape2D as the engine has them once its
    properties are set in the file's order: each setter keeps height ≥ 2 × radius, a
    larger radius raising the height, a smaller height lowering the radius
    (scene/resources/capsule_shape_2d.cpp, 4.x)."""
    radius, height = 10.0, 30.0  # the class's defaults
    for name in properties:
        if name == "radius":
            radius = abs(_number(properties, name, radius))
            height = max(height, 2 * radius)
        elif name == "height":
            height = abs(_number(properties, name, height))
            radius = min(radius, height / 2)
    return radius, height


def _turned(degrees: float, by: float) -> float:
    """`degrees + by` in (-180, 180]."""
    angle = math.fmod(degrees + by, 360.0)
    if angle > 180.0:
        angle -= 360.0
    elif angle <= -180.0:
        angle += 360.0
    return angle


def _number(properties: dict, name: str, default: float) -> float:
    value = properties.get(name, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"its {name} is not a finite number")
    return float(value)


def _vector(properties: dict, name: str, default: tuple[float, float]) -> tuple[float, float]:
    value = properties.get(name, default)
    if not (isinstance(value, tuple) and len(value) == 2 and all(math.isfinite(v) for v in value)):
        raise ValueError(f"its {name} is not a Vector2 of finite numbers")
    return float(value[0]), float(value[1])
