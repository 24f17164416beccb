"""What a recording's rounding explains of a fit's residual (fit_uncertainty.noise_position):
the digits it was written with, and the engine's 32-bit arithmetic.

A game engine such as Godot 3 keeps positions in 32-bit floats (Vector2): every tick
each coordinate is rounded to float32's spacing there (2.4e-4 px at 2 000 px), and
an orientation worked out from two points a car's length apart (the recipe's front
and rear wheels, each rounded twice a tick) turns by up to that spacing over the
length, at random. Within a segment these roundings add up as random walks: the
position's directly, the heading's through every step driven after it.
`rounding_variance` is that, per tick scored, for a recording whose positions lie on
float32's grid (`float32_positions`); zero for one that does not (the sandbox's own).
"""

from __future__ import annotations

import math

import numpy as np

DECIMALS = 12
"""The most decimals a recording's column is looked at for (more: not rounded)."""
COARSER = 4.0
ENOUGH = 10
"""`float32_positions` looks at coordinates where float32's spacing is at least COARSER
times the step they were written with, ENOUGH of them at least."""
ROUNDINGS_PER_POINT = 2
"""Roundings a tick of each of the two points an orientation is worked out from."""


def quantum(values: np.ndarray) -> float:
    """The step a column of numbers was written with: 10⁻ᵈ, d the most decimals any
    value needs (its shortest text that reads back to it); 0 when that is more than
    DECIMALS (not rounded)."""
    values = np.asarray(values, dtype=np.float64)
    decimals = 0
    for value in values[np.isfinite(values)]:
        text = np.format_float_positional(value, unique=True, trim="-")
        decimals = max(decimals, len(text) - text.index(".") - 1 if "." in text else 0)
        if decimals > DECIMALS:
            return 0.0
    return 10.0**-decimals


def float32_positions(pose: np.ndarray) -> bool:
    """Whether the recorded x and y are float32 numbers (as written, to their own
    digits): a recording of an engine that computes in 32 bits. Looked at where
    float32's spacing is at least COARSER times the step written with (elsewhere any
    number written would pass); fewer than ENOUGH such values: no."""
    xy = np.asarray(pose, dtype=np.float64)[:, :2].ravel()
    xy = xy[np.isfinite(xy)]
    written = quantum(xy)
    single = xy.astype(np.float32)
    coarse = np.spacing(np.abs(single)).astype(np.float64) >= COARSER * max(written, 1e-300)
    if np.count_nonzero(coarse) < ENOUGH:
        return False
    off = np.abs(single[coarse].astype(np.float64) - xy[coarse])
    return bool(np.all(off <= written / 2 + 1e-15 * np.abs(xy[coarse])))


def rounding_variance(pose: np.ndarray, anchors, ends, length: float) -> np.ndarray:
    """Per tick scored (the objective's order: segment after segment, ticks a+1 … end),
    the position error's variance (length units², x and y together) that float32
    rounding within the segment explains, for a car `length` long. Zero for a
    recording whose positions are not float32 (`float32_positions`)."""
    pose = np.asarray(pose, dtype=np.float64)
    ticks = int(sum(int(e) - int(a) for a, e in zip(anchors, ends)))
    if not float32_positions(pose):
        return np.zeros(ticks)
    spacing = np.spacing(np.abs(pose[:, :2]).astype(np.float32)).astype(np.float64).max(axis=1)
    position = 2 * spacing**2 / 12  # a uniform rounding's variance, two axes
    # a point's error across the line between the points: ROUNDINGS_PER_POINT roundings;
    # the two points' errors add; over `length` an angle (rad²)
    heading = 2 * ROUNDINGS_PER_POINT * spacing**2 / 12 / max(length, 1e-12) ** 2
    steps = np.concatenate([[0.0], np.hypot(*np.diff(pose[:, :2], axis=0).T)])
    out = []
    for a, end in zip(anchors, ends):
        rows = np.arange(int(a) + 1, int(end) + 1)
        driven = np.cumsum(steps[rows])  # S_k: driven from the anchor to tick k
        before = np.concatenate([[0.0], driven[:-1]])  # S_(i-1)
        h = heading[rows]
        # Σ_i σ_i²·(S_k − S_(i−1))²: a heading error at tick i displaces every step after it
        turned = driven**2 * np.cumsum(h) - 2 * driven * np.cumsum(h * before) + np.cumsum(h * before**2)
        out.append(np.maximum(turned, 0.0) + np.cumsum(position[rows]))
    return np.concatenate(out) if out else np.zeros(0)


def rounding_rms(pose: np.ndarray, anchors, ends, length: float) -> float:
    """The RMS position error (length units) float32 rounding explains over every tick
    scored (`rounding_variance`)."""
    variance = rounding_variance(pose, anchors, ends, length)
    return math.sqrt(float(np.mean(variance))) if len(variance) else 0.0
