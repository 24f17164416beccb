"""Compiled drivers around the models' one-car kernels: written once for every model.

A model is picked by its number in `ORDER`, passed as a compile-time constant
(`numba.literally`), so each driver is compiled once per model, with that model's
tick inlined, and cached on disk like any other kernel. Python enters a driver
once per batch, trace or manoeuvre, never once per tick, through `call` (a compiled
entry per driver and model). A model split the arcade's way (`chunks`) has its batch
advanced a chunk of cars at a time, tick by tick, vectorised across the cars.

Arrays (float64, C order): a car's state is a row laid out by its model's `STATE`;
controls rows are (steer, throttle, brake, handbrake, shift); a tuning is a row laid
out by the model's `PARAMS`, and `which[i]` is the tuning row of car i.

Every driver's last argument, `walls`, is the world the cars drive in (`walls.Walls`,
built once per track); left out (None), the open field, compiled without contact. The
parallel drivers take no walls (the open field); their `_walls` twins take them as the
world's two arrays, the scale and the walls' restitution and friction
(`walls_arguments`). A model that meets walls (`MEETS_WALLS`: the kinematic ones with
move_and_slide, the rigid ones with an impulse) takes it as its tick's fifth argument;
any other drives as on the open field.
"""

from __future__ import annotations

import numba
from numba import literally, prange
from numba.extending import overload

from . import chunks, world_step
from .chunks import CHUNK
from .kernel import OPTIONS, kernel
from .models import MODELS
from .steer_feel import feel_step
from .walls import Walls
from .world import World

ORDER = tuple(MODELS.values())
"""The models the drivers know, by number."""

_BOUND: dict = {}
_DRIVERS: dict = {}


def walls_arguments(walls) -> tuple:
    """The last arguments of a parallel driver's `_walls` twin for `walls` (a Walls)."""
    return (walls.world.floats, walls.world.ints, float(walls.scale), float(walls.restitution), float(walls.friction))


def call(driver, model: int, *args):
    """driver(model, *args): the driver compiled for model number `model`.

    A driver takes the model number as a compile-time constant (`literally`); called
    from Python with a plain int, numba would retype the call every time before it
    finds that specialisation (about 10 ms a call). So each (driver, model) gets its
    own compiled entry, `bound`, holding the number as a constant: an ordinary
    compiled function, cached on disk, called through numba's public dispatch."""
    entry = _BOUND.get((driver, model))
    if entry is None:
        entry = _BOUND[(driver, model)] = _bound(_name(driver), model)
    return entry(*args)


def compiled(driver, model: int) -> bool:
    """Whether `call(driver, model, …)` runs compiled code already in this process (no
    compile, no load from the cache, on its next call)."""
    entry = _BOUND.get((driver, model))
    return entry is not None and bool(entry.signatures)


def _name(driver) -> str:
    """The driver's name, under which the compiled code finds it (`through`)."""
    name = f"{driver.py_func.__module__}.{driver.py_func.__qualname__}"
    _DRIVERS[name] = driver
    return name


def _bound(name: str, number: int):
    """A compiled entry calling driver `name` for model `number` (both constants of
    its closure, which is what its place in the kernel cache is keyed on)."""

    @kernel
    def bound(*args):
        return through(name, number, args)

    return bound


def through(name, model, args):
    """The driver called `name` (see `call`) for model `model`, with the tuple `args`,
    inside compiled code only."""
    raise TypeError("kernels.through is called from compiled code; from Python use kernels.call")


@overload(through)
def _through_of(name, model, args):
    if not isinstance(name, numba.types.StringLiteral):
        return None
    return _forwarder(_DRIVERS[name.literal_value], len(args))


def _forwarder(driver, arity: int):
    """driver(model, *args) for a tuple `args` of `arity` values, written out: numba
    0.68 cannot pass `*args` on to a driver that asks for a `literally` argument (it
    binds no arguments at all and says "missing a required argument: 'model'"; numba's
    *args limits are tracked in numba/numba#8108). One forwarder for each number of
    arguments a driver takes, in this file rather than written by `exec`: numba caches
    only functions it can find the source file of (numba/numba#3501)."""
    if arity == 5:

        def forward(name, model, args):
            return driver(model, args[0], args[1], args[2], args[3], args[4])

    elif arity == 6:

        def forward(name, model, args):
            return driver(model, args[0], args[1], args[2], args[3], args[4], args[5])

    elif arity == 7:

        def forward(name, model, args):
            return driver(model, args[0], args[1], args[2], args[3], args[4], args[5], args[6])

    elif arity == 8:

        def forward(name, model, args):
            return driver(model, args[0], args[1], args[2], args[3], args[4], args[5], args[6], args[7])

    elif arity == 9:

        def forward(name, model, args):
            return driver(model, args[0], args[1], args[2], args[3], args[4], args[5], args[6], args[7], args[8])

    elif arity == 10:

        def forward(name, model, args):
            return driver(
                model, args[0], args[1], args[2], args[3], args[4], args[5], args[6], args[7], args[8], args[9]
            )

    elif arity == 11:

        def forward(name, model, args):
            return driver(
                model, args[0], args[1], args[2], args[3], args[4], args[5], args[6], args[7], args[8], args[9],
                args[10],
            )  # fmt: skip

    elif arity == 15:

        def forward(name, model, args):
            return driver(
                model, args[0], args[1], args[2], args[3], args[4], args[5], args[6], args[7], args[8], args[9],
                args[10], args[11], args[12], args[13], args[14],
            )  # fmt: skip

    elif arity == 16:

        def forward(name, model, args):
            return driver(
                model, args[0], args[1], args[2], args[3], args[4], args[5], args[6], args[7], args[8], args[9],
                args[10], args[11], args[12], args[13], args[14], args[15],
            )  # fmt: skip

    elif arity == 20:

        def forward(name, model, args):
            return driver(
                model, args[0], args[1], args[2], args[3], args[4], args[5], args[6], args[7], args[8], args[9],
                args[10], args[11], args[12], args[13], args[14], args[15], args[16], args[17], args[18], args[19],
            )  # fmt: skip

    elif arity == 18:

        def forward(name, model, args):
            return driver(
                model, args[0], args[1], args[2], args[3], args[4], args[5], args[6], args[7], args[8], args[9],
                args[10], args[11], args[12], args[13], args[14], args[15], args[16], args[17],
            )  # fmt: skip

    else:
        raise TypeError(f"no forwarder for a driver of {arity} arguments besides the model: add one in kernels")
    return forward


def tick(model, s, c, p, dt):
    """One tick of car row `s` under model number `model`, inside compiled code only."""
    raise TypeError("kernels.tick is called from compiled code; from Python use sim.step")


@overload(tick, jit_options=OPTIONS)
def _tick_of(model, s, c, p, dt):
    """The model's own kernel, chosen while compiling: `model` is a literal number, so
    a driver compiled for one model holds that model's tick and no other."""
    if not isinstance(model, numba.types.IntegerLiteral):
        return None

    def one_tick(model, s, c, p, dt):
        tick_in(model, s, c, p, dt, None)

    return one_tick


def tick_in(model, s, c, p, dt, walls):
    """As `tick`, among `walls` (None: the open field), inside compiled code only."""
    raise TypeError("kernels.tick_in is called from compiled code; from Python use sim.step")


@overload(tick_in, jit_options=OPTIONS)
def _tick_in_of(model, s, c, p, dt, walls):
    """The model's kernel with the walls for a model that meets them (`MEETS_WALLS`),
    else its kernel alone; on a track, with its surfaces and cones (`world_step`); the
    steer it reads passed through the tuning's steering feel first (`steer_feel`)."""
    if not isinstance(model, numba.types.IntegerLiteral):
        return None
    module = ORDER[model.literal_value]
    kernel = module.tick
    feel = feel_step(module)
    if not isinstance(walls, (numba.types.NoneType, numba.types.Omitted)):
        on_track = world_step.on_track(module, kernel, getattr(module, "MEETS_WALLS", False))

        def among_walls(model, s, c, p, dt, walls):
            on_track(s, feel(s, c, p, dt), p, dt, walls)

        return among_walls

    if getattr(module, "MEETS_WALLS", False):

        def open_field(model, s, c, p, dt, walls):
            kernel(s, feel(s, c, p, dt), p, dt, None)

        return open_field

    def no_walls(model, s, c, p, dt, walls):
        kernel(s, feel(s, c, p, dt), p, dt)

    return no_walls


def cars_held(model, states, start, stop, controls, params, which, dt, ticks, walls):
    """Cars start..stop-1 for `ticks` ticks with their held controls, inside compiled code only."""
    raise TypeError("kernels.cars_held is called from compiled code; from Python use sim.step")


@overload(cars_held, jit_options=OPTIONS)
def _cars_held_of(model, states, start, stop, controls, params, which, dt, ticks, walls):
    """A model split the arcade's way runs its chunk tick by tick across the cars
    (`chunks`); any other model runs each car's ticks in turn."""
    if not isinstance(model, numba.types.IntegerLiteral):
        return None
    module = ORDER[model.literal_value]
    if hasattr(module, "advance"):
        return chunks.held_controls(module, each_held)
    return _each_held_of(model, states, start, stop, controls, params, which, dt, ticks, walls)


def each_held(model, states, start, stop, controls, params, which, dt, ticks, walls):
    """`cars_held` one car after another (each car's own tick), inside compiled code only."""
    raise TypeError("kernels.each_held is called from compiled code; from Python use sim.step")


@overload(each_held, jit_options=OPTIONS)
def _each_held_of(model, states, start, stop, controls, params, which, dt, ticks, walls):
    def each_car(model, states, start, stop, controls, params, which, dt, ticks, walls):
        for i in range(start, stop):
            c = controls[i] if controls.shape[0] > 1 else controls[0]
            p = params[which[i]]
            s = states[i]
            for _ in range(ticks):
                tick_in(model, s, c, p, dt, walls)

    return each_car


def cars_trace(model, states, start, stop, trace, params, which, dt, walls):
    """Cars start..stop-1 through the control rows of `trace`, inside compiled code only."""
    raise TypeError("kernels.cars_trace is called from compiled code; from Python use sim.run_batch")


@overload(cars_trace, jit_options=OPTIONS)
def _cars_trace_of(model, states, start, stop, trace, params, which, dt, walls):
    """As `cars_held`, the controls a row of `trace` per tick."""
    if not isinstance(model, numba.types.IntegerLiteral):
        return None
    module = ORDER[model.literal_value]
    if hasattr(module, "advance"):
        return chunks.trace_controls(module, each_trace)
    return _each_trace_of(model, states, start, stop, trace, params, which, dt, walls)


def each_trace(model, states, start, stop, trace, params, which, dt, walls):
    """`cars_trace` one car after another (each car's own tick), inside compiled code only."""
    raise TypeError("kernels.each_trace is called from compiled code; from Python use sim.run_batch")


@overload(each_trace, jit_options=OPTIONS)
def _each_trace_of(model, states, start, stop, trace, params, which, dt, walls):
    def each_car(model, states, start, stop, trace, params, which, dt, walls):
        for i in range(start, stop):
            s = states[i]
            p = params[which[i]]
            for t in range(trace.shape[0]):
                tick_in(model, s, trace[t], p, dt, walls)

    return each_car


@kernel
def run_held(model, states, controls, params, which, dt, ticks, walls=None):
    """Every car of `states` (in place) for `ticks` ticks, controls held."""
    literally(model)
    n = states.shape[0]
    for start in range(0, n, CHUNK):
        cars_held(model, states, start, min(start + CHUNK, n), controls, params, which, dt, ticks, walls)


@kernel(parallel=True)
def run_held_parallel(model, states, controls, params, which, dt, ticks):
    """`run_held` spread over the cores, a chunk of cars at a time (each car runs
    alone: the same bits)."""
    literally(model)
    n = states.shape[0]
    for k in prange((n + CHUNK - 1) // CHUNK):
        start = k * CHUNK
        cars_held(model, states, start, min(start + CHUNK, n), controls, params, which, dt, ticks, None)


@kernel(parallel=True)
def run_held_parallel_walls(
    model, states, controls, params, which, dt, ticks, floats, ints, scale, restitution, friction
):
    """`run_held_parallel` among walls: `walls.Walls(World(floats, ints), scale,
    restitution, friction)` given as its parts (numba's parallel loop cannot take a
    tuple holding arrays)."""
    literally(model)
    n = states.shape[0]
    for k in prange((n + CHUNK - 1) // CHUNK):
        start = k * CHUNK
        walls = Walls(World(floats, ints), scale, restitution, friction)
        cars_held(model, states, start, min(start + CHUNK, n), controls, params, which, dt, ticks, walls)


@kernel
def run_trace_cars(model, states, trace, params, which, dt, walls=None):
    """Every car of `states` (in place) through the same control trace (T, 5)."""
    literally(model)
    n = states.shape[0]
    for start in range(0, n, CHUNK):
        cars_trace(model, states, start, min(start + CHUNK, n), trace, params, which, dt, walls)


@kernel(parallel=True)
def run_trace_cars_parallel(model, states, trace, params, which, dt):
    """`run_trace_cars` spread over the cores, a chunk of cars at a time."""
    literally(model)
    n = states.shape[0]
    for k in prange((n + CHUNK - 1) // CHUNK):
        start = k * CHUNK
        cars_trace(model, states, start, min(start + CHUNK, n), trace, params, which, dt, None)


@kernel(parallel=True)
def run_trace_cars_parallel_walls(model, states, trace, params, which, dt, floats, ints, scale, restitution, friction):
    """`run_trace_cars_parallel` among walls given as their arrays (as `run_held_parallel_walls`)."""
    literally(model)
    n = states.shape[0]
    for k in prange((n + CHUNK - 1) // CHUNK):
        start = k * CHUNK
        walls = Walls(World(floats, ints), scale, restitution, friction)
        cars_trace(model, states, start, min(start + CHUNK, n), trace, params, which, dt, walls)


@kernel
def run_one(model, s, c, p, dt, ticks, walls=None):
    """One car (row `s`, in place) for `ticks` ticks with controls row `c` held, tick
    after tick: the live car's step. The same bits as a batch gives the car, and far
    quicker to compile than the batch drivers, which a window's first frame on a first
    start would otherwise wait for."""
    literally(model)
    for _ in range(ticks):
        tick_in(model, s, c, p, dt, walls)


@kernel
def record_trace(model, s, trace, p, dt, columns, out, walls=None):
    """One car (row `s`, in place) through `trace`; out[t] = the state's `columns`
    after tick t (out has len(trace) rows, or fewer: the run stops there)."""
    literally(model)
    for t in range(out.shape[0]):
        tick_in(model, s, trace[t], p, dt, walls)
        for j in range(columns.shape[0]):
            out[t, j] = s[columns[j]]
