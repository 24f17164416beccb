"""The `kernel` decorator: how every compiled function of the physics is compiled.

numba's `njit` with the options every kernel shares, written once:
- cache=True: compiled once, then loaded from the kernel cache (`kernel_cache`),
  whose files are read and written checked (`kernel_cache_guard`, installed here,
  before any kernel is declared);
- nogil=True: worker threads run kernels beside the window;
- error_model="numpy": a division by zero gives inf or NaN as in numpy (and as in
  Godot), not a Python exception, and costs no check per division.
No fastmath: results are IEEE float64, the same bits on every run.
"""

from __future__ import annotations

from numba import njit

from .kernel_cache_guard import install

install()

OPTIONS = {"cache": True, "nogil": True, "error_model": "numpy"}
"""numba's options for every kernel (also the `jit_options` of an `overload`)."""
INLINED = {key: value for key, value in OPTIONS.items() if key != "cache"}
"""numba's options for a closure compiled only written into a driver (cached with it)."""


def inlined(function):
    """`@inlined`: a closure a driver is built with (a model's step made for its
    columns, say), compiled only written into that driver and cached with it."""
    return njit(inline="always", **INLINED)(function)


def kernel(function=None, *, parallel: bool = False, inline: bool = False):
    """`@kernel` compiles a function of floats and arrays for one car (or a batch
    loop: `@kernel(parallel=True)` spreads its `prange` over the cores).
    `@kernel(inline=True)`: numba writes it into each caller (a step of a tick, so the
    tick is one body again and a batch's loop over cars holds no call)."""
    options = dict(OPTIONS, parallel=True) if parallel else OPTIONS
    if inline:
        options = dict(options, inline="always")
    if function is None:
        return njit(**options)
    return njit(**options)(function)
