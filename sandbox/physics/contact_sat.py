"""One car shape against one wall item: overlap, least-overlap axis and contact points,
as Godot's 2D collision solver finds them (servers/physics_2d/collision_solver_2d_sat.cpp,
shape_2d_sw.cpp/.h in Godot 3).

Every shape is a convex core (the car's: `body_shape.vertex`; a wall's: a segment, a
circle's centre or a convex polygon from the `World`) grown by a radius; Godot's
`margin` grows the car's shape further. The separating-axis test (`overlap`) projects
both on a set of axes that always holds the least-overlap direction (the cores' face
normals, the motion's direction and its normal for a swept shape, and the directions
between corners when a shape is round), so it answers as Godot's per-pair axis lists
do. A swept shape (motion (mx, my) not zero) is the shape over the whole motion, as
Godot's `project_range_cast`.

`contacts` then follows Godot's `generate_contacts`: each shape's supports along the
axis (one point, or two when a face is within the engine's threshold of the axis:
`_SEGMENT_IS_VALID_SUPPORT_THRESHOLD`, 0.99998; a capsule's flat side only within
2e-5 of it; a segment shape's two ends along nearly every axis, as its normal is kept
unnormalised, a concave polygon's piece's as a face's), the car's moved by the
margin, then point-point, point-edge or edge-edge contacts, each a pair (point on
the car, point on the wall): the wall's point minus the car's is how far the car must
move to leave it.
"""

from __future__ import annotations

import math

from .body_shape import (
    CAPSULE_SHAPE,
    CIRCLE_SHAPE,
    COS,
    CX,
    CY,
    HALF_1,
    HALF_2,
    KIND,
    RADIUS,
    RECTANGLE_SHAPE,
    SIN,
    vertex,
    vertex_count,
)
from .kernel import kernel
from .world import CIRCLE, POLYGON, SEGMENT, circle, corner, face_normal, is_concave, polygon_start, segment

SUPPORT_THRESHOLD = 0.99998
"""Godot's _SEGMENT_IS_VALID_SUPPORT_THRESHOLD: a face within this cosine of an axis
supports with its two ends."""
CMP_EPSILON = 0.00001
"""Godot's CMP_EPSILON: an edge-edge contact must be at least this deep."""


@kernel
def wall_count(world, kind: int, idx: int) -> int:
    """How many corners wall `idx` of `kind` has (segment 2, circle 1, polygon n)."""
    if kind == SEGMENT:
        return 2
    if kind == CIRCLE:
        return 1
    return polygon_start(world, idx + 1) - polygon_start(world, idx)


@kernel
def wall_vertex(world, kind: int, idx: int, j: int) -> tuple[float, float]:
    """Corner `j` of wall `idx` of `kind` (a circle's centre)."""
    if kind == SEGMENT:
        return segment(world, idx, 2 * j), segment(world, idx, 2 * j + 1)
    if kind == CIRCLE:
        return circle(world, idx, 0), circle(world, idx, 1)
    k = polygon_start(world, idx) + j
    return corner(world, k, 0), corner(world, k, 1)


@kernel
def _segment_normal(world, idx: int) -> tuple[float, float]:
    """Godot's segment normal: (b - a).tangent().normalized()."""
    tx, ty = segment(world, idx, 3) - segment(world, idx, 1), -(segment(world, idx, 2) - segment(world, idx, 0))
    length = math.sqrt(tx * tx + ty * ty)
    if length == 0.0:
        return 0.0, 0.0
    return tx / length, ty / length


@kernel
def _axis(ux, uy, body, dx, dy, mx, my, ra, world, kind, idx, rb, best, nx, ny):
    """One axis of the test: (separated, least overlap so far, its axis x, y), the
    axis pointing from the wall towards the car (the way the car leaves)."""
    length = math.sqrt(ux * ux + uy * uy)
    if length == 0.0:
        ux, uy = 0.0, 1.0  # Godot: "strange case, try an upwards separator"
    else:
        ux, uy = ux / length, uy / length
    lo_a, hi_a = math.inf, -math.inf
    for i in range(vertex_count(body)):
        vx, vy = vertex(body, i, dx, dy)
        d = vx * ux + vy * uy
        lo_a, hi_a = min(lo_a, d), max(hi_a, d)
    dm = mx * ux + my * uy  # the swept shape: the projection at the start and at the end
    lo_a, hi_a = min(lo_a, lo_a + dm) - ra, max(hi_a, hi_a + dm) + ra
    lo_b, hi_b = math.inf, -math.inf
    for j in range(wall_count(world, kind, idx)):
        wx, wy = wall_vertex(world, kind, idx, j)
        d = wx * ux + wy * uy
        lo_b, hi_b = min(lo_b, d), max(hi_b, d)
    lo_b, hi_b = lo_b - rb, hi_b + rb
    if lo_b > hi_a or hi_b < lo_a:
        return True, best, nx, ny
    towards, away = hi_b - lo_a, hi_a - lo_b  # the car leaves along +u, along -u
    if towards < away:
        if towards < best:
            return False, towards, ux, uy
    elif away < best:
        return False, away, -ux, -uy
    return False, best, nx, ny


@kernel
def overlap(body, dx, dy, mx, my, margin, world, kind, idx):
    """(overlapping, axis x, axis y, depth): the car's shape moved by (dx, dy), swept
    by (mx, my) and grown by `margin`, against wall `idx` of `kind`; the axis of least
    overlap points from the wall towards the car."""
    ra = body[RADIUS] + margin
    rb = circle(world, idx, 2) if kind == CIRCLE else 0.0
    best, nx, ny = math.inf, 0.0, 0.0
    if mx != 0.0 or my != 0.0:
        for ux, uy in ((mx, my), (my, -mx)):
            sep, best, nx, ny = _axis(ux, uy, body, dx, dy, mx, my, ra, world, kind, idx, rb, best, nx, ny)
            if sep:
                return False, nx, ny, best
    if body[KIND] != CIRCLE_SHAPE:  # the car's faces (a capsule's sides face its x)
        sep, best, nx, ny = _axis(body[COS], body[SIN], body, dx, dy, mx, my, ra, world, kind, idx, rb, best, nx, ny)
        if sep:
            return False, nx, ny, best
    if body[KIND] == RECTANGLE_SHAPE:
        sep, best, nx, ny = _axis(-body[SIN], body[COS], body, dx, dy, mx, my, ra, world, kind, idx, rb, best, nx, ny)
        if sep:
            return False, nx, ny, best
    if kind == SEGMENT:
        ux, uy = _segment_normal(world, idx)
        sep, best, nx, ny = _axis(ux, uy, body, dx, dy, mx, my, ra, world, kind, idx, rb, best, nx, ny)
        if sep:
            return False, nx, ny, best
    elif kind == POLYGON:
        for k in range(polygon_start(world, idx), polygon_start(world, idx + 1)):
            ux, uy = face_normal(world, k, 0), face_normal(world, k, 1)
            sep, best, nx, ny = _axis(ux, uy, body, dx, dy, mx, my, ra, world, kind, idx, rb, best, nx, ny)
            if sep:
                return False, nx, ny, best
    if ra + rb > 0.0:  # a round shape: corner to corner (and to the swept corner)
        for i in range(vertex_count(body)):
            ax, ay = vertex(body, i, dx, dy)
            for j in range(wall_count(world, kind, idx)):
                bx, by = wall_vertex(world, kind, idx, j)
                sep, best, nx, ny = _axis(
                    ax - bx, ay - by, body, dx, dy, mx, my, ra, world, kind, idx, rb, best, nx, ny
                )
                if sep:
                    return False, nx, ny, best
                if mx != 0.0 or my != 0.0:
                    sep, best, nx, ny = _axis(
                        ax + mx - bx, ay + my - by, body, dx, dy, mx, my, ra, world, kind, idx, rb, best, nx, ny
                    )
                    if sep:
                        return False, nx, ny, best
    return True, nx, ny, best


@kernel
def body_supports(body, dx, dy, ux, uy):
    """(count (a float), x0, y0, x1, y1): the car shape's supports along (ux, uy) (Godot's
    get_supports of a circle, rectangle or capsule)."""
    c, s = body[COS], body[SIN]
    x, y = body[CX] + dx, body[CY] + dy
    lx, ly = ux * c + uy * s, -ux * s + uy * c  # the direction in the shape's frame
    r = body[RADIUS]
    if body[KIND] == RECTANGLE_SHAPE:
        hx, hy = body[HALF_1], body[HALF_2]
        if abs(lx) >= SUPPORT_THRESHOLD:
            sx = hx if lx > 0 else -hx
            return 2.0, x + c * sx - s * hy, y + s * sx + c * hy, x + c * sx + s * hy, y + s * sx - c * hy
        if abs(ly) >= SUPPORT_THRESHOLD:
            sy = hy if ly > 0 else -hy
            return 2.0, x + c * hx - s * sy, y + s * hx + c * sy, x - c * hx - s * sy, y - s * hx + c * sy
        sx = -hx if lx < 0 else hx
        sy = -hy if ly < 0 else hy
        px, py = x + c * sx - s * sy, y + s * sx + c * sy
        return 1.0, px, py, px, py
    if body[KIND] == CAPSULE_SHAPE:
        h = body[HALF_2]
        if abs(ly) < 1.0 - SUPPORT_THRESHOLD:  # flat: the side along the shape's y
            fx = r if lx > 0 else (-r if lx < 0 else 0.0)
            return 2.0, x + c * fx - s * h, y + s * fx + c * h, x + c * fx + s * h, y + s * fx - c * h
        h = h if ly > 0 else -h
        px, py = x + ux * r - s * h, y + uy * r + c * h
        return 1.0, px, py, px, py
    return 1.0, x + ux * r, y + uy * r, x + ux * r, y + uy * r


@kernel
def wall_supports(world, kind, idx, ux, uy):
    """(count (a float), x0, y0, x1, y1): wall `idx`'s supports along (ux, uy) (Godot's
    get_supports of a segment, circle or convex polygon)."""
    if kind == CIRCLE:
        x, y, r = circle(world, idx, 0), circle(world, idx, 1), circle(world, idx, 2)
        return 1.0, x + ux * r, y + uy * r, x + ux * r, y + uy * r
    if kind == SEGMENT:
        ax, ay, bx, by = segment(world, idx, 0), segment(world, idx, 1), segment(world, idx, 2), segment(world, idx, 3)
        nx, ny = _segment_normal(world, idx)
        if not is_concave(world, idx):
            # a SegmentShape2D keeps its normal unnormalised, (b - a).tangent(), as long
            # as the segment: its two ends support along nearly every axis
            length = math.sqrt((bx - ax) ** 2 + (by - ay) ** 2)
            nx, ny = nx * length, ny * length
        if abs(ux * nx + uy * ny) > SUPPORT_THRESHOLD:
            return 2.0, ax, ay, bx, by
        if ux * (bx - ax) + uy * (by - ay) > 0:
            return 1.0, bx, by, bx, by
        return 1.0, ax, ay, ax, ay
    start, end = polygon_start(world, idx), polygon_start(world, idx + 1)
    best, best_k = -1e10, start
    for k in range(start, end):
        d = ux * corner(world, k, 0) + uy * corner(world, k, 1)
        if d > best:
            best, best_k = d, k
        if face_normal(world, k, 0) * ux + face_normal(world, k, 1) * uy > SUPPORT_THRESHOLD:
            k2 = k + 1 if k + 1 < end else start
            return 2.0, corner(world, k, 0), corner(world, k, 1), corner(world, k2, 0), corner(world, k2, 1)
    x, y = corner(world, best_k, 0), corner(world, best_k, 1)
    return 1.0, x, y, x, y


@kernel
def _closest_on_line(px, py, ax, ay, bx, by) -> tuple[float, float]:
    """Godot's get_closest_point_to_segment_uncapped_2d: (px, py) onto the line a-b."""
    nx, ny = bx - ax, by - ay
    l2 = nx * nx + ny * ny
    if l2 < 1e-20:
        return ax, ay
    d = (nx * (px - ax) + ny * (py - ay)) / l2
    return ax + nx * d, ay + ny * d


@kernel
def _edge_pair(k, a, b, nx, ny, da, db):
    """Godot's edge-edge contact for the point of rank k: (valid, car x, y, wall x, y)."""
    if k < 2:  # a car corner, projected onto the wall's face
        px, py = a[1 + 2 * k], a[2 + 2 * k]
        depth = nx * px + ny * py - db
        ax, ay, bx, by = px, py, px - nx * depth, py - ny * depth
    else:  # a wall corner, projected onto the car's face
        px, py = b[1 + 2 * (k - 2)], b[2 + 2 * (k - 2)]
        depth = nx * px + ny * py - da
        ax, ay, bx, by = px - nx * depth, py - ny * depth, px, py
    valid = not (nx * ax + ny * ay > nx * bx + ny * by - CMP_EPSILON)
    return valid, ax, ay, bx, by


@kernel
def contacts(body, dx, dy, margin, world, kind, idx, nx, ny):
    """Godot's contacts of an overlapping pair along axis (nx, ny) (from the wall
    towards the car): (count 0-2, then per contact the car's point x, y and the
    wall's point x, y)."""
    a = body_supports(body, dx, dy, -nx, -ny)
    b = wall_supports(world, kind, idx, nx, ny)
    a = (a[0], a[1] - nx * margin, a[2] - ny * margin, a[3] - nx * margin, a[4] - ny * margin)
    if a[0] == 1 and b[0] == 1:
        return 1.0, a[1], a[2], b[1], b[2], 0.0, 0.0, 0.0, 0.0
    if a[0] == 1:
        bx, by = _closest_on_line(a[1], a[2], b[1], b[2], b[3], b[4])
        return 1.0, a[1], a[2], bx, by, 0.0, 0.0, 0.0, 0.0
    if b[0] == 1:
        ax, ay = _closest_on_line(b[1], b[2], a[1], a[2], a[3], a[4])
        return 1.0, ax, ay, b[1], b[2], 0.0, 0.0, 0.0, 0.0
    # edge-edge: the middle two of the four ends along the face keep a contact each
    tx, ty = ny, -nx
    da, db = nx * a[1] + ny * a[2], nx * b[1] + ny * b[2]
    d0, d1, d2, d3 = tx * a[1] + ty * a[2], tx * a[3] + ty * a[4], tx * b[1] + ty * b[2], tx * b[3] + ty * b[4]
    ds = (d0, d1, d2, d3)
    count, out = 0, (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    for k in range(4):
        rank = 0
        for m in range(4):
            if ds[m] < ds[k] or (ds[m] == ds[k] and m < k):
                rank += 1
        if rank == 1 or rank == 2:
            valid, ax, ay, bx, by = _edge_pair(k, a, b, nx, ny, da, db)
            if valid:
                if count == 0:
                    out = (ax, ay, bx, by, out[4], out[5], out[6], out[7])
                else:
                    out = (out[0], out[1], out[2], out[3], ax, ay, bx, by)
                count += 1
    return float(count), out[0], out[1], out[2], out[3], out[4], out[5], out[6], out[7]
