"""What a model shows in the HUD and the status line, read from its `HUD` declaration
(next to its CHANNELS): the regime it is in, and the engine gauges it has.

    HUD = {"regimes": ((test, text), ...), "gauges": {"rpm": slot, "gear": slot}}

A regime's text may name the tuning's values and the length unit ("{slip_speed:g}
{unit}/s"); the first regime whose test holds is shown."""

from __future__ import annotations

import math
from types import ModuleType
from typing import Callable, Mapping

from ..physics.state import State

REVERSING_DEG = 90.0
"""°: a slip angle beyond this is a car moving backwards against where it points."""

TESTS: dict[str, Callable[[State, float, float], bool]] = {
    "traction_fast": lambda state, speed, slip: bool(state.traction_fast[0]),
    "at_rest": lambda state, speed, slip: speed == 0,
    "reversing": lambda state, speed, slip: abs(slip) > REVERSING_DEG,
    "always": lambda state, speed, slip: True,
}
"""The tests a regime may name: (the car's state, its speed, its slip angle in °) -> holds."""


def regime_text(model: ModuleType, tuning: Mapping[str, object], state: State) -> str:
    """The status line's regime of the car, `"traction slow · "`; "" for a model that
    declares none."""
    regimes = model.HUD["regimes"]
    if not regimes:
        return ""
    speed = float(state.speed[0])
    slip = math.degrees(float(state.slip_angle[0]))
    for test, text in regimes:
        if TESTS[test](state, speed, slip):
            return text.format_map({**dict(tuning), "unit": model.LENGTH_UNIT}) + " · "
    return ""


def gauges(model: ModuleType, state: State) -> tuple[float | None, str | None]:
    """(rpm, gear as the dashboard writes it: "R" in reverse) where the model declares
    an engine's gauges, else (None, None)."""
    slots = model.HUD["gauges"]
    if "rpm" not in slots or "gear" not in slots:
        return None, None
    number = int(state.channel(slots["gear"])[0])
    return float(state.channel(slots["rpm"])[0]), "R" if number < 0 else str(number)
