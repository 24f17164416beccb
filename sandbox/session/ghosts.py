"""Compare cars ("ghosts"): other tunings or models driven by the same controls as the
car (or by a trace of their own: the best lap's ghost), each with its odometer, and how
far ahead or behind each is."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..physics.sim import Simulation
from ..physics.state import Controls, State
from .sources import TraceSource

MAX_GHOSTS = 4


@dataclass
class Ghost:
    """A compare car: its own simulation, drawn translucent in colour `colour` (index);
    `travelled` is its path length since the last reset, in its own length unit.
    `trace`: its own controls (tick i of its simulation reads row i; none past the
    end), else (None) the car's."""

    sim: Simulation
    body: dict
    name: str
    colour: int
    travelled: float = 0.0
    trace: TraceSource | None = None

    def controls(self, car: Controls) -> Controls:
        """Its controls for its next tick, where the car's are `car`."""
        if self.trace is None:
            return car
        tick = self.sim.ticks
        return self.trace.controls_for_tick(tick) if tick < len(self.trace) else Controls()

    def rows(self, car_rows: np.ndarray) -> np.ndarray:
        """Its control rows for the next ticks, where the car's are `car_rows`."""
        if self.trace is None:
            return car_rows
        out = np.zeros((len(car_rows), self.trace.rows.shape[1]))
        mine = self.trace.rows[self.sim.ticks : self.sim.ticks + len(car_rows)]
        out[: len(mine)] = mine
        return out


@dataclass
class Gap:
    """A ghost against the car, in the car's length unit: its speed, the distance
    between them as the crow flies (`gap`), how far it is ahead along the road
    (`ahead`, negative behind), and once a replay has ended how much earlier (−) or
    later it reached the point where the car ended it (`end_of_trace`, s)."""

    ghost: Ghost
    state: State
    scale: float
    speed: float
    gap: float
    ahead: float
    end_of_trace: float | None = None


def lead_text(ahead: float, ghost_speed: float) -> str:
    """A ghost's lead in time, ` (+0.42 s)`: the distance it is ahead along the road at
    its speed; nothing while it stands still (no time to speak of, not `nan`)."""
    if ghost_speed <= 1e-9:
        return " (standing)" if ahead else ""
    return f" ({ahead / ghost_speed:+.2f} s)"


def gap_line(gap: Gap, car_speed: float, unit: str) -> str:
    """The ghost's readout line in the car view."""
    end = "" if gap.end_of_trace is None else f" · end of trace {gap.end_of_trace:+.2f} s"
    return (
        f"ghost {gap.ghost.name}: {gap.speed:.0f} {unit}/s ({gap.speed - car_speed:+.0f}), gap {gap.gap:.1f} {unit}, "
        f"travelled {gap.ahead:+.1f} {unit}{lead_text(gap.ahead, gap.speed)}" + end
    )


def step_length(before: State, after: State) -> float:
    """The distance between a car's positions before and after a tick (one odometer step)."""
    return math.hypot(float(after.x[0] - before.x[0]), float(after.y[0] - before.y[0]))
