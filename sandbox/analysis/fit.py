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
    per tick), its Jacobian by forward differences as one batch; the parameters the
    differences do not see (thresholds) searched on grids first (`thresholds`), from
    the start value of those the CMA-ES's best leaves unused (step 2, checked before);
 4. uncertainties (fit_uncertainty.py): from the objective's curvature (Gauss–Newton,
    the larger of σ²(JᵀJ)⁻¹ and its sandwich over segments, whose errors run on
    within a segment), σ² the residual's variance, and for a noisy recording (whose
    residual is within what its noise explains: beyond it no ± means anything) at least
    the spread of refits to recordings of the fitted car with noise of the size found
    (a parametric bootstrap: noisy anchors pull the values too, along a valley where
    two trade off, and the thresholds are scanned again in each refit); a parameter
    the differences do not see (a threshold, e.g. the slip speed: the score steps as a
    recorded speed crosses it) by a profile scan instead, to where the score rises by
    σ², its value the middle of that interval;
 5. before 4, the segments whose residual stands far above the rest (fit_outliers.py:
    a wall touched, code of the game's own) left out and steps 3 done again from the
    rest, at most ROUNDS times; too many standing out: none left out, said instead.
    A contact can pull the whole fit off so that it does not stand out (every segment
    fitted badly): while the rest is still fitted beyond its noise, the segment fitted
    worst is left out too and the rest fitted anew, up to MAX_SHARE of the segments
    (`_contact_stretch`); the stretch is named only when the rest then drives to within
    its noise, else nothing more is left out and the fit is not called good;
`screen` is a quick fit, the polish of step 3 alone from the start (fit_switches.py
screens each set of on/off options with it before fitting the nearest in full).
Verdict (`verdict_of`): "good" when the RMS position error is at most GOOD_SHARE of
the distance driven per segment and the RMS heading error at most GOOD_DEGREES;
"cannot explain" when the RMS position error is larger than that distance; else "poor".
Whatever the verdict, a residual more than NOISE_FACTOR times what the recording's own
noise explains (`beyond_noise`, its noise model in fit_uncertainty.noise_variance and
fit_noise.py) is no noise: the values found, or the model, drive otherwise than the
recording, and their uncertainties mean nothing (fit_advice.py says what to try).
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
from .fit_objective import Objective, RecordedDrive
from .fit_outliers import MAX_SHARE, ROUNDS, segment_rms, standing_out
from .fit_search import EVALUATIONS_PER_PARAMETER, Search
from .fit_uncertainty import noise_position, uncertainties
from .tune_space import Space

GOOD_SHARE = 0.01
"""RMS position error, as a share of the distance driven per segment, up to which a fit is good."""
GOOD_DEGREES = 1.0
"""RMS heading error (°) up to which a fit is good."""
NOISE_FACTOR = 3.0
"""An RMS position error up to this many times what the recording's noise explains is
that noise; above it, the values (or the model) drive otherwise than the recording."""
CONTACT_PULL = 0.7
"""A segment left out as a contact that pulled the whole fit off must bring the rest's
RMS position error down to this share of what it was, or better (`_contact_stretch`)."""
ROUNDING = 1e-9
"""An RMS position error below this share of the distance driven per segment is float rounding."""


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
    noise_position: float = math.nan
    """RMS position error the recording's own noise explains (fit_uncertainty.noise_position)."""
    left_out_spans: list = field(default_factory=list)
    """[start, end] (s since the recording's first row) of each stretch the model cannot
    explain, left out of the fit (fit_outliers.py): the values come from the rest."""
    standing_out: int = 0
    """Segments standing far above the rest when they were too many to leave out (the
    model cannot explain the drive); 0 otherwise."""
    segments: int = 0
    """The drive's segments, those left out too."""
    worst_span: list = field(default_factory=list)
    """[start, end] (s) of the segment fitted worst (of those not left out)."""
    tied: list = field(default_factory=list)
    """Combinations of two values ({"of": "b / a" or "a × b", "value", "uncertainty"})
    the recording shows much more sharply than either (fit_uncertainty.tied)."""

    @property
    def beyond_noise(self) -> bool:
        """Whether the residual is more than NOISE_FACTOR times what the recording's
        noise explains: no search can promise it found the values, only that these
        drive this closely."""
        floor = ROUNDING * self.path_per_segment
        return self.rms_position > max(NOISE_FACTOR * self.noise_position, floor)


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
    if not objective.ticks:
        raise UserError(
            f"{drive.missing_ticks} of the recording's {drive.span_ticks + 1} ticks are lost, and no run of ticks "
            "between them is long enough to drive the car through: there is nothing to compare"
        )
    if not names:  # nothing to move: how the start tuning drives it
        return summary(objective, start, [])
    budget = max_evaluations or EVALUATIONS_PER_PARAMETER * len(names)
    search = _search(objective, start, names, budget, on_progress, stop)
    x0 = search.space.coordinates(start)
    best = search.evolve(x0, seed)
    best, flat = _settle(search, best, x0)
    whole, left_out, standing = objective, np.zeros(0, dtype=np.int64), 0
    for _ in range(ROUNDS):  # what the model cannot explain left out, the values from the rest
        if search._stopped():  # a search stopped short: its residual tells nothing of the drive
            break
        floor = ROUNDING * path_per_segment(whole)
        found = standing_out(whole, {**dict(start), **_exact(search.space, best)}, NOISE_FACTOR, floor)
        if len(found) > MAX_SHARE * len(whole.anchors):  # no stretch: the model cannot explain the drive
            standing = len(found)
            if len(left_out):
                left_out, objective = np.zeros(0, dtype=np.int64), whole
                search = _resumed(search, objective)
                best, flat = _settle(search, best, x0)
            break
        if np.array_equal(found, left_out):
            break
        left_out = found
        objective = Objective(model, drive, hz, start, segment, heading_weight, left_out)
        search = _resumed(search, objective)
        best, flat = _settle(search, best, x0)
    if not search._stopped():
        found = _contact_stretch(whole, objective, start, search, best, x0, seed)
        if found is not None:
            left_out, objective, search, best, flat = found
            standing = 0
    moving = np.flatnonzero(~flat)
    fitted = {**dict(start), **_exact(search.space, best)}
    rough = summary(objective, fitted, names)
    rough.noise_position = noise_position(objective, fitted)
    # the refits only for values that drive to the noise: beyond it no ± is meaningful
    # (fit_advice), and the sets of switches tried and not chosen are spared them
    values, uncertainty, tied = uncertainties(search, best, moving, refits=not rough.beyond_noise)
    tuning = {**dict(start), **values}
    result = summary(objective, tuning, names)
    result.undetermined = [names[j] for j in np.flatnonzero(flat)]
    result.uncertainty = {n: math.inf if n in result.undetermined else u for n, u in uncertainty.items()}
    result.tied = tied
    result.evaluations = search.evaluations
    result.history = search.history
    result.noise_position = noise_position(objective, tuning)
    result.left_out_spans = whole.spans(left_out)
    result.standing_out = standing
    result.segments = len(whole.anchors)
    kept = np.setdiff1d(np.arange(len(whole.anchors)), left_out)
    if len(kept):  # a segment the car left the numbers in is the worst
        worst = int(np.argmax(np.nan_to_num(segment_rms(objective, tuning), nan=np.inf)))
        result.worst_span = whole.spans(kept[[worst]])[0]
    if standing and result.verdict == "good":  # too much stands out to call it good
        result.verdict = "poor"
    return result


def _beyond_noise(objective: Objective, tuning: Mapping[str, object]) -> bool:
    """Whether `tuning` drives `objective`'s recording beyond what its noise explains."""
    rough = summary(objective, tuning, [])
    rough.noise_position = noise_position(objective, tuning)
    return rough.beyond_noise


def _contact_stretch(whole: Objective, objective: Objective, start, search: Search, best, x0, seed: int):
    """A contact the model cannot explain that pulled the whole fit off, so that it did
    not stand out (fit_outliers.py): while the fit drives the rest of the recording
    (`objective`: `whole` less what stood out) beyond its noise, the segment fitted
    worst under the latest fit is left out too and the rest fitted anew (the whole
    search), up to MAX_SHARE of the segments in all, each one left out bringing the
    rest's RMS position error down to CONTACT_PULL of what it was or better (else the
    error is spread over the drive: a value held wrong, another model; no stretch). The
    first fit that drives the rest to within its noise names the stretch: (left out,
    objective, search, best, flat) of that fit, or None (none found: the result stays
    as it was, beyond its noise, and is not called good)."""
    tuning = {**dict(start), **_exact(search.space, best)}
    if not _beyond_noise(objective, tuning):
        return None
    left_out = objective.left_out
    before = summary(objective, tuning, []).rms_position
    while len(left_out) < int(MAX_SHARE * len(whole.anchors)):
        rms = np.nan_to_num(segment_rms(whole, tuning), nan=np.inf)
        rms[left_out] = -np.inf
        left_out = np.sort(np.append(left_out, int(np.argmax(rms))))
        objective = Objective(whole.model, whole.drive, whole.hz, start, whole.segment, whole.heading_weight, left_out)
        trial = Search(objective, search.space, search.on_progress, search.budget, search.stop)
        trial.history = search.history
        found, flat = _settle(trial, trial.evolve(x0, seed), x0)
        trial.evaluations += search.evaluations
        if trial._stopped():
            return None
        tuning = {**dict(start), **_exact(trial.space, found)}
        if not _beyond_noise(objective, tuning):
            return left_out, objective, trial, found, flat
        rms_rest = summary(objective, tuning, []).rms_position
        if not rms_rest <= CONTACT_PULL * before:
            return None
        search, before = trial, rms_rest
    return None


def screen(
    model: ModuleType,
    drive: RecordedDrive,
    start: Mapping[str, object],
    names: list[str],
    hz: float,
    segment: int | None = None,
    heading_weight: float | None = None,
    stop: threading.Event | None = None,
) -> FitResult:
    """A quick fit (its residual and score; no uncertainties): the Levenberg–Marquardt
    polish of `names` from `start` alone; no CMA-ES, no threshold search, nothing left
    out. The whole fit (`fit`) from the same start drives the recording as closely or
    closer; a start far from the recorded car's values can leave this far from it."""
    segment = int(segment or round(hz))
    objective = Objective(model, drive, hz, start, segment, heading_weight)
    if not objective.ticks or not names:
        return summary(objective, start, list(names))
    search = _search(objective, start, names, 0, None, stop)
    x0 = search.space.coordinates(start)
    best = search.polish(x0, np.arange(len(x0)))
    result = summary(objective, {**dict(start), **_exact(search.space, best)}, names)
    result.evaluations = search.evaluations
    return result


def _search(objective: Objective, start: Mapping[str, object], names: list[str], budget: int, on_progress, stop):
    """The search of `names` over `objective`, each within its range under `start`'s switches."""
    params = {p.name: p for p in effective_params(objective.model.PARAMS, start)}
    space = Space(objective.model, list(names), {n: (params[n].min, params[n].max) for n in names}, start)
    return Search(objective, space, on_progress, budget, stop)


def _settle(search: Search, best: np.ndarray, x0: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(the coordinates polished from the search's best, whether each parameter is
    flat: the recording does not see it, back at its start value)."""
    everything = np.arange(len(best))
    seen_nowhere = search.flat(best)
    # a value the best tuning never uses (a grip above a slip speed no speed reaches)
    # holds whatever the search left there; from the start value instead, the user's
    # guess is where the threshold search begins when it brings it back into use
    best = best.copy()
    best[seen_nowhere] = x0[seen_nowhere]
    best = search.polish(best, everything)
    best = search.thresholds(best, everything, np.flatnonzero(seen_nowhere))
    flat = search.flat(best)
    best[flat] = x0[flat]
    return search.polish(best, np.flatnonzero(~flat)), flat


def _resumed(search: Search, objective: Objective) -> Search:
    """A search of `objective` that goes on counting where `search` stopped."""
    out = Search(objective, search.space, search.on_progress, search.budget, search.stop)
    out.evaluations, out.history = search.evaluations, search.history
    return out


def _exact(space: Space, x: np.ndarray) -> dict[str, float]:
    return {name: float(v[0]) for name, v in space.exact(x).items()}


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
    segments = max(len(objective.anchors), 1)
    return float(np.sum(steps) / segments)


def verdict_of(rms_position: float, rms_heading_degrees: float, path: float) -> str:
    """good / poor / cannot explain (see the module's text)."""
    if not math.isfinite(rms_position) or rms_position > path:
        return "cannot explain"
    if rms_position <= GOOD_SHARE * path and rms_heading_degrees <= GOOD_DEGREES:
        return "good"
    return "poor"
