"""Standard manoeuvres by batch simulation: the figures a tuning is judged by.

Every function takes a model, parameters whose values may be arrays (one entry per
tuning: a sweep is one batch) and a tick rate, and runs each manoeuvre for all the
tunings at once, from rest at the origin. Speeds and distances are in the model's
units; "100" is 100 px/s for pixel models and 100 km/h for models in metres.

| metric | manoeuvre |
|---|---|
| top_speed | full throttle straight until the speed settles: a geometric approach extrapolated once within 1 % of its end, or a rev-limiter sawtooth (a second that rises and falls within 1 % with no trend) taken as its mean (inf if neither within 120 s) |
| time_to_100, time_to_90pct | the same run: first time at 100 and at 90 % of top speed |
| braking_from_top | then full brake until the car no longer moves forward |
| braking_from_100 | full throttle to 100, then full brake to a stop |
| reverse_top_speed | brake held from rest (the sandbox's reverse) until the speed settles: a fixed point, or a second that varies under 1 % with no trend, taken as its mean (≤ 20 s; none for a model that declares no top speed) |
| radius_low, radius_top | full lock at 25 % of top speed (speed held on the throttle) and at top speed (throttle held): path radius = speed / yaw rate over the last second |
| peak_slip_skidpad | largest |slip angle| (°) in the full-lock runs |
| peak_lateral_accel | largest sideways acceleration in the full-lock runs, speed × turn rate of the velocity over 0.25 s (single-tick steps of instant steering are not accelerations a driver feels) |

NaN means the manoeuvre could not reach its mark (100 never reached, no top speed).
"""

from __future__ import annotations

import math
from types import ModuleType
from typing import Mapping

import numpy as np

from ..physics.state import Controls, State

SETTLE_LIMIT_S = 120.0
SETTLE_GAP = 0.01
"""An extrapolated top speed counts once it is within this fraction of the speed: from
further out, a torque curve's kinks bend the approach (the Corvette's read 0.6 % high
from 5 % out)."""
UNLIMITED_RUN_S = 10.0
"""s: the straight run of a model that declares no top speed (time to 100 still counts)."""
REVERSE_S = 20.0
CIRCLE_S = 4.0
STOP_LIMIT_S = 30.0
LATERAL_WINDOW_S = 0.25

METRICS = {  # name -> (label, unit kind): unit kinds "speed", "time", "distance", "deg", "accel"
    "top_speed": ("top speed", "speed"),
    "time_to_100": ("time 0→100", "time"),
    "time_to_90pct": ("time 0→90 % of top", "time"),
    "braking_from_top": ("braking from top speed", "distance"),
    "braking_from_100": ("braking from 100", "distance"),
    "reverse_top_speed": ("reverse top speed", "speed"),
    "radius_low": ("turning radius, full lock, slow", "distance"),
    "radius_top": ("turning radius, full lock, top speed", "distance"),
    "peak_slip_skidpad": ("peak slip angle, skid pad", "deg"),
    "peak_lateral_accel": ("peak lateral acceleration", "accel"),
}


def reference_speed(model: ModuleType) -> tuple[float, str]:
    """(speed in model units/s, label) of "100": 100 px/s, or 100 km/h in metres."""
    return (100.0, "100 px/s") if model.LENGTH_UNIT == "px" else (100 / 3.6, "100 km/h")


def unit_of(kind: str, model: ModuleType) -> str:
    length = model.LENGTH_UNIT
    return {"speed": f"{length}/s", "time": "s", "distance": length, "deg": "°", "accel": f"{length}/s²"}[kind]


def _first(params: Mapping) -> dict:
    """The first tuning of a batch, as scalars."""
    return {k: np.asarray(v).reshape(-1)[0] for k, v in params.items()}


def _count(params: Mapping) -> int:
    return max([np.size(v) for v in params.values()] + [1])


def _select(mask: np.ndarray, a: State, b: State) -> State:
    """Per car: `a` where mask, else `b` (so a car can stop at its own mark in a batch)."""
    pick = lambda x, y: np.where(mask.reshape(mask.shape + (1,) * (np.ndim(x) - 1)), x, y)  # noqa: E731
    fields = {k: pick(getattr(a, k), getattr(b, k)) for k in ("x", "y", "heading", "vx", "vy", "wheel_angle",
                                                            "traction_fast")}
    # an extra the kept state does not have yet (first tick) comes from the new one
    extra = {k: pick(a.extra[k], v) if k in a.extra else v for k, v in b.extra.items()}
    return State(**fields, extra=extra)


def _advance(settled: np.ndarray, s: State, after: State) -> State:
    """`after` for the cars still running, `s` kept for those settled (selection
    skipped while none has: a single tuning never needs it)."""
    return _select(settled, s, after) if settled.any() else after


def _forward(s: State) -> np.ndarray:
    return np.cos(s.heading) * s.vx + np.sin(s.heading) * s.vy


def _straight(model, params, dt, n):
    """Full throttle until settled: top speed, times to 100 and 90 %, and the state."""
    ref, _ = reference_speed(model)
    s = State.at_rest(n)
    t_ref = np.full(n, np.nan)
    history = []
    limit = SETTLE_LIMIT_S
    if not math.isfinite(model.top_speed(_first(params), dt)):
        limit = UNLIMITED_RUN_S  # nothing resists: no top speed to wait for
    previous = np.zeros(n)
    step_before = np.zeros(n)
    estimate_before = np.full(n, np.nan)
    top = np.full(n, np.inf)
    settled = np.zeros(n, dtype=bool)  # a settled car keeps its state: batches = single runs
    last = _last_second(dt, n)
    window = len(last)
    for tick in range(1, int(limit / dt) + 1):
        s = _advance(settled, s, model.step(s, Controls(0.0, 1.0, 0.0), params, dt))
        speed = s.speed
        history.append(speed.copy())
        last[tick % window] = speed
        t_ref = np.where(np.isnan(t_ref) & (speed >= ref), tick * dt, t_ref)
        # near a top speed each step is r times the last (0 < r < 1): the steps still to
        # come add up to step·r/(1−r) (Aitken's Δ²), so slow cars need not run for minutes
        step = speed - previous
        ratio = np.where(step_before != 0, step / np.where(step_before != 0, step_before, 1.0), 0.0)
        geometric = (ratio > 0) & (ratio < 1)
        estimate = np.where(geometric, speed + step * ratio / np.where(geometric, 1 - ratio, 1.0), speed)
        scale = np.maximum(speed, 1.0)
        now = ((tick * dt > 1.0) & (geometric | (step == 0)) & ~settled
               & (np.abs(step) <= 1e-2 * scale * dt)               # under 1 % of the speed per second
               & (np.abs(estimate - speed) <= SETTLE_GAP * scale)   # and close
               & (np.abs(estimate - estimate_before) <= 1e-6 * scale))  # and the estimate is steady
        top = np.where(now, estimate, top)
        settled |= now
        if tick % window == 0:  # once a second: on a rev limiter the speed saws for ever
            saw = ~settled & _sawtooth(last, tick)
            top = np.where(saw, last.mean(axis=0), top)
            settled |= saw
        if settled.all():
            break
        previous, step_before, estimate_before = speed, step, estimate
    speeds = np.array(history)  # (ticks, n)
    reached = speeds >= 0.9 * top
    t90 = np.where(reached.any(axis=0), (reached.argmax(axis=0) + 1) * dt, np.nan)
    return s, top, t_ref, t90


def _stop_distance(model, params, dt, s: State) -> np.ndarray:
    """Full brake from state `s` until each car no longer moves forward; distance."""
    travelled = np.zeros(len(s))
    going = _forward(s) > 0
    for _ in range(int(STOP_LIMIT_S / dt)):
        if not going.any():
            break
        after = model.step(s, Controls(0.0, 0.0, 1.0), params, dt)
        travelled += np.where(going, np.hypot(after.x - s.x, after.y - s.y), 0.0)
        s = after
        going &= _forward(s) > 0
    return np.where(going, np.nan, travelled)


def _braking_from_ref(model, params, dt, n, top: np.ndarray) -> np.ndarray:
    """Full throttle to 100, then full brake to a stop; NaN for cars slower than 100."""
    ref, _ = reference_speed(model)
    s = State.at_rest(n)
    braking = np.zeros(n, dtype=bool)
    travelled = np.zeros(n)
    unreachable = top < ref  # a settled top speed below 100: nothing to measure
    done = unreachable.copy()
    for _ in range(int((SETTLE_LIMIT_S + STOP_LIMIT_S) / dt)):
        controls = Controls(0.0, (~braking).astype(float), braking.astype(float))
        after = model.step(s, controls, params, dt)
        travelled += np.where(braking & ~done, np.hypot(after.x - s.x, after.y - s.y), 0.0)
        done |= braking & (_forward(after) <= 0)
        braking |= after.speed >= ref
        s = after
        if done.all():
            break
    return np.where(done & ~unreachable, travelled, np.nan)


def _reverse(model, params, dt, n, top: np.ndarray) -> np.ndarray:
    """Reverse speed once it stops changing, at most REVERSE_S (then the last second's
    mean); none (inf) for a model with no top speed at all (nothing resists backwards
    either). Settled: a fixed point, or a last second that varies by under 1 % with no
    trend (under 0.01 % between its halves): the dynamic car reverses on its rev
    limiter, a sawtooth that never stops changing. A settled car's figure is that
    second's mean (the fixed point itself for a fixed point)."""
    if np.isinf(top).all() and not math.isfinite(model.top_speed(_first(params), dt)):
        return np.full(n, np.inf)
    s = State.at_rest(n)
    last = _last_second(dt, n)
    window = len(last)
    value = np.full(n, np.nan)
    settled = np.zeros(n, dtype=bool)
    for tick in range(int(REVERSE_S / dt)):
        after = _advance(settled, s, model.step(s, Controls(0.0, 0.0, 1.0), params, dt))
        last[tick % window] = after.speed
        fixed = (tick * dt > 0.5) & (np.abs(after.speed - s.speed) <= 1e-12 * np.maximum(after.speed, 1.0))
        steady = _steady(last, tick) if tick >= window else np.zeros(n, dtype=bool)
        now = ~settled & (fixed | steady)
        value = np.where(now, np.where(fixed, after.speed, last.mean(axis=0)), value)
        settled |= now
        s = after
        if settled.all():
            break
    return np.where(settled, value, last.mean(axis=0))


def _last_second(dt: float, n: int) -> np.ndarray:
    """A ring for the last second's speeds of `n` cars, one row per tick (at least 2)."""
    return np.zeros((max(2, int(round(1.0 / dt))), n))


def _oldest_first(last: np.ndarray, tick: int) -> np.ndarray:
    """The ring `last` (window, n), written at row tick % window, in time order."""
    return np.roll(last, -(tick % len(last)) - 1, axis=0)


def _steady(last: np.ndarray, tick: int) -> np.ndarray:
    """Per car: the last second's speeds vary by under 1 % and show no trend (the
    means of its halves within 0.01 %)."""
    order = _oldest_first(last, tick)
    low, high = order.min(axis=0), order.max(axis=0)
    half = len(order) // 2
    early, late = order[:half].mean(axis=0), order[half:].mean(axis=0)
    scale = np.maximum(high, 1.0)
    return (high - low <= 0.01 * scale) & (np.abs(late - early) <= 1e-4 * scale)


def _sawtooth(last: np.ndarray, tick: int) -> np.ndarray:
    """Per car: a steady second (`_steady`) that rises and falls, as on a rev
    limiter; a smooth approach only rises, and is left to the extrapolation."""
    steps = np.diff(_oldest_first(last, tick), axis=0)
    return _steady(last, tick) & (steps > 0).any(axis=0) & (steps < 0).any(axis=0)


def _stack(a: State, b: State) -> State:
    """One batch of a's cars then b's (the two circles run together)."""
    join = lambda x, y: np.concatenate([x, y])  # noqa: E731
    fields = {k: join(getattr(a, k), getattr(b, k)) for k in ("x", "y", "heading", "vx", "vy", "wheel_angle",
                                                              "traction_fast")}
    return State(**fields, extra={k: join(a.extra[k], b.extra[k]) for k in a.extra if k in b.extra})


def _twice(params: Mapping, n: int) -> dict:
    """Parameters for a batch of the same n tunings, twice over."""
    return {k: np.concatenate([np.broadcast_to(v, (n,))] * 2) for k, v in params.items()}


def _unwrapped(previous: np.ndarray, angle: np.ndarray) -> np.ndarray:
    """`angle` plus the multiple of 2π that puts it within π of `previous`: np.unwrap of
    the pair, written out (np.unwrap on two values costs ~25 µs a tick)."""
    step = angle - previous
    wrapped = np.mod(step + math.pi, 2 * math.pi) - math.pi
    wrapped = np.where((wrapped == -math.pi) & (step > 0), math.pi, wrapped)
    return angle + np.where(np.abs(step) < math.pi, 0.0, wrapped - step)


def _circle(model, params, dt, start: State, target) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Full lock from `start`, throttle held on below `target` speed (inf: always).
    Returns radius over the last second, peak |slip| (°), peak lateral acceleration."""
    s = start
    ticks = int(CIRCLE_S / dt)
    last = int(1.0 / dt)
    window = max(1, int(round(LATERAL_WINDOW_S / dt)))
    turned = np.zeros(len(s))
    travelled = np.zeros(len(s))
    peak_slip = np.zeros(len(s))
    peak_lat = np.zeros(len(s))
    directions = []  # velocity direction per tick, unwrapped, for the windowed turn rate
    heading_of_v = np.arctan2(s.vy, s.vx)  # the last tick's velocity direction, in (-π, π]
    for tick in range(ticks):
        throttle = (s.speed < target).astype(float)
        after = model.step(s, Controls(1.0, throttle, 0.0), params, dt)
        moving = after.speed > 1e-9
        heading_before, heading_of_v = heading_of_v, np.arctan2(after.vy, after.vx)
        directions.append(_unwrapped(directions[-1], heading_of_v) if directions else heading_of_v)
        if tick >= window:
            rate = np.abs(directions[-1] - directions[-1 - window]) / (window * dt)
            peak_lat = np.maximum(peak_lat, np.where(moving, after.speed * rate, 0.0))
        peak_slip = np.maximum(peak_slip, np.where(moving, np.degrees(np.abs(after.slip_angle)), 0.0))
        if tick >= ticks - last:
            # on a circle each tick's chord is 2R·sin(θ/2), θ the turn of the velocity
            theta = np.abs(np.angle(np.exp(1j * (heading_of_v - heading_before))))
            turned += 2 * np.sin(theta / 2)
            travelled += np.hypot(after.x - s.x, after.y - s.y)
        s = after
    radius = np.where(turned > 1e-12, travelled / np.maximum(turned, 1e-15), np.inf)
    return radius, peak_slip, peak_lat


def compute(model: ModuleType, params: Mapping[str, object], hz: float) -> dict[str, np.ndarray]:
    """Every metric for every tuning in `params` (arrays of one length, or scalars)."""
    n = _count(params)
    dt = 1.0 / hz
    cruising, top, t_ref, t90 = _straight(model, params, dt, n)
    low_start = State.at_rest(n)
    low = 0.25 * np.where(np.isfinite(top), top, cruising.speed)
    for _ in range(int(SETTLE_LIMIT_S / dt)):  # up to 25 % of top speed, straight
        there = low_start.speed >= low
        if there.all():
            break
        low_start = _advance(there, low_start, model.step(low_start, Controls(0.0, 1.0, 0.0), params, dt))
    # both circles in one batch: slow (speed held at 25 % on the throttle) and at top speed
    radius, slip, lateral = _circle(model, _twice(params, n), dt, _stack(low_start, cruising.copy()),
                                    np.concatenate([low, np.full(n, np.inf)]))
    radius_low, radius_top = radius[:n], radius[n:]
    slip_low, slip_top = slip[:n], slip[n:]
    lat_low, lat_top = lateral[:n], lateral[n:]
    settled = np.isfinite(top)
    return {
        "top_speed": top,
        "time_to_100": t_ref,
        "time_to_90pct": t90,
        "braking_from_top": np.where(settled, _stop_distance(model, params, dt, cruising.copy()), np.nan),
        "braking_from_100": _braking_from_ref(model, params, dt, n, top),
        "reverse_top_speed": _reverse(model, params, dt, n, top),
        "radius_low": radius_low,
        "radius_top": np.where(settled, radius_top, np.nan),
        "peak_slip_skidpad": np.maximum(slip_low, slip_top),
        "peak_lateral_accel": np.maximum(lat_low, lat_top),
    }


def table(model: ModuleType, values: Mapping[str, np.ndarray], index: int = 0) -> list[dict]:
    """Rows of name, label, value, unit for one tuning of a `compute` result."""
    _, ref_label = reference_speed(model)
    rows = []
    for name, (label, kind) in METRICS.items():
        value = float(np.asarray(values[name]).reshape(-1)[index])
        rows.append({"name": name, "label": label.replace("100", ref_label), "value": value,
                     "unit": unit_of(kind, model)})
    return rows


def format_value(value: float) -> str:
    if math.isnan(value):
        return "—"
    if math.isinf(value):
        return "none"
    return f"{value:.3g}" if abs(value) < 100 else f"{value:.0f}"
