"""The grip under a point: the world's surfaces (`world.surface_*`) looked up by
point in polygon (compiled code).

A surface's grip factor multiplies the tyre grip of the models that have one (their
`GRIP_PARAMS`, world_step.py): the dynamic car's tyre friction μ and the rigid body's
contact patches' friction (side and forward grip, the cap on a patch's force), read
at the car's centre where the tick starts (`surface_grip` in every model's state; see
state.py). The arcade's traction, the bicycle and the Ackermann
car have no grip to scale (the arcade's traction is a blend of velocity towards the
heading, not a friction), so a surface leaves them as they are. Where surfaces
overlap the last in the track's list wins; outside every surface the grip is 1.
"""

from __future__ import annotations

from .kernel import kernel
from .world import F_SURFACE_BOXES, F_SURFACE_GRIPS, F_SURFACE_POINTS, I_SURFACE_OFFSETS, N_SURFACES


@kernel
def surface_count(world) -> int:
    """How many surfaces the world holds."""
    return world.ints[N_SURFACES]


@kernel
def surface_start(world, s: int) -> int:
    """Where surface `s`'s corners start (surface s + 1's start is its end)."""
    return world.ints[world.ints[I_SURFACE_OFFSETS] + s]


@kernel
def surface_corner(world, k: int, axis: int) -> float:
    """Surface corner `k`'s x (axis 0) or y (1)."""
    return world.floats[world.ints[F_SURFACE_POINTS] + 2 * k + axis]


@kernel
def surface_grip(world, s: int) -> float:
    """Surface `s`'s grip factor."""
    return world.floats[world.ints[F_SURFACE_GRIPS] + s]


@kernel
def surface_box(world, s: int, k: int) -> float:
    """Surface `s`'s bounding box: left, top, right, bottom (k = 0 … 3)."""
    return world.floats[world.ints[F_SURFACE_BOXES] + 4 * s + k]


@kernel
def inside(world, s: int, x: float, y: float) -> bool:
    """Whether (x, y) is inside surface `s` (even-odd rule: crossings of a ray to +x)."""
    begin, end = surface_start(world, s), surface_start(world, s + 1)
    result = False
    j = end - 1
    for i in range(begin, end):
        xi, yi = surface_corner(world, i, 0), surface_corner(world, i, 1)
        xj, yj = surface_corner(world, j, 0), surface_corner(world, j, 1)
        if (yi > y) != (yj > y) and x < xi + (y - yi) * (xj - xi) / (yj - yi):
            result = not result
        j = i
    return result


@kernel
def grip_at(world, x: float, y: float) -> float:
    """The grip factor at (x, y): the last surface holding the point, else 1."""
    for s in range(surface_count(world) - 1, -1, -1):
        if surface_box(world, s, 0) <= x <= surface_box(world, s, 2) and surface_box(world, s, 1) <= y <= surface_box(
            world, s, 3
        ):
            if inside(world, s, x, y):
                return surface_grip(world, s)
    return 1.0
