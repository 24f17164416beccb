"""How sure a fit is of each value (fit.py): from the score's curvature at the minimum,
or, for a parameter the differences do not see (a threshold), from a profile scan;
for a noisy recording at least the spread of refits to noisy recordings of the fitted
car (`bootstrap`)."""

from __future__ import annotations

import math
from itertools import combinations
from typing import Mapping

import numpy as np

from ..physics.sim import record
from ..physics.state import State
from .fit_noise import quantum, rounding_variance
from .fit_objective import Objective, RecordedDrive
from .fit_search import PROFILE, STEP, Search
from .tune_space import Space

REPLICATES = 60
"""Noisy recordings of the fitted car refitted to measure the noise's effect: where two
values trade off along a long valley (wheel base and steering angle set the turn
together) the refits' spread is heavy-tailed, and a handful of them can miss most of it."""
BOOTSTRAP_ROUNDS = 20
"""Polishing rounds of each refit."""
SCAN = 65
"""Values across its range a threshold is scored at in each refit, then as many again
between the best one's neighbours."""
TIED = 0.95
"""Correlation of two values' refits (of their logarithms) from which they trade off."""
SHARPER = 5.0
"""How many times sharper (relative ±) than either value their combination must be to be named."""
NOISELESS = 1e-9
"""A recording whose noise is below this (rad, or this share of its largest
coordinate) has none: float rounding."""


def uncertainties(search: Search, x: np.ndarray, moving: np.ndarray, refits: bool = True) -> tuple[dict, dict, list]:
    """(the values at x, each moving parameter's one-sigma uncertainty in its own
    units (0 for those that do not move), the combinations the recording shows much
    more sharply than their values (`tied`)); `refits`: with the spread of refits to
    noisy recordings (`bootstrap`). A parameter the differences do not see is set to
    the middle of its profile interval."""
    space, names = search.space, search.space.names
    x = x.copy()
    uncertainty = {name: 0.0 for name in names}
    if not len(moving):
        return _values(space, x), uncertainty, []
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
    found = bootstrap(search, x, seen, unseen) if refits and len(moving) else {}
    centre = _values(space, x)
    for name, values in found.items():
        uncertainty[name] = max(uncertainty[name], _rms(values - centre[name]))
    search._tell(1.0)
    return centre, uncertainty, tied(found, centre)


def tied(refits: Mapping[str, np.ndarray], centre: Mapping[str, float]) -> list[dict]:
    """The pairs of values whose refits move together (|correlation| of their
    logarithms at least TIED) so that their ratio (rising together) or product is
    SHARPER times surer (relative ±) than either: {"of": "b / a" or "a × b", "value",
    "uncertainty"} each; the drive shows that combination, each value far less."""
    out = []
    for a, b in combinations(refits, 2):
        va, vb, ca, cb = refits[a], refits[b], centre[a], centre[b]
        if not (len(va) > 2 and ca and cb and np.all(va * ca > 0) and np.all(vb * cb > 0)):
            continue
        la, lb = np.log(va / ca), np.log(vb / cb)
        if not (np.std(la) > 0 and np.std(lb) > 0):
            continue
        correlation = float(np.corrcoef(la, lb)[0, 1])
        if abs(correlation) < TIED:
            continue
        power = -1.0 if correlation > 0 else 1.0
        value, values = cb * ca**power, vb * va**power
        spread = _rms(values - value)
        if SHARPER * spread / abs(value) > min(_rms(va - ca) / abs(ca), _rms(vb - cb) / abs(cb)):
            continue
        out.append({"of": f"{b} / {a}" if power < 0 else f"{a} × {b}", "value": value, "uncertainty": spread})
    return out


def _rms(deviations: np.ndarray) -> float:
    return float(np.sqrt(np.mean(deviations**2)))


def noise_of(objective: Objective, tuning: Mapping[str, object]) -> tuple[float, float]:
    """(σ of x and of y, σ of the heading): the recording's own noise, from each
    segment's first tick, whose error is the anchor's noise less the next pose's
    (variance 2σ² an axis), one tick of the model's own error aside."""
    values = {name: np.array([float(v)]) for name, v in tuning.items() if not isinstance(v, bool)}
    _, errors = objective.run(values, errors=True)
    first = errors[0, np.flatnonzero(np.diff(objective.segment_of, prepend=-1))]
    return math.sqrt(np.mean(first[:, :2] ** 2) / 2), math.sqrt(np.mean(first[:, 2] ** 2) / 2)


def noise_position(objective: Objective, tuning: Mapping[str, object], seed: int = 1) -> float:
    """The RMS position error (length units) the recording's own noise explains
    (`noise_variance`). A residual far above it is not noise: these values, or the
    model, drive otherwise."""
    variance = noise_variance(objective, tuning, seed)
    return math.sqrt(float(np.mean(variance))) if len(variance) else 0.0


def noise_variance(objective: Objective, tuning: Mapping[str, object], seed: int = 1) -> np.ndarray:
    """Per tick scored, the position error's variance (length units²) the recording's
    own noise explains: the mean square error of a recording of `tuning`'s car with
    noise of the size found (`noise_of`, at least the rounding of the digits each
    column was written with) on every pose, scored at `tuning` (noisy anchors make
    errors run on within a segment), plus what an engine's 32-bit arithmetic adds
    within each segment (fit_noise.rounding_variance)."""
    sigma_xy, sigma_heading = noise_of(objective, tuning)
    pose = objective.pose
    sigma_xy = max(sigma_xy, max(quantum(pose[:, 0]), quantum(pose[:, 1])) / math.sqrt(12))
    sigma_heading = max(sigma_heading, quantum(pose[:, 2]) / math.sqrt(12))
    truth = synthetic(objective, tuning)
    noise = np.random.default_rng(seed).normal(0.0, 1.0, truth.pose.shape) * [sigma_xy, sigma_xy, sigma_heading]
    drive = RecordedDrive(truth.controls, truth.pose + noise, truth.velocity, truth.states, truth.tick, truth.track)
    replica = _replica(objective, drive, tuning)
    values = {name: np.array([float(v)]) for name, v in tuning.items() if not isinstance(v, bool)}
    sums, _ = replica.run(values)
    measured = float(sums[0, 0]) / max(replica.ticks, 1)
    length = float(objective.model.body(tuning)["length"])
    return measured + rounding_variance(pose, objective.anchors, objective.ends, length)


def _replica(objective: Objective, drive: RecordedDrive, tuning: Mapping[str, object]) -> Objective:
    """`objective` over another recording of the same drive (its segments left out too)."""
    return Objective(
        objective.model, drive, objective.hz, tuning, objective.segment, objective.heading_weight, objective.left_out
    )


def synthetic(objective: Objective, tuning: Mapping[str, object]) -> RecordedDrive:
    """The recording's controls driven by `tuning`'s car without a break, from the
    first anchor's state: a drive whose tuning is known exactly (with the recording's
    gaps, where the fit starts anew, though this car drove on)."""
    model, drive, a = objective.model, objective.drive, objective.first
    layout = model.STATE
    state = State.at_rest(1, layout)
    row = state.data[0]
    row[layout.offset["x"]], row[layout.offset["y"]], row[layout.offset["heading"]] = objective.pose[a]
    row[layout.offset["vx"]], row[layout.offset["vy"]] = objective.velocity[a]
    for column, value in zip(objective.columns, objective.values[a]):
        row[column] = value
    if objective.heading_vector[0] >= 0:
        row[objective.heading_vector] = np.cos(objective.pose[a, 2]), np.sin(objective.pose[a, 2])
    held = [name for name in drive.states if name in layout.offset and layout.slot[name].size == 1]
    names = ("x", "y", "heading", "vx", "vy") + tuple(held)
    run = record(model, tuning, objective.controls[a + 1 :], objective.hz, names, start=state, walls=objective.walls)
    rows = np.vstack([np.repeat(row[[layout.offset[n] for n in names]][None, :], a + 1, axis=0), run])
    if a > 0:  # a pose before the anchor that gives its velocity by the pose differences
        rows[:a, :2] = rows[a, :2] - rows[a, 3:5] / objective.hz
    states = {name: rows[:, 5 + k] for k, name in enumerate(held)}
    velocity = rows[:, 3:5] if drive.velocity is not None else None
    return RecordedDrive(drive.controls, rows[:, :3], velocity, states, drive.tick, drive.track)


def bootstrap(search: Search, x: np.ndarray, seen: np.ndarray, unseen=(), seed: int = 1) -> dict[str, np.ndarray]:
    """name -> the values of `seen` and `unseen` refitted to REPLICATES recordings of
    the fitted car with noise of the size the recording has (`noise_of`) on every pose,
    anchors included; their RMS deviation from x's values is the noise's spread and the
    pull that noisy anchors give (a parametric bootstrap). Each refit: each threshold of
    `unseen` (which the differences do not see) scanned across its range (`rescan`),
    then a Levenberg–Marquardt polish of `seen`. Empty for a recording without noise."""
    objective, space = search.objective, search.space
    unseen = np.asarray(unseen, dtype=np.int64)
    tuning = {**objective.base, **_values(space, x)}
    sigma_xy, sigma_heading = noise_of(objective, tuning)
    scale = max(float(np.max(np.abs(objective.pose[:, :2]))), 1.0)
    if not (sigma_xy > NOISELESS * scale or sigma_heading > NOISELESS):
        return {}
    truth = synthetic(objective, tuning)
    rng = np.random.default_rng(seed)
    found = []
    for _ in range(REPLICATES):
        if search._stopped():
            break
        noise = rng.normal(0.0, 1.0, truth.pose.shape) * [sigma_xy, sigma_xy, sigma_heading]
        drive = RecordedDrive(truth.controls, truth.pose + noise, truth.velocity, truth.states, truth.tick, truth.track)
        replica = _replica(objective, drive, tuning)
        refit = Search(replica, space, None, 0, search.stop)
        found.append(refit.polish(rescan(refit, x, unseen), seen, BOOTSTRAP_ROUNDS))
        search.evaluations += refit.evaluations
    if not found:
        return {}
    values = space.exact(np.array(found))
    return {space.names[j]: values[space.names[j]] for j in np.concatenate([seen, unseen]).astype(np.int64)}


def rescan(search: Search, x: np.ndarray, which: np.ndarray) -> np.ndarray:
    """x with each threshold of `which` in turn set to where it scores best, the others
    as they are: SCAN values across its range, then SCAN between the best one's
    neighbours, each grid one batch."""
    x = x.copy()
    for j in which:
        low, high = 0.0, 1.0
        for _ in range(2):
            grid = np.linspace(low, high, SCAN)
            candidates = np.repeat(x[None, :], SCAN + 1, axis=0)
            candidates[1:, j] = grid
            scores = search.scores(candidates)
            if np.min(scores[1:]) < scores[0]:  # ties keep x's own value
                x[j] = grid[int(np.argmin(scores[1:]))]
            spacing = grid[1] - grid[0]
            low, high = max(x[j] - spacing, 0.0), min(x[j] + spacing, 1.0)
    return x


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
    segment_of = np.repeat(objective.segment_of, per_tick)
    segments = int(segment_of.max()) + 1 if len(r) else 1
    gradients = np.zeros((segments, J.shape[1]))
    np.add.at(gradients, segment_of, J * r[:, None])
    meat = gradients.T @ gradients * (segments / max(segments - 1, 1))
    sandwich = bread @ meat @ bread
    return np.where(np.diag(sandwich)[:, None] > np.diag(plain)[:, None], sandwich, plain)
