"""What a driver does around a model's tick on a track, for every model: the grip
under the car (`surfaces.grip_at`) into its `surface_grip` slot before the tick, and
the cones it knocked on the tick's swept path (`cones.knock`) counted after it.

Both work in the world's px, as the walls do (`walls.Walls`: a metric model's pose
and shape are scaled by the track's pixels_per_metre). They belong to the drivers
(`kernels.tick_in`), not to the models: a model names the tuning values a surface's
grip multiplies (`GRIP_PARAMS`; none: the surface leaves it as it is), and knows
nothing of cones. On the open field (no `walls`) none of this is compiled in.
"""

from __future__ import annotations

from numba.core import types
from numba.extending import overload

from .body_shape import of_tuning
from .car_shape import first_shape_slot
from .cones import cone_count, knock
from .kernel import OPTIONS, inlined
from .surfaces import grip_at, surface_count
from .walls import scaled


def on_track(module, tick, meets_walls: bool):
    """tick_on_track(s, c, p, dt, walls): `module`'s `tick` (taking the walls when
    `meets_walls`) with the surface grip before it and the cones knocked after it. A
    model's `GRIP_PARAMS` (tuning names) are multiplied by the grip for the tick (a
    copy of its tuning row; on a grip of 1 the row itself: the same bits)."""
    layout = module.STATE
    x, y, heading = layout.offset["x"], layout.offset["y"], layout.offset["heading"]
    hit, record, grip = layout.offset["cones_hit"], layout.offset["cones_knocked"], layout.offset["surface_grip"]
    shape_at = first_shape_slot(module.PARAMS)

    if meets_walls:

        @inlined
        def model_tick(s, c, p, dt, walls):
            tick(s, c, p, dt, walls)

    else:

        @inlined
        def model_tick(s, c, p, dt, walls):
            tick(s, c, p, dt)

    names = tuple(q.name for q in module.PARAMS)
    gripped = tuple(names.index(name) for name in getattr(module, "GRIP_PARAMS", ()))

    if gripped:

        @inlined
        def gripped_tick(s, c, p, dt, walls):
            if s[grip] == 1.0:
                model_tick(s, c, p, dt, walls)
            else:  # the tuning's grip scaled for this tick only
                q = p.copy()
                for i in gripped:
                    q[i] = p[i] * s[grip]
                model_tick(s, c, q, dt, walls)

    else:
        gripped_tick = model_tick

    @inlined
    def tick_on_track(s, c, p, dt, walls):
        k = walls.scale
        x0, y0, heading0 = s[x], s[y], s[heading]
        if surface_count(walls.world) > 0:
            s[grip] = grip_at(walls.world, x0 * k, y0 * k)
        gripped_tick(s, c, p, dt, walls)
        if cone_count(walls.world) > 0:
            shape = scaled(of_tuning(p, shape_at), k)
            knock(walls.world, shape, x0 * k, y0 * k, heading0, s[x] * k, s[y] * k, s[heading], s, hit, record)

    return tick_on_track


def has_items(walls) -> bool:
    """Whether `walls` holds cones or surfaces (a driver then runs each car's own tick,
    not a chunk's vectorised loop); compiled code only."""
    raise TypeError("world_step.has_items is called from compiled code")


@overload(has_items, jit_options=OPTIONS)
def _has_items_of(walls):
    if isinstance(walls, (types.NoneType, types.Omitted)):
        return lambda walls: False
    return lambda walls: cone_count(walls.world) > 0 or surface_count(walls.world) > 0
