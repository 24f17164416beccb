"""The linked game's car as the window shows it, from the newest telemetry: its pose
and body in the car view's units, its speed and slip angle for the plots (the car's
length unit; the sideslip angle the plots show for every car, physics/state.py), and its
readout line. The game's car is not simulated here: it is drawn where the game says."""

from __future__ import annotations

import math
from dataclasses import dataclass
from types import ModuleType
from typing import Mapping

from ..physics.models import MODELS
from ..physics.params import Tuning
from ..physics.state import sideslip

STALE_S = 2.0
"""s without telemetry after which the game's car is no longer drawn (the game paused,
quit or lost the link)."""


@dataclass(frozen=True)
class GameCar:
    """The game's car in the car view's units: position (x, y), heading (rad), body
    (drawing sizes), speed (units/s), slip angle (°) and its readout line."""

    x: float
    y: float
    heading: float
    body: dict
    speed: float
    slip_deg: float
    line: str


def game_body(
    name: str, params: Mapping[str, object], model: ModuleType, tuning: Mapping[str, object], scale: float
) -> dict:
    """Drawing sizes of the game's car in the view's units: of the game's model with the
    values the game sent where that model takes them (times `scale`, the game's unit in
    the view's); the window's car's own when the game drives the window's model or
    names none the sandbox knows."""
    other = MODELS.get(name)
    if other is None or other is model:
        return model.body(tuning)
    values = Tuning(other.PARAMS)
    for key, value in params.items():
        try:
            values.set(key, value)
        except (KeyError, ValueError):  # a value the sliders would refuse: the default's size
            continue
    return {key: size * scale for key, size in other.body(values).items()}


def game_car(t, scale: float, body: dict, unit: str, name: str) -> GameCar:
    """The car of telemetry `t` (x, y, heading, vx, vy in the game's units) in the
    view's units: lengths times `scale`; `body` is in the view's units already, `unit`
    is the view's length unit."""
    speed = math.hypot(t.vx, t.vy) * scale
    slip = math.degrees(float(sideslip(t.heading, t.vx, t.vy)))
    line = f"game {name}: {speed:.0f} {unit}/s · slip {slip:+.1f}° · tick {t.tick}"
    return GameCar(t.x * scale, t.y * scale, t.heading, body, speed, slip, line)
