"""The dynamic car seen from Python: its drive-force curves per gear and top speeds
(seed 004, "Engine Force", "Gear Ratios" and "Straight line physics": the top speed is
where the drive force meets drag and rolling resistance), and the kernels' formulas
element by element over arrays, for plots and tests (once per curve, never per tick).
"""

from __future__ import annotations

import math
from typing import Callable, Mapping

import numpy as np

from ..kernel import kernel
from ..params import param_rows
from . import monster_body as car_body
from . import monster_drivetrain as drivetrain
from . import monster_tyres as tyres
from .monster_drivetrain_params import GEAR_NAMES
from .monster_params import PARAMS, P

TOP_SPEED_GRID = np.linspace(0.0, 150.0, 3001)
"""m/s: the speeds `top_speed` looks for the first where the car no longer speeds up."""


@kernel
def _gear_acceleration(p, ratio, v):
    """Drive force / M (m/s²) at full throttle with gear `ratio`, wheels rolling at `v` (m/s)."""
    rpm = drivetrain.rpm_from_wheel(p, v / p[P.wheel_radius], ratio)
    full_throttle = drivetrain.lookup_torque_curve(p, max(rpm, p[P.idle_rpm]))
    return drivetrain.drive_force(p, full_throttle, ratio) / p[P.mass]


@kernel
def _gear_accelerations(p, gear, speeds, out):
    """out[i] = `_gear_acceleration` in `gear` at speeds[i]."""
    ratio = drivetrain.ratio_of_gear(p, gear)
    for i in range(speeds.shape[0]):
        out[i] = _gear_acceleration(p, ratio, speeds[i])


@kernel
def _net_acceleration(p, v):
    """force_curve's `net` at one speed: the best gear's drive minus the resistance."""
    best = -math.inf
    for gear in range(1, len(GEAR_NAMES) + 1):
        best = max(best, _gear_acceleration(p, drivetrain.ratio_of_gear(p, gear), v))
    return best - (p[P.c_drag] * v * v + p[P.c_rr] * v) / p[P.mass]


@kernel
def _bisect_top_speed(p, lo, hi, steps):
    """The speed in [lo, hi] where `net` falls through zero, halving `steps` times."""
    for _ in range(steps):
        mid = (lo + hi) / 2
        if _net_acceleration(p, mid) > 0:
            lo = mid
        else:
            hi = mid
    return lo


@kernel
def _every_gear(p, speeds, out):
    """out[g - 1] = `_gear_accelerations` of gear g, for every forward gear."""
    for gear in range(1, out.shape[0] + 1):
        _gear_accelerations(p, gear, speeds, out[gear - 1])


@kernel
def _top_speed(p, grid):
    """The first speed of `grid` where `net` ≤ 0 (0 if the first, inf if none), then
    50 halvings between it and the speed before."""
    for i in range(grid.shape[0]):
        if _net_acceleration(p, grid[i]) <= 0:
            return 0.0 if i == 0 else _bisect_top_speed(p, grid[i - 1], grid[i], 50)
    return math.inf


def _each(helper: Callable, p: Mapping, *args):
    """helper(tuning row, *values) element by element, for the Python side (once per
    curve or test, not per tick): the arguments and any per-car parameter arrays
    broadcast together; a tuple result gives a tuple of arrays."""
    values = [np.asarray(a, dtype=np.float64) for a in args]
    columns = {q.name: np.asarray(p.get(q.name, q.default), dtype=np.float64) for q in PARAMS}
    shape = np.broadcast_shapes(*(v.shape for v in values), *(col.shape for col in columns.values()))
    n = math.prod(shape)
    flat = [np.broadcast_to(v, shape).reshape(n) for v in values]
    per_car = {k: (col if col.ndim == 0 else np.broadcast_to(col, shape).reshape(n)) for k, col in columns.items()}
    rows, which = param_rows(PARAMS, per_car, n)
    out = np.array([helper(rows[which[i]], *(v[i] for v in flat)) for i in range(n)], dtype=np.float64)
    if out.ndim == 2:
        return tuple(out[:, k].reshape(shape) for k in range(out.shape[1]))
    return out.reshape(shape)


def _int_gear(row, gear):
    return drivetrain.ratio_of_gear(row, int(gear))


def gear_ratio(p: Mapping, gear) -> np.ndarray:
    """Ratio of gear number (1…6; −1 reverse; 0 neutral → 0), per car."""
    return _each(_int_gear, p, gear)


def engine_rpm(wheel_omega, gear_ratio_, p: Mapping) -> np.ndarray:
    """rpm = wheel rotation rate · xg · xd · 60 / 2π (seed "How do we get the RPM?")."""
    return _each(drivetrain.rpm_from_wheel, p, wheel_omega, gear_ratio_)


def torque_curve(rpm, p: Mapping) -> np.ndarray:
    """Max engine torque (N·m) at `rpm`: linear between the curve's points (one
    parameter each, per car), the end values beyond them, 0 above the redline."""
    return _each(drivetrain.lookup_torque_curve, p, rpm)


def drive_force(engine_torque, gear_ratio_, p: Mapping) -> np.ndarray:
    """F = T·xg·xd·η / Rw (seed "Engine Force")."""
    return _each(drivetrain.drive_force, p, engine_torque, gear_ratio_)


def axle_loads(p: Mapping, accel) -> tuple[np.ndarray, np.ndarray]:
    """Front and rear axle loads (N) with weight transfer (seed "Weight Transfer")."""
    return _each(car_body.weight_transfer, p, accel)


def traction_ratio(slip_ratio, p: Mapping) -> np.ndarray:
    """Traction force / load for a slip ratio: Ct·SR capped at ±μ, or Pacejka."""
    return _each(tyres.traction_ratio, p, slip_ratio)


def body(p: Mapping[str, float]) -> dict[str, float]:
    """The drawn car (m): wheel base b + c, track, and a body 1.6 m longer and 0.25 m
    wider than them."""
    b, c, w = float(p["cg_to_front"]), float(p["cg_to_rear"]), float(p["track_width"])
    return {"wheel_base": b + c, "track": w, "length": b + c + 1.6, "width": w + 0.25}


def force_curve(p: Mapping[str, float], speeds: np.ndarray, dt: float) -> dict[str, np.ndarray]:
    """Accelerations (m/s²) at full throttle in each gear, wheels rolling (rpm from the
    speed), and the resistance −(Cdrag·v² + Crr·v)/M; `net` is the best gear's."""
    v = np.ascontiguousarray(speeds, dtype=np.float64)
    m = float(p["mass"])
    (row,), _ = param_rows(PARAMS, p, 1)
    gears = np.empty((len(GEAR_NAMES), v.size))
    _every_gear(row, v.reshape(-1), gears)  # one compiled call: the worker drawing it rarely waits for Python's lock
    terms = {f"gear {name}": gears[i].reshape(v.shape) for i, name in enumerate(GEAR_NAMES)}
    resistance = (float(p["c_drag"]) * v * v + float(p["c_rr"]) * v) / m
    terms["resistance"] = -resistance
    terms["net"] = np.max(gears, axis=0).reshape(v.shape) - resistance
    return terms


def gear_top_speeds(p: Mapping[str, float]) -> dict[str, float]:
    """Top speed (m/s) in each forward gear held: the first speed of TOP_SPEED_GRID
    where that gear's drive force no longer beats drag and rolling resistance (above
    the redline the engine gives nothing, so a short gear stops at its redline speed,
    redline·2π/60·Rw/(xg·xd)); inf if it beats them everywhere on the grid."""
    v = TOP_SPEED_GRID
    net = force_curve(p, v, 0.0)
    out = {}
    for name in GEAR_NAMES:
        above = np.nonzero(net[f"gear {name}"] + net["resistance"] <= 0)[0]
        out[name] = float(v[above[0]]) if above.size else math.inf
    return out


def top_speed(p: Mapping[str, float], dt: float) -> float:
    """Fastest steady speed (m/s) of any gear within the rpm range: the first of 3001
    speeds from 0 to 150 m/s where `net` ≤ 0, then bisection (`_top_speed`)."""
    (row,), _ = param_rows(PARAMS, p, 1)
    return float(_top_speed(row, TOP_SPEED_GRID))


@kernel
def _has_top_speeds(rows, grid, out):
    """out[i]: whether `_top_speed` of rows[i] is finite (some speed of `grid` has
    `net` ≤ 0), looked for from the fastest down, where drag wins first."""
    for i in range(rows.shape[0]):
        out[i] = False
        for j in range(grid.shape[0] - 1, -1, -1):
            if _net_acceleration(rows[i], grid[j]) <= 0:
                out[i] = True
                break


def has_top_speeds(rows: np.ndarray, dt: float) -> np.ndarray:
    """Per tuning row (k, P) (params.param_rows): whether `top_speed` is finite."""
    out = np.empty(len(rows), dtype=np.bool_)
    _has_top_speeds(np.ascontiguousarray(rows, dtype=np.float64), TOP_SPEED_GRID, out)
    return out
