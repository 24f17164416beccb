"""Fit: the tuning whose car drives a recorded drive, with how sure each value is.

The objective (fit_objective.py) replays the recording's controls and re-anchors the
car to the recorded state every `segment` ticks (multiple shooting), scoring
Σ (dx² + dy²) + w²·Σ dheading² (w: length units per radian). The search:
 1. the auto-tune's CMA-ES (evolution.py) over the free parameters' slider coordinates
    (tune_space.Space), the values between the sliders' steps, each generation one
    compiled batch, from the start tuning;
 2. the parameters the recording cannot determine, those whose every value across
    their range scores the same (`flat`), go back to their start value and are
    reported (a drive that never reverses says nothing of the reverse limit);
 3. a Levenberg–Marquardt polish (`polish`) on the residual vector (dx, dy, w·dheading
    per tick), its Jacobian by forward differences as one batch;
 4. uncertainties (`uncertainties`): from the objective's curvature (Gauss–Newton,
    the larger of σ²(JᵀJ)⁻¹ and its sandwich over segments, whose errors run on
    within a segment), σ² the residual's variance; a parameter the differences do not
    see (a threshold, e.g. the slip speed: the score steps as a recorded speed crosses
    it) by a profile scan instead, to where the score rises by σ², its value the middle
    of that interval.
Verdict (`verdict_of`): "good" when the RMS position error is at most GOOD_SHARE of
the distance driven per segment and the RMS heading error at most GOOD_DEGREES;
"cannot explain" when the RMS position error is larger than that distance; else "poor".
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
from .evolution import ask, strategy
from .fit_objective import Objective, RecordedDrive
from .tune_space import Space

GOOD_SHARE = 0.01
"""RMS position error, as a share of the distance driven per segment, up to which a fit is good."""
GOOD_DEGREES = 1.0
"""RMS heading error (°) up to which a fit is good."""
SIGMA0 = 0.3
"""Starting step of the search, in slider coordinates (0 … 1 a parameter)."""
EVALUATIONS_PER_PARAMETER = 600
"""The search's budget of tunings, per free parameter."""
FLAT_SCAN = 9
"""Values across a parameter's range scored to tell whether the recording sees it."""
FLAT = 1e-9
"""Share of the best score within which a parameter's whole range counts as scoring the same."""
STEP = 1e-7
"""Forward-difference step, in slider coordinates."""
LAMBDAS = (1e-8, 1e-5, 1e-3, 1e-1, 10.0, 1e3)
"""Levenberg–Marquardt dampings tried at once (one batch) each round."""
POLISH_ROUNDS = 60
COARSE = 16
"""Values across its range a threshold parameter is tried at."""
COARSE_ROUNDS = 8
"""Polishing rounds of the other parameters at each of them."""
LEVELS = 4
"""Grids, each finer than the one before, a threshold parameter is searched on."""
PROFILE = 1e-7 * 1.5 ** np.arange(40)
"""Coordinate offsets of a profile scan (1e-7 … 0.8, each 1.5 times the one before)."""


@dataclass
class FitResult:
    """A fit's outcome. Values in the model's units; positions in its length unit,
    headings in degrees."""

    model: ModuleType
    tuning: dict
    names: list[str]
    params: dict[str, float]
    uncertainty: dict[str, float]
    undetermined: list[str]
    rms_position: float
    max_position: float
    rms_heading: float
    path_per_segment: float
    verdict: str
    evaluations: int
    ticks: int
    segment: int
    heading_weight: float
    score: float = math.inf
    """Mean score per tick (length²): the comparison between models."""
    history: list = field(default_factory=list)


def fit(
    model: ModuleType,
    drive: RecordedDrive,
    start: Mapping[str, object],
    names: list[str],
    hz: float,
    segment: int | None = None,
    heading_weight: float | None = None,
    seed: int = 1,
    max_evaluations: int | None = None,
    on_progress: Callable[[float], None] | None = None,
    stop: threading.Event | None = None,
) -> FitResult:
    """The values of `names` with which `model`'s car drives `drive` (recorded at `hz`
    Hz), the others as in `start`; `segment` ticks between anchors (default one
    second's). Reproducible for a given `seed`."""
    segment = int(segment or round(hz))
    if segment < 1:
        raise UserError("the segment must be at least one tick long")
    if len(drive) < segment + 2:
        raise UserError(f"the recording is shorter than one segment ({segment} ticks): give a shorter --segment")
    objective = Objective(model, drive, hz, start, segment, heading_weight)
    if not names:  # nothing to move: how the start tuning drives it
        return summary(objective, start, [])
    params = {p.name: p for p in effective_params(model.PARAMS, start)}
    space = Space(model, list(names), {n: (params[n].min, params[n].max) for n in names}, start)
    budget = max_evaluations or EVALUATIONS_PER_PARAMETER * len(names)
    search = _Search(objective, space, on_progress, budget, stop)
    x0 = space.coordinates(start)
    best = search.evolve(x0, seed)
    everything = np.arange(len(names))
    seen_nowhere = search.flat(best)
    best = search.polish(best, everything)
    best = search.thresholds(best, everything, np.flatnonzero(seen_nowhere))
    flat = search.flat(best)
    best[flat] = x0[flat]
    moving = np.flatnonzero(~flat)
    best = search.polish(best, moving)
    values, uncertainty = search.uncertainties(best, moving)
    tuning = {**dict(start), **values}
    result = summary(objective, tuning, names)
    result.undetermined = [names[j] for j in np.flatnonzero(flat)]
    result.uncertainty = {n: math.inf if n in result.undetermined else u for n, u in uncertainty.items()}
    result.evaluations = search.evaluations
    result.history = search.history
    return result


def summary(objective: Objective, tuning: Mapping[str, object], names: list[str]) -> FitResult:
    """The residual of `tuning` on the objective's recording, and its verdict (no
    uncertainties: those come from the search)."""
    sums, errors = _run_one(objective, tuning)
    dx, dy, dh = errors[0, :, 0], errors[0, :, 1], errors[0, :, 2]
    distance = np.hypot(dx, dy)
    ticks = max(objective.ticks, 1)
    rms_position = float(math.sqrt(np.sum(distance**2) / ticks))
    path = path_per_segment(objective)
    score = float((sums[0, 0] + objective.heading_weight**2 * sums[0, 1]) / ticks)
    return FitResult(
        model=objective.model,
        tuning=dict(tuning),
        names=list(names),
        params={name: float(tuning[name]) for name in names},
        uncertainty={},
        undetermined=[],
        rms_position=rms_position,
        max_position=float(np.max(distance)) if len(distance) else 0.0,
        rms_heading=float(math.degrees(math.sqrt(np.sum(dh**2) / ticks))),
        path_per_segment=path,
        verdict=verdict_of(rms_position, float(math.degrees(math.sqrt(np.sum(dh**2) / ticks))), path),
        evaluations=0,
        ticks=objective.ticks,
        segment=objective.segment,
        heading_weight=objective.heading_weight,
        score=score if math.isfinite(score) else math.inf,
    )


def _run_one(objective: Objective, tuning: Mapping[str, object]):
    values = {name: np.array([float(value)]) for name, value in tuning.items() if not isinstance(value, bool)}
    return objective.run(values, errors=True)


def path_per_segment(objective: Objective) -> float:
    """The mean distance (length units) the recorded car drives in a segment."""
    pose = objective.pose
    steps = np.hypot(*np.diff(pose[:, :2], axis=0).T)[objective.scored]
    segments = max(math.ceil(len(steps) / objective.segment), 1)
    return float(np.sum(steps) / segments)


def verdict_of(rms_position: float, rms_heading_degrees: float, path: float) -> str:
    """good / poor / cannot explain (see the module's text)."""
    if not math.isfinite(rms_position) or rms_position > path:
        return "cannot explain"
    if rms_position <= GOOD_SHARE * path and rms_heading_degrees <= GOOD_DEGREES:
        return "good"
    return "poor"


class _Search:
    """The search's steps over one objective, counting the tunings it scores."""

    def __init__(self, objective: Objective, space: Space, on_progress, budget: int, stop):
        self.objective, self.space, self.on_progress = objective, space, on_progress
        self.budget, self.stop = budget, stop
        self.evaluations = 0
        self.history: list[float] = []

    def _stopped(self) -> bool:
        return self.stop is not None and self.stop.is_set()

    def _tell(self, share: float) -> None:
        if self.on_progress is not None:
            self.on_progress(min(share, 1.0))

    def scores(self, coordinates: np.ndarray) -> np.ndarray:
        """(k,) scores of coordinates (k, d)."""
        coordinates = np.atleast_2d(coordinates)
        self.evaluations += len(coordinates)
        return self.objective.scores(self.space.exact(coordinates))

    def residuals(self, coordinates: np.ndarray) -> np.ndarray:
        coordinates = np.atleast_2d(coordinates)
        self.evaluations += len(coordinates)
        return self.objective.residuals(self.space.exact(coordinates))

    def evolve(self, x0: np.ndarray, seed: int) -> np.ndarray:
        """CMA-ES from x0, restarted with twice the population while the budget lasts
        and the best is not a perfect fit; the best coordinates found."""
        best, best_score = x0.copy(), float(self.scores(x0)[0])
        seeds = np.random.default_rng(seed)
        population = None
        while self.evaluations < self.budget and best_score > 0 and not self._stopped():
            es = strategy(best, SIGMA0, int(seeds.integers(1, 2**31 - 1)), population, tolfun=0.0, tolx=1e-10)
            population = 2 * es.popsize
            while not es.stop() and self.evaluations < self.budget and not self._stopped():
                asked, coordinates = ask(es, len(x0))
                score = self.scores(coordinates)
                es.tell(list(asked), list(np.minimum(score, 1e300)))
                k = int(np.argmin(score))
                if score[k] < best_score:
                    best, best_score = coordinates[k].copy(), float(score[k])
                self.history.append(best_score / max(self.objective.ticks, 1))
                self._tell(0.9 * self.evaluations / self.budget)
                if best_score <= 0:
                    break
            if es.countiter < 5:  # converged at once: no restart will do better
                break
        return best

    def flat(self, best: np.ndarray) -> np.ndarray:
        """(d,) whether each parameter's every value across its range scores as `best`."""
        d = len(best)
        grid = np.linspace(0.0, 1.0, FLAT_SCAN)
        candidates = np.repeat(best[None, :], d * FLAT_SCAN + 1, axis=0)
        for j in range(d):
            candidates[1 + j * FLAT_SCAN : 1 + (j + 1) * FLAT_SCAN, j] = grid
        score = self.scores(candidates)
        base = score[0]
        spread = np.abs(score[1:] - base).reshape(d, FLAT_SCAN)
        return np.all(spread <= FLAT * base + 1e-18 * self.objective.ticks, axis=1) & np.isfinite(base)

    def jacobian(self, x: np.ndarray, moving: np.ndarray, r: np.ndarray) -> np.ndarray:
        """(m, len(moving)) forward differences of the residuals at x (a step back where
        a step forward would leave the range), as one batch."""
        steps = np.where(x[moving] + STEP <= 1.0, STEP, -STEP)
        candidates = np.repeat(x[None, :], len(moving), axis=0)
        candidates[np.arange(len(moving)), moving] += steps
        return ((self.residuals(candidates) - r[None, :]) / steps[:, None]).T

    def unseen(self, x: np.ndarray, moving: np.ndarray) -> np.ndarray:
        """The coordinates of `moving` whose forward difference at x changes no residual
        (thresholds: the score steps as a recorded value crosses them)."""
        if not len(moving):
            return moving
        r = self.residuals(x)[0]
        J = self.jacobian(x, moving, r)
        return moving[~(np.any(J != 0, axis=0) & np.all(np.isfinite(J), axis=0))]

    def thresholds(self, x: np.ndarray, moving: np.ndarray, flat: np.ndarray) -> np.ndarray:
        """x with the parameters the differences do not see searched (but not those of
        `flat`, which change nothing across their range here), each in turn: at COARSE
        values across its range, the others polished a few rounds at each (a value
        another one hid, e.g. a grip only used above the slip speed, comes back), then
        at COARSE values between the best one's neighbours, and so on down to LEVELS
        finer grids; the best kept, then every parameter polished again."""
        unseen = np.setdiff1d(self.unseen(x, moving), flat)
        if not len(unseen):
            return x
        current = float(self.scores(x)[0])
        for j in unseen:
            others = moving[moving != j]
            low, high = 0.0, 1.0
            for _ in range(LEVELS):
                grid = np.linspace(low, high, COARSE)
                for value in grid:
                    if self._stopped():
                        return x
                    there = x.copy()
                    there[j] = value
                    there = self.polish(there, others, COARSE_ROUNDS)
                    score = float(self.scores(there)[0])
                    if score < current:
                        x, current = there, score
                spacing = grid[1] - grid[0]
                low, high = max(x[j] - spacing, 0.0), min(x[j] + spacing, 1.0)
        return self.polish(x, moving)

    def polish(self, x: np.ndarray, moving: np.ndarray, rounds: int = 0) -> np.ndarray:
        """Levenberg–Marquardt from x over the coordinates `moving`, within 0 … 1: each
        round the Jacobian, then a step for each damping of LAMBDAS as one batch; the
        best step taken while it lowers the score."""
        x = x.copy()
        if not len(moving):
            return x
        r = self.residuals(x)[0]
        current = float(r @ r)
        rounds = rounds or POLISH_ROUNDS
        for round_number in range(rounds):
            if self._stopped() or not math.isfinite(current) or current == 0:
                break
            J = self.jacobian(x, moving, r)
            seen = np.flatnonzero(np.any(J != 0, axis=0) & np.all(np.isfinite(J), axis=0))
            if not len(seen):
                break
            Js = J[:, seen]
            A, g = Js.T @ Js, Js.T @ r
            scale = np.diag(A).copy()
            candidates = np.repeat(x[None, :], len(LAMBDAS), axis=0)
            for i, lam in enumerate(LAMBDAS):
                try:
                    delta = np.linalg.solve(A + lam * np.diag(scale), -g)
                except np.linalg.LinAlgError:
                    delta = np.linalg.lstsq(A + lam * np.diag(scale), -g, rcond=None)[0]
                candidates[i, moving[seen]] = np.clip(x[moving[seen]] + delta, 0.0, 1.0)
            residuals = self.residuals(candidates)
            found = np.einsum("ij,ij->i", residuals, residuals)
            found = np.where(np.isfinite(found), found, np.inf)
            k = int(np.argmin(found))
            self._tell(0.9 + 0.05 * (round_number + 1) / rounds)
            if not found[k] < current:
                break
            gain = current - found[k]
            x, r, current = candidates[k], residuals[k], float(found[k])
            self.history.append(current / max(self.objective.ticks, 1))
            if gain <= 1e-12 * current:
                break
        return x

    def uncertainties(self, x: np.ndarray, moving: np.ndarray) -> tuple[dict, dict]:
        """(the values at x, each moving parameter's one-sigma uncertainty in its own
        units; 0 for those that do not move). A parameter the differences do not see is
        set to the middle of its profile interval."""
        space, names = self.space, self.space.names
        x = x.copy()
        uncertainty = {name: 0.0 for name in names}
        if not len(moving):
            return _values(space, x), uncertainty
        r = self.residuals(x)[0]
        m = len(r)
        J = self.jacobian(x, moving, r)
        finite = np.all(np.isfinite(J), axis=0)
        seen = moving[np.any(J != 0, axis=0) & finite]
        unseen = moving[~(np.any(J != 0, axis=0) & finite)]
        ssr = float(r @ r)
        variance = ssr / max(m - len(moving), 1)
        if len(seen):
            Js = J[:, np.isin(moving, seen)]
            covariance = _covariance(Js, r, variance, self.objective)
            for j, column in zip(seen, range(len(seen))):
                sigma = math.sqrt(max(covariance[column, column], 0.0))
                uncertainty[names[j]] = sigma * _slope(space, x, j)
        if len(unseen):
            x, widths = self.profiles(x, unseen, ssr + max(variance, 1e-30))
            for j in unseen:
                uncertainty[names[j]] = widths[j]
        self._tell(1.0)
        return _values(space, x), uncertainty

    def profiles(self, x: np.ndarray, which: np.ndarray, threshold: float) -> tuple[np.ndarray, dict]:
        """Each parameter of `which` scanned alone either way from x (offsets PROFILE),
        as one batch: set to the middle of the interval whose score stays within
        `threshold`, its half-width (the parameter's units) returned."""
        offsets = np.concatenate([-PROFILE[::-1], PROFILE])
        candidates = np.repeat(x[None, :], len(which) * len(offsets), axis=0)
        for i, j in enumerate(which):
            rows = slice(i * len(offsets), (i + 1) * len(offsets))
            candidates[rows, j] = np.clip(x[j] + offsets, 0.0, 1.0)
        inside = (self.scores(candidates) <= threshold).reshape(len(which), len(offsets))
        x, widths, centre = x.copy(), {}, len(PROFILE)
        for i, j in enumerate(which):
            low = high = x[j]
            for k in range(centre - 1, -1, -1):  # downwards while inside
                if not inside[i, k]:
                    break
                low = candidates[i * len(offsets) + k, j]
            for k in range(centre, len(offsets)):
                if not inside[i, k]:
                    break
                high = candidates[i * len(offsets) + k, j]
            values = self.space.exact(np.array([[*x[:j], low, *x[j + 1 :]], [*x[:j], high, *x[j + 1 :]]]))
            name = self.space.names[j]
            widths[j] = float(abs(values[name][1] - values[name][0]) / 2)
            x[j] = (low + high) / 2
        return x, widths


def _values(space: Space, x: np.ndarray) -> dict[str, float]:
    return {name: float(v[0]) for name, v in space.exact(x).items()}


def _slope(space: Space, x: np.ndarray, j: int) -> float:
    """d value / d coordinate of parameter j at x (its units per coordinate)."""
    h = STEP if x[j] + STEP <= 1 else -STEP
    there = x.copy()
    there[j] += h
    name = space.names[j]
    return abs(float(space.exact(there)[name][0] - space.exact(x)[name][0]) / h)


def _covariance(J: np.ndarray, r: np.ndarray, variance: float, objective: Objective) -> np.ndarray:
    """The coordinates' covariance at a least-squares minimum: the larger (on the
    diagonal) of σ²(JᵀJ)⁻¹ and the sandwich (JᵀJ)⁻¹·Σ_s g_s g_sᵀ·(JᵀJ)⁻¹ over the
    segments s (g_s = J_sᵀ r_s: a segment's errors are not independent of each other)."""
    bread = np.linalg.pinv(J.T @ J)
    plain = variance * bread
    per_tick = len(r) // max(objective.ticks, 1)
    segment_of = (np.arange(len(r)) // per_tick) // objective.segment
    segments = int(segment_of.max()) + 1 if len(r) else 1
    gradients = np.zeros((segments, J.shape[1]))
    np.add.at(gradients, segment_of, J * r[:, None])
    meat = gradients.T @ gradients * (segments / max(segments - 1, 1))
    sandwich = bread @ meat @ bread
    return np.where(np.diag(sandwich)[:, None] > np.diag(plain)[:, None], sandwich, plain)
