"""Force-vs-speed curves for a tuning at a tick rate (no Qt)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from types import ModuleType
from typing import Mapping

import numpy as np

CURVE_POINTS = 241
CURVE_COLUMNS = ("speed", "engine", "friction", "drag", "net")


@dataclass
class ForceCurve:
    """Accelerations along the heading (model units, e.g. px/s²) against speed."""

    speeds: np.ndarray
    terms: dict[str, np.ndarray]
    top_speed: float  # where net = 0; inf when nothing limits the speed
    unit: str

    def rows(self) -> np.ndarray:
        return np.column_stack([self.speeds] + [self.terms[k] for k in CURVE_COLUMNS[1:]])


def force_curve(model: ModuleType, params: Mapping[str, float], hz: float) -> ForceCurve:
    """The model's force curve from 0 to 1.25 × top speed (or 1000 if unlimited)."""
    dt = 1.0 / hz
    top = model.top_speed(params, dt)
    extent = 1.25 * top if math.isfinite(top) and top > 0 else 1000.0
    speeds = np.linspace(0.0, extent, CURVE_POINTS)
    unit = f"{model.LENGTH_UNIT}/s²"
    return ForceCurve(speeds, model.force_curve(params, speeds, dt), top, unit)


def curve_csv(curve: ForceCurve) -> str:
    from .controls import format_rows

    return format_rows(CURVE_COLUMNS, curve.rows())
