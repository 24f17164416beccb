"""The tick-rate table (`rates` command): straight-line drives at each tick rate, in
compiled code (manoeuvres.car_drive, the metrics' own straight run)."""

from __future__ import annotations

from types import ModuleType
from typing import Mapping

import numpy as np

from ..physics import kernels
from ..physics.sim import model_number, tuning_rows
from . import manoeuvres

DRIVE_LIMIT_S = 120.0
"""s: longest simulated run of one drive (a car that never settles or stops is cut off)."""


def drive_metrics(model: ModuleType, params: Mapping[str, object], hz: float) -> dict[str, np.ndarray]:
    """Top speed, coast-down and braking distance by simulation, for a batch of tunings.

    `params` values may be arrays (one entry per car). Straight-line drives from rest:
    full throttle until the speed settles, by the metrics' rule, then on to its exact
    fixed point where it reaches one (top speed, length/s; inf if it never settles);
    then from there, no pedals until the car stops (coast-down distance, length), and
    full brake until the car no longer moves forward (braking distance, length).
    """
    n = max([np.size(v) for v in params.values()] + [1])
    rows, which = tuning_rows(model, params, n)
    out = np.empty((len(rows), 3))
    kernels.call(
        manoeuvres.drive_rows, model_number(model), rows, 1.0 / hz, int(DRIVE_LIMIT_S * hz), model.STATE.defaults, out
    )
    out = out[which]
    return {
        "top_speed": out[:, manoeuvres.DRIVE_TOP].copy(),
        "coast_distance": out[:, manoeuvres.DRIVE_COAST].copy(),
        "braking_distance": out[:, manoeuvres.DRIVE_BRAKE].copy(),
    }


def rate_table(model: ModuleType, params: Mapping[str, object], rates) -> list[dict]:
    """`drive_metrics` at each tick rate, recipe mode and `rate_independent`, one row
    per (hz, mode); the recipe mode alone where `rate_independent` does not apply (the
    2020 recipe)."""
    declared = {p.name: p for p in model.PARAMS}
    if "rate_independent" not in declared:
        raise ValueError(f"model {model.NAME!r} has no rate_independent option")
    modes = ("recipe", "rate_independent") if declared["rate_independent"].applies(params) else ("recipe",)
    both = {k: np.array([v] * len(modes)) for k, v in params.items()}
    both["rate_independent"] = np.array([mode != "recipe" for mode in modes])
    rows = []
    for hz in rates:
        metrics = drive_metrics(model, both, hz)
        for i, mode in enumerate(modes):
            rows.append({"hz": hz, "mode": mode, **{k: float(v[i]) for k, v in metrics.items()}})
    return rows
