"""Model registry. Every model is a module with the same interface:

- NAME, TITLE, LENGTH_UNIT: identifiers and the unit of length
- PARAMS: tuple of `Param`, the one declaration of its parameters
- STATE: the `Layout` of one car's state row (common slots, then the model's own)
- tick(s, c, p, dt): the compiled kernel, one car one tick, in place
- force_curve(params, speeds, dt) -> dict of arrays, top_speed(params, dt) -> float
- body(params) -> dict of drawing sizes (wheel_base, track, length, width)
- CHANNELS: what it produces per tick (`channels.Channel`s: name, label, unit, slot);
  PRESETS: the plots' channel presets, name -> channel names
- HUD: what the status line and the dashboard show ({"regimes": ((test, text), ...),
  "gauges": {"rpm": slot, "gear": slot}}, read by session/hud.py)
- REFERENCE_POINT, TOP_SPEED_FORMULA, NO_TOP_SPEED: words for the metrics' tables

Optionally, a tick split the arcade's way (settle, held, advance, show, with HELD,
MOVES and MOVED), which the batch drivers advance a chunk of cars at a time
(physics/chunks.py); `tick` is then those four in a row.

From Python a batch of cars is stepped by the runner: `sim.step(model, state,
controls, params, dt, ticks=1)`, `ticks` ticks with the controls held, in one
compiled call.
"""

from __future__ import annotations

from types import ModuleType

from ..state import Controls, State
from . import ackermann, arcade, bicycle, monster, rigid_body

MODELS: dict[str, ModuleType] = {m.NAME: m for m in (arcade, bicycle, ackermann, rigid_body, monster)}
DEFAULT_MODEL = arcade.NAME


def get_model(name: str) -> ModuleType:
    """The model module called `name`; KeyError lists the known ones."""
    try:
        return MODELS[name]
    except KeyError:
        raise KeyError(f"unknown model {name!r} (known: {', '.join(sorted(MODELS))})") from None


__all__ = ["MODELS", "DEFAULT_MODEL", "get_model", "Controls", "State"]
