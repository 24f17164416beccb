"""Parameter sweeps: a grid of tunings simulated as one batch (metrics.compute)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from types import ModuleType
from typing import Callable, Mapping

import numpy as np

from ..files.traces import format_rows
from ..errors import UserError
from .metrics import METRICS, compute

MAX_POINTS = 100_000
CHUNK = 256
"""Tunings computed at a time (then progress is reported and a cancel is seen)."""


@dataclass(frozen=True)
class Axis:
    """One swept parameter: `count` values from `low` to `high` inclusive."""

    name: str
    low: float
    high: float
    count: int

    @property
    def values(self) -> np.ndarray:
        return np.linspace(self.low, self.high, self.count)


def parse_axis(text: str, model: ModuleType) -> Axis:
    """NAME=LO:HI:N, checked against the model's declaration."""
    declared = {p.name: p for p in model.PARAMS}
    try:
        name, span = text.split("=", 1)
        low, high, count = span.split(":")
        low, high, count = float(low), float(high), int(count)
    except ValueError:
        raise UserError(f"--param {text!r}: expected NAME=LO:HI:N, e.g. drag=-0.1:-0.01:10") from None
    if name not in declared:
        raise UserError(f"--param {text!r}: {name!r} is not a parameter of {model.NAME} "
                        f"({', '.join(p.name for p in model.PARAMS if not p.is_bool)})")
    p = declared[name]
    if p.is_bool:
        raise UserError(f"--param {text!r}: {name} is a switch; sweep numbers only")
    for value in (low, high):
        try:
            p.check(value)
        except ValueError as exc:
            raise UserError(f"--param {text!r}: {exc}") from None
    if not 1 <= count <= 1000:
        raise UserError(f"--param {text!r}: N must be 1 … 1000")
    return Axis(name, low, high, count)


def grid_of(axes: list[Axis]) -> np.ndarray:
    """Every combination of the axes' values, one row per point, one column per axis;
    UserError if the axes do not make a sweep."""
    if not 1 <= len(axes) <= 2:
        raise UserError("sweep one or two parameters")
    if len({a.name for a in axes}) != len(axes):
        raise UserError("the two swept parameters must differ")
    grid = np.array(list(itertools.product(*[a.values for a in axes])), dtype=np.float64)
    if len(grid) > MAX_POINTS:
        raise UserError(f"{len(grid)} grid points is more than {MAX_POINTS}")
    return grid


def batch_params(base: Mapping[str, object], axes: list[Axis], points: np.ndarray) -> dict:
    """Parameters of a batch: `base` for every point, the swept ones from `points`."""
    params = {k: np.full(len(points), v, dtype=bool if isinstance(v, bool) else np.float64) for k, v in base.items()}
    for i, axis in enumerate(axes):
        params[axis.name] = points[:, i]
    return params


def run(model: ModuleType, base: Mapping[str, object], axes: list[Axis], hz: float,
        progress: Callable[[int, int], None] | None = None,
        cancelled: Callable[[], bool] | None = None, chunk: int = CHUNK) -> tuple[np.ndarray, dict] | None:
    """(grid of swept values, one column per axis; metrics per grid point), computed
    `chunk` points at a time (memory bounded by a chunk's batch); `progress(done, total)`
    after each, and None as soon as `cancelled()` says so."""
    grid = grid_of(axes)
    results: dict[str, list] = {name: [] for name in METRICS}
    for start in range(0, len(grid), chunk):
        if cancelled is not None and cancelled():
            return None
        part = grid[start:start + chunk]
        values = compute(model, batch_params(base, axes, part), hz)
        for name in METRICS:
            results[name].append(values[name])
        if progress is not None:
            progress(min(start + chunk, len(grid)), len(grid))
    return grid, {name: np.concatenate(parts) for name, parts in results.items()}


def csv_text(axes: list[Axis], grid: np.ndarray, values: Mapping[str, np.ndarray]) -> str:
    """One row per grid point: the swept values, then every metric."""
    names = list(METRICS)
    rows = np.column_stack([grid] + [values[n] for n in names])
    return format_rows(tuple(a.name for a in axes) + tuple(names), rows)


def check_metric(name: str) -> str:
    if name not in METRICS:
        raise UserError(f"--metric {name!r}: not a metric ({', '.join(METRICS)})")
    return name
