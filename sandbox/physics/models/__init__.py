"""Model registry. Every model is a module with the same interface:

- NAME, TITLE, LENGTH_UNIT: identifiers and the unit of length
- PARAMS: tuple of `Param`, the one declaration of its parameters
- step(state, controls, params, dt) -> State, vectorized over cars
- force_curve(params, speeds, dt) -> dict of arrays, top_speed(params, dt) -> float
- body(params) -> dict of drawing sizes (wheel_base, track, length, width)
- TELEMETRY: plot channel groups, name -> (unit, ((state key, label, factor), ...))
"""

from __future__ import annotations

from types import ModuleType

from . import ackermann, arcade, bicycle, monster, rigid_body
from ..state import Controls, State

MODELS: dict[str, ModuleType] = {m.NAME: m for m in (arcade, bicycle, ackermann, rigid_body, monster)}
DEFAULT_MODEL = arcade.NAME


def get_model(name: str) -> ModuleType:
    """The model module called `name`; KeyError lists the known ones."""
    try:
        return MODELS[name]
    except KeyError:
        raise KeyError(f"unknown model {name!r} (known: {', '.join(sorted(MODELS))})") from None


__all__ = ["MODELS", "DEFAULT_MODEL", "get_model", "Controls", "State"]
