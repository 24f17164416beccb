"""The fastest speed a car can hold along a line: the forward–backward pass.

Along a line of points at cumulative distance `s` with signed curvature `kappa`, the
speed at each point is at most √(a_lat / |κ|) (the car's lateral grip round the bend
there) and `v_top`; a forward pass lets it grow from one point to the next by at most
v² + 2·a_accel(v)·ds, a backward pass lets it fall by at most the brake's v² + 2·a_brake·ds
(straight-line kinematics, v² = v0² + 2as). By default the grips are taken apart (no
friction circle): braking and accelerating do not eat into the lateral grip, as in the
simple profile a lap-time estimate is usually made with. With `combined` (the lap
driver's choice) they share it as a friction ellipse, the car's grip envelope
(`grip_envelope`, which the g-g diagram draws too): at a point using a share
u = v²·|κ| / a_lat of its lateral grip, the car accelerates or brakes at most
√(1 − u²) of its straight-line figure, so it brakes before a bend rather than in it.
On a steady circle (u = 1 all round, nothing to gain or lose) both give √(a_lat·R).
Every length is the line's unit (m or px), every acceleration that unit per s².

On a closed line the passes wrap: they start at the slowest bend (nothing is faster
there), go round twice and repeat until nothing changes. An open line starts and ends
at its ends' limits.

`forward_backward` is a `@kernel` on arrays (for compiled sweeps); `profile` is the
same from Python, with its input checked and a constant or tabled acceleration.
"""

from __future__ import annotations

import math

import numpy as np

from ..physics.kernel import kernel
from .grip_envelope import accelerating_limit, braking_limit, drive_at


@kernel
def forward_backward(s, kappa, a_lat, a_brake, accel_v, accel_a, v_top, closed, combined=False):
    """Speeds (n,) at the n points of curvature `kappa` (n,) at distance `s` (n + 1 for a
    closed line: the last is the lap's length; n for an open one). The car accelerates
    at most np.interp(v, accel_v, accel_a) (a table of speeds, ascending, and
    accelerations) and brakes at most `a_brake`; `closed` (bool) wraps the passes;
    `combined` (bool): through the friction ellipse (`grip_envelope`)."""
    n = kappa.shape[0]
    v = np.empty(n)
    for i in range(n):
        k = abs(kappa[i])
        v[i] = v_top if k * v_top * v_top <= a_lat else math.sqrt(a_lat / k)
    if n < 2:
        return v
    start = np.argmin(v) if closed else 0
    segments = n if closed else n - 1
    laps = 2 if closed else 1
    for _ in range(8):
        changed = False
        for step in range(laps * segments):  # forward: point i to the one after
            i = (start + step) % n
            j = (i + 1) % n
            ds = s[i + 1] - s[i]
            if combined:
                drive = accelerating_limit(v[i], v[i] * v[i] * abs(kappa[i]), a_lat, accel_v, accel_a)
            else:
                drive = drive_at(v[i], accel_v, accel_a)
            squared = v[i] * v[i] + 2.0 * drive * ds
            reachable = math.sqrt(max(0.0, squared))  # drag beating the drive may stop it
            if reachable < v[j]:
                v[j] = reachable
                changed = True
        end = start if closed else n - 1
        for step in range(laps * segments):  # backward: point j to the one before
            j = (end - step) % n
            i = (j - 1) % n
            ds = s[i + 1] - s[i]
            brake = braking_limit(v[j] * v[j] * abs(kappa[j]), a_lat, a_brake) if combined else a_brake
            reachable = math.sqrt(v[j] * v[j] + 2.0 * brake * ds)
            if reachable < v[i]:
                v[i] = reachable
                changed = True
        if not (changed and closed):
            break
    return v


def profile(
    s, kappa, a_lat: float, a_brake: float, a_accel, v_top: float, closed: bool = True, combined: bool = False
) -> np.ndarray:
    """The forward–backward speed profile (n,) along a line: `s` cumulative distance
    (n + 1 values for a closed line, its last the lap's length; n for an open one),
    `kappa` signed curvature (n,), `a_lat` the car's lateral grip, `a_brake` its braking,
    `a_accel` its acceleration: a constant or (k, 2) points of (speed, acceleration),
    speed ascending (held flat beyond the ends; below 0 where drag beats the drive, the
    car slowing there, to a stop at worst); `v_top` its top speed; `combined`: the
    grips shared as a friction ellipse (the module's text)."""
    s = np.ascontiguousarray(s, dtype=np.float64)
    kappa = np.ascontiguousarray(kappa, dtype=np.float64)
    want = len(kappa) + 1 if closed else len(kappa)
    if s.ndim != 1 or kappa.ndim != 1 or len(s) != want:
        raise ValueError(
            f"a {'closed' if closed else 'open'} line of {len(kappa)} curvatures takes {want} distances, not {len(s)}"
        )
    if np.any(np.diff(s) < 0):
        raise ValueError("the distances along the line must not decrease")
    for name, value in (("a_lat", a_lat), ("a_brake", a_brake), ("v_top", v_top)):
        if not value > 0:
            raise ValueError(f"{name} must be above 0, not {value}")
    table = np.asarray(a_accel, dtype=np.float64)
    table = np.array([[0.0, float(table)]]) if table.ndim == 0 else table.reshape(-1, 2)
    if np.any(np.diff(table[:, 0]) <= 0):
        raise ValueError("the acceleration table's speeds must rise from row to row")
    return forward_backward(
        s,
        kappa,
        float(a_lat),
        float(a_brake),
        table[:, 0].copy(),
        table[:, 1].copy(),
        float(v_top),
        bool(closed),
        bool(combined),
    )


def lap_time(s, v, closed: bool = True) -> float:
    """The time (s) to drive the line at speeds `v` (n,) at distances `s` (n + 1 for a
    closed line): each stretch at a steady acceleration between its ends' speeds, so
    2·ds / (v0 + v1)."""
    s = np.asarray(s, dtype=np.float64)
    v = np.asarray(v, dtype=np.float64)
    ends = np.append(v, v[0]) if closed else v
    return float(np.sum(2.0 * np.diff(s) / (ends[:-1] + ends[1:])))
