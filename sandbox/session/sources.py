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

    def __init__(self, rows, name: str, start: State | None = None, device=None):
        self.rows = np.asarray(rows, dtype=np.float64)
        self.name = name
        self.start = start
        self.device_rows = None if device is None else np.asarray(device, dtype=np.float64)
        """(n, 3) the raw device values recorded with the trace (steer, throttle, brake), or None."""
        self.device = None  # the last tick's row of them

    def __len__(self) -> int:
        return len(self.rows)

    def controls_for_tick(self, tick: int) -> Controls:
        if self.device_rows is not None:
            self.device = self.device_rows[tick]
        return Controls(*self.rows[tick])


def larger_controls(a: Controls, b: Controls) -> Controls:
    """Per control, the input further from rest (the keyboard and a pad held at once: the
    larger wins): the steer of larger magnitude (`a`'s on a tie), the larger pedal and
    handbrake, and `a`'s shift unless it has none."""
    return Controls(
        steer=a.steer if abs(a.steer) >= abs(b.steer) else b.steer,
        throttle=max(a.throttle, b.throttle),
        brake=max(a.brake, b.brake),
        handbrake=max(a.handbrake, b.handbrake),
        shift=a.shift or b.shift,
    )


class PadSource:
    """Game controllers beside another source (the keyboard): the window polls the pads
    once a frame and hands each reading to `update`; every tick then reads, per control,
    the larger of the other source's and the pads' (`larger_controls`). A gear shift
    pressed on a pad counts once, on the first tick after the poll that saw it."""

    def __init__(self, other: ControlSource | None = None):
        self.other = other or HeldControls()
        self.pads = Controls()
        self.reading = None  # the last poll's (its devices' raw values: the plots' input groups)
        self._shift = 0.0

    def update(self, reading) -> None:
        """Takes a poll's reading (its `controls` and `shift`; pads.PadsReading)."""
        self.reading = reading
        c = reading.controls
        self.pads = Controls(c.steer, c.throttle, c.brake, c.handbrake, 0.0)
        if reading.shift:
            self._shift = float(reading.shift)

    def controls_for_tick(self, tick: int) -> Controls:
        return self.beside(self.other.controls_for_tick(tick))

    def beside(self, other: Controls) -> Controls:
        """This tick's controls of the pads and `other` (the other source's, read this
        tick), per control the larger: the pads' gear shift pressed since the last
        poll counts here, once."""
        pads = self.pads
        if self._shift:
            pads, self._shift = Controls(pads.steer, pads.throttle, pads.brake, pads.handbrake, self._shift), 0.0
        return larger_controls(other, pads)
