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

The rules are Godot 3's `KinematicBody2D.move_and_slide` (`contact_godot3`); the car's
shape is its tuning's (`body_shape.of_tuning`).
"""

from __future__ import annotations

import math
from typing import NamedTuple

from numba.core import types
from numba.extending import overload

from .body_shape import of_tuning
from .cones import cone_count
from .contact_godot3 import SAFE_MARGIN, move_and_slide
from .kernel import OPTIONS, kernel
from .surfaces import surface_count
from .track import Track
from .world import EMPTY, World, build_world, has_walls


class Walls(NamedTuple):
    """The world as a driver takes it: `world` in px, `scale` px per unit of the
    model's length (1 for a model in px, the track's pixels_per_metre for one in m)."""

    world: World
    scale: float


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
    return Walls(world, 1.0 if unit == "px" else float(track.pixels_per_metre))


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


@kernel
def _scaled(shape, k):
    """A shape tuple (body_shape's layout) with its lengths times `k`."""
    return (shape[0], shape[1] * k, shape[2] * k, shape[3] * k, shape[4] * k, shape[5])


def slide(walls, p, first, x, y, heading_x, heading_y, vx, vy, dt):
    """move_and_slide(velocity) of a car at (x, y) whose body points along the unit
    vector (heading_x, heading_y), with the collision shape of tuning row `p` (its
    shape parameters from slot `first`): (x, y, vx, vy, contacts) after the tick,
    `contacts` how many times it met a wall (0.0: none). Without walls: position + v·dt,
    as every kinematic model moved before walls. Compiled code only."""
    raise TypeError("walls.slide is called from compiled code")


@overload(slide, jit_options=OPTIONS)
def _slide_of(walls, p, first, x, y, heading_x, heading_y, vx, vy, dt):
    if _open(walls):

        def open_field(walls, p, first, x, y, heading_x, heading_y, vx, vy, dt):
            return x + vx * dt, y + vy * dt, vx, vy, 0.0

        return open_field

    def among_walls(walls, p, first, x, y, heading_x, heading_y, vx, vy, dt):
        if not has_walls(walls.world):
            return x + vx * dt, y + vy * dt, vx, vy, 0.0
        k = walls.scale
        shape = _scaled(of_tuning(p, first), k)
        heading = math.atan2(heading_y, heading_x)
        x, y, vx, vy, slides, _, _ = move_and_slide(
            walls.world, shape, x * k, y * k, heading, vx * k, vy * k, dt, SAFE_MARGIN
        )
        return x / k, y / k, vx / k, vy / k, float(slides)

    return among_walls


def slide_pose(walls, p, first, x0, y0, x, y, heading, dt):
    """A model that computes its own pose, meeting walls: the car at (x0, y0) would go
    to (x, y) with its body turned to `heading` (rad); move_and_slide of the velocity
    ((x, y) − (x0, y0))/dt from (x0, y0). (x, y, vx, vy, contacts): the model's own
    pose and velocity when no wall was met (the same bits as without walls), else where
    move_and_slide left the car and the velocity it returned. Compiled code only."""
    raise TypeError("walls.slide_pose is called from compiled code")


@overload(slide_pose, jit_options=OPTIONS)
def _slide_pose_of(walls, p, first, x0, y0, x, y, heading, dt):
    if _open(walls):

        def open_field(walls, p, first, x0, y0, x, y, heading, dt):
            return x, y, (x - x0) / dt, (y - y0) / dt, 0.0

        return open_field

    def among_walls(walls, p, first, x0, y0, x, y, heading, dt):
        vx, vy = (x - x0) / dt, (y - y0) / dt
        if not has_walls(walls.world):
            return x, y, vx, vy, 0.0
        k = walls.scale
        shape = _scaled(of_tuning(p, first), k)
        mx, my, mvx, mvy, slides, _, _ = move_and_slide(
            walls.world, shape, x0 * k, y0 * k, heading, vx * k, vy * k, dt, SAFE_MARGIN
        )
        if slides == 0:
            return x, y, vx, vy, 0.0
        return mx / k, my / k, mvx / k, mvy / k, float(slides)

    return among_walls
