"""The stretches of a recorded drive the model cannot explain (a wall touched, a
collision, code of the game's own): the segments whose residual stands far above the
rest, left out of the fit (fit.py) so that the values come from the drive the model
can drive.

A segment stands out when its RMS position error is more than OUTLIER_MADS robust
standard deviations (1.4826 · the median absolute deviation over the segments) above
the segments' median, and more than fit.NOISE_FACTOR times what the recording's
noise explains in it (fit_uncertainty.noise_variance): a segment that is merely
harder (a fast corner) under values that drive the recording to its noise is never
left out. More than MAX_SHARE of the segments standing out is no stretch: the model
cannot explain the drive, and none is left out.
"""

from __future__ import annotations

from typing import Mapping

import numpy as np

from .fit_objective import Objective
from .fit_uncertainty import noise_variance

OUTLIER_MADS = 10.0
"""Robust standard deviations above the segments' median from which a segment stands out."""
MAD_TO_SIGMA = 1.4826
"""A normal distribution's standard deviation per median absolute deviation."""
MAX_SHARE = 0.25
"""The largest share of a drive's segments that may be left out."""
ROUNDS = 3
"""Refits, each after leaving out what stands out under the values found before it."""


def segment_rms(objective: Objective, tuning: Mapping[str, object]) -> np.ndarray:
    """(segments,) the RMS position error (length units) of each segment the objective
    scores, under `tuning`."""
    values = {name: np.array([float(v)]) for name, v in tuning.items() if not isinstance(v, bool)}
    _, errors = objective.run(values, errors=True)
    squared = errors[0, :, 0] ** 2 + errors[0, :, 1] ** 2
    count = np.bincount(objective.segment_of, minlength=len(objective.anchors))
    total = np.bincount(objective.segment_of, weights=squared, minlength=len(objective.anchors))
    return np.sqrt(total / np.maximum(count, 1))


def standing_out(objective: Objective, tuning: Mapping[str, object], noise_factor: float, floor: float) -> np.ndarray:
    """The segments (indexes over every segment of `objective`, which leaves none out)
    whose residual under `tuning` stands far above the rest and above the noise
    (the module's text); an RMS error up to `floor` (length units) is rounding."""
    rms = segment_rms(objective, tuning)
    if len(rms) < 3 or not np.all(np.isfinite(rms)):
        return np.zeros(0, dtype=np.int64)
    median = float(np.median(rms))
    spread = MAD_TO_SIGMA * float(np.median(np.abs(rms - median)))
    variance = noise_variance(objective, tuning)
    measured = np.bincount(objective.segment_of, weights=variance, minlength=len(rms))
    noise = np.sqrt(measured / np.maximum(np.bincount(objective.segment_of, minlength=len(rms)), 1))
    out = (rms > median + OUTLIER_MADS * spread) & (rms > noise_factor * noise) & (rms > floor)
    return np.flatnonzero(out)
