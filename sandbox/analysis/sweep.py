"""Parameter sweeps: a grid of tunings simulated as one batch (metrics.compute)."""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass
from types import ModuleType
from typing import Callable, Mapping

import numpy as np

from ..csv_rows import format_rows
from ..errors import UserError
from ..physics.params import effective_params
from ..physics.track import Track
from .lap_metrics import figure_names, measure, metric_of

MAX_POINTS = 100_000
CHUNK = 256
"""Tunings computed at a time (then progress is reported and a cancel is seen)."""


NOISE_DECIMALS = 10
"""Decimals an axis without declared ones is rounded to: spacing's binary noise
(7.800000000000001) goes, every step a parameter declares stays."""


@dataclass(frozen=True)
class Axis:
    """One swept parameter: `count` values from `low` to `high` inclusive, rounded to
    `decimals` (the parameter's step's, as its slider shows it; those are the values
    simulated)."""

    name: str
    low: float
    high: float
    count: int
    decimals: int | None = None

    @property
    def values(self) -> np.ndarray:
        decimals = NOISE_DECIMALS if self.decimals is None else self.decimals
        return np.round(np.linspace(self.low, self.high, self.count), decimals) + 0.0  # + 0.0: no "-0.0"

    def text(self, value: float) -> str:
        """`value` of this axis as the slider shows it ("6.2", not 6.199999999999999)."""
        if self.decimals is None:
            return repr(round(float(value), NOISE_DECIMALS) + 0.0)
        return f"{float(value) + 0.0:.{self.decimals}f}"


def parse_axis(text: str, model: ModuleType, tuning: Mapping[str, object] | None = None) -> Axis:
    """NAME=LO:HI:N, checked against the model's declaration (under `tuning`'s switches)."""
    declared = {p.name: p for p in effective_params(model.PARAMS, tuning or {})}
    try:
        name, span = text.split("=", 1)
        low, high, count = span.split(":")
        low, high, count = float(low), float(high), int(count)
    except ValueError:
        raise UserError(f"--param {text!r}: expected NAME=LO:HI:N, e.g. drag=-0.1:-0.01:10") from None
    if name not in declared:
        raise UserError(
            f"--param {text!r}: {name!r} is not a parameter of {model.NAME} "
            f"({', '.join(p.name for p in model.PARAMS if p.moves_motion)})"
        )
    p = declared[name]
    if p.is_bool:
        raise UserError(f"--param {text!r}: {name} is a switch; sweep numbers only")
    if not p.moves_motion:
        raise UserError(
            f"--param {text!r}: {name} is the car's collision shape; no motion on the open field depends on it"
        )
    for value in (low, high):
        try:
            p.check(value)
        except ValueError as exc:
            raise UserError(f"--param {text!r}: {exc}") from None
    if not 1 <= count <= 1000:
        raise UserError(f"--param {text!r}: N must be 1 … 1000")
    return Axis(name, low, high, count, p.decimals)


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


def run(
    model: ModuleType,
    base: Mapping[str, object],
    axes: list[Axis],
    hz: float,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    chunk: int = CHUNK,
    track: Track | None = None,
) -> tuple[np.ndarray, dict] | None:
    """(grid of swept values, one column per axis; metrics per grid point), computed
    `chunk` points at a time (memory bounded by a chunk's batch); `progress(done, total)`
    after each, and None as soon as `cancelled()` says so. `track`: a closed track whose
    lap figures are measured too (`lap_metrics.measure`)."""
    grid = grid_of(axes)
    results: dict[str, list] = {}
    for start in range(0, len(grid), chunk):
        if cancelled is not None and cancelled():
            return None
        part = grid[start : start + chunk]
        values = measure(model, batch_params(base, axes, part), hz, track)
        for name in values:
            results.setdefault(name, [])
            results[name].append(values[name])
        if progress is not None:
            progress(min(start + chunk, len(grid)), len(grid))
    return grid, {name: np.concatenate(parts) for name, parts in results.items()}


PROBE_SECONDS = 0.5
"""s: a sweep's estimate is measured on its points until this long has been spent…"""
PROBE_MOST = 32
"""… or this many points have been computed (a grid this small is not estimated)."""


def estimate_seconds(
    model: ModuleType, base: Mapping[str, object], axes: list[Axis], hz: float, track: Track | None = None
) -> float:
    """Seconds `run` should take for the whole grid, measured on a few of its points
    spread over it (a point's cost depends on where it is: a faster car's manoeuvres are
    longer), 2, 4, 8… until PROBE_SECONDS have been spent; 0 for a grid of PROBE_MOST
    points or fewer (it takes about as long as its estimate would)."""
    grid = grid_of(axes)
    if len(grid) <= PROBE_MOST:
        return 0.0
    # loads the (parallel) compiled code: not part of the cost
    measure(model, batch_params(base, axes, grid[:2]), hz, track)
    count = 2
    while True:
        points = grid[np.linspace(0, len(grid) - 1, count).round().astype(int)]
        start = time.perf_counter()
        measure(model, batch_params(base, axes, points), hz, track)
        spent = time.perf_counter() - start
        if spent >= PROBE_SECONDS or count >= PROBE_MOST:
            return spent / count * len(grid)
        count *= 2


def csv_text(axes: list[Axis], grid: np.ndarray, values: Mapping[str, np.ndarray], track: Track | None = None) -> str:
    """One row per grid point: the swept values (as their axis shows them), then every
    metric (and with `track`, its lap figures)."""
    names = figure_names(track)
    metrics = format_rows(tuple(names), np.column_stack([values[n] for n in names])).split("\n")
    lines = [",".join([a.name for a in axes] + [metrics[0]])]
    lines += [",".join([axis.text(v) for axis, v in zip(axes, point)] + [row]) for point, row in zip(grid, metrics[1:])]
    return "\n".join(lines) + "\n"


def point_text(axes: list[Axis], point: np.ndarray) -> str:
    """A grid point as "drag -0.02, engine_power 2000"."""
    return ", ".join(f"{axis.name} {axis.text(v)}" for axis, v in zip(axes, point))


def check_metric(name: str, track: Track | None = None) -> str:
    """`name`, or UserError: not a metric, or a lap figure without a track to lap."""
    names = figure_names(track)
    if name not in names:
        try:
            metric_of(name)
        except KeyError:
            raise UserError(f"--metric {name!r}: not a metric ({', '.join(names)})") from None
        if track is None:
            raise UserError(f"--metric {name}: a lap figure; give the track to lap with --track")
        raise UserError(f"--metric {name!r}: not a figure on {track.name} ({', '.join(names)})")
    return name
