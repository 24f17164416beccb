"""The fit's search over one objective (fit.py): CMA-ES over the sliders, the
parameters the recording does not see across their range (`flat`), a finer search of
the thresholds the score steps on, and a Levenberg–Marquardt polish. Every step scores
its tunings as compiled batches and counts them."""

from __future__ import annotations

import math

import numpy as np

from .evolution import ask, strategy
from .fit_objective import Objective
from .tune_space import Space

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


class Search:
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
        finer grids; the best kept, then every parameter polished again.

        Each grid's best is polished in full before it is compared with x: a few rounds
        do not undo what the others learnt to make up for a wrong threshold (e.g. one
        grip standing in for both while the slip speed is above every speed driven),
        so the right value, polished a few rounds, can score worse than x polished in
        full; among the grid's values, polished alike, it still scores best."""
        unseen = np.setdiff1d(self.unseen(x, moving), flat)
        if not len(unseen):
            return x
        current = float(self.scores(x)[0])
        for j in unseen:
            others = moving[moving != j]
            low, high = 0.0, 1.0
            for _ in range(LEVELS):
                grid = np.linspace(low, high, COARSE)
                found, found_score = x, math.inf
                for value in grid:
                    if self._stopped():
                        return x
                    there = x.copy()
                    there[j] = value
                    there = self.polish(there, others, COARSE_ROUNDS)
                    score = float(self.scores(there)[0])
                    if score < found_score:
                        found, found_score = there, score
                found = self.polish(found, others)
                score = float(self.scores(found)[0])
                if score < current:
                    x, current = found, score
                spacing = grid[1] - grid[0]
                low, high = max(found[j] - spacing, 0.0), min(found[j] + spacing, 1.0)
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
