"""The lap driver at the wheel of the drive session: a control source whose controls each
tick come from the driver's control law (`analysis/lap_driver.driver_controls`, the
same compiled code the headless drive runs), following a lap plan (the racing line at
the car's own speed profile, `analysis/lap_plan.plan_lap`, as practice leaves it:
`analysis/driven_laps.practised_plan`)."""

from __future__ import annotations

from typing import Callable

import numpy as np

from ..analysis.lap_driver import MEM_SLOTS, driver_controls, driver_follow, driver_path, driver_place, driver_setup
from ..analysis.lap_plan import LapPlan
from ..physics.state import Controls, State


class DriverSource:
    """The driver as a `ControlSource`: `car()` gives the car's state before the tick
    asked for. Its memory (where it is along the line, the throttle it holds) is placed
    anew on tick 0 (after a reset) and whenever the ticks it is asked for are not one
    after another (the car driven by something else in between)."""

    def __init__(self, plan: LapPlan, model, tuning, hz: float, car: Callable[[], State]):
        self.plan = plan
        self.path, self.path_s, self.speeds = driver_path(plan.line.points, plan.speeds, plan.line.room)
        self.setup = driver_setup(model, tuning, self.speeds, hz, plan.limits.full_lock_radius)
        self.dt = 1.0 / hz
        self.car = car
        self.memory = np.zeros(MEM_SLOTS)
        self.controls = np.zeros(5)
        self._last: int | None = None  # the tick asked for last

    def controls_for_tick(self, tick: int) -> Controls:
        s = np.ascontiguousarray(self.car().data[0], dtype=np.float64)
        if tick == 0 or self._last is None or tick != self._last + 1:
            driver_place(s, self.path, self.path_s, self.speeds, self.setup, self.memory)
        else:  # what the headless drive does after each tick, done before the next
            driver_follow(s, self.dt, self.path, self.path_s, self.setup, self.memory)
        self._last = tick
        driver_controls(s, self.dt, self.path, self.path_s, self.speeds, self.setup, self.memory, self.controls)
        return Controls(*(float(v) for v in self.controls))
