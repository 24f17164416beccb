"""Auto-tune: the tuning nearest the current one whose metrics hit given targets.

The search is CMA-ES (the `cma` package, set up in evolution.py) over the free parameters' slider positions,
each generation one compiled batch of `metrics.compute` (with a track, and its lap
figures: `lap_metrics.measure`). A tuning scores its travel
from the start (`travel`: each slider counted by the share of its travel it moved)
plus a miss weighing far more than any move, so among tunings that hit the nearest
wins; a metric that cannot be measured weighs more than any miss. Values land on
their slider's step (`Param.from_slider`), and each run ends
with a polish on those steps (`_step_polish`). A run that misses is followed by one
from the start again with twice the step and population (at most MAX_RESTARTS).
What binds a miss is then named: parameters at a limit of their range here, and
targets that the others are met without (`conflicts`). A `stop` event ends every
phase within a batch, keeping the best found. The targets, ranges and the space searched
are read in tune_space.py.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass, field
from types import ModuleType
from typing import Callable, Mapping

import numpy as np

from ..errors import UserError
from ..physics.params import effective_params
from ..physics.track import Track
from .evolution import ask, strategy
from .lap_metrics import measure, metric_of
from .metrics import format_value, unit_of
from .tune_space import (  # noqa: F401 (the tune's importers read these from here)
    DEFAULT_TOLERANCE,
    Space,
    Target,
    check_range,
    free_names,
    parse_range,
    parse_target,
)

MISSED = 1e6
"""The weight of a target whose metric could not be measured (NaN, or none): more than
any miss weighs (below), so the search never makes a metric unmeasurable to escape a miss."""
SQUARED_UP_TO = 500.0
"""Misses, in tolerances, that weigh their square; a larger miss weighs ever less more,
never reaching 2 × SQUARED_UP_TO² (< MISSED): still larger the farther it is, so the
search knows which way to go, but never as bad as not measured, and never overflowing."""
MISS_WEIGHT = 1e4
"""A miss of a tenth of a tolerance weighs as much as moving every slider all the way."""
SIGMA0 = 0.08
"""Starting step of the first run, in slider positions; each restart doubles it (at most 0.5)."""
MAX_RESTARTS = 4
POLISH_GENERATIONS = 40
"""Generations a search goes on after its first hit, to come nearer the start."""
PAIRS_UP_TO = 8
"""Free parameters up to which the step polish also tries every pair of steps."""
EDGE = 1e-3
"""Slider positions from a limit that count as sitting at it."""


@dataclass
class Progress:
    """What a running search has found so far (given to the progress callback)."""

    generation: int = 0
    evaluations: int = 0
    restarts: int = 0
    best_score: float = math.inf
    best: dict = field(default_factory=dict)
    achieved: dict = field(default_factory=dict)
    history: list = field(default_factory=list)
    hit: bool = False


@dataclass
class TuneResult:
    tuning: dict
    achieved: dict
    targets: list
    hit: bool
    evaluations: int
    generations: int
    history: list
    binding: list = field(default_factory=list)

    def misses(self) -> dict[str, float]:
        """metric -> achieved − target for the targets not met."""
        return {
            t.metric: self.achieved[t.metric] - t.value for t in self.targets if t.miss(self.achieved[t.metric]) > 0
        }


def travel(positions: np.ndarray, start: np.ndarray) -> np.ndarray:
    """How far each row of slider positions is from the start: the sum of the squares of
    the sliders' moves, each a share of its slider's travel (smooth for the search; the
    step polish then puts back the values the targets do not need)."""
    return np.sum((positions - start) ** 2, axis=1)


def miss_weights(values: np.ndarray, target: Target) -> np.ndarray:
    """Each value's miss of `target` as the score weighs it: the square of the miss in
    tolerances (beyond the tolerance) up to SQUARED_UP_TO tolerances, then growing ever
    slower towards 2 × SQUARED_UP_TO²; MISSED when the value could not be measured."""
    values = np.asarray(values, dtype=np.float64).reshape(-1)
    k = SQUARED_UP_TO
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):  # a tiny tolerance: a miss of inf is fine
        miss = np.maximum(0.0, np.abs(values - target.value) / target.tolerance - 1.0)
        # k² (2 − k²/miss²) beyond k: as steep as miss² where they meet, and bounded
        far = k * k * (2.0 - (k / np.maximum(miss, k)) ** 2)
        weight = np.where(miss <= k, np.minimum(miss, k) ** 2, far)
    return np.where(np.isfinite(values), weight, MISSED)


def scores(achieved: Mapping[str, np.ndarray], targets: list[Target], distances: np.ndarray) -> np.ndarray:
    """One score per tuning, smaller better: the travel from the start plus
    MISS_WEIGHT × the sum of the misses' weights (`miss_weights`), so that the search
    slides along the tunings that hit towards the nearest."""
    excess = np.zeros(len(distances))
    for target in targets:
        excess += miss_weights(achieved[target.metric], target)
    return distances + MISS_WEIGHT * excess


def _evaluate(model, base: Mapping[str, object], space: Space, coordinates: np.ndarray, hz: float, track=None):
    values = space.values(coordinates)
    params = {name: (values[name] if name in values else value) for name, value in base.items()}
    return values, measure(model, params, hz, track)


def search(
    model: ModuleType,
    tuning: Mapping[str, object],
    targets: list[Target],
    names: list[str],
    hz: float,
    seed: int = 1,
    ranges: Mapping[str, tuple[float, float]] | None = None,
    max_evaluations: int = 6000,
    on_generation: Callable[[Progress], None] | None = None,
    stop: threading.Event | None = None,
    track: Track | None = None,
) -> TuneResult:
    """The tuning nearest `tuning` whose metrics hit `targets`, moving only `names`;
    the closest found when none does. Reproducible for a given `seed`. `track`: a
    closed track whose lap figures may be targets (`lap_metrics.measure`)."""
    if not targets:
        raise UserError("no target given: name at least one metric and its value")
    params = {p.name: p for p in effective_params(model.PARAMS, tuning)}
    spans = {name: (ranges or {}).get(name, (params[name].min, params[name].max)) for name in names}
    space = Space(model, list(names), spans, tuning)
    start = space.coordinates(tuning)
    start_positions = space.positions(start[None, :])[0]
    progress = Progress()
    best_coordinates = start
    population = None
    seeds = np.random.default_rng(seed)
    for restart in range(MAX_RESTARTS + 1):
        progress.restarts = restart
        # every run starts at the current tuning: near first, then wider (the nearest hit is the goal)
        es = strategy(start, min(SIGMA0 * 2**restart, 0.5), int(seeds.integers(1, 2**31 - 1)), population)
        population = 2 * es.popsize
        since_hit = None
        while not es.stop():
            if stop is not None and stop.is_set():
                break
            if progress.evaluations >= max_evaluations:
                break
            asked, coordinates = ask(es, len(start))
            values, achieved = _evaluate(model, tuning, space, coordinates, hz, track)
            positions = space.positions(coordinates)
            distances = travel(positions, start_positions)
            score = scores(achieved, targets, distances)
            es.tell(list(asked), list(score))
            progress.evaluations += len(asked)
            progress.generation += 1
            k = int(np.argmin(score))
            if score[k] < progress.best_score:
                progress.best_score = float(score[k])
                best_coordinates = coordinates[k]
                progress.best = {name: float(values[name][k]) for name in values}
                progress.achieved = {t.metric: float(achieved[t.metric][k]) for t in targets}
                progress.hit = all(t.miss(progress.achieved[t.metric]) == 0 for t in targets)
            progress.history.append(progress.best_score)
            if progress.hit:
                since_hit = 0 if since_hit is None else since_hit + 1
                if since_hit >= POLISH_GENERATIONS:
                    break
            if on_generation is not None:
                on_generation(progress)
        if progress.best and not (stop is not None and stop.is_set()):
            # the run's best, polished on the sliders' steps
            polished = {**tuning, **progress.best}
            progress.evaluations += _step_polish(
                model, polished, space, targets, start_positions, hz, tuning, stop=stop, track=track
            )
            achieved = measure(model, polished, hz, track)
            progress.achieved = {t.metric: float(achieved[t.metric][0]) for t in targets}
            progress.best = {name: polished[name] for name in names}
            progress.hit = all(t.miss(progress.achieved[t.metric]) == 0 for t in targets)
            best_coordinates = space.coordinates(polished)
        if progress.hit or (stop is not None and stop.is_set()) or progress.evaluations >= max_evaluations:
            break
    best = dict(tuning)
    best.update(progress.best or {name: float(tuning[name]) for name in names})
    achieved_all = {name: float(v[0]) for name, v in measure(model, best, hz, track).items()}
    result = TuneResult(
        best,
        achieved_all,
        list(targets),
        all(t.miss(achieved_all[t.metric]) == 0 for t in targets),
        progress.evaluations,
        progress.generation,
        progress.history,
    )
    if not result.hit:
        result.binding = _at_limits(space, best_coordinates) or _no_nearer(model, result, names)
    return result


def _no_nearer(model: ModuleType, result: TuneResult, names: list[str]) -> list[str]:
    """What binds when no parameter sits at a limit: the free ones come no nearer."""
    moved = ", ".join(names) if len(names) <= 4 else f"any of the {len(names)} free parameters"
    found = []
    for t in result.targets:
        achieved = result.achieved[t.metric]
        if t.miss(achieved) > 0:
            nearest = (
                f"comes no nearer than {format_value(achieved)} {unit_of(metric_of(t.metric).kind, model)}"
                if math.isfinite(achieved)
                else "cannot be measured"
            )
            found.append(f"{t.metric} {nearest} by moving {moved}: free more parameters, or widen their ranges")
    return found


def _step_polish(
    model,
    best: dict,
    space: Space,
    targets: list[Target],
    start_positions: np.ndarray,
    hz: float,
    start: Mapping[str, object],
    rounds: int = 30,
    stop: threading.Event | None = None,
    track: Track | None = None,
) -> int:
    """Improve `best` in place on the sliders' steps: CMA-ES moves in continuous
    positions, but the values land on steps, so the last fraction of a tolerance is
    often a matter of one step of one or two parameters. Each round tries every
    parameter one step either way (and, for up to PAIRS_UP_TO parameters, every pair
    of such steps) and every parameter back at its start value, as one batch, and keeps
    the best while it scores lower: the last moves put values back that the targets do
    not need. Returns the tunings evaluated."""
    params, names = space.params, space.names
    moves = [((j, s),) for j in range(len(names)) for s in (-1, 1)]
    if len(names) <= PAIRS_UP_TO:
        moves += [
            ((j, s), (k, r))
            for j in range(len(names))
            for k in range(j + 1, len(names))
            for s in (-1, 1)
            for r in (-1, 1)
        ]
    evaluated = 0

    def score_of(candidates: list[dict]) -> np.ndarray:
        batch = {name: np.array([c[name] for c in candidates]) for name in names}
        achieved = measure(model, {**best, **batch}, hz, track)
        positions = np.array([[p.to_slider(c[p.name]) for p in params] for c in candidates])
        return scores(achieved, targets, travel(positions, start_positions))

    current = float(score_of([best])[0])
    for _ in range(rounds):
        if stop is not None and stop.is_set():
            break
        candidates = [
            {**{name: best[name] for name in names}, name: float(start[name])}
            for name in names
            if best[name] != start[name] and _inside(space, name, float(start[name]))
        ]
        for move in moves:
            candidate = {name: best[name] for name in names}
            for j, sign in move:
                p = params[j]
                low, high = space.ranges[p.name]
                candidate[p.name] = min(max(p.snap(candidate[p.name] + sign * p.step), low), high)
            candidates.append(candidate)
        found = score_of(candidates)
        evaluated += len(candidates) + 1
        k = int(np.argmin(found))
        if not found[k] < current:
            break
        current = float(found[k])
        best.update(candidates[k])
    return evaluated


def _inside(space: Space, name: str, value: float) -> bool:
    low, high = space.ranges[name]
    return low <= value <= high


def _at_limits(space: Space, coordinates: np.ndarray) -> list[str]:
    """The free parameters the closest tuning has at an end of their search range."""
    found = []
    for j, p in enumerate(space.params):
        low, high = space.ranges[p.name]
        if coordinates[j] <= EDGE:
            found.append(f"{p.name} sits at the low end of its range ({low:g} {p.unit})")
        elif coordinates[j] >= 1 - EDGE:
            found.append(f"{p.name} sits at the high end of its range ({high:g} {p.unit})")
    return found


def conflicts(
    model: ModuleType,
    tuning: Mapping[str, object],
    targets: list[Target],
    names: list[str],
    hz: float,
    seed: int = 1,
    ranges=None,
    max_evaluations: int = 2000,
    stop: threading.Event | None = None,
    track: Track | None = None,
) -> list[str]:
    """Targets that pull against each other: each target whose relaxing lets every
    other be met, named with the ones it is met without. `stop` ends it early (with
    what was found so far)."""
    found = []
    if len(targets) < 2:
        return found
    for target in targets:
        if stop is not None and stop.is_set():
            break
        others = [t for t in targets if t is not target]
        result = search(model, tuning, others, names, hz, seed, ranges, max_evaluations, stop=stop, track=track)
        if result.hit:
            found.append(
                f"{target.metric} pulls against {', '.join(t.metric for t in others)}: without it, the others are met"
            )
    return found
