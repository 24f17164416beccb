"""A car's collision shape, as the contact kernels take it: a small float array

    shape = (kind, size1, size2, offset_x, offset_y, angle)

in the world's unit (px or m) and radians, on the car's body (its position is the
state's, its rotation the car's heading):
- kind RECTANGLE (0): size1 = width along the shape's own x, size2 = height (full
  sizes: Godot's `extents`, or Godot 4's `size` / 2, doubled);
- kind CAPSULE (1): size1 = radius, size2 = the whole length from tip to tip along the
  shape's own y, as Godot 4's `height`; Godot 3's `height` is the straight part only,
  so a Godot 3 capsule of radius r and height h is size2 = h + 2r;
- kind CIRCLE (2): size1 = radius (size2 unused);
- offset_x, offset_y: the shape's centre on the body (the CollisionShape2D's
  `position`), angle: its rotation on the body (its `rotation`).

The kinds are numbered as `car_shape.SHAPE_KINDS` (rectangle, capsule, circle), the
index a tuning holds, so a tuning's `shape_kind` is the array's kind as it is;
`of_tuning` is the one mapping from a tuning's `shape_*` parameters to this array.

`RECIPE_CAPSULE_GODOT3`: the Godot recipe demo's car in Godot 3 (a CapsuleShape2D of
radius 34 and height 70, turned 90° so it lies along the car).

`body_at` turns a shape and a pose into the 8 floats the kernels use:
(kind, radius, centre x, centre y, cos, sin, half_1, half_2) where (cos, sin) is the
shape's own x axis in the world, and the halves are the rectangle's half extents, or
for a capsule (0, half the straight part between its caps' centres).
"""

from __future__ import annotations

import math

import numpy as np

from .kernel import kernel

RECTANGLE_SHAPE, CAPSULE_SHAPE, CIRCLE_SHAPE = 0, 1, 2
"""The kinds, numbered as car_shape.SHAPE_KINDS."""
KIND, RADIUS, CX, CY, COS, SIN, HALF_1, HALF_2 = range(8)
"""Slots of `body_at`'s tuple."""


def capsule(radius: float, length: float, x: float = 0.0, y: float = 0.0, angle: float = 0.0) -> np.ndarray:
    """A capsule shape array: `length` tip to tip along the shape's y."""
    return np.array([CAPSULE_SHAPE, radius, length, x, y, angle], dtype=np.float64)


def rectangle(width: float, height: float, x: float = 0.0, y: float = 0.0, angle: float = 0.0) -> np.ndarray:
    """A rectangle shape array: full `width` (shape's x) and `height`."""
    return np.array([RECTANGLE_SHAPE, width, height, x, y, angle], dtype=np.float64)


def circle(radius: float, x: float = 0.0, y: float = 0.0) -> np.ndarray:
    """A circle shape array."""
    return np.array([CIRCLE_SHAPE, radius, 0.0, x, y, 0.0], dtype=np.float64)


RECIPE_CAPSULE_GODOT3 = capsule(34.0, 70.0 + 2 * 34.0, angle=math.pi / 2)
"""px: the recipe demo's car shape as Godot 3 reads it (radius 34, height 70, turned 90°)."""


@kernel
def of_tuning(p, first: int) -> tuple[float, float, float, float, float, float]:
    """The shape array (as a tuple) of a tuning row `p` whose shape parameters
    (car_shape.NAMES: kind, length, width, offset x, offset y, rotation in degrees)
    start at `first`: a car_shape capsule's length lies along the car (its x), this
    array's along the shape's y, hence the quarter turn; a length below the width is a
    circle; a circle's diameter is the width."""
    kind, length, width = p[first], p[first + 1], p[first + 2]
    angle = p[first + 5] * (math.pi / 180.0)
    if kind == CAPSULE_SHAPE:
        return (kind, width / 2, max(length, width), p[first + 3], p[first + 4], angle + math.pi / 2)
    if kind == RECTANGLE_SHAPE:
        return (kind, length, width, p[first + 3], p[first + 4], angle)
    return (float(CIRCLE_SHAPE), width / 2, 0.0, p[first + 3], p[first + 4], angle)


def shape_of(values) -> np.ndarray:
    """The shape array of a tuning (a mapping holding car_shape.NAMES), from Python."""
    from .car_shape import NAMES

    return np.array(of_tuning(np.array([float(values[name]) for name in NAMES]), 0))


@kernel
def reach(shape) -> float:
    """The farthest any point of the shape is from the body's origin, whatever the
    heading: the offset's length plus the shape's own farthest point (a rectangle's
    half diagonal, half a capsule's tip-to-tip length, a circle's radius)."""
    kind = shape[0]
    if kind == RECTANGLE_SHAPE:
        own = 0.5 * math.sqrt(shape[1] * shape[1] + shape[2] * shape[2])
    elif kind == CAPSULE_SHAPE:
        own = max(shape[2] / 2, shape[1])
    else:
        own = shape[1]
    return math.sqrt(shape[3] * shape[3] + shape[4] * shape[4]) + own


@kernel
def body_at(shape, x: float, y: float, heading: float):
    """The shape on a body at (x, y) turned by `heading` (rad), as the kernels' tuple
    (see the module's docstring)."""
    kind = shape[0]
    ch, sh = math.cos(heading), math.sin(heading)
    cx = x + ch * shape[3] - sh * shape[4]
    cy = y + sh * shape[3] + ch * shape[4]
    a = heading + shape[5]
    c, s = math.cos(a), math.sin(a)
    if kind == RECTANGLE_SHAPE:
        return (kind, 0.0, cx, cy, c, s, shape[1] / 2, shape[2] / 2)
    if kind == CAPSULE_SHAPE:
        return (kind, shape[1], cx, cy, c, s, 0.0, max(shape[2] / 2 - shape[1], 0.0))
    return (kind, shape[1], cx, cy, c, s, 0.0, 0.0)


@kernel
def vertex_count(body) -> int:
    """How many corners the shape's core has (circle 1, capsule 2, rectangle 4)."""
    if body[KIND] == RECTANGLE_SHAPE:
        return 4
    if body[KIND] == CAPSULE_SHAPE:
        return 2
    return 1


@kernel
def vertex(body, i: int, dx: float, dy: float) -> tuple[float, float]:
    """Corner `i` of the shape's core moved by (dx, dy): a rectangle's corners in
    order around it, a capsule's two cap centres (+y first, as Godot), a circle's
    centre; the shape is its core grown by its radius."""
    x, y = body[CX] + dx, body[CY] + dy
    c, s = body[COS], body[SIN]
    if body[KIND] == RECTANGLE_SHAPE:
        hx = body[HALF_1] if i == 1 or i == 2 else -body[HALF_1]
        hy = body[HALF_2] if i >= 2 else -body[HALF_2]
        return x + c * hx - s * hy, y + s * hx + c * hy
    if body[KIND] == CAPSULE_SHAPE:
        h = body[HALF_2] if i == 0 else -body[HALF_2]
        return x - s * h, y + c * h
    return x, y


@kernel
def bounds(body, dx: float, dy: float, grow: float) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) of the shape moved by (dx, dy), grown by `grow`."""
    left, top, right, bottom = math.inf, math.inf, -math.inf, -math.inf
    for i in range(vertex_count(body)):
        vx, vy = vertex(body, i, dx, dy)
        left, top, right, bottom = min(left, vx), min(top, vy), max(right, vx), max(bottom, vy)
    r = body[RADIUS] + grow
    return left - r, top - r, right + r, bottom + r
