"""Force-vs-speed curves for a tuning at a tick rate (no Qt)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from types import ModuleType
from typing import Mapping

import numpy as np

from ..csv_rows import format_rows

CURVE_POINTS = 241
UNLIMITED_EXTENT = {"px": 1000.0, "m": 60.0}
"""Speed range (model units/s) of the curve when nothing limits the top speed."""


@dataclass
class ForceCurve:
    """Accelerations along the heading (model units, e.g. px/s²) against speed.

    `terms` are the model's own (the arcade's engine, friction, drag), always with
    `net`, the acceleration at full throttle.
    """

    speeds: np.ndarray
    terms: dict[str, np.ndarray]
    top_speed: float  # where net = 0; inf when nothing limits the speed
    unit: str

    @property
    def columns(self) -> tuple[str, ...]:
        return ("speed",) + tuple(self.terms)

    def rows(self) -> np.ndarray:
        return np.column_stack([self.speeds] + list(self.terms.values()))


def force_curve(model: ModuleType, params: Mapping[str, float], hz: float) -> ForceCurve:
    """The model's force curve from 0 to 1.25 × top speed (UNLIMITED_EXTENT if none)."""
    dt = 1.0 / hz
    top = model.top_speed(params, dt)
    extent = 1.25 * top if math.isfinite(top) and top > 0 else UNLIMITED_EXTENT.get(model.LENGTH_UNIT, 1000.0)
    speeds = np.linspace(0.0, extent, CURVE_POINTS)
    unit = f"{model.LENGTH_UNIT}/s²"
    return ForceCurve(speeds, model.force_curve(params, speeds, dt), top, unit)


def curve_csv(curve: ForceCurve) -> str:
    return format_rows(curve.columns, curve.rows())


def time_to_cover(odometer: np.ndarray, distance: float, dt: float, final_speed: float) -> float:
    """Seconds a car took to first cover `distance`, from its distance travelled after
    each tick (`odometer[0]` = 0 at the start, one entry per tick after): linear
    between ticks; beyond the last tick at its final speed (inf if it has stopped).
    The ghosts' "end of trace" readout: when each reached the point where the car
    ended the drive."""
    reached = np.nonzero(odometer >= distance)[0]
    if len(reached):
        k = int(reached[0])
        if k == 0:
            return 0.0
        before, after = float(odometer[k - 1]), float(odometer[k])
        return (k - 1 + (distance - before) / (after - before)) * dt
    duration = (len(odometer) - 1) * dt
    return duration + (distance - float(odometer[-1])) / final_speed if final_speed > 0 else math.inf
