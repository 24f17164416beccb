"""Force-vs-speed curves for a tuning at a tick rate (no Qt)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from types import ModuleType
from typing import Mapping

import numpy as np

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
    from ..files.traces import format_rows

    return format_rows(curve.columns, curve.rows())


DRIVE_LIMIT_S = 120.0
"""s: longest simulated run of one drive metric (a car that never stops is cut off)."""


def drive_metrics(model: ModuleType, params: Mapping[str, object], hz: float) -> dict[str, np.ndarray]:
    """Top speed, coast-down and braking distance by simulation, for a batch of tunings.

    `params` values may be arrays (one entry per car). Straight-line drives from rest:
    full throttle until the speed stops changing (top speed, px/s); then from there,
    no pedals until the car stops (coast-down distance, px), and full brake until the
    car no longer moves forward (braking distance, px).
    """
    from ..physics.state import Controls, State

    n = max([np.size(v) for v in params.values()] + [1])
    dt = 1.0 / hz
    state = State.at_rest(n)
    throttle = Controls(0.0, 1.0, 0.0)
    previous = np.full(n, -1.0)
    for _ in range(int(DRIVE_LIMIT_S * hz)):
        state = model.step(state, throttle, params, dt)
        if np.all(np.abs(state.speed - previous) <= 1e-9 * np.maximum(state.speed, 1.0)):
            break
        previous = state.speed
    top = state.speed.copy()

    def distance_until(controls: Controls, moving) -> np.ndarray:
        s = state.copy()
        travelled = np.zeros(n)
        going = moving(s)
        for _ in range(int(DRIVE_LIMIT_S * hz)):
            if not going.any():
                break
            after = model.step(s, controls, params, dt)
            travelled += np.where(going, np.hypot(after.x - s.x, after.y - s.y), 0.0)
            s = after
            going &= moving(s)
        return travelled

    forward = lambda s: (np.cos(s.heading) * s.vx + np.sin(s.heading) * s.vy) > 0  # noqa: E731
    coast = distance_until(Controls(0.0, 0.0, 0.0), lambda s: s.speed > 0)
    braking = distance_until(Controls(0.0, 0.0, 1.0), forward)
    return {"top_speed": top, "coast_distance": coast, "braking_distance": braking}


def rate_table(model: ModuleType, params: Mapping[str, object], rates) -> list[dict]:
    """`drive_metrics` at each tick rate, recipe mode and `rate_independent`, one row
    per (hz, mode)."""
    names = [p.name for p in model.PARAMS]
    if "rate_independent" not in names:
        raise ValueError(f"model {model.NAME!r} has no rate_independent option")
    both = {k: np.array([v, v]) for k, v in params.items()}
    both["rate_independent"] = np.array([False, True])
    rows = []
    for hz in rates:
        metrics = drive_metrics(model, both, hz)
        for i, mode in enumerate(("recipe", "rate_independent")):
            rows.append({"hz": hz, "mode": mode, **{k: float(v[i]) for k, v in metrics.items()}})
    return rows


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
