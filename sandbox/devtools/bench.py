"""`car-sandbox bench`: the speed figures of issue 6, printed and written as JSON.

Timings vary with the machine and its load (these are shared 2-core machines): each
rate is the best of a few repeats, and nothing here asserts a target. The test suite
never times anything; the README's table comes from this command.
"""

from __future__ import annotations

import datetime
import os
import platform
import time
import tracemalloc

import numpy as np

from .bench_baseline import tick as baseline_tick
from ..files.traces import load_trace, BUILTIN_TRACES
from ..analysis.metrics import compute as compute_metrics
from ..physics.models import MODELS
from ..physics.state import Controls
from ..physics.params import Tuning
from ..files.presets import BUILTIN_DIR, load_preset
from ..physics.sim import run_batch

DEFAULT_PRESETS = {"arcade": "recipe_defaults.json", "bicycle": "bicycle_blog.json",
                   "ackermann": "ackermann_van.json", "rigid_body": "rigid_body_seed.json",
                   "monster": "monster_corvette_c5.json"}
"""The preset each model's metrics are timed with (its sources' own numbers)."""
SWEEP_TRACE = "slalom.csv"
SWEEP_SECONDS = 10.0
TARGETS = {"arcade_car_ticks_per_s": 20e6, "monster_car_ticks_per_s": 5e6, "speedup_vs_python": 20,
           "memory_100k_mb": 100, "scaling_spread": 2.0, "sweep_s": 2.0, "metrics_ms": 50,
           "frame_median_ms": 5, "frame_p99_ms": 12, "startup_s": 1.5}


def _held_controls(cars: int) -> Controls:
    """Full throttle, each car its own steer held (a skid pad per car)."""
    rng = np.random.default_rng(0)
    return Controls(rng.uniform(-1, 1, cars), 1.0, 0.0)


def batch_rate(model, cars: int, seconds: float = 1.0, repeats: int = 3) -> float:
    """Car-ticks per second of `sim.run_batch` on `cars` cars (60 Hz), best of `repeats`."""
    params = Tuning(model.PARAMS)
    controls = _held_controls(cars)
    start = time.perf_counter()
    run_batch(model, params, cars, controls, 3)
    per_tick = (time.perf_counter() - start) / 3
    ticks = max(3, int(seconds / per_tick))
    best = 0.0
    for _ in range(repeats):
        start = time.perf_counter()
        run_batch(model, params, cars, controls, ticks)
        best = max(best, cars * ticks / (time.perf_counter() - start))
    return best


def python_rate(seconds: float = 1.0) -> float:
    """Car-ticks per second of the plain-Python per-car loop (`bench_baseline`), the
    same manoeuvre as `batch_rate`."""
    params = dict(Tuning(MODELS["arcade"].PARAMS))
    steer = _held_controls(1000).steer
    cars = [[0.0] * 5 for _ in steer]
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for car, s in zip(cars, steer):
            baseline_tick(car, float(s), 1.0, 0.0, params, 1 / 60)
        done += len(cars)
    return done / (time.perf_counter() - start)


def batch_memory_mb(model, cars: int = 100_000, ticks: int = 5) -> float:
    """Peak memory (MB) numpy and Python allocate while `cars` cars run `ticks` ticks
    (tracemalloc sees numpy's buffers); the interpreter and modules are not counted."""
    params = Tuning(model.PARAMS)
    controls = _held_controls(cars)
    tracemalloc.start()
    try:
        run_batch(model, params, cars, controls, ticks)
        return tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()


def sweep_seconds(model_name: str = "arcade", side: int = 100) -> dict:
    """A side × side grid of tunings (engine power × fast traction for the arcade model)
    each driving the first SWEEP_SECONDS of the built-in slalom, as one batch."""
    model = MODELS[model_name]
    trace = load_trace(BUILTIN_TRACES / SWEEP_TRACE)[: round(SWEEP_SECONDS * 60)]
    power, grip = np.meshgrid(np.linspace(300, 3000, side), np.linspace(0.5, 20, side))
    params = dict(Tuning(model.PARAMS), engine_power=power.ravel(), traction_fast=grip.ravel())
    start = time.perf_counter()
    states = run_batch(model, params, side * side, lambda tick: Controls(*trace[tick]), len(trace))
    elapsed = time.perf_counter() - start
    reached = float(np.concatenate([s.x for s in states]).max())
    return {"tunings": side * side, "ticks": len(trace), "seconds": elapsed, "furthest_x_px": reached}


def metrics_ms(repeats: int = 3) -> dict:
    """Milliseconds to recompute every standard manoeuvre for one tuning (what the
    Metrics tab does after a slider change), per model, best of `repeats`."""
    out = {}
    for name, file in DEFAULT_PRESETS.items():
        preset = load_preset(BUILTIN_DIR / file)
        best = float("inf")
        for _ in range(repeats):
            start = time.perf_counter()
            compute_metrics(preset.model, preset.tuning, preset.hz)
            best = min(best, time.perf_counter() - start)
        out[name] = best * 1000
    return out


def run(quick: bool = False) -> dict:
    from .bench_window import frame_costs, startup_seconds

    seconds = 0.3 if quick else 1.0
    figures = {"machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
                          f"numpy {np.__version__}",
               "date": datetime.date.today().isoformat(), "quick": quick, "targets": TARGETS}
    # warm-up: the first large batch of a process pays for growing the allocator's heap
    # (measured: the same batch ran 25 % slower first than later in the run); best of 5,
    # as this shared machine's speed swings from second to second
    batch_rate(MODELS["arcade"], 100_000, seconds, repeats=1)
    figures["batch_100k"] = {name: batch_rate(model, 100_000, seconds, repeats=5) for name, model in MODELS.items()}
    figures["scaling"] = {name: {str(n): batch_rate(MODELS[name], n, seconds, repeats=1 if n > 100_000 else 3)
                                 for n in (10_000, 100_000, 1_000_000)} for name in ("arcade", "monster")}
    figures["python_loop"] = python_rate(seconds)
    figures["speedup_vs_python"] = figures["batch_100k"]["arcade"] / figures["python_loop"]
    figures["memory_100k_mb"] = {name: batch_memory_mb(model) for name, model in MODELS.items()}
    figures["sweep"] = sweep_seconds(side=30 if quick else 100)
    figures["metrics_ms"] = metrics_ms(1 if quick else 3)
    figures["frame"] = frame_costs(6.0 if quick else 60.0)
    figures["startup_s"] = startup_seconds(1 if quick else 3)
    return figures


def _verdict(ok: bool) -> str:
    return "meets" if ok else "MISSES"


def report(f: dict) -> str:
    t = f["targets"]
    lines = [f"machine: {f['machine']} ({f['date']}{', quick' if f['quick'] else ''})", "",
             "batch engine, car-ticks/s at 100 000 cars (held steer, full throttle, 60 Hz; best of 5):"]
    for name, rate in f["batch_100k"].items():
        goal = t.get(f"{name}_car_ticks_per_s")
        note = f"  target ≥ {goal / 1e6:.0f} M: {_verdict(rate >= goal)}" if goal else ""
        lines.append(f"  {name:10s} {rate / 1e6:7.2f} M{note}")
    lines.append(f"plain-Python per-car loop (arcade): {f['python_loop'] / 1e6:.2f} M car-ticks/s; batch is "
                 f"{f['speedup_vs_python']:.0f}×  target ≥ {t['speedup_vs_python']}×: "
                 f"{_verdict(f['speedup_vs_python'] >= t['speedup_vs_python'])}")
    for name, by_n in f["scaling"].items():
        rates = list(by_n.values())
        spread = max(rates) / min(rates)
        lines.append(f"scaling {name}: " + ", ".join(f"{int(n):,d} cars {r / 1e6:.2f} M" for n, r in by_n.items())
                     + f"; spread {spread:.2f}×  target ≤ {t['scaling_spread']}×: "
                     f"{_verdict(spread <= t['scaling_spread'])}")
    worst = max(f["memory_100k_mb"].values())
    lines.append("memory of a 100 000-car batch (peak allocations): "
                 + ", ".join(f"{k} {v:.0f} MB" for k, v in f["memory_100k_mb"].items())
                 + f"  target ≤ {t['memory_100k_mb']} MB: {_verdict(worst <= t['memory_100k_mb'])}")
    s = f["sweep"]
    lines.append(f"sweep: {s['tunings']:,d} tunings × {s['ticks']} ticks ({SWEEP_SECONDS:g}-s slalom) in "
                 f"{s['seconds']:.2f} s  target ≤ {t['sweep_s']} s: {_verdict(s['seconds'] <= t['sweep_s'])}")
    lines.append("metrics after a slider change (one tuning, every manoeuvre): "
                 + ", ".join(f"{k} {v:.0f} ms" for k, v in f["metrics_ms"].items())
                 + f"  target ≤ {t['metrics_ms']} ms: "
                 + ", ".join(f"{k} {_verdict(v <= t['metrics_ms'])}" for k, v in f["metrics_ms"].items()))
    w = f["frame"]
    lines.append(f"window ({w['window']}, offscreen, car + every plot + {w['ghosts']} ghosts, {w['seconds']:g} s "
                 f"scripted): frame median {w['median_ms']:.1f} ms (target ≤ {t['frame_median_ms']}: "
                 f"{_verdict(w['median_ms'] <= t['frame_median_ms'])}), p99 {w['p99_ms']:.1f} ms (target ≤ "
                 f"{t['frame_p99_ms']}: {_verdict(w['p99_ms'] <= t['frame_p99_ms'])}), max {w['max_ms']:.1f} ms")
    lines.append(f"  {w['physics_ticks']} physics ticks in {w['frames']} frames, {w['frames_not_one_tick']} frames "
                 f"with other than one tick; growth after the first tenth: Python blocks "
                 f"{w['python_blocks_growth']:+d}, resident {w['rss_growth_mb']:+.1f} MB")
    lines.append(f"start-up to first painted frame: {f['startup_s']:.2f} s  target ≤ {t['startup_s']} s: "
                 f"{_verdict(f['startup_s'] <= t['startup_s'])}")
    return "\n".join(lines)
