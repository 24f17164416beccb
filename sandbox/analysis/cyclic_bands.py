"""Symmetric cyclic five-band matrices: the racing line's normal equations.

A matrix H (n, n) whose only entries lie within two places of the diagonal, counted
round the ends (row n − 1 meets column 0), held as three arrays: `h0` the diagonal,
`h1[i]` = H[i, i + 1] and `h2[i]` = H[i, i + 2] (indices mod n). Products and solves
take O(n) (a dense solve of a long lap's line would take O(n³), and a dense solve
calls a threaded BLAS that slows to a crawl on a busy machine).
"""

from __future__ import annotations

import math

import numpy as np

from ..physics.kernel import kernel


def times(h0: np.ndarray, h1: np.ndarray, h2: np.ndarray, y: np.ndarray) -> np.ndarray:
    """H·y (n,)."""
    return h0 * y + h1 * np.roll(y, -1) + np.roll(h1 * y, 1) + h2 * np.roll(y, -2) + np.roll(h2 * y, 2)


def gram(diagonals: tuple[np.ndarray, np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(h0, h1, h2) of JᵀJ for a cyclic three-band J given as its diagonals
    (J[i, i − 1], J[i, i], J[i, i + 1])."""
    h = [np.zeros(len(diagonals[0])) for _ in range(3)]
    for d1 in (-1, 0, 1):
        for d2 in range(d1, 2):
            h[d2 - d1] += np.roll(diagonals[d1 + 1] * diagonals[d2 + 1], d1)
    return h[0], h[1], h[2]


def transposed_times(diagonals, y: np.ndarray) -> np.ndarray:
    """Jᵀ·y (n,) for J as in `gram`."""
    return sum(np.roll(diagonals[d + 1] * y, d) for d in (-1, 0, 1))


@kernel
def _entry(h0, h1, h2, i, j):
    """H[i, j] (n ≥ 5)."""
    n = h0.shape[0]
    d = (j - i) % n
    if d == 0:
        return h0[i]
    if d == 1:
        return h1[i]
    if d == 2:
        return h2[i]
    if d == n - 1:
        return h1[j]
    if d == n - 2:
        return h2[j]
    return 0.0


@kernel
def _dot(a, b):
    """a·b (numba's np.dot wants a BLAS the sandbox does not install)."""
    total = 0.0
    for i in range(a.shape[0]):
        total += a[i] * b[i]
    return total


@kernel
def _band_factor(l0, l1, l2):
    """The banded Cholesky factor in place: on entry the (p,) diagonal and the
    sub-diagonals B[i, i − 1], B[i, i − 2] of a positive definite B; on return L's."""
    for i in range(l0.shape[0]):
        if i >= 2:
            l2[i] = l2[i] / l0[i - 2]
        if i >= 1:
            l1[i] = (l1[i] - (l2[i] * l1[i - 1] if i >= 2 else 0.0)) / l0[i - 1]
        l0[i] = math.sqrt(l0[i] - (l2[i] * l2[i] if i >= 2 else 0.0) - (l1[i] * l1[i] if i >= 1 else 0.0))


@kernel
def _band_solve(l0, l1, l2, r):
    """B⁻¹·r from `_band_factor`'s L (LLᵀ = B)."""
    p = l0.shape[0]
    y = np.empty(p)
    for i in range(p):
        y[i] = (r[i] - (l1[i] * y[i - 1] if i >= 1 else 0.0) - (l2[i] * y[i - 2] if i >= 2 else 0.0)) / l0[i]
    x = np.empty(p)
    for i in range(p - 1, -1, -1):
        x[i] = (
            y[i] - (l1[i + 1] * x[i + 1] if i + 1 < p else 0.0) - (l2[i + 2] * x[i + 2] if i + 2 < p else 0.0)
        ) / l0[i]
    return x


@kernel
def solve_free(h0, h1, h2, free, rhs):
    """x (n,) with H[F, F]·x[F] = rhs[F] for the indices F where `free` is true (H
    positive definite, n ≥ 5), x 0 elsewhere. F in order is five-band but for the
    wrap, which couples its first two with its last two: those last two are a border,
    solved by block elimination (a Schur complement of 2 × 2)."""
    n = h0.shape[0]
    f = np.flatnonzero(free)
    m = f.shape[0]
    x = np.zeros(n)
    if m == 0:
        return x
    k = min(m, 2)  # the border
    p = m - k
    l0, l1, l2 = np.zeros(p), np.zeros(p), np.zeros(p)
    for a in range(p):
        l0[a] = _entry(h0, h1, h2, f[a], f[a])
        if a >= 1:
            l1[a] = _entry(h0, h1, h2, f[a], f[a - 1])
        if a >= 2:
            l2[a] = _entry(h0, h1, h2, f[a], f[a - 2])
    _band_factor(l0, l1, l2)
    r = np.empty(p)
    for a in range(p):
        r[a] = rhs[f[a]]
    y = _band_solve(l0, l1, l2, r)
    columns = np.zeros((k, p))  # C: the border's columns of H[F, F] above it
    z = np.zeros((k, p))  # B⁻¹·C
    for c in range(k):
        for a in range(p):
            columns[c, a] = _entry(h0, h1, h2, f[a], f[p + c])
        z[c] = _band_solve(l0, l1, l2, columns[c])
    schur = np.zeros((k, k))
    rest = np.zeros(k)
    for c in range(k):
        rest[c] = rhs[f[p + c]] - _dot(columns[c], y)
        for e in range(k):
            schur[e, c] = _entry(h0, h1, h2, f[p + e], f[p + c]) - _dot(columns[e], z[c])
    border = np.zeros(k)
    if k == 1:
        border[0] = rest[0] / schur[0, 0]
    else:
        det = schur[0, 0] * schur[1, 1] - schur[0, 1] * schur[1, 0]
        border[0] = (schur[1, 1] * rest[0] - schur[0, 1] * rest[1]) / det
        border[1] = (schur[0, 0] * rest[1] - schur[1, 0] * rest[0]) / det
    for a in range(p):
        value = y[a]
        for c in range(k):
            value -= z[c, a] * border[c]
        x[f[a]] = value
    for c in range(k):
        x[f[p + c]] = border[c]
    return x
