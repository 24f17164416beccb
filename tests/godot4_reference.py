"""A second implementation of Godot 4.4's floating `move_and_slide`, in plain Python,
written from the engine's source for the tests (not a call of the sandbox's
`contact_godot4`): `CharacterBody2D::_move_and_slide_floating`
(scene/2d/physics/character_body_2d.cpp) over `GodotSpace2D::test_body_motion`
(servers/physics_2d/godot_space_2d.cpp), looking at every wall in turn (no grid, no
reach test). Only the test of one shape against one wall and its contact points are
the sandbox's (`contact_sat`, the same as Godot 3's and 4's collision solver, held to
the Godot 3 engine)."""

from __future__ import annotations

import math

from sandbox.physics.body_shape import body_at, bounds
from sandbox.physics.contact_sat import contacts, overlap
from sandbox.physics.world import SEGMENT, build_world, item_kind

CMP_EPSILON = 0.00001


def _items(world):
    n = len(world.segments) + len(world.circles) + len(world.poly_offsets) - 1
    return [item_kind(world, i) for i in range(n)]


def _concave_culled(world, kind, idx, body, dx, dy, mx, my):
    """GodotCollisionSolver2D::solve_concave: the segment's box must strictly overlap
    the shape's box (no margin) merged with it moved by the motion."""
    if kind != SEGMENT or not world.concave[idx]:
        return False
    left, top, right, bottom = bounds(body, dx, dy, 0.0)
    left, right = min(left, left + mx), max(right, right + mx)
    top, bottom = min(top, top + my), max(bottom, bottom + my)
    x1, y1, x2, y2 = world.segments[idx]
    return not (min(x1, x2) < right and max(x1, x2) > left and min(y1, y2) < bottom and max(y1, y2) > top)


def _solve(world, kind, idx, body, dx, dy, mx, my, margin):
    """GodotCollisionSolver2D::solve: (collides, axis x, y)."""
    if _concave_culled(world, kind, idx, body, dx, dy, mx, my):
        return False, 0.0, 0.0
    hit, nx, ny, _ = overlap(body, dx, dy, mx, my, margin, world, kind, idx)
    return hit, nx, ny


def _contacts(world, kind, idx, body, dx, dy, margin):
    """The contact pairs (car point, wall point) of a static test grown by margin."""
    hit, nx, ny = _solve(world, kind, idx, body, dx, dy, 0.0, 0.0, margin)
    if not hit:
        return []
    c = contacts(body, dx, dy, margin, world, kind, idx, nx, ny)
    return [((c[1 + 4 * k], c[2 + 4 * k]), (c[3 + 4 * k], c[4 + 4 * k])) for k in range(int(c[0]))]


def body_test_motion(world, body, m, margin):
    """(collided, travel, remainder, normal) as GodotSpace2D::test_body_motion with
    recovery_as_collision."""
    margin = max(margin, 0.0001)
    min_contact_depth = margin * 0.05
    items = _items(world)
    motion_length = math.hypot(*m)
    recover = [0.0, 0.0]
    recovered = False
    for _ in range(4):  # STEP 1, FREE BODY IF STUCK
        found = [pair for kind, idx in items for pair in _contacts(world, kind, idx, body, *recover, margin)][:32]
        if not found:
            break
        recovered = True
        step = [0.0, 0.0]
        for a, b in found:
            gap = math.hypot(a[0] - b[0], a[1] - b[1])
            n = ((a[0] - b[0]) / gap, (a[1] - b[1]) / gap) if gap else (0.0, 0.0)
            d = n[0] * b[0] + n[1] * b[1]
            depth = n[0] * (a[0] + step[0]) + n[1] * (a[1] + step[1]) - d
            if depth > min_contact_depth + CMP_EPSILON:
                step[0] -= n[0] * (depth - min_contact_depth) * 0.4
                step[1] -= n[1] * (depth - min_contact_depth) * 0.4
        if step == [0.0, 0.0]:
            break
        recover = [recover[0] + step[0], recover[1] + step[1]]
    safe, unsafe = 1.0, 1.0
    for kind, idx in items:  # STEP 2 ATTEMPT MOTION
        if not _solve(world, kind, idx, body, *recover, m[0], m[1], 0.0)[0]:
            continue
        if _solve(world, kind, idx, body, *recover, 0.0, 0.0, 0.0)[0]:
            safe, unsafe = 0.0, 0.0
            break
        low, hi, coeff = 0.0, 1.0, 0.5
        for k in range(8):
            fraction = low + (hi - low) * coeff
            if _solve(world, kind, idx, body, *recover, m[0] * fraction, m[1] * fraction, 0.0)[0]:
                hi = fraction
                coeff = 0.5 if (k == 0 or low > 0.0) else 0.25
            else:
                low = fraction
                coeff = 0.5 if (k == 0 or hi < 1.0) else 0.75
        if low < safe:
            safe, unsafe = low, hi
    best_len, normal = 0.0, (0.0, 0.0)
    if recovered or safe < 1:  # the rest info at the unsafe fraction
        at = (recover[0] + m[0] * unsafe, recover[1] + m[1] * unsafe)
        min_allowed = min(motion_length, min_contact_depth)
        for kind, idx in items:
            for a, b in _contacts(world, kind, idx, body, *at, margin):
                length = math.hypot(b[0] - a[0], b[1] - a[1])
                if length < min_allowed or length <= best_len:
                    continue
                best_len, normal = length, ((b[0] - a[0]) / length, (b[1] - a[1]) / length)
    if best_len != 0:
        travel = (safe * m[0] + recover[0], safe * m[1] + recover[1])
        return True, travel, (m[0] - safe * m[0], m[1] - safe * m[1]), normal
    return False, (m[0] + recover[0], m[1] + recover[1]), (0.0, 0.0), (0.0, 0.0)


def _slide(v, n):
    d = v[0] * n[0] + v[1] * n[1]
    return (v[0] - n[0] * d, v[1] - n[1] * d)


def _zero_approx(v):
    return abs(v[0]) < CMP_EPSILON and abs(v[1]) < CMP_EPSILON


def _normalized(v):
    length = math.hypot(*v)
    return (v[0] / length, v[1] / length) if length else (0.0, 0.0)


WALL_MIN_SLIDE_ANGLE = math.radians(15)
"""CharacterBody2D's default wall_min_slide_angle (15°)."""


def move_and_slide(world, shape, pose, velocity, dt, margin=0.08, wall_min_slide_angle=WALL_MIN_SLIDE_ANGLE):
    """CharacterBody2D::_move_and_slide_floating of Godot 4.4: (x, y, velocity,
    collisions, last normal); the velocity comes back as it was."""
    x, y, heading = pose
    motion = (velocity[0] * dt, velocity[1] * dt)
    collisions, last = 0, (0.0, 0.0)
    first_slide = True
    for _ in range(4):
        collided, travel, remainder, normal = body_test_motion(world, body_at(shape, x, y, heading), motion, margin)
        x, y = x + travel[0], y + travel[1]
        if collided:
            collisions, last = collisions + 1, normal
            if _zero_approx(remainder):
                motion = (0.0, 0.0)
                break
            back = _normalized((-velocity[0], -velocity[1]))
            angle = math.acos(max(-1.0, min(1.0, normal[0] * back[0] + normal[1] * back[1])))
            if wall_min_slide_angle != 0 and angle < wall_min_slide_angle + 0.01:
                motion = (0.0, 0.0)
            elif first_slide:
                along = _normalized(_slide(remainder, normal))
                reach = math.hypot(*motion) - math.hypot(*travel)
                motion = (along[0] * reach, along[1] * reach)
            else:
                motion = _slide(remainder, normal)
            if motion[0] * velocity[0] + motion[1] * velocity[1] <= 0.0:
                motion = (0.0, 0.0)
        if not collided or _zero_approx(motion):
            break
        first_slide = False
    return x, y, tuple(velocity), collisions, last


def drive(track, shape, pose, velocities, hz=60, concave=False):
    """Rows (tick, x, y, vx, vy, collisions, normal x, y) of the reference fed
    `velocities`, as contact_oracle.run_sandbox's."""
    world = build_world(track, concave)
    x, y, heading = pose
    rows = []
    for n, v in enumerate(velocities):
        x, y, back, count, normal = move_and_slide(world, shape, (x, y, heading), (float(v[0]), float(v[1])), 1.0 / hz)
        rows.append((n, x, y, back[0], back[1], count, normal[0], normal[1]))
    return rows
