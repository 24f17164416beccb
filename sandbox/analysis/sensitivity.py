"""What changes what: how much each metric moves when each slider moves.

For every slider parameter p at value v, two central differences, all of them one
batch of `metrics.compute` (four tunings a parameter; a tuning two probes share, such
as a probe clamped onto the slider's own value, is run once):
 - per step: (m(v + step) − m(v − step)) / 2, the change one slider step makes;
 - per 10 %: (m(v + R/10) − m(v − R/10)) / 2, R the slider's range.
Near an end of the range the two points are clamped into it and the difference is
scaled to the same move (a one-sided difference at the end itself). Options (on/off)
are not moved.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Mapping

import numpy as np

from ..physics.params import effective_params
from ..physics.track import Track
from .lap_metrics import figure_names, measure

SHARE = 0.1
"""The larger move: this share of the slider's range."""


@dataclass
class Sensitivity:
    """Changes of every metric (columns, `lap_metrics.figure_names` order) for every slider (rows)."""

    params: list[str]
    metrics: list[str]
    per_step: np.ndarray
    per_share: np.ndarray
    base: dict[str, float]

    def change(self, param: str, metric: str, per: str = "step") -> float:
        table = self.per_step if per == "step" else self.per_share
        return float(table[self.params.index(param), self.metrics.index(metric)])


def _probes(p, value: float, move: float) -> tuple[float, float]:
    """The two values either side of `value` `move` apart, clamped into the range."""
    return max(p.min, value - move), min(p.max, value + move)


def _distinct(sliders, tuning, moves) -> tuple[list[tuple[int, float]], np.ndarray]:
    """The distinct tunings of the probes, each once (parameter index, value; -1 for the
    tuning itself, first), and which of them each probe is: (low, high) of each move in
    turn, then the tuning. A probe clamped onto the tuning's own value, or onto another
    probe's (the step's and the share's at an end of the range), is run once."""
    index = {(-1, 0.0): 0}
    probes = [(-1, 0.0)]
    which = []
    for j, low, high, _ in moves:
        for value in (low, high):
            key = (-1, 0.0) if value == float(tuning[sliders[j].name]) else (j, value)
            if key not in index:
                index[key] = len(probes)
                probes.append(key)
            which.append(index[key])
    which.append(0)
    return probes, np.array(which, dtype=np.int64)


def sensitivity(model: ModuleType, tuning: Mapping[str, object], hz: float, track: Track | None = None) -> Sensitivity:
    """Every slider against every metric, as one batch; with a closed `track`, against
    its lap figures too (`lap_metrics.measure`)."""
    sliders = [p for p in effective_params(model.PARAMS, tuning) if p.moves_motion]
    moves = []  # (parameter index, low value, high value, move) for the step, then the share
    for j, p in enumerate(sliders):
        value = float(tuning[p.name])
        for move in (p.step, SHARE * (p.max - p.min)):
            low, high = _probes(p, value, move)
            moves.append((j, low, high, move))
    probes, which = _distinct(sliders, tuning, moves)
    batch = {
        name: np.full(len(probes), value, dtype=np.float64) if not isinstance(value, bool) else value
        for name, value in tuning.items()
    }
    for k, (j, value) in enumerate(probes):
        if j >= 0:
            batch[sliders[j].name][k] = value
    achieved = measure(model, batch, hz, track)
    names = figure_names(track)
    table = np.array([np.asarray(achieved[name], dtype=np.float64) for name in names]).T[which]  # (n, metrics)
    changes = np.full((len(moves), len(names)), np.nan)
    for k, (_, low, high, move) in enumerate(moves):
        if high > low:
            with np.errstate(invalid="ignore"):
                changes[k] = (table[2 * k + 1] - table[2 * k]) / (high - low) * move
    base = {name: float(table[-1, i]) for i, name in enumerate(names)}
    return Sensitivity([p.name for p in sliders], names, changes[0::2], changes[1::2], base)
