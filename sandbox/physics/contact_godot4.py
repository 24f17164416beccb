"""Godot 4's `CharacterBody2D.move_and_slide()` in `MOTION_MODE_FLOATING` for a car
with one shape among static walls: every contact is a wall.

From Godot 4.4's source (the rules in words: docs/tracks.md, "Walls: how a kinematic
car meets them (Godot 4)"):
- `CharacterBody2D::_move_and_slide_floating` (scene/2d/physics/character_body_2d.cpp):
  motion = velocity · delta; up to `max_slides` (4) times: `move_and_collide(motion)`
  (the body moves by the test's travel); no collision: done; a collision whose
  remainder is zero: done; a hit within `wall_min_slide_angle` (15°, + 0.01 rad) of
  head-on (the normal against −velocity) stops the motion; else the first slide goes
  along the wall (the remainder slid, normalised) by |motion| − |travel|, a later
  one is the remainder slid; a motion against the velocity (·v ≤ 0) stops. The
  velocity is never changed (4.4 has no velocity step in floating mode).
- `move_and_collide` → `GodotSpace2D::test_body_motion`
  (servers/physics_2d/godot_space_2d.cpp), margin max(safe_margin, 0.0001) (0.08 px
  by default), with recovery reported as a collision:
  1. recovery, up to 4 passes: the shape grown by the margin against every wall
     near it; each contact, in turn, is measured again after the moves so far, and
     when deeper than min_contact_depth (0.05 · margin) + 0.00001 the car moves out by
     0.4 of the excess; a pass with no contact, or with no move, ends it;
  2. the cast: as Godot 3's, with the search of `contact_godot3._cast_search`, and a
     concave polygon's segments culled with the motion (so none is passed through);
  3. only when the recovery met a contact or the cast a wall: rest info at the
     unsafe fraction, the deepest contact at least min(|motion|, min_contact_depth)
     deep is the collision; none: no collision, and the car moves the whole motion.
The pair tests are `contact_sat`'s, the walls near the car found as in
`contact_godot3` (its `_visit` with Godot 4's RECOVER_4 and CAST_4 steps).
"""

from __future__ import annotations

import math

from .body_shape import body_at, bounds
from .contact_godot3 import CAST_4, CMP_EPSILON, RECOVER_4, REST, _slid, _visit, _within_reach
from .kernel import kernel
from .world import has_walls

SAFE_MARGIN = 0.08
"""px: CharacterBody2D's default `safe_margin` in Godot 4."""
MAX_SLIDES = 4
"""CharacterBody2D's default `max_slides`."""
WALL_MIN_SLIDE_ANGLE = math.radians(15.0)
"""rad: CharacterBody2D's default `wall_min_slide_angle`."""
FLOOR_ANGLE_THRESHOLD = 0.01
"""rad: added to the angle limits (character_body_2d.cpp), so 15° itself stops."""
RECOVER_PASSES = 4
MARGIN_MIN = 0.0001
"""px: TEST_MOTION_MARGIN_MIN_VALUE, the least margin the server uses."""
MIN_CONTACT_DEPTH_FACTOR = 0.05
"""TEST_MOTION_MIN_CONTACT_DEPTH_FACTOR: min_contact_depth = 0.05 · margin."""


@kernel
def body_test_motion(world, body, mx: float, my: float, margin: float):
    """Godot 4's body_test_motion (GodotSpace2D::test_body_motion, recovery reported
    as collision) of the car's shape `body` (body_shape.body_at) by (mx, my):
    (collided, travel x, y, remainder x, y, normal x, y, point x, y, safe fraction);
    the travel includes the recovery."""
    zero = (0.0, 0.0, 0.0, 0.0, 0.0)
    margin = max(margin, MARGIN_MIN)
    least = margin * MIN_CONTACT_DEPTH_FACTOR
    length = math.sqrt(mx * mx + my * my)
    rx, ry, recovered = 0.0, 0.0, False
    for _ in range(RECOVER_PASSES):
        sx, sy, found, _, _ = _visit(
            world, bounds(body, rx, ry, margin), RECOVER_4, zero, body, rx, ry, 0.0, 0.0, margin, least
        )
        if found == 0.0:
            break
        recovered = True
        if sx == 0.0 and sy == 0.0:
            break
        rx, ry = rx + sx, ry + sy
    left, top, right, bottom = bounds(body, rx, ry, margin)
    swept = (min(left, left + mx), min(top, top + my), max(right, right + mx), max(bottom, bottom + my))
    _, safe, unsafe, _, _ = _visit(world, swept, CAST_4, (0.0, 1.0, 1.0, 0.0, 0.0), body, rx, ry, mx, my, 0.0, 0.0)
    depth = 0.0
    if recovered or safe < 1.0:
        ux, uy = rx + mx * unsafe, ry + my * unsafe
        depth, nx, ny, px, py = _visit(
            world, bounds(body, ux, uy, margin), REST, zero, body, ux, uy, 0.0, 0.0, margin, min(length, least)
        )
    if depth == 0.0:
        return False, rx + mx, ry + my, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0
    return True, rx + safe * mx, ry + safe * my, mx - safe * mx, my - safe * my, nx, ny, px, py, safe


@kernel
def _zero_approx(x: float, y: float) -> bool:
    """Godot's Vector2.is_zero_approx: both parts within CMP_EPSILON of 0."""
    return abs(x) < CMP_EPSILON and abs(y) < CMP_EPSILON


@kernel
def _head_on(nx: float, ny: float, vx: float, vy: float) -> bool:
    """Whether the normal is within wall_min_slide_angle (+ the threshold) of
    −velocity: KinematicCollision's get_angle(−velocity.normalized())."""
    speed = math.sqrt(vx * vx + vy * vy)
    ux, uy = (-vx / speed, -vy / speed) if speed > 0.0 else (0.0, 0.0)
    cos = min(max(nx * ux + ny * uy, -1.0), 1.0)
    return math.acos(cos) < WALL_MIN_SLIDE_ANGLE + FLOOR_ANGLE_THRESHOLD


@kernel
def _near_walls(world, shape, x, y, heading, vx, vy, mx, my, margin):
    """move_and_slide where walls may be within reach (see move_and_slide)."""
    slides, nx, ny = 0, 0.0, 0.0
    for iteration in range(MAX_SLIDES):
        body = body_at(shape, x, y, heading)
        hit, tx, ty, rx, ry, cnx, cny, _, _, _ = body_test_motion(world, body, mx, my, margin)
        x, y = x + tx, y + ty
        if not hit:
            break
        slides, nx, ny = slides + 1, cnx, cny
        if _zero_approx(rx, ry):
            break
        if _head_on(nx, ny, vx, vy):
            mx, my = 0.0, 0.0
        elif iteration == 0:  # the first slide: along the wall, by what was left of the length
            sx, sy = _slid(rx, ry, nx, ny)
            norm = math.sqrt(sx * sx + sy * sy)
            sx, sy = (sx / norm, sy / norm) if norm > 0.0 else (0.0, 0.0)
            reach = math.sqrt(mx * mx + my * my) - math.sqrt(tx * tx + ty * ty)
            mx, my = sx * reach, sy * reach
        else:
            mx, my = _slid(rx, ry, nx, ny)
        if mx * vx + my * vy <= 0.0:  # never against the velocity
            mx, my = 0.0, 0.0
        if _zero_approx(mx, my):
            break
    return x, y, vx, vy, slides, nx, ny


@kernel(inline=True)
def move_and_slide(world, shape, x, y, heading, vx, vy, dt, margin):
    """Godot 4's move_and_slide() (floating) for a car at (x, y) turned by `heading`
    with collision `shape` (body_shape's array) and `velocity` (vx, vy) in `world`,
    over one tick of `dt` s, `margin` its safe margin (SAFE_MARGIN px, in the world's
    unit): (x, y, vx, vy, slides, normal x, normal y) after it, as
    `contact_godot3.move_and_slide`: the velocity (unchanged: Godot 4.4's floating
    mode leaves it as it was), how many collisions (0: none), and the last one's
    normal. The open field, or no wall within the tick's reach: position + v·dt."""
    mx, my = vx * dt, vy * dt
    if not has_walls(world) or not _within_reach(world, shape, x, y, heading, mx, my, margin):
        return x + mx, y + my, vx, vy, 0, 0.0, 0.0
    return _near_walls(world, shape, x, y, heading, vx, vy, mx, my, margin)
