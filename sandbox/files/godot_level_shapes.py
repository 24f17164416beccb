"""A Godot level's collision shapes as a track's walls, and a Path2D's curve as its centre
line: each shape with its global transform (Godot's Transform2D: columns x, y and origin).

What each shape becomes (exact, never an approximation):
- RectangleShape2D (`extents`, half sizes, in Godot 3; `size`, full sizes, in Godot 4,
  which also reads an old `extents`): a `Rect`; a parallelogram when the transform
  shears it (a rotated parent with a non-uniform scale), as a closed polyline;
- CircleShape2D: a `Circle`;
- CapsuleShape2D: the union of a `Rect` (2 × radius wide, the straight part long) and a
  `Circle` at each end, along the shape's own y axis. `height` is the straight part
  alone in Godot 3 (the caps' centres at ±height/2: 3.x capsule_shape_2d.cpp draws and
  collides so) and the whole length with both caps in Godot 4 (±(height/2 − radius);
  4.x's setters keep height ≥ 2 × radius: a larger radius raises the height, a smaller
  height lowers the radius, in the file's order);
- SegmentShape2D (`a`, `b`): an open polyline of two points;
- ConvexPolygonShape2D (`points`): a closed polyline (solid);
- ConcavePolygonShape2D (`segments`, point pairs): open polylines, hollow as in Godot
  (connected segments joined into one line);
- CollisionPolygon2D (`polygon`): `build_mode` 0 (solids) a closed polyline, 1 (segments)
  an open one returning to its first point (Godot joins the last point to the first).

Circles and capsules need a transform that keeps their shape (a rotation and one scale):
within `tolerance` (relative: 1e-9 for a scene file's doubles, more for the running game's
32-bit transforms sent over the link with six decimals, link/level_track.py).
Godot collides a non-uniformly scaled circle as an ellipse only in some of its tests
(Godot 4 warns it is unsupported), so those are refused, left out and named in the notes.
"""

from __future__ import annotations

import math

import numpy as np

from ..physics.track import Circle, Polyline, Rect

Transform = tuple[float, float, float, float, float, float]
"""Godot's Transform2D(x.x, x.y, y.x, y.y, origin.x, origin.y): a point (px, py) goes to
(x.x·px + y.x·py + origin.x, x.y·px + y.y·py + origin.y)."""
IDENTITY: Transform = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
CURVE_STEP = 5.0
"""px: a curved stretch of a Path2D is sampled about this often (Curve2D's default
`bake_interval`); a straight one (both handles zero) keeps its two ends."""
CURVE_SAMPLES = 256
"""At most this many samples a Bézier stretch of a Path2D."""
EXACT = 1e-9
"""Relative: a transform this close to keeping angles (or one scale) is taken as one."""


class ShapeRefused(Exception):
    """A shape that cannot be a wall as it is; the message says why (for the notes)."""


def compose(parent: Transform, child: Transform) -> Transform:
    """parent × child: `child` in the coordinates of `parent`'s parent."""
    if child is IDENTITY:
        return parent
    a, b, c, d, e, f = parent
    ca, cb, cc, cd, ce, cf = child
    return (
        a * ca + c * cb,
        b * ca + d * cb,
        a * cc + c * cd,
        b * cc + d * cd,
        a * ce + c * cf + e,
        b * ce + d * cf + f,
    )


def from_parts(x: float, y: float, rotation: float, sx: float, sy: float, skew: float = 0.0) -> Transform:
    """Node2D's transform from position, rotation (rad), scale and skew (rad, Godot 4)."""
    return (
        math.cos(rotation) * sx,
        math.sin(rotation) * sx,
        -math.sin(rotation + skew) * sy,
        math.cos(rotation + skew) * sy,
        x,
        y,
    )


def parts(t: Transform) -> tuple[float, float, float, float, float, float]:
    """(x, y, rotation, scale x, scale y, skew) as Node2D's `set_transform` takes a
    Transform2D apart (the scale's y carries the sign of a mirror)."""
    a, b, c, d, e, f = t
    sign = 1.0 if a * d - b * c >= 0 else -1.0
    sx, sy = math.hypot(a, b), sign * math.hypot(c, d)
    rotation = math.atan2(b, a)
    skew = 0.0
    if sx and sy:
        cos = (a * c + b * d) / (sx * sy)
        skew = math.acos(max(-1.0, min(1.0, cos))) - math.pi / 2
    return e, f, rotation, sx, sy, skew


def apply(t: Transform, points: np.ndarray) -> np.ndarray:
    """(n, 2) points through `t`."""
    a, b, c, d, e, f = t
    return np.column_stack((a * points[:, 0] + c * points[:, 1] + e, b * points[:, 0] + d * points[:, 1] + f))


def _similar(t: Transform, tolerance: float = EXACT) -> float:
    """The one scale of a transform that keeps shapes (rotation, uniform scale, mirror),
    or ShapeRefused."""
    a, b, c, d = t[:4]
    sx, sy = math.hypot(a, b), math.hypot(c, d)
    if abs(a * c + b * d) > tolerance * sx * sy or abs(sx - sy) > tolerance * max(sx, sy):
        raise ShapeRefused("a non-uniform scale or a skew on a circle or capsule (Godot does not support it)")
    return sx


def rect(t: Transform, half_w: float, half_h: float, tolerance: float = EXACT) -> Rect | Polyline:
    """A rectangle of half sizes (half_w, half_h) centred on the origin, through `t`."""
    a, b, c, d, e, f = t
    sx, sy = math.hypot(a, b), math.hypot(c, d)
    if abs(a * c + b * d) <= tolerance * sx * sy:
        return Rect(e, f, 2 * half_w * sx, 2 * half_h * sy, math.atan2(b, a))
    corners = np.array([(-half_w, -half_h), (half_w, -half_h), (half_w, half_h), (-half_w, half_h)])
    return Polyline(apply(t, corners), closed=True)


def circle(t: Transform, radius: float, tolerance: float = EXACT) -> Circle:
    return Circle(t[4], t[5], radius * _similar(t, tolerance))


def capsule(t: Transform, radius: float, half_straight: float, tolerance: float = EXACT) -> list[Rect | Circle]:
    """A capsule along its own y axis: caps centred at (0, ±half_straight)."""
    scale = _similar(t, tolerance)
    if half_straight <= 0:
        return [Circle(t[4], t[5], radius * scale)]
    ends = apply(t, np.array([(0.0, -half_straight), (0.0, half_straight)]))
    return [
        Rect(t[4], t[5], 2 * radius * scale, 2 * half_straight * scale, math.atan2(t[1], t[0])),
        *(Circle(float(x), float(y), radius * scale) for x, y in ends),
    ]


def capsule_half_straight(radius: float, height: float, godot: int) -> float:
    """The distance from a capsule's centre to a cap's centre (see the module's docstring)."""
    return height / 2 if godot == 3 else max(height / 2 - radius, 0.0)


def chained(t: Transform, segments: np.ndarray) -> list[Polyline]:
    """ConcavePolygonShape2D's point pairs ((2n, 2)) as open polylines, a segment that
    starts where the last ended continuing it."""
    pairs = apply(t, segments[: len(segments) // 2 * 2]).reshape(-1, 2, 2)
    lines: list[list] = []
    for start, end in pairs:
        if lines and np.array_equal(lines[-1][-1], start):
            lines[-1].append(end)
        else:
            lines.append([start, end])
    return [Polyline(np.array(line)) for line in lines]


def curve_points(t: Transform, data: np.ndarray, step: float = CURVE_STEP) -> Polyline | None:
    """A Curve2D's `_data.points` ((3n, 2): in handle, out handle, position per point) as
    a polyline through `t`: straight stretches by their ends, curved ones sampled on the
    Bézier about every `step`. Closed when the last point is the first."""
    handles_in, handles_out, positions = data[0::3], data[1::3], data[2::3]
    if len(positions) < 2:
        return None
    out = [positions[:1]]
    for i in range(len(positions) - 1):
        p0, p3 = positions[i], positions[i + 1]
        p1, p2 = p0 + handles_out[i], p3 + handles_in[i + 1]
        if not (handles_out[i].any() or handles_in[i + 1].any()):
            out.append(p3[None])
            continue
        reach = np.linalg.norm(p1 - p0) + np.linalg.norm(p2 - p1) + np.linalg.norm(p3 - p2)
        n = int(min(max(math.ceil(reach / step), 2), CURVE_SAMPLES))
        s = np.linspace(0.0, 1.0, n + 1)[1:, None]
        r = 1 - s
        out.append(r**3 * p0 + 3 * r * r * s * p1 + 3 * r * s * s * p2 + s**3 * p3)
    points = apply(t, np.concatenate(out))
    closed = len(points) > 2 and np.allclose(points[0], points[-1], rtol=0, atol=1e-6)
    return Polyline(points[:-1] if closed else points, closed=closed)
