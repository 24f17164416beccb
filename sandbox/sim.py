"""Fixed-tick simulation runner shared by the window, the CLI and the tests.

Physics advances in whole ticks of 1/hz seconds; wall-clock time only decides how
many ticks run (accumulator), never what a tick computes, so the same controls give
the same trajectory whatever the frame rate.
"""

from __future__ import annotations

from types import ModuleType
from typing import Callable, Mapping

import numpy as np

from .allocator import keep_freed_memory
from .models.state import Controls, State

DEFAULT_HZ = 60
TICK_RATES = (30, 60, 120, 144, 240)
"""Hz offered in the window and allowed in presets (the CLI takes any 10-1000)."""
MAX_CATCH_UP = 0.25
"""s: a frame longer than this runs only this much physics (the game slows, the
physics stays the same) so one stall cannot trigger a burst of hundreds of ticks."""


class Simulation:
    """A batch of cars under one model, stepped at a fixed rate."""

    def __init__(self, model: ModuleType, params: Mapping[str, float], n: int = 1, hz: int = DEFAULT_HZ):
        self.model = model
        self.params = params
        self.hz = hz
        self.n = n
        self.reset()

    @property
    def dt(self) -> float:
        return 1.0 / self.hz

    @property
    def time(self) -> float:
        """Simulated seconds since the last reset."""
        return self.ticks / self.hz

    def reset(self) -> None:
        self.state = State.at_rest(self.n)
        self.ticks = 0
        self._accumulator = 0.0

    def tick(self, controls: Controls) -> State:
        """Advance exactly one physics tick."""
        self.state = self.model.step(self.state, controls, self.params, self.dt)
        self.ticks += 1
        return self.state

    def advance(self, elapsed: float, controls_for_tick: Callable[[], Controls],
                on_tick: Callable[[State], None] | None = None, max_ticks: int | None = None) -> int:
        """Run as many whole ticks as `elapsed` wall seconds (plus leftovers) allow,
        at most `max_ticks`. Returns the number of ticks run; the fraction of a tick
        left over carries on (dropped when `max_ticks` stopped the run)."""
        self._accumulator += min(elapsed, MAX_CATCH_UP)
        ran = 0
        while self._accumulator >= self.dt:
            if max_ticks is not None and ran >= max_ticks:
                self._accumulator = 0.0
                break
            self._accumulator -= self.dt
            self.tick(controls_for_tick())
            if on_tick is not None:
                on_tick(self.state)
            ran += 1
        return ran


def run_trace(model: ModuleType, params: Mapping[str, float], trace: np.ndarray, hz: int = DEFAULT_HZ) -> np.ndarray:
    """Replay a control trace (rows of steer, throttle, brake[, handbrake, shift]) from
    rest at the origin.

    Returns an array of rows `t, x, y, heading, vx, vy, speed, slip_angle`, one per
    tick, each the state after that tick.
    """
    sim = Simulation(model, params, n=1, hz=hz)
    out = np.empty((len(trace), 8), dtype=np.float64)
    for i, row in enumerate(trace):
        s = sim.tick(Controls(*row))
        out[i] = (sim.time, s.x[0], s.y[0], s.heading[0], s.vx[0], s.vy[0], s.speed[0], s.slip_angle[0])
    return out


BATCH_CHUNK = 16_384
"""cars: a large batch runs in slices of this many, each slice for the whole run, so
its state stays in the CPU cache from tick to tick: a million cars then cost per car
about what 10 000 do (`car-sandbox bench`, scaling), instead of growing slower as
the arrays outgrow the cache."""


def chunks(n: int, size: int = BATCH_CHUNK) -> list[slice]:
    """Slices covering range(n) in pieces of at most `size`."""
    return [slice(start, min(start + size, n)) for start in range(0, max(n, 1), size)]


def take(values: Mapping[str, object] | Controls, part: slice, n: int):
    """The cars `part` of parameters (a mapping) or controls: arrays of length `n` are
    sliced, scalars and anything else are shared."""
    cut = lambda v: v[part] if np.ndim(v) == 1 and len(v) == n else v  # noqa: E731
    if isinstance(values, Controls):
        return Controls(*(cut(getattr(values, f)) for f in ("steer", "throttle", "brake", "handbrake", "shift")))
    return {k: cut(v) for k, v in values.items()}


def run_batch(model: ModuleType, params: Mapping[str, object], n: int,
              controls: Controls | Callable[[int], Controls], ticks: int, hz: float = DEFAULT_HZ,
              chunk: int = BATCH_CHUNK) -> list[State]:
    """`n` cars from rest for `ticks` ticks; returns the final state of each slice of
    `chunk` cars, in order. `controls` are held (scalars or arrays of length n) or
    come from controls(tick) for every tick."""
    keep_freed_memory()  # no page faults for the arrays each tick allocates anew
    out = []
    for part in chunks(n, chunk):
        p = take(params, part, n)
        held = None if callable(controls) else take(controls, part, n)
        state = State.at_rest(part.stop - part.start)
        for tick in range(ticks):
            state = model.step(state, held if held is not None else take(controls(tick), part, n), p, 1.0 / hz)
        out.append(state)
    return out
