"""A chunk of cars advanced tick by tick, the cars in the innermost loop: the batch
drivers' loops for a model whose tick is split the arcade's way.

Such a model (see models/arcade.py) declares, beside its `tick`:
- `settle(s)`: what a car placed by hand needs once, on its state row;
- `held(c, p, dt)`: a tuple (laid out by its `HELD`) of what stays the same while
  controls row `c` and tuning `p` are held;
- `advance(moves, u, p, dt, walls)`: one tick, a function of floats (`@kernel(inline=True)`:
  the loop over cars must hold no call): the state slots `MOVES`, the held values
  `u` and the tuning `p` (tuples) and the world (`walls.Walls`, or None: the open
  field) in; the slots `MOVED` (MOVES first) out;
- `show(s, u)`: what is read from the state after the last tick (an angle drawn).
`tick` must be settle, held, advance and show in a row. The chunk's slots, held values
and tunings are copied into columns of local arrays, so the loop over cars holds no
array view and no call (`advance` inlined): the compiler vectorises it across cars
without reassociating anything, and each car gets the bits of its one-car `tick`.
On the open field (no walls, or none in the world) the loop is compiled with None
for the walls: no contact code in it, the same loop as before there were walls. Among
walls each tick runs that same loop over every car, then moves again, meeting the
walls, each car whose move came within reach of one (`walls.padded_move`, tested
as the one-car tick tests it, all the cars' look-ups in one vectorised loop):
most cars are far from every wall on most ticks, and the bits are the same. On a
track with cones or surfaces the chunk runs each car's own tick instead (the
drivers' `each_car`): counting cones and reading the grip are the one-car tick's; so
does a chunk with a car whose steering feel acts (steer_feel.py: its steer changes from
tick to tick while the controls are held).
"""

from __future__ import annotations

import numpy as np
from numba.core import types, typing
from numba.core.errors import RequireLiteralValue
from numba.cpython.unsafe.tuple import tuple_setitem
from numba.extending import intrinsic

from .car_shape import first_shape_slot
from .kernel import inlined, kernel
from .steer_feel import FEEL_GROUP, all_neutral, feel_slots, input_reader, mark_held
from .walls import clearance_look, is_open, needed_clearance, padded_move, shape_reach
from .world import raster_look
from .world_step import has_items

CHUNK = 256
"""Cars advanced together (their columns stay in the core's cache)."""


def held_controls(module, each_car):
    """The loop of cars start..stop-1 for `ticks` ticks, controls held: `held` once
    per car, then `advance` tick after tick across the chunk; on a track with cones
    or surfaces `each_car` (what a tick does there is in the one-car tick only)."""
    moved, n_held, n_params, code = _code(module)
    settle, show, held_of, step, step_among, among_walls, held_values = module.settle, module.show, *code
    neutral, mark = all_neutral(module), mark_held(module)

    def chunk(model, states, start, stop, controls, params, which, dt, ticks, walls):
        if has_items(walls) or not neutral(params, which, start, stop):
            each_car(model, states, start, stop, controls, params, which, dt, ticks, walls)
            return
        if ticks <= 0:
            return
        for i in range(start, stop):
            settle(states[i])
        car, u, p = _columns(states, start, stop, params, which, moved, n_held, n_params)
        for j in range(stop - start):
            i = start + j
            c = controls[i] if controls.shape[0] > 1 else controls[0]
            values = held_of((c[0], c[1], c[2], c[3], c[4]), p, j, dt)
            for k in range(n_held):
                u[k, j] = values[k]
        if is_open(walls):
            for _ in range(ticks):
                for j in range(stop - start):
                    step(car, u, p, j, dt, None)
        else:
            look, at = among_walls(car, p)
            for _ in range(ticks):
                step_among(car, look, at, u, p, dt, walls)
        _back(states, start, car, moved)
        for j in range(stop - start):
            show(states[start + j], held_values(u, j))
            c = controls[start + j] if controls.shape[0] > 1 else controls[0]
            mark(states[start + j], c[0], params[which[start + j]])

    return chunk


def trace_controls(module, each_car):
    """The loop of cars start..stop-1 through the control rows of `trace`, one a
    tick: each tick `held` for every car, then `advance` across the chunk; as
    `held_controls`, `each_car` on a track with cones or surfaces."""
    moved, n_held, n_params, code = _code(module)
    settle, show, held_of, step, step_among, among_walls, held_values = module.settle, module.show, *code
    neutral, mark = all_neutral(module), mark_held(module)

    def chunk(model, states, start, stop, trace, params, which, dt, walls):
        if has_items(walls) or not neutral(params, which, start, stop):
            each_car(model, states, start, stop, trace, params, which, dt, walls)
            return
        if trace.shape[0] == 0:
            return
        for i in range(start, stop):
            settle(states[i])
        car, u, p = _columns(states, start, stop, params, which, moved, n_held, n_params)
        look, at = among_walls(car, p)
        for t in range(trace.shape[0]):
            c = (trace[t, 0], trace[t, 1], trace[t, 2], trace[t, 3], trace[t, 4])
            for j in range(stop - start):
                values = held_of(c, p, j, dt)
                for k in range(n_held):
                    u[k, j] = values[k]
            if is_open(walls):
                for j in range(stop - start):
                    step(car, u, p, j, dt, None)
            else:
                step_among(car, look, at, u, p, dt, walls)
        _back(states, start, car, moved)
        for j in range(stop - start):
            show(states[start + j], held_values(u, j))
            mark(states[start + j], trace[trace.shape[0] - 1, 0], params[which[start + j]])

    return chunk


@kernel
def _columns(states, start, stop, params, which, moved, n_held, n_params):
    """Local columns of cars start..stop-1: their state slots `moved`, room for their
    held values, their tunings."""
    m = stop - start
    car = np.empty((moved.shape[0], m))
    u = np.empty((n_held, m))
    p = np.empty((n_params, m))
    for j in range(m):
        i = start + j
        for k in range(moved.shape[0]):
            car[k, j] = states[i, moved[k]]
        for k in range(n_params):
            p[k, j] = params[which[i], k]
    return car, u, p


@kernel
def _back(states, start, car, moved):
    """The columns' state slots back into the cars' rows."""
    for j in range(car.shape[1]):
        for k in range(moved.shape[0]):
            states[start + j, moved[k]] = car[k, j]


def _code(module):
    """(the MOVED slots' columns, len(HELD), the tuning's columns read, the column functions)."""
    moved = np.array([module.STATE.offset[name] for name in module.MOVED])
    # the tuning up to the steering feel, which comes last and is not read here (a chunk
    # runs only with it at its defaults): the columns a tick reads, and no more, so the
    # loop over cars keeps them in registers (with the feel's 15 more: 14 times slower, measured)
    n_held, n_params = len(module.HELD), feel_slots(module.PARAMS)[0]
    if any(q.group != FEEL_GROUP for q in module.PARAMS[n_params:]):
        raise ValueError("a chunked model's steering feel parameters come last in its PARAMS")
    return moved, n_held, n_params, _column_steps(module, len(module.MOVES), len(moved), n_held, n_params)


def _column_steps(module, n_moves: int, n_moved: int, n_held: int, n_params: int):
    """held_of(c, p, j, dt): `held` for car j's tuning column of `p`;
    step(car, u, p, j, dt, walls): car j's column of `car` advanced one tick;
    held_values(u, j): car j's held values as a tuple.
    A column is read as a tuple of floats of a length fixed when compiling
    (`_column`), each function inlined where called. Plain closures in this file,
    compiled into the cached drivers: nothing is written with `exec`."""
    held, advance = module.held, module.advance  # both `@kernel(inline=True)`
    if module.MOVES[:2] != ("x", "y"):
        raise ValueError("a chunked model's MOVES start with its position, x and y")
    first = first_shape_slot(module.PARAMS)
    read = input_reader(module)

    @inlined
    def held_of(c, p, j, dt):
        # the steer as the tick reads it (a chunk runs only with the steering feel at its defaults)
        tuning = _column(p, j, n_params)
        return held((read(c[0], tuning), c[1], c[2], c[3], c[4]), tuning, dt)

    @inlined
    def step(car, u, p, j, dt, walls):
        moves = _column(car, j, n_moves)
        after = advance(moves, _column(u, j, n_held), _column(p, j, n_params), dt, walls)
        for k in range(n_moved):
            car[k, j] = after[k]

    @inlined
    def step_among(car, look, at, u, p, dt, walls):
        # every car moved as on the open field (the loop the compiler vectorises); each
        # car's look-up whether that move came within reach of a wall, its arithmetic in
        # a loop without a branch or a read of the world (vectorised too); then the few
        # that came near a wall moved again from where they were (`look`'s first rows),
        # meeting it. The same test, to the bit, as the one-car tick's `clear_of_walls`.
        m = car.shape[1]
        k, raster, values = clearance_look(walls)
        for i in range(n_moved):
            for j in range(m):
                look[i, j] = car[i, j]
        for j in range(m):
            step(car, u, p, j, dt, None)
        for j in range(m):
            mx, my = padded_move(look[0, j], look[1, j], car[0, j], car[1, j])
            look[n_moved + 1, j] = needed_clearance(look[n_moved, j], mx, my, k)
            look[n_moved + 2, j], at[j] = raster_look(raster, look[0, j] * k, look[1, j] * k)
        for j in range(m):
            if not max(look[n_moved + 2, j], values[at[j]]) > look[n_moved + 1, j]:
                for i in range(n_moved):
                    car[i, j] = look[i, j]
                step(car, u, p, j, dt, walls)

    @inlined
    def among_walls(car, p):
        # room for step_among: the cars' slots before a tick, their shapes' reach
        # (`shape_reach`, held with the tuning), the clearance each move needs and the
        # look-ups' distances outside the raster; and where each look-up reads
        m = car.shape[1]
        look = np.empty((n_moved + 3, m))
        for j in range(m):
            look[n_moved, j] = shape_reach(_column(p, j, n_params), first)
        return look, np.empty(m, dtype=np.int64)

    @inlined
    def held_values(u, j):
        return _column(u, j, n_held)

    return held_of, step, step_among, among_walls, held_values


@intrinsic
def _column(typingctx, a, j, length):
    """(a[0, j], a[1, j], … a[length - 1, j]) for a constant `length`, read straight
    from the array. numba's `to_fixed_tuple` takes a 1-D array, so it needs a view
    a[:, j] per car, and with it the loop over cars was not vectorised (numba 0.68.1:
    no packed arithmetic left in the drivers' machine code; with this, as much as
    when the columns were read by code written out with `exec`)."""
    if not isinstance(length, types.IntegerLiteral):
        raise RequireLiteralValue("the column's length must be a constant")
    tuple_type = types.UniTuple(a.dtype, length.literal_value)

    def codegen(context, builder, signature, args):
        def impl(a, j, out):
            for k in range(len(out)):
                out = tuple_setitem(out, k, a[k, j])
            return out

        inner = typing.signature(tuple_type, signature.args[0], signature.args[1], tuple_type)
        return context.compile_internal(
            builder, impl, inner, [args[0], args[1], context.get_constant_undef(tuple_type)]
        )

    return tuple_type(a, j, length), codegen
