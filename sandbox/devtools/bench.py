"""`car-sandbox bench`: the speed figures, printed and written as JSON.

Timings vary with the machine and its load (these are shared 2-core machines): each
rate is the best of a few repeats, and nothing here asserts a target. The test suite
never times anything; the table in docs/speed.md comes from this command.
"""

from __future__ import annotations

import datetime
import os
import platform
import statistics
import sys
import time
import tracemalloc

import numba
import numpy as np

from ..analysis.metrics import compute as compute_metrics
from ..files.presets import BUILTIN_DIR, load_preset
from ..files.traces import BUILTIN_TRACES, load_trace
from ..physics.models import MODELS
from ..physics.params import Tuning
from ..physics.sim import record, run_batch, seek_states
from ..physics.state import Controls
from . import (
    bench_first_use,
    bench_fit,
    bench_inputs,
    bench_laps,
    bench_level,
    bench_link,
    bench_pads,
    bench_tune,
    bench_walls,
)
from .bench_baseline import tick as baseline_tick
from .bench_game_report import fit_report, flood_report
from .bench_lines import per_model as _per_model
from .bench_lines import verdict as _verdict

DEFAULT_PRESETS = {
    "arcade": "recipe_defaults.json",
    "bicycle": "bicycle_blog.json",
    "ackermann": "ackermann_van.json",
    "rigid_body": "rigid_body_seed.json",
    "monster": "monster_corvette_c5.json",
}
"""The preset each model is timed with: its source's own numbers (the Corvette C5 for
the dynamic car)."""
FRONT_TABS = {"tyres": "Tyres", "gg": "g-g"}
"""The bottom tabs whose frames are timed in front of the Plots (show_tab's names: titles)."""
TAB_PRESETS = ("", "monster_corvette_c5.json")
"""Those tabs' frames with the window's first preset (the arcade's) and with the dynamic
car, whose tabs redraw curves at the loads of each tick and its tyres' grip used."""
SWEEP_TRACE = "slalom.csv"
SWEEP_SECONDS = 10.0
REPLAY_MINUTES = 5.0
BATCH_CARS = 100_000
TARGETS = {
    "tick_ns": {"arcade": 100, "bicycle": 1000, "ackermann": 1000, "rigid_body": 1000, "monster": 1000},
    "batch_car_ticks_per_s": {"arcade": 4e7, "bicycle": 1.5e7, "ackermann": 1.5e7, "rigid_body": 8e6, "monster": 8e6},
    "metrics_ms": 16,
    "handling_ms": 50,
    "scaling_spread": 2.0,
    "sweep_s": 0.5,
    "seek_ms": 16,
    "speedup_vs_python": 20,
    "frame_median_ms": 5,
    "frame_p99_ms": 12,
    "startup_s": 1.5,
    "first_use_max_gap_ms": 100,
    "recompute_frame_p99_ms": 20,
    "recompute_max_gap_ms": 50,
    "metrics_latency_frames": 2,
    "tune_s": {"arcade": 2, "bicycle": 15, "ackermann": 15, "rigid_body": 15, "monster": 15},
    "sensitivity_ms": 250,
    "link_slider_to_game_ms": "one game tick + 2",
    "link_telemetry_lost": 0,
    "link_node_cost_us": 100,
    "fit_s": {"arcade": 10, "monster": 60},
    "pad_poll_ms": bench_pads.POLL_TARGET_MS,
    "pad_stick_ticks": 1,
}


def _held_controls(cars: int) -> Controls:
    """Full throttle, each car its own steer held (a skid pad per car)."""
    rng = np.random.default_rng(0)
    return Controls(rng.uniform(-1, 1, cars), 1.0, 0.0)


def _preset(name: str):
    return load_preset(BUILTIN_DIR / DEFAULT_PRESETS[name])


def tick_ns(model, ticks: int = 2_000_000) -> float:
    """Nanoseconds per tick of one car, `ticks` ticks in one compiled loop (full
    throttle, a quarter of full lock: a steady circle), best of 3."""
    tuning = _preset(model.NAME).tuning
    run_batch(model, tuning, 1, Controls(0.25, 1.0, 0.0), 10)  # compile or load first
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        run_batch(model, tuning, 1, Controls(0.25, 1.0, 0.0), ticks)
        best = min(best, time.perf_counter() - start)
    return best / ticks * 1e9


def _slalom_repeated(ticks: int) -> np.ndarray:
    """The built-in slalom's control rows, repeated to `ticks` rows."""
    trace = load_trace(BUILTIN_TRACES / SWEEP_TRACE)
    return np.resize(trace, (ticks, trace.shape[1]))


def trace_tick_ns(model, ticks: int = 1_000_000) -> float:
    """Nanoseconds per tick of one car whose controls are read anew every tick (the
    slalom, repeated): the path of a replay's seek, a recording and the metrics,
    where nothing of a tick's controls is kept for the next. Best of 3."""
    long_trace = _slalom_repeated(ticks)
    tuning = _preset(model.NAME).tuning
    record(model, tuning, long_trace[:10], 60, ("x",))  # compile or load first
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        record(model, tuning, long_trace, 60, ("x",))
        best = min(best, time.perf_counter() - start)
    return best / ticks * 1e9


def batch_rate(model, cars: int, seconds: float = 1.0, repeats: int = 3) -> float:
    """Car-ticks per second of `sim.run_batch` on `cars` cars (60 Hz, all cores), best
    of `repeats`; each car its own steer held. Each run drives at least one simulated
    second (60 ticks): with fewer, laying out a million cars' state (1.1 GB for the
    bicycle, whose rows keep a heading history) outweighs the driving it measures."""
    params = _preset(model.NAME).tuning
    controls = _held_controls(cars)
    start = time.perf_counter()
    run_batch(model, params, cars, controls, 3)
    per_tick = max((time.perf_counter() - start) / 3, 1e-9)
    ticks = max(60, int(seconds / per_tick))
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


def batch_memory_mb(model, cars: int = BATCH_CARS, ticks: int = 5) -> float:
    """Peak memory (MB) numpy and Python allocate while `cars` cars run `ticks` ticks
    (tracemalloc sees numpy's buffers); the interpreter and modules are not counted."""
    params = _preset(model.NAME).tuning
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
    run_batch(model, params, side * side, trace, 1)  # compile or load first
    start = time.perf_counter()
    state = run_batch(model, params, side * side, trace, len(trace))
    elapsed = time.perf_counter() - start
    return {"tunings": side * side, "ticks": len(trace), "seconds": elapsed, "furthest_x_px": float(state.x.max())}


def seek_ms(repeats: int = 5) -> dict:
    """Milliseconds to compute the state at the end of a REPLAY_MINUTES recording (the
    window's seek re-simulates from rest in one compiled call), worst model, best of
    `repeats` each."""
    long_trace = _slalom_repeated(round(REPLAY_MINUTES * 60 * 60))
    out = {}
    for name, model in MODELS.items():
        tuning = _preset(name).tuning
        seek_states(model, tuning, long_trace[:10], 60)  # compile or load first
        best = float("inf")
        for _ in range(repeats):
            start = time.perf_counter()
            seek_states(model, tuning, long_trace, 60)
            best = min(best, time.perf_counter() - start)
        out[name] = best * 1000
    return out


def metrics_ms(repeats: int = 7) -> dict:
    """Median milliseconds to recompute every standard manoeuvre for one tuning (what
    the Metrics tab does after a slider change), per model, after a warm-up run."""
    out = {}
    for name in DEFAULT_PRESETS:
        preset = _preset(name)
        compute_metrics(preset.model, preset.tuning, preset.hz)  # compile or load first
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            compute_metrics(preset.model, preset.tuning, preset.hz)
            times.append(time.perf_counter() - start)
        out[name] = statistics.median(times) * 1000
    return out


def handling_ms(repeats: int = 7) -> dict:
    """Median milliseconds of the handling figures alone (understeer gradient, yaw gains,
    step steer, drift angle: one compiled call) for one tuning, per model, after a
    warm-up run."""
    from ..analysis.handling import measure
    from ..analysis.metrics import wheel_bases
    from ..physics.sim import tuning_rows

    out = {}
    for name in DEFAULT_PRESETS:
        preset = _preset(name)
        rows, _ = tuning_rows(preset.model, preset.tuning, 1)
        bases = wheel_bases(preset.model, rows)
        measure(preset.model, rows, 1.0 / preset.hz, bases)  # compile or load first
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            measure(preset.model, rows, 1.0 / preset.hz, bases)
            times.append(time.perf_counter() - start)
        out[name] = statistics.median(times) * 1000
    return out


def _step(what: str) -> None:
    """Where the bench is, on stderr (stdout carries only the figures)."""
    print(f"bench: {what}…", file=sys.stderr, flush=True)


def run(quick: bool = False) -> dict:
    from .bench_link_window import flood_frames
    from .bench_pads_window import stick_ticks
    from .bench_window import frame_costs, recompute_frames, startup_seconds

    seconds = 0.3 if quick else 1.0
    figures = {
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"numpy {np.__version__}, numba {numba.__version__}",
        "date": datetime.date.today().isoformat(),
        "quick": quick,
        "targets": TARGETS,
    }
    _step("start-up, empty kernel cache and cached")
    figures["startup_cold_s"] = startup_seconds(1, cold=True)
    figures["startup_s"] = startup_seconds(1 if quick else 3)
    _step("the first use: empty kernel cache, a slider dragged and models switched (a few minutes)")
    figures["first_use"] = bench_first_use.first_use(20.0 if quick else 60.0)
    _step("one car's tick")
    figures["tick_ns"] = {name: tick_ns(model, 200_000 if quick else 2_000_000) for name, model in MODELS.items()}
    figures["trace_tick_ns"] = {
        name: trace_tick_ns(model, 100_000 if quick else 1_000_000) for name, model in MODELS.items()
    }
    _step("batches and their scaling")
    figures["batch_car_ticks_per_s"] = {
        name: batch_rate(model, BATCH_CARS, seconds, repeats=3 if quick else 5) for name, model in MODELS.items()
    }
    figures["scaling"] = {
        name: {
            str(n): batch_rate(model, n, seconds, repeats=1 if n > BATCH_CARS else 3)
            for n in (10_000, 100_000, 1_000_000)
        }
        for name, model in MODELS.items()
    }
    figures["python_loop"] = python_rate(seconds)
    figures["speedup_vs_python"] = figures["batch_car_ticks_per_s"]["arcade"] / figures["python_loop"]
    figures["memory_100k_mb"] = {name: batch_memory_mb(model) for name, model in MODELS.items()}
    _step("sweep, replay seek and metrics")
    figures["sweep"] = sweep_seconds(side=30 if quick else 100)
    figures["seek_ms"] = seek_ms(1 if quick else 5)
    figures["metrics_ms"] = metrics_ms(5 if quick else 9)
    figures["handling_ms"] = handling_ms(5 if quick else 9)
    _step("auto-tune and sensitivity")
    figures["tune"] = bench_tune.tune_seconds()
    figures["tune_s"] = {name: r["seconds"] for name, r in figures["tune"].items()}
    figures["sensitivity_ms"] = bench_tune.sensitivity_ms(3 if quick else 5)
    _step("lap time: a driver lap per model, a 1 000-tuning sweep and a tune on the club circuit")
    figures["laps"] = bench_laps.run(quick)
    _step("the fit of a recorded drive")
    figures["fit"] = bench_fit.fit_seconds()
    figures["fit_s"] = {name: r["seconds"] for name, r in figures["fit"].items()}
    _step("the window's frames")
    figures["frame"] = frame_costs(6.0 if quick else 60.0)
    _step("the window's frames with the Tyres and g-g tabs in front (the first preset, the Corvette)")
    figures["frame_tabs"] = {
        f"{tab}, {preset or 'first'}": frame_costs(6.0 if quick else 20.0, tab=tab, preset=preset)
        for tab in FRONT_TABS
        for preset in TAB_PRESETS
    }
    _step("the window's frames while it recomputes (a slider dragged, a sweep running)")
    recompute = {name: recompute_frames(name, 2.0 if quick else 5.0) for name in MODELS}
    figures["recompute"] = recompute
    figures["recompute_frame_p99_ms"] = {name: r["frame_p99_ms"] for name, r in recompute.items()}
    figures["recompute_max_gap_ms"] = {name: r["max_gap_ms"] for name, r in recompute.items()}
    _step("game controllers: a poll with no pad and with virtual pads, a stick moved in the window")
    figures["pad_poll"] = bench_pads.measure(500 if quick else bench_pads.POLLS)
    figures["pad_stick"] = stick_ticks()
    _step("a car among walls (the club circuit against the open field) and a large Godot level's import")
    figures["walls"] = bench_walls.run(quick)
    figures["level_import_s"] = bench_level.level_import_seconds()
    figures["level_import_cpu_s"] = bench_level.level_import_seconds(clock=time.process_time)
    _step("the live link to the game (Godot 3, in real time: about a minute)")
    figures["link"] = bench_link.run(quick)
    figures["link_flood"] = flood_frames(5.0 if quick else 20.0)
    if not quick:  # minutes: the largest inputs accepted
        _step("the largest sweep, trace and Godot script accepted (a few minutes)")
        figures["inputs"] = bench_inputs.run()
    return figures


def report(f: dict) -> str:
    t = f["targets"]
    lines = [f"machine: {f['machine']} ({f['date']}{', quick' if f['quick'] else ''})", ""]
    lines += _per_model(
        "one car, ns per tick (a compiled loop of a steady circle):", f["tick_ns"], "ns", 1, t["tick_ns"], True
    )
    lines.append("one car, ns per tick, controls read anew every tick (a replay's seek, the metrics):")
    lines += [f"  {name:10s} {value:9.2f} ns  reported" for name, value in f["trace_tick_ns"].items()]
    lines += _per_model(
        f"batch of {BATCH_CARS:,d} cars, car-ticks/s (held steer, full throttle, 60 Hz, all cores):",
        f["batch_car_ticks_per_s"],
        "M",
        1e6,
        t["batch_car_ticks_per_s"],
        False,
    )
    lines.append(
        f"plain-Python per-car loop (arcade): {f['python_loop'] / 1e6:.2f} M car-ticks/s; batch is "
        f"{f['speedup_vs_python']:.0f}×  target ≥ {t['speedup_vs_python']}×: "
        f"{_verdict(f['speedup_vs_python'] >= t['speedup_vs_python'])}"
    )
    for name, by_n in f["scaling"].items():
        rates = list(by_n.values())
        spread = max(rates) / min(rates)
        lines.append(
            f"scaling {name:10s}: "
            + ", ".join(f"{int(n):,d} cars {r / 1e6:.1f} M" for n, r in by_n.items())
            + f"; spread {spread:.2f}×  target ≤ {t['scaling_spread']}×: "
            f"{_verdict(spread <= t['scaling_spread'])}"
        )
    lines.append(
        "memory of a 100 000-car batch (peak allocations): "
        + ", ".join(f"{k} {v:.0f} MB" for k, v in f["memory_100k_mb"].items())
    )
    s = f["sweep"]
    lines.append(
        f"sweep: {s['tunings']:,d} tunings × {s['ticks']} ticks ({SWEEP_SECONDS:g}-s slalom) in "
        f"{s['seconds']:.3f} s  target ≤ {t['sweep_s']} s: {_verdict(s['seconds'] <= t['sweep_s'])}"
    )
    lines += _per_model(
        f"replay seek to the end of a {REPLAY_MINUTES:g}-minute recording, ms:",
        f["seek_ms"],
        "ms",
        1,
        t["seek_ms"],
        True,
    )
    lines += _per_model(
        "metrics after a slider change (one tuning, every manoeuvre; median), ms:",
        f["metrics_ms"],
        "ms",
        1,
        t["metrics_ms"],
        True,
    )
    if "handling_ms" in f:
        lines += _per_model(
            "handling figures alone (one tuning: constant radius, yaw gains, step steer; median), ms:",
            f["handling_ms"],
            "ms",
            1,
            t["handling_ms"],
            True,
        )
    if "tune" in f:
        lines += _per_model(
            "auto-tune, three targets over four free parameters from the preset's tuning, s "
            "(targets in sandbox/devtools/bench_tune.py):",
            f["tune_s"],
            "s",
            1,
            t["tune_s"],
            True,
        )
        lines.append(
            "  every target met: "
            + ", ".join(f"{k} {'yes' if r['hit'] else 'NO'} ({r['evaluations']} tunings)" for k, r in f["tune"].items())
        )
        lines += _per_model(
            "sensitivity, every slider against every metric (median), ms:",
            f["sensitivity_ms"],
            "ms",
            1,
            t["sensitivity_ms"],
            True,
        )
    if "laps" in f:
        lines += bench_laps.report(f["laps"])
    if "fit" in f:
        lines += fit_report(f, t)
    w = f["frame"]
    lines.append(
        f"window ({w['window']}, offscreen, car + every plot + {w['ghosts']} ghosts, {w['seconds']:g} s "
        f"scripted): frame median {w['median_ms']:.1f} ms (target ≤ {t['frame_median_ms']}: "
        f"{_verdict(w['median_ms'] <= t['frame_median_ms'])}), p99 {w['p99_ms']:.1f} ms (target ≤ "
        f"{t['frame_p99_ms']}: {_verdict(w['p99_ms'] <= t['frame_p99_ms'])}), max {w['max_ms']:.1f} ms"
    )
    lines.append(
        f"  {w['physics_ticks']} physics ticks in {w['frames']} frames, {w['frames_not_one_tick']} frames "
        f"with other than one tick; growth after the first tenth: Python blocks "
        f"{w['python_blocks_growth']:+d}, resident {w['rss_growth_mb']:+.1f} MB"
    )
    for name, w in f.get("frame_tabs", {}).items():
        tab, preset = name.split(", ")
        lines.append(
            f"  the {FRONT_TABS[tab]} tab in front ({preset} preset, {w['seconds']:g} s): frame median "
            f"{w['median_ms']:.1f} ms (target ≤ {t['frame_median_ms']}: "
            f"{_verdict(w['median_ms'] <= t['frame_median_ms'])}), p99 {w['p99_ms']:.1f} ms "
            f"(target ≤ {t['frame_p99_ms']}: {_verdict(w['p99_ms'] <= t['frame_p99_ms'])})"
        )
    if "recompute" in f:
        lines += _per_model(
            "frames while recomputing (5 s of slider drag with the Metrics tab showing, then a "
            "100-point sweep), 99th percentile, ms:",
            f["recompute_frame_p99_ms"],
            "ms",
            1,
            t["recompute_frame_p99_ms"],
            True,
        )
        lines += _per_model(
            "  longest gap between two frames, ms:", f["recompute_max_gap_ms"], "ms", 1, t["recompute_max_gap_ms"], True
        )
        latency = {name: r["metrics_latency_frames"] for name, r in f["recompute"].items()}
        lines += _per_model(
            "  frames from the drag's last value to its figures in the Metrics tab:",
            latency,
            "frames",
            1,
            t["metrics_latency_frames"],
            True,
        )
    if "pad_poll" in f:
        lines += bench_pads.report(f["pad_poll"], f["pad_stick"], t["pad_poll_ms"], t["pad_stick_ticks"])
    if "walls" in f:
        lines += bench_walls.report(f["walls"])
    if "level_import_s" in f:
        lines += bench_level.report(f["level_import_s"], f["level_import_cpu_s"])
    if "link" in f:
        lines += bench_link.report(f["link"])
    if "link_flood" in f:
        lines += flood_report(f["link_flood"])
    if "inputs" in f:
        lines += bench_inputs.report(f["inputs"])
    if "first_use" in f:
        lines += bench_first_use.report(f["first_use"], t["first_use_max_gap_ms"])
    lines.append(
        f"start-up to first painted frame: {f['startup_s']:.2f} s with compiled kernels cached  target ≤ "
        f"{t['startup_s']} s: {_verdict(f['startup_s'] <= t['startup_s'])}; first start after install "
        f"(empty cache, compiling): {f['startup_cold_s']:.2f} s"
    )
    return "\n".join(lines)
