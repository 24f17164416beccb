"""Compiled drivers around the models' one-car kernels: written once for every model.

A model is picked by its number in `ORDER`, passed as a compile-time constant
(`numba.literally`), so each driver is compiled once per model, with that model's
tick inlined, and cached on disk like any other kernel. Python enters a driver
once per batch, trace or manoeuvre, never once per tick.

Arrays (float64, C order): a car's state is a row laid out by its model's `STATE`;
controls rows are (steer, throttle, brake, handbrake, shift); a tuning is a row laid
out by the model's `PARAMS`, and `which[i]` is the tuning row of car i.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import literally, prange
from numba.extending import overload

from .kernel import OPTIONS, kernel
from .models import MODELS

ORDER = tuple(MODELS.values())
"""The models the drivers know, by number."""

_MACHINE_CODE: dict = {}


def call(driver, model: int, *args):
    """driver(model, *args), straight into its compiled code for that model.

    A driver takes the model number as a compile-time constant (`literally`); called
    from Python with a plain int, numba retypes the call every time before it finds
    that specialisation, about 10 ms a call. The first call compiles (or loads) it as
    usual; later ones go to the machine code it left (about 1 µs)."""
    key = (driver, model) + tuple(_kind(a) for a in args)
    entry = _MACHINE_CODE.get(key)
    if entry is None:
        result = driver(model, *args)
        signature = (numba.types.literal(model),) + tuple(numba.typeof(a) for a in args)
        if signature in driver.overloads:
            _MACHINE_CODE[key] = driver.overloads[signature].entry_point
        return result
    return entry(model, *args)


def _kind(value):
    """What decides an argument's numba type, cheaply (numba.typeof costs ~30 µs an
    array): an array's dtype, dimensions and layout flags, else the Python type."""
    if isinstance(value, np.ndarray):
        flags = value.flags
        return value.dtype.num, value.ndim, flags.c_contiguous, flags.f_contiguous, flags.writeable, flags.aligned
    return type(value)


def tick(model, s, c, p, dt):
    """One tick of car row `s` under model number `model`, inside compiled code only."""
    raise TypeError("kernels.tick is called from compiled code; from Python use sim.step")


@overload(tick, jit_options=OPTIONS)
def _tick_of(model, s, c, p, dt):
    """The model's own kernel, chosen while compiling: `model` is a literal number, so
    a driver compiled for one model holds that model's tick and no other."""
    if not isinstance(model, numba.types.IntegerLiteral):
        return None
    kernel = ORDER[model.literal_value].tick

    def one_tick(model, s, c, p, dt):
        kernel(s, c, p, dt)

    return one_tick


@kernel
def _car_held(model, states, i, controls, params, which, dt, ticks):
    """Car i for `ticks` ticks with its held controls (row i, or the one shared row)."""
    c = controls[i] if controls.shape[0] > 1 else controls[0]
    p = params[which[i]]
    s = states[i]
    for _ in range(ticks):
        tick(model, s, c, p, dt)


@kernel
def run_held(model, states, controls, params, which, dt, ticks):
    """Every car of `states` (in place) for `ticks` ticks, controls held."""
    literally(model)
    for i in range(states.shape[0]):
        _car_held(model, states, i, controls, params, which, dt, ticks)


@kernel(parallel=True)
def run_held_parallel(model, states, controls, params, which, dt, ticks):
    """`run_held` spread over the cores (each car runs alone: the same bits)."""
    literally(model)
    for i in prange(states.shape[0]):
        _car_held(model, states, i, controls, params, which, dt, ticks)


@kernel
def _car_trace(model, states, i, trace, params, which, dt):
    s = states[i]
    p = params[which[i]]
    for t in range(trace.shape[0]):
        tick(model, s, trace[t], p, dt)


@kernel
def run_trace_cars(model, states, trace, params, which, dt):
    """Every car of `states` (in place) through the same control trace (T, 5)."""
    literally(model)
    for i in range(states.shape[0]):
        _car_trace(model, states, i, trace, params, which, dt)


@kernel(parallel=True)
def run_trace_cars_parallel(model, states, trace, params, which, dt):
    """`run_trace_cars` spread over the cores."""
    literally(model)
    for i in prange(states.shape[0]):
        _car_trace(model, states, i, trace, params, which, dt)


@kernel
def record_trace(model, s, trace, p, dt, columns, out):
    """One car (row `s`, in place) through `trace`; out[t] = the state's `columns`
    after tick t (out has len(trace) rows, or fewer: the run stops there)."""
    literally(model)
    for t in range(out.shape[0]):
        tick(model, s, trace[t], p, dt)
        for j in range(columns.shape[0]):
            out[t, j] = s[columns[j]]
