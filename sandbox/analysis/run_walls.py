"""The standard manoeuvres on a track: the tick they run, and what it notes when the
car meets a wall (compiled code; see manoeuvres.py).

A run's `world` is None (the open field: the model's own tick, the same code and bits
as before there were tracks) or a pair (walls, met): the track's `walls.Walls` and a
float array `met` of two slots the run writes, met[MET_AT] the time (s, from the
start of the run, `begin`) of the first tick that met a wall (NaN: none yet) and
met[ELAPSED] the time run so far. A model whose state holds no `wall_contacts` drives
through walls and notes nothing.
"""

from __future__ import annotations

import math

import numba
from numba.extending import overload

from ..physics import kernels
from ..physics.kernel import OPTIONS, kernel

MET_AT, ELAPSED = 0, 1
"""Slots of a run's `met` array."""


def _open(world) -> bool:
    return isinstance(world, (numba.types.NoneType, numba.types.Omitted))


def tick_on(model, s, c, p, dt, world):
    """One tick of car row `s` (model number `model`) on `world` (None: the open
    field), noting the first wall met into world's `met`; compiled code only."""
    raise TypeError("run_walls.tick_on is called from compiled code")


@overload(tick_on, jit_options=OPTIONS)
def _tick_on_of(model, s, c, p, dt, world):
    if not isinstance(model, numba.types.IntegerLiteral):
        return None
    if _open(world):

        def open_field(model, s, c, p, dt, world):
            kernels.tick(model, s, c, p, dt)

        return open_field
    column = kernels.ORDER[model.literal_value].STATE.offset.get("wall_contacts", -1)

    def on_track(model, s, c, p, dt, world):
        walls, met = world
        kernels.tick_in(model, s, c, p, dt, walls)
        met[ELAPSED] += dt
        if column >= 0 and s[column] > 0 and met[MET_AT] != met[MET_AT]:
            met[MET_AT] = met[ELAPSED]

    return on_track


def world_of(walls, met):
    """The runs' `world` of `walls` (None: None) and the `met` array; compiled code only."""
    raise TypeError("run_walls.world_of is called from compiled code")


@overload(world_of, jit_options=OPTIONS)
def _world_of(walls, met):
    if _open(walls):
        return lambda walls, met: None
    return lambda walls, met: (walls, met)


@kernel
def begin(met):
    """Start noting a new run: no wall met, no time run."""
    met[MET_AT], met[ELAPSED] = math.nan, 0.0


@kernel
def either(earlier, later):
    """The contact time of a figure standing on two runs: the earlier run's if it met a
    wall (NaN: none), else the later's."""
    return later if earlier != earlier else earlier
