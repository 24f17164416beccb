"""A racing line round a closed track: the line of least curvature inside the corridor.

The line is the corridor's points (`track_corridor`: the centre line every 2 m) moved
along their normals by offsets kept within the corridor less `margin` each side (the
car's half-width plus a clearance). It minimises ∫κ² ds, the squared curvature along
it (at each point the polygon's turn over the mean of its two sides, weighted by that
length), the minimum-curvature line of the racing literature (Braghin et al. 2008;
Heilmeier et al. 2019), solved here from that definition, with numpy and a small
compiled solve:

- the curvature is not linear in the offsets, so it is linearised (a Jacobian by
  central differences: κ at a point depends on its own and its two neighbours'
  offsets, so three evaluations give it all) and each step solved as a bounded least
  squares, damped (Levenberg–Marquardt);
- each step's bounded least squares is a box-constrained quadratic with a cyclic
  five-band matrix, solved by a primal–dual active set (Hintermüller, Ito and Kunisch
  2002) started from the last step's, each solve O(n) (`cyclic_bands`);
- it is iterated until it settles: no offset moves by more than a thousandth of the
  spacing, or the sum stops falling.

Why this: it settles in a known number of steps and says what it minimised. A plain
K1999-style relaxation (each point's curvature pulled halfway toward its neighbours'
mean, every point at once, no coarse-to-fine schedule) was tried on the club circuit:
its best lap was 41.4 s after 4 000 sweeps (2.3 s), and it then drifted off without
settling; a working one needs the multi-resolution schedule this one does without.
Figures on the club circuit (1.15 km, 576 points, margin 1.5 m of the 6 m each side),
for a car of 9 m/s² lateral grip, 9 m/s² braking, 5 m/s² acceleration and 70 m/s top
speed (`speed_profile`): the lap along the centre line (its own points, 5 m apart)
takes 43.6 s, along this line 37.8 s; the line settles in 14 steps and takes 0.1 s on
one core of a busy machine (0.35 s the first time a process loads its compiled solve);
it is cached per track, unit and margin.
"""

from __future__ import annotations

import hashlib
from typing import NamedTuple

import numpy as np

from ..physics.track import Track
from ..physics.track_corridor import half_widths
from . import cyclic_bands

SPACING_M = 2.0
"""m between the line's points (the corridor's spacing), at the track's scale in px."""
MOST_POINTS = 3000
"""A longer lap is spaced wider (a 6 km lap at 2 m): the time grows with the points."""
SETTLED = 1e-3
"""The line has settled when no offset moves by more than this share of the spacing."""
MOST_STEPS = 200
"""Gauss–Newton steps at most (the club circuit settles in tens)."""
CACHE_SIZE = 16
"""Racing lines kept in memory (track, unit, margin)."""


class RacingLine(NamedTuple):
    """A closed line of n points (n, 2) in the unit it was asked in; `s` (n + 1,) the
    distance along it to each point from the first, its last value the lap's length;
    `kappa` (n,) the signed curvature at each point (1/unit, above 0 bending left, the
    side the normals point to); `offsets` (n,) how far each point lies along the
    centre line's normal `normals` (n, 2) from the corridor's point `centre` (n, 2);
    `steps` how many Gauss–Newton steps it took to settle; `room` (n, 2) how far each
    point may move to its right and to its left and still keep the margin from the
    walls (a car joining the line from beside it keeps within them)."""

    points: np.ndarray
    s: np.ndarray
    kappa: np.ndarray
    offsets: np.ndarray
    normals: np.ndarray
    centre: np.ndarray
    steps: int
    room: np.ndarray


_cache: dict[tuple, RacingLine] = {}


def racing_line(track: Track, unit: str, margin: float) -> RacingLine:
    """The least-curvature line round `track`'s closed centre line, in `unit` (px or m),
    keeping `margin` (that unit) from the walls each side; cached per track, unit and
    margin. A track with no closed centre line, or narrower than twice the margin
    somewhere, is refused with the distance along the lap where."""
    key = (_fingerprint(track), unit, float(margin))
    if key not in _cache:
        if len(_cache) >= CACHE_SIZE:
            _cache.pop(next(iter(_cache)))
        _cache[key] = _solve(track.in_unit(unit), float(margin))
    return _cache[key]


def curvature(points: np.ndarray) -> np.ndarray:
    """Signed curvature (n,) at each point of a closed polygon (n, 2), y down: the turn
    at the point over the mean length of its two sides, above 0 turning left."""
    before = points - np.roll(points, 1, axis=0)
    after = np.roll(points, -1, axis=0) - points
    cross = before[:, 0] * after[:, 1] - before[:, 1] * after[:, 0]
    dot = (before * after).sum(axis=1)
    mean = 0.5 * (np.hypot(*before.T) + np.hypot(*after.T))
    return -np.arctan2(cross, dot) / mean


def _lengths(points: np.ndarray) -> np.ndarray:
    """(n,) the length of a closed polygon at each point: half of each side beside it."""
    sides = np.hypot(*(np.roll(points, -1, axis=0) - points).T)
    return 0.5 * (sides + np.roll(sides, 1))


def distances(points: np.ndarray) -> np.ndarray:
    """(n + 1,) distance along a closed polygon to each point, the lap's length last."""
    sides = np.hypot(*(np.roll(points, -1, axis=0) - points).T)
    return np.concatenate(([0.0], np.cumsum(sides)))


def _solve(track: Track, margin: float) -> RacingLine:
    if track.centre_line is None or not track.centre_line.closed:
        raise ValueError(f"the track {track.name!r} has no closed centre line: a racing line goes round a lap")
    if not margin >= 0:
        raise ValueError(f"the racing line's margin from the walls must be 0 or more, not {margin}")
    scale = track.pixels_per_metre if track.unit == "px" else 1.0
    centre_s = distances(track.centre_line.points)
    spacing = max(SPACING_M * scale, centre_s[-1] / MOST_POINTS)
    spacing = centre_s[-1] / (3 * max(2, round(centre_s[-1] / (3 * spacing))))  # points: a multiple of 3, 6 or more
    corridor = half_widths(track, spacing)
    centre, normals = corridor.points, corridor.normals
    low, high = margin - corridor.right, corridor.left - margin
    if np.any(low > high):
        where = distances(centre)[int(np.argmax(low - high))]
        raise ValueError(
            f"the track {track.name!r} is narrower than twice the margin ({2 * margin:g} {track.unit}) "
            f"{where:.1f} {track.unit} along the lap: no line fits there"
        )
    offsets = np.clip(np.zeros(len(centre)), low, high)
    offsets, steps = _least_curvature(centre, normals, offsets, low, high, spacing)
    points = centre + offsets[:, None] * normals
    room = np.column_stack([offsets - low, high - offsets])  # the normals point left
    for array in (points, offsets, normals, centre, room):
        array.setflags(write=False)
    return RacingLine(points, distances(points), curvature(points), offsets, normals, centre, steps, room)


def _least_curvature(centre, normals, offsets, low, high, spacing):
    """The offsets within [low, high] of least ∫κ² ds, by damped Gauss–Newton steps;
    with how many steps it took."""

    def kappa_at(a):  # κ·√(length at the point): Σ of its square is ∫κ² ds
        points = centre + a[:, None] * normals
        return curvature(points) * np.sqrt(_lengths(points))

    kappa = kappa_at(offsets)
    cost = float(kappa @ kappa)
    damping = None
    rests = np.zeros(len(offsets), dtype=np.int64)
    for step in range(1, MOST_STEPS + 1):
        diagonals = _jacobian(kappa_at, offsets, 1e-4 * spacing)
        h0, h1, h2 = cyclic_bands.gram(diagonals)
        gradient = cyclic_bands.transposed_times(diagonals, kappa)
        if damping is None:
            damping = 1e-3 * float(np.mean(h0))
        while True:
            bands = (h0 + damping, h1, h2)
            move, trial_rests = _box_quadratic(bands, gradient, low - offsets, high - offsets, rests)
            trial = offsets + move
            trial_kappa = kappa_at(trial)
            trial_cost = float(trial_kappa @ trial_kappa)
            if trial_cost <= cost or damping > 1e12 * np.mean(h0):
                break
            damping *= 10.0
        if trial_cost > cost:
            return offsets, step
        settled = np.abs(move).max() <= SETTLED * spacing or cost - trial_cost <= 1e-12 * cost
        offsets, kappa, cost, rests = trial, trial_kappa, trial_cost, trial_rests
        damping /= 3.0
        if settled:
            return offsets, step
    return offsets, MOST_STEPS


def _jacobian(kappa_at, offsets, h):
    """dκ/d(offsets) as its three diagonals (dκ[i]/d offsets[i − 1], [i], [i + 1]): κ at
    a point depends on its own offset and its two neighbours', so offsets three apart
    are moved together (n a multiple of 3) and each κ's change is one offset's."""
    n = len(offsets)
    rows = np.arange(n)
    diagonals = np.zeros((3, n))
    for colour in range(3):
        moved = np.zeros(n)
        moved[colour::3] = h
        change = (kappa_at(offsets + moved) - kappa_at(offsets - moved)) / (2 * h)
        side = (colour - rows + 1) % 3  # 0, 1, 2: the moved offset is i − 1, i or i + 1
        diagonals[side, rows] = change
    return diagonals[0], diagonals[1], diagonals[2]


def _box_quadratic(bands, gradient, low, high, guess, most=40):
    """x minimising ½xᵀHx + gᵀx within low ≤ x ≤ high (H positive definite, its
    `bands` as `cyclic_bands` holds them), by a primal–dual active set (Hintermüller,
    Ito and Kunisch 2002) started from `guess` (−1 at the low bound, 1 at the high, 0
    free: the last step's, so a step takes a few solves); the last iterate clipped if
    it has not settled. Returns x and the bounds it rests on, as `guess`."""
    scale = float(np.mean(bands[0]))
    rests = guess
    for _ in range(most):
        free = rests == 0
        x = np.where(rests > 0, high, np.where(rests < 0, low, 0.0))
        rhs = -gradient - cyclic_bands.times(*bands, x)
        x = np.where(free, cyclic_bands.solve_free(*bands, free, rhs), x)
        dual = -(cyclic_bands.times(*bands, x) + gradient)
        dual[free] = 0.0
        now = np.where(dual + scale * (x - high) > 0, 1, np.where(dual + scale * (x - low) < 0, -1, 0))
        if np.array_equal(now, rests):
            break
        rests = now
    return np.clip(x, low, high), rests


def _fingerprint(track: Track) -> str:
    """A digest of what a racing line of the track depends on: its scale, centre line
    and walls."""
    digest = hashlib.sha256(repr((track.unit, track.pixels_per_metre, track.rects, track.circles)).encode())
    for line in (track.centre_line, *track.polylines):
        if line is not None:
            digest.update(repr((line.closed, line.points.shape)).encode())
            digest.update(np.ascontiguousarray(line.points).tobytes())
    return digest.hexdigest()
