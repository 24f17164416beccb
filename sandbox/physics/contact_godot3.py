"""Godot 3's `KinematicBody2D.move_and_slide(velocity)` for a car with one shape
among static walls, with up_direction (0, 0): every contact is a wall.

From Godot 3.2's source (the rules in words: docs/tracks.md, "Walls: how a kinematic
car meets them (Godot 3)"):
- `move_and_slide` (scene/2d/physics_body_2d.cpp): motion = velocity · delta; up to 4
  times: `move_and_collide(motion)`; no collision: done; a collision: motion = its
  remainder slid along the normal, velocity slid along it (v − n(v·n)), and again
  while the motion is not zero. It returns the slid velocity.
- `move_and_collide` → `Space2DSW::test_body_motion` (servers/physics_2d/space_2d_sw.cpp)
  with the body's safe margin (0.08 px):
  1. recovery, up to 4 passes: the shape grown by min(margin, |motion| − ε) against
     every wall near it; the car moves by 0.4 of each contact's offset (wall point −
     car point), summed; no contact: done;
  2. the cast: per wall the swept shape (margin 0) is tested over the whole motion,
     a wall already overlapped makes the car stuck (safe = unsafe = 0), else 8 halvings
     find the last free fraction `safe` and the first hit `unsafe`; the least safe wins;
  3. rest info: at the unsafe fraction (the motion's end when nothing was met) the
     deepest contact of all walls, the shape grown by the margin, at least 0.005 px
     deep (or the motion's length), is the collision: its normal (wall point − car
     point, normalised) and point. No such contact: no collision.
  The car moves by the recovery plus safe·motion; the remainder is the rest.
- A concave polygon's segments are looked at only when the car's own box (no motion,
  no margin) crosses theirs (CollisionSolver2DSW::solve_concave).
The engine's 3.2 revision was settled against the engine itself (Debian's 3.2.3), which
this follows where the source's revisions differ (tests/test_contact_godot3_engine.py).
The shapes' tests: `contact_sat`. Arithmetic in float64 (Godot 3 2D uses 32-bit
floats; see docs/tracks.md for why that is not mirrored).
"""

from __future__ import annotations

import math

from .body_shape import (
    CX,
    CY,
    HALF_1,
    HALF_2,
    KIND,
    RADIUS,
    RECTANGLE_SHAPE,
    body_at,
    bounds,
    reach,
    vertex,
    vertex_count,
)
from .contact_sat import contacts, overlap
from .kernel import kernel
from .world import (
    POLYGON,
    SEGMENT,
    box,
    cell_first,
    cell_index,
    cell_item,
    circle,
    clearance_at,
    grid_value,
    has_walls,
    is_concave,
    item_kind,
    segment,
)

SAFE_MARGIN = 0.08
"""px: KinematicBody2D's default `collision/safe_margin` in Godot 3."""
MAX_SLIDES = 4
"""move_and_slide's default max_slides."""
RECOVER_PASSES = 4
"""test_body_motion's recovery attempts."""
CAST_STEPS = 8
"""test_body_motion's halvings of the motion per wall."""
MAX_CONTACTS = 32
"""Contacts one recovery pass collects (the engine's max_results)."""
RECOVER_RATIO = 0.4
"""Share of each contact's offset one recovery pass adds (summed over the contacts)."""
CMP_EPSILON = 0.00001
MIN_CONTACT_DEPTH = 0.005
"""px: contacts shallower than this (or than the motion) are not a collision (the
engine's test_motion_min_contact_depth)."""
RECOVER, CAST, REST = 0, 1, 2
"""What `_visit` does with each wall near the car."""
RECOVER_4, CAST_4 = 3, 4
"""The same steps as Godot 4's physics server takes them (`contact_godot4`): the
recovery measures each contact's depth after the moves so far and keeps a small
depth; the cast's search speeds towards the end it keeps hitting, and a concave
polygon's segments are culled with the motion (see docs/tracks.md)."""


@kernel
def _culled(body, dx, dy, mx, my, world, kind, idx) -> bool:
    """Whether a concave polygon's segment is left out: the engine looks only at the
    segments whose bounding box strictly overlaps the car shape's own (moved by
    (dx, dy), without the margin: CollisionSolver2DSW::solve_concave's cull), in
    Godot 4 merged with the same box moved by the test's motion (mx, my) (Godot 3
    leaves the motion out: 0, 0)."""
    if kind != SEGMENT or not is_concave(world, idx):
        return False
    left, top, right, bottom = bounds(body, dx, dy, 0.0)
    left, top, right, bottom = (
        min(left, left + mx),
        min(top, top + my),
        max(right, right + mx),
        max(bottom, bottom + my),
    )
    return (
        left >= box(world, idx, 2)
        or right <= box(world, idx, 0)
        or top >= box(world, idx, 3)
        or bottom <= box(world, idx, 1)
    )


@kernel
def _point_gap(px, py, ax, ay, bx, by) -> float:
    """Distance from point p to segment a-b."""
    ux, uy = bx - ax, by - ay
    l2 = ux * ux + uy * uy
    t = 0.0 if l2 == 0.0 else min(max(((px - ax) * ux + (py - ay) * uy) / l2, 0.0), 1.0)
    ex, ey = ax + ux * t - px, ay + uy * t - py
    return math.sqrt(ex * ex + ey * ey)


@kernel
def _segment_gap(ax, ay, bx, by, cx, cy, dx, dy) -> float:
    """Distance between segments a-b and c-d (0 when they cross)."""
    rx, ry, sx, sy = bx - ax, by - ay, dx - cx, dy - cy
    den = rx * sy - ry * sx
    if den != 0.0:
        t = ((cx - ax) * sy - (cy - ay) * sx) / den
        u = ((cx - ax) * ry - (cy - ay) * rx) / den
        if 0.0 <= t <= 1.0 and 0.0 <= u <= 1.0:
            return 0.0
    return min(
        min(_point_gap(ax, ay, cx, cy, dx, dy), _point_gap(bx, by, cx, cy, dx, dy)),
        min(_point_gap(cx, cy, ax, ay, bx, by), _point_gap(dx, dy, ax, ay, bx, by)),
    )


@kernel
def _inside(px, py, ox, oy, ex, ey, mx, my) -> bool:
    """Whether p is inside the parallelogram o + a·e + b·m, 0 ≤ a, b ≤ 1."""
    den = ex * my - ey * mx
    if den == 0.0:
        return False
    a = ((px - ox) * my - (py - oy) * mx) / den
    b = (ex * (py - oy) - ey * (px - ox)) / den
    return 0.0 <= a <= 1.0 and 0.0 <= b <= 1.0


@kernel
def _swept_gap(x0, y0, x1, y1, mx, my, ax, ay, bx, by) -> float:
    """Distance from segment a-b to the region swept by segment 0-1 moving by m."""
    if _inside(ax, ay, x0, y0, x1 - x0, y1 - y0, mx, my) or _inside(bx, by, x0, y0, x1 - x0, y1 - y0, mx, my):
        return 0.0
    return min(
        min(
            _segment_gap(x0, y0, x1, y1, ax, ay, bx, by),
            _segment_gap(x0 + mx, y0 + my, x1 + mx, y1 + my, ax, ay, bx, by),
        ),
        min(
            _segment_gap(x0, y0, x0 + mx, y0 + my, ax, ay, bx, by),
            _segment_gap(x1, y1, x1 + mx, y1 + my, ax, ay, bx, by),
        ),
    )


@kernel
def _out_of_reach(body, dx, dy, mx, my, margin, world, kind, idx) -> bool:
    """Whether the wall (a segment or a circle) is farther than the shape's radius
    and the margin from all the shape's core sweeps over (a rectangle: farther than
    its corners from its centre's path): no test of the engine's can meet it. Saves
    the tests, changes no answer."""
    if kind == POLYGON:
        return False
    if body[KIND] == RECTANGLE_SHAPE:
        x0, y0 = body[CX] + dx, body[CY] + dy
        x1, y1 = x0, y0
        reach = math.sqrt(body[HALF_1] ** 2 + body[HALF_2] ** 2) + margin
    else:
        x0, y0 = vertex(body, 0, dx, dy)
        x1, y1 = vertex(body, vertex_count(body) - 1, dx, dy)
        reach = body[RADIUS] + margin
    if kind == SEGMENT:
        ax, ay, bx, by = segment(world, idx, 0), segment(world, idx, 1), segment(world, idx, 2), segment(world, idx, 3)
        return _swept_gap(x0, y0, x1, y1, mx, my, ax, ay, bx, by) > reach
    cx, cy = circle(world, idx, 0), circle(world, idx, 1)
    return _swept_gap(x0, y0, x1, y1, mx, my, cx, cy, cx, cy) > reach + circle(world, idx, 2)


@kernel
def _cast_search(body, dx, dy, mx, my, world, kind, idx, godot4):
    """(last free fraction, first touching one) of the motion (mx, my) against one
    wall, in CAST_STEPS steps. Godot 3 halves the interval each step; Godot 4
    (GodotSpace2D::test_body_motion) halves it when the answer alternates, else goes
    a quarter of the way towards the end it keeps hitting (0.25 after two hits in a
    row, 0.75 after two misses), for long motions that meet a wall near an end."""
    low, hi, coeff = 0.0, 1.0, 0.5
    for k in range(CAST_STEPS):
        ofs = low + (hi - low) * coeff
        if overlap(body, dx, dy, mx * ofs, my * ofs, 0.0, world, kind, idx)[0]:
            hi = ofs
            if godot4:
                coeff = 0.5 if k == 0 or low > 0.0 else 0.25
        else:
            low = ofs
            if godot4:
                coeff = 0.5 if k == 0 or hi < 1.0 else 0.75
    return low, hi


@kernel
def _recover_4(acc, ax, ay, bx, by, length, least):
    """Godot 4's recovery step for one contact (car point a, wall point b, `length`
    apart): its depth along a − b once the car has moved by the pass's recovery so
    far (acc x, y), and 0.4 of what exceeds `least` (the server's min_contact_depth)
    taken off; acc's count goes up whatever the depth."""
    rx, ry = acc[0], acc[1]
    if length > 0.0:
        nx, ny = (ax - bx) / length, (ay - by) / length
        depth = nx * (ax + rx) + ny * (ay + ry) - (nx * bx + ny * by)
        if depth > least + CMP_EPSILON:
            rx, ry = rx - nx * (depth - least) * RECOVER_RATIO, ry - ny * (depth - least) * RECOVER_RATIO
    return (rx, ry, acc[2] + 1.0, 0.0, 0.0)


@kernel
def _pair(phase, acc, body, dx, dy, mx, my, margin, least, world, item):
    """One wall (`item`) in a phase of test_body_motion; `acc` is the phase's
    running result: RECOVER and RECOVER_4 (recovery x, y, contacts; RECOVER_4 keeps
    `least` of each depth), CAST and CAST_4 (stuck, safe, unsafe), REST (depth,
    normal x, y, point x, y; contacts under `least` deep ignored)."""
    kind, idx = item_kind(world, item)
    godot4 = phase == CAST_4
    if _culled(body, dx, dy, mx if godot4 else 0.0, my if godot4 else 0.0, world, kind, idx):
        return acc
    if _out_of_reach(body, dx, dy, mx, my, 2 * margin, world, kind, idx):
        return acc
    if phase == CAST or phase == CAST_4:
        if acc[0] != 0.0:  # stuck already
            return acc
        if not overlap(body, dx, dy, mx, my, 0.0, world, kind, idx)[0]:  # free all the way
            return acc
        if overlap(body, dx, dy, 0.0, 0.0, 0.0, world, kind, idx)[0]:
            if not (godot4 and _culled(body, dx, dy, 0.0, 0.0, world, kind, idx)):
                return (1.0, 0.0, 0.0, 0.0, 0.0)
        low, hi = _cast_search(body, dx, dy, mx, my, world, kind, idx, godot4)
        if low < acc[1]:
            return (0.0, low, hi, 0.0, 0.0)
        return acc
    hit, nx, ny, _ = overlap(body, dx, dy, 0.0, 0.0, margin, world, kind, idx)
    if not hit:
        return acc
    c = contacts(body, dx, dy, margin, world, kind, idx, nx, ny)
    for k in range(int(c[0])):
        ax, ay, bx, by = c[1 + 4 * k], c[2 + 4 * k], c[3 + 4 * k], c[4 + 4 * k]
        length = math.sqrt((bx - ax) ** 2 + (by - ay) ** 2)
        if phase == RECOVER:
            if acc[2] < MAX_CONTACTS:  # each contact's offset, 0.4 of it, summed
                acc = (acc[0] + (bx - ax) * RECOVER_RATIO, acc[1] + (by - ay) * RECOVER_RATIO, acc[2] + 1.0, 0.0, 0.0)
        elif phase == RECOVER_4:
            if acc[2] < MAX_CONTACTS:
                acc = _recover_4(acc, ax, ay, bx, by, length, least)
        elif length >= least and length > acc[0]:
            acc = (length, (bx - ax) / length, (by - ay) / length, bx, by)
    return acc


@kernel
def _meets(world, item, left, top, right, bottom) -> bool:
    """Whether item `item`'s bounding box meets the box (left, top, right, bottom)."""
    return not (
        box(world, item, 0) > right
        or box(world, item, 2) < left
        or box(world, item, 1) > bottom
        or box(world, item, 3) < top
    )


@kernel
def _visit(world, query, phase, acc, body, dx, dy, mx, my, margin, least):
    """`_pair` on every wall whose bounding box meets `query` (left, top, right,
    bottom), each once, found through the world's grid."""
    if not has_walls(world):
        return acc
    left, top, right, bottom = query
    i0, i1 = cell_index(world, left, 0), cell_index(world, right, 0)
    j0, j1 = cell_index(world, top, 1), cell_index(world, bottom, 1)
    columns = int(grid_value(world, 3))
    for j in range(j0, j1 + 1):
        for i in range(i0, i1 + 1):
            c = j * columns + i
            for k in range(cell_first(world, c), cell_first(world, c + 1)):
                item = cell_item(world, k)
                if not _meets(world, item, left, top, right, bottom):
                    continue
                # an item in several of the query's cells is taken in the first of them
                if max(cell_index(world, box(world, item, 0), 0), i0) != i:
                    continue
                if max(cell_index(world, box(world, item, 1), 1), j0) != j:
                    continue
                acc = _pair(phase, acc, body, dx, dy, mx, my, margin, least, world, item)
    return acc


@kernel
def _any_near(world, query) -> bool:
    """Whether any wall's bounding box meets `query` (left, top, right, bottom)."""
    left, top, right, bottom = query
    i0, i1 = cell_index(world, left, 0), cell_index(world, right, 0)
    j0, j1 = cell_index(world, top, 1), cell_index(world, bottom, 1)
    columns = int(grid_value(world, 3))
    for j in range(j0, j1 + 1):
        for i in range(i0, i1 + 1):
            c = j * columns + i
            for k in range(cell_first(world, c), cell_first(world, c + 1)):
                if _meets(world, cell_item(world, k), left, top, right, bottom):
                    return True
    return False


@kernel
def body_test_motion(world, body, mx: float, my: float, margin: float):
    """Godot 3's body_test_motion (Space2DSW::test_body_motion) of the car's shape `body` (body_shape.body_at) by
    (mx, my): (collided, travel x, y, remainder x, y, normal x, y, point x, y, safe
    fraction); the travel includes the recovery."""
    zero = (0.0, 0.0, 0.0, 0.0, 0.0)
    length = math.sqrt(mx * mx + my * my)
    separation = min(margin, max(0.0, length - CMP_EPSILON))  # never apart by more than the motion
    rx, ry = 0.0, 0.0
    for _ in range(RECOVER_PASSES):
        box = bounds(body, rx, ry, margin)
        sx, sy, found, _, _ = _visit(world, box, RECOVER, zero, body, rx, ry, 0.0, 0.0, separation, 0.0)
        if found == 0.0 or (sx == 0.0 and sy == 0.0):
            break
        rx, ry = rx + sx, ry + sy
    left, top, right, bottom = bounds(body, rx, ry, margin)
    swept = (min(left, left + mx), min(top, top + my), max(right, right + mx), max(bottom, bottom + my))
    _, safe, unsafe, _, _ = _visit(world, swept, CAST, (0.0, 1.0, 1.0, 0.0, 0.0), body, rx, ry, mx, my, 0.0, 0.0)
    # the contact where the car ends (at the first hit when the cast met a wall)
    ux, uy = rx + mx * unsafe, ry + my * unsafe
    least = min(length, MIN_CONTACT_DEPTH)
    depth, nx, ny, px, py = _visit(
        world, bounds(body, ux, uy, margin), REST, zero, body, ux, uy, 0.0, 0.0, margin, least
    )
    return depth != 0.0, rx + safe * mx, ry + safe * my, mx - safe * mx, my - safe * my, nx, ny, px, py, safe


@kernel
def _slid(x: float, y: float, nx: float, ny: float) -> tuple[float, float]:
    """Godot's Vector2.slide(n): v − n(v·n)."""
    d = x * nx + y * ny
    return x - nx * d, y - ny * d


@kernel
def _near_walls(world, shape, x, y, heading, vx, vy, mx, my, margin):
    """move_and_slide where walls may be within reach (see move_and_slide)."""
    moving = mx != 0.0 or my != 0.0
    slides, nx, ny = 0, 0.0, 0.0
    for _ in range(MAX_SLIDES):
        body = body_at(shape, x, y, heading)
        hit, tx, ty, rx, ry, cnx, cny, _, _, safe = body_test_motion(world, body, mx, my, margin)
        x, y = x + tx, y + ty
        if not hit:
            break
        slides, nx, ny = slides + 1, cnx, cny
        mx, my = _slid(rx, ry, nx, ny)
        vx, vy = _slid(vx, vy, nx, ny)
        # The engine stops when the slid motion is zero. Its 32-bit normals are never
        # exactly along the motion, so that happens only when no motion was left (a
        # whole free move, or none asked): else it goes on with a motion of ~1e-7 px,
        # as the next pass here does with a zero one (see docs/tracks.md).
        if safe >= 1.0 or not moving:
            break
    return x, y, vx, vy, slides, nx, ny


@kernel
def _within_reach(world, shape, x, y, heading, mx, my, margin) -> bool:
    """Whether any wall's bounding box meets the car's box swept by the tick's motion
    and grown by twice the margin (else the tick is the open field's move). First the
    world's clearance at the car: nothing within the car's reach, its motion and the
    margins (one look-up, the usual case between walls), nothing to look for."""
    if clearance_at(world, x, y) > reach(shape) + math.sqrt(mx * mx + my * my) + 2 * margin:
        return False
    left, top, right, bottom = bounds(body_at(shape, x, y, heading), 0.0, 0.0, 2 * margin)
    return _any_near(
        world, (min(left, left + mx), min(top, top + my), max(right, right + mx), max(bottom, bottom + my))
    )


@kernel(inline=True)
def move_and_slide(world, shape, x, y, heading, vx, vy, dt, margin):
    """Godot 3's move_and_slide(velocity) for a car at (x, y) turned by `heading`
    with collision `shape` (body_shape's array) in `world`, over one tick of `dt` s,
    `margin` its safe margin (SAFE_MARGIN px, in the world's unit): (x, y, vx, vy,
    slides, normal x, normal y) after it: the returned velocity, how many contacts
    (0: none), and the last contact's normal. The open field, or no wall within the
    tick's reach: position + v·dt. (Written into each caller, so that costs nothing.)"""
    mx, my = vx * dt, vy * dt
    if not has_walls(world) or not _within_reach(world, shape, x, y, heading, mx, my, margin):
        return x + mx, y + my, vx, vy, 0, 0.0, 0.0
    return _near_walls(world, shape, x, y, heading, vx, vy, mx, my, margin)
