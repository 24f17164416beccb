"""Where a tick's controls come from: one interface for every source (the keyboard in
the window, a replayed trace here; a game controller, a network peer or a driver
program tomorrow)."""

from __future__ import annotations

from typing import Protocol

import numpy as np

from ..physics.state import Controls, State


class ControlSource(Protocol):
    """Anything that gives the controls of each physics tick."""

    def controls_for_tick(self, tick: int) -> Controls:
        """The controls of tick `tick` (0: the first tick after a reset); read once per
        tick, in order."""
        ...


class HeldControls:
    """The same controls every tick (default: none: a car left alone)."""

    def __init__(self, controls: Controls | None = None):
        self.controls = controls or Controls()

    def controls_for_tick(self, tick: int) -> Controls:
        return self.controls


class TraceSource:
    """A control trace: rows of steer, throttle, brake[, handbrake, shift], one per
    tick from `start` (None: from rest at the origin); tick i reads row i."""

    def __init__(self, rows, name: str, start: State | None = None):
        self.rows = np.asarray(rows, dtype=np.float64)
        self.name = name
        self.start = start

    def __len__(self) -> int:
        return len(self.rows)

    def controls_for_tick(self, tick: int) -> Controls:
        return Controls(*self.rows[tick])
