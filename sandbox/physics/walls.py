"""What the compiled drivers take as the world a car drives in: `Walls`, the track's
static world (`world.World`, built once per track, in px) and how many px a unit of
the model's length is; and the step of a kinematic model's tick that meets it.

Contact is worked out in px, as in the engine (a metric model's exported script moves
its node pixels_per_metre px for each metre and calls move_and_slide in px), so the
engine's constants (the 0.08 px safe margin, its 0.005 px least contact depth) keep
their meaning for every model: a metric car's position and velocity are scaled to px
for the contact and back.

A driver's `walls` argument is a `Walls`, or None (left out) for the open field: the
drivers are then compiled without any contact code, so a car on the open field drives
bit for bit as it did before there were walls. A `Walls` whose world has no walls (a
track of cones only) moves a car the same way: the contact kernel moves it by exactly
v·dt (its cones and surfaces are the drivers', `world_step`).

The rules are those of the engine the tuning names (its `godot_engine` option, read in
the compiled tick: `car_shape.engine_param`): Godot 4's `CharacterBody2D.move_and_slide`
in floating mode (`contact_godot4`, the default) or Godot 3's
`KinematicBody2D.move_and_slide` (`contact_godot3`); the car's shape is its tuning's
(`body_shape.of_tuning`). What comes back is what each model's exported script feeds
back into its state: Godot 3 returns the slid velocity; Godot 4.4 leaves `velocity` as
it was (the arcade keeps it, as the recipe's Godot 4 script does), and a model that
computes its own pose takes `get_real_velocity()`, the position's change over the tick
(`slide_pose`).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba.core import types
from numba.extending import overload

from . import contact_godot3, contact_godot4
from .body_shape import of_tuning
from .car_shape import GODOT3, NAMES
from .cones import cone_count
from .kernel import OPTIONS, kernel
from .surfaces import surface_count
from .track import DEFAULT_WALL_FRICTION, DEFAULT_WALL_RESTITUTION, Track
from .world import EMPTY, World, build_world, clearance_at, has_walls, raster_of


class Walls(NamedTuple):
    """The world as a driver takes it: `world` in px, `scale` px per unit of the
    model's length (1 for a model in px, the track's pixels_per_metre for one in m),
    and the track's `restitution` and `friction` of its walls (what a rigid car's
    impulse contact takes: `contact_impulse`)."""

    world: World
    scale: float
    restitution: float = DEFAULT_WALL_RESTITUTION
    friction: float = DEFAULT_WALL_FRICTION


OPEN_FIELD = Walls(EMPTY, 1.0)
"""An empty world (the same moves as leaving `walls` out)."""


def walls_for(track: Track | None, unit: str, concave: bool = False) -> Walls | None:
    """The `Walls` of `track` in `unit` (px or m; px at the track's pixels_per_metre), or
    None when there is nothing to meet (no track, or no walls, cones or surfaces): the
    open field's drivers. `concave`: the track's polylines are Godot concave polygons."""
    if track is None:
        return None
    if unit not in ("px", "m"):
        raise ValueError(f"a model's unit of length is px or m, not {unit!r}")
    world = build_world(track.in_unit("px"), concave)
    if not (has_walls(world) or cone_count(world) or surface_count(world)):
        return None
    scale = 1.0 if unit == "px" else float(track.pixels_per_metre)
    return Walls(world, scale, float(track.wall_restitution), float(track.wall_friction))


def is_none(walls) -> bool:
    """Whether the numba type of `walls` is None or left out: the open field's drivers."""
    return _open(walls)


def _open(walls) -> bool:
    return isinstance(walls, (types.NoneType, types.Omitted))


def is_open(walls) -> bool:
    """Whether `walls` has nothing to meet (None, or an empty world); compiled code only."""
    raise TypeError("walls.is_open is called from compiled code")


@overload(is_open, jit_options=OPTIONS)
def _is_open_of(walls):
    if _open(walls):
        return lambda walls: True
    return lambda walls: not has_walls(walls.world)


@kernel(inline=True)
def shape_reach(p, first) -> float:
    """How far the car's shape (tuning row `p`, from slot `first`) reaches from its
    position, in model units, for every kind at once: half its length and width's
    diagonal (a rectangle's exactly; more than a capsule's or a circle's, which lie
    inside it) plus its offset."""
    length, width, ox, oy = p[first + 1], p[first + 2], p[first + 3], p[first + 4]
    return 0.5 * math.sqrt(length * length + width * width) + math.sqrt(ox * ox + oy * oy)


@kernel(inline=True)
def needed_clearance(reach, mx, my, k) -> float:
    """The clearance (px) a car reaching `reach` (model units) needs to move by
    (mx, my) without meeting anything: the reach, the motion and twice the safe margin
    (the engines' margins are the same 0.08 px)."""
    return (reach + math.sqrt(mx * mx + my * my)) * k + 2 * contact_godot3.SAFE_MARGIN


@kernel(inline=True)
def clear_of_walls(walls, p, first, x, y, mx, my) -> bool:
    """Whether the car at (x, y) (model units) moving by (mx, my) this tick cannot
    reach any wall: the world's clearance at it is more than `needed_clearance`
    (`world.clearance_at`). The usual case between walls, decided in one look-up;
    kept apart from the contact itself (a separate compiled call,
    `_slide_near`/`_slide_pose_near`, contact_impulse's `_bounce_near`) so that a tick
    away from walls stays as small as the open field's."""
    k = walls.scale
    return clearance_at(walls.world, x * k, y * k) > needed_clearance(shape_reach(p, first), mx, my, k)


@kernel(inline=True)
def padded_move(x0, y0, x1, y1):
    """The move from (x0, y0) to (x1, y1) read back from the positions, padded by a
    slack a thousand times the last bits it can differ by from the move the tick took:
    a car whose padded move is `clear_of_walls` was found clear by its tick too, so a
    batch can move its cars as on the open field first and test the moves after."""
    mx, my = x1 - x0, y1 - y0
    slack = 1e-12 * (abs(x0) + abs(y0) + abs(mx) + abs(my)) + 1e-12
    return mx + math.copysign(slack, mx), my + math.copysign(slack, my)


def clearance_look(walls):
    """(px per model unit, `world.raster_of`, the world's floats the raster's
    look-ups read) of `walls`: what a loop over cars reads once. Compiled code only;
    without walls, an empty raster (never read: the open field moves no car again)."""
    raise TypeError("walls.clearance_look is called from compiled code")


@overload(clearance_look, jit_options=OPTIONS, inline="always")
def _clearance_look_of(walls):
    if _open(walls):
        return lambda walls: (1.0, (0.0, 0.0, 1.0, 1.0, 1.0, 0), np.empty(0))
    return lambda walls: (walls.scale, raster_of(walls.world), walls.world.floats)


@kernel
def scaled(shape, k):
    """A shape tuple (body_shape's layout) with its lengths times `k`."""
    return (shape[0], shape[1] * k, shape[2] * k, shape[3] * k, shape[4] * k, shape[5])


ENGINE_AT = len(NAMES)
"""Where the engine option sits after the first shape slot (car_shape.contact_slots)."""


@kernel(inline=True)
def _move_and_slide(walls, p, first, x, y, heading, vx, vy, dt):
    """move_and_slide by the rules of tuning row `p`'s engine (its shape from slot
    `first`, the engine option after it), in the model's unit: (x, y, vx, vy, slides,
    whether Godot 3's rules ran); the contact itself is worked out in px."""
    k = walls.scale
    shape = scaled(of_tuning(p, first), k)
    godot3 = p[first + ENGINE_AT] == GODOT3
    if godot3:
        x, y, vx, vy, slides, _, _ = contact_godot3.move_and_slide(
            walls.world, shape, x * k, y * k, heading, vx * k, vy * k, dt, contact_godot3.SAFE_MARGIN
        )
    else:
        x, y, vx, vy, slides, _, _ = contact_godot4.move_and_slide(
            walls.world, shape, x * k, y * k, heading, vx * k, vy * k, dt, contact_godot4.SAFE_MARGIN
        )
    return x / k, y / k, vx / k, vy / k, slides, godot3


def slide(walls, p, first, x, y, heading_x, heading_y, vx, vy, dt):
    """move_and_slide of a car at (x, y) whose body points along the unit vector
    (heading_x, heading_y) with `velocity` (vx, vy), with the collision shape and engine
    of tuning row `p` (its shape parameters from slot `first`): (x, y, vx, vy,
    contacts) after the tick, the velocity as the engine leaves it (Godot 3: slid,
    Godot 4: as it was), `contacts` how many times it met a wall (0.0: none). Without
    walls: position + v·dt, as every kinematic model moved before walls. Compiled code
    only."""
    raise TypeError("walls.slide is called from compiled code")


@overload(slide, jit_options=OPTIONS, inline="always")
def _slide_of(walls, p, first, x, y, heading_x, heading_y, vx, vy, dt):
    if _open(walls):

        def open_field(walls, p, first, x, y, heading_x, heading_y, vx, vy, dt):
            return x + vx * dt, y + vy * dt, vx, vy, 0.0

        return open_field

    def among_walls(walls, p, first, x, y, heading_x, heading_y, vx, vy, dt):
        if not has_walls(walls.world) or clear_of_walls(walls, p, first, x, y, vx * dt, vy * dt):
            return x + vx * dt, y + vy * dt, vx, vy, 0.0
        return _slide_near(walls, p, first, x, y, heading_x, heading_y, vx, vy, dt)

    return among_walls


@kernel
def _slide_near(walls, p, first, x, y, heading_x, heading_y, vx, vy, dt):
    """`slide` where a wall may be within the tick's reach."""
    heading = math.atan2(heading_y, heading_x)
    x, y, vx, vy, slides, _ = _move_and_slide(walls, p, first, x, y, heading, vx, vy, dt)
    return x, y, vx, vy, float(slides)


def slide_pose(walls, p, first, x0, y0, x, y, heading, dt):
    """A model that computes its own pose, meeting walls: the car at (x0, y0) would go
    to (x, y) with its body turned to `heading` (rad); move_and_slide of the velocity
    ((x, y) − (x0, y0))/dt from (x0, y0), by the rules of the tuning's engine. (x, y,
    vx, vy, contacts): the model's own pose and velocity when no wall was met (the same
    bits as without walls), else where move_and_slide left the car and the velocity
    the exported script takes from it: Godot 3's returned velocity, Godot 4's
    `get_real_velocity()` (where it left the car less where it started, over `dt`; its
    `velocity` stays what it was set to). Compiled code only."""
    raise TypeError("walls.slide_pose is called from compiled code")


@overload(slide_pose, jit_options=OPTIONS, inline="always")
def _slide_pose_of(walls, p, first, x0, y0, x, y, heading, dt):
    if _open(walls):

        def open_field(walls, p, first, x0, y0, x, y, heading, dt):
            return x, y, (x - x0) / dt, (y - y0) / dt, 0.0

        return open_field

    def among_walls(walls, p, first, x0, y0, x, y, heading, dt):
        vx, vy = (x - x0) / dt, (y - y0) / dt
        if not has_walls(walls.world) or clear_of_walls(walls, p, first, x0, y0, x - x0, y - y0):
            return x, y, vx, vy, 0.0
        return _slide_pose_near(walls, p, first, x0, y0, x, y, heading, dt)

    return among_walls


@kernel
def _slide_pose_near(walls, p, first, x0, y0, x, y, heading, dt):
    """`slide_pose` where a wall may be within the tick's reach."""
    vx, vy = (x - x0) / dt, (y - y0) / dt
    mx, my, mvx, mvy, slides, godot3 = _move_and_slide(walls, p, first, x0, y0, heading, vx, vy, dt)
    if slides == 0:
        return x, y, vx, vy, 0.0
    if not godot3:  # get_real_velocity()
        mvx, mvy = (mx - x0) / dt, (my - y0) / dt
    return mx, my, mvx, mvy, float(slides)
