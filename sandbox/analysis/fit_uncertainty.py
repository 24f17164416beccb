"""How sure a fit is of each value (fit.py): from the score's curvature at the minimum,
or, for a parameter the differences do not see (a threshold), from a profile scan."""

from __future__ import annotations

import math

import numpy as np

from .fit_objective import Objective
from .fit_search import PROFILE, STEP, Search
from .tune_space import Space


def uncertainties(search: Search, x: np.ndarray, moving: np.ndarray) -> tuple[dict, dict]:
    """(the values at x, each moving parameter's one-sigma uncertainty in its own
    units; 0 for those that do not move). A parameter the differences do not see is
    set to the middle of its profile interval."""
    space, names = search.space, search.space.names
    x = x.copy()
    uncertainty = {name: 0.0 for name in names}
    if not len(moving):
        return _values(space, x), uncertainty
    r = search.residuals(x)[0]
    m = len(r)
    J = search.jacobian(x, moving, r)
    finite = np.all(np.isfinite(J), axis=0)
    seen = moving[np.any(J != 0, axis=0) & finite]
    unseen = moving[~(np.any(J != 0, axis=0) & finite)]
    ssr = float(r @ r)
    variance = ssr / max(m - len(moving), 1)
    if len(seen):
        Js = J[:, np.isin(moving, seen)]
        covariance = _covariance(Js, r, variance, search.objective)
        for j, column in zip(seen, range(len(seen))):
            sigma = math.sqrt(max(covariance[column, column], 0.0))
            uncertainty[names[j]] = sigma * _slope(space, x, j)
    if len(unseen):
        x, widths = profiles(search, x, unseen, ssr + max(variance, 1e-30))
        for j in unseen:
            uncertainty[names[j]] = widths[j]
    search._tell(1.0)
    return _values(space, x), uncertainty


def profiles(search: Search, x: np.ndarray, which: np.ndarray, threshold: float) -> tuple[np.ndarray, dict]:
    """Each parameter of `which` scanned alone either way from x (offsets PROFILE),
    as one batch: set to the middle of the interval whose score stays within
    `threshold`, its half-width (the parameter's units) returned."""
    offsets = np.concatenate([-PROFILE[::-1], PROFILE])
    candidates = np.repeat(x[None, :], len(which) * len(offsets), axis=0)
    for i, j in enumerate(which):
        rows = slice(i * len(offsets), (i + 1) * len(offsets))
        candidates[rows, j] = np.clip(x[j] + offsets, 0.0, 1.0)
    inside = (search.scores(candidates) <= threshold).reshape(len(which), len(offsets))
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
        values = search.space.exact(np.array([[*x[:j], low, *x[j + 1 :]], [*x[:j], high, *x[j + 1 :]]]))
        name = search.space.names[j]
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
