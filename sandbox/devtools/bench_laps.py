"""The lap figures of `car-sandbox bench` (printed with their targets; nothing asserts
them): one driver lap of the club circuit per model (the drive alone, the lap plan made
before: the racing line is cached per track), a 1 000-tuning sweep of lap time (one
batch: the metrics, then the laps in one compiled call over the cores), and a tune to a
lap-time target with four free values. Seconds are wall-clock; the CPU seconds beside
them say how much of a shared machine the run had. Printed by `python -m
sandbox.devtools.bench_laps` too.
"""

from __future__ import annotations

import time
from functools import partial

import numpy as np

from ..analysis.lap_driver import drive_laps
from ..analysis.lap_metrics import measure
from ..analysis.lap_plan import plan_lap
from ..analysis.tune import Target, search
from ..files.presets import BUILTIN_DIR, load_preset
from ..files.tracks import find_builtin_track, open_track
from .bench_lines import per_model, verdict

TRACK = "club_circuit"
PRESETS = {
    "arcade": "drift",
    "bicycle": "bicycle_blog",
    "ackermann": "ackermann_van",
    "rigid_body": "rigid_body_seed",
    "monster": "monster_corvette_c5",
}
"""The preset each model laps with."""
TARGETS = {"driver_lap_ms": 20, "sweep_s": 10, "tune_s": 30}
SWEEP = ("drift", "engine_power", 800.0, 2000.0, 1000)
"""The sweep: preset, parameter, from, to, tunings."""
TUNE = ("drift", ("braking", "steering_angle", "traction_fast", "traction_slow"), 0.985)
"""The tune: preset, its four free values, the lap time wanted as a share of the
preset's, with its top speed kept (±5 px/s)."""


def _track():
    return open_track(find_builtin_track(TRACK))


def driver_lap_ms(repeats: int = 3) -> tuple[dict, dict]:
    """Per model: ms of one lap's drive, wall-clock and of CPU (the quickest of
    `repeats`, after one to load). The drive builds the track's walls anew (about 5 ms
    of it)."""
    track = _track()
    out, cpu = {}, {}
    for name, stem in PRESETS.items():
        preset = load_preset(BUILTIN_DIR / f"{stem}.json")
        tuning = dict(preset.tuning)
        plan = plan_lap(preset.model, tuning, track, preset.hz)
        here = track.in_unit(preset.model.LENGTH_UNIT)
        arguments = (preset.model, tuning, here, plan.line.points, plan.speeds, 1.0, preset.hz)
        lap = partial(drive_laps, *arguments, full_lock_radius=plan.limits.full_lock_radius, room=plan.line.room)
        lap()
        times = [_timed(lap)[:2] for _ in range(repeats)]
        out[name] = min(wall for wall, _ in times) * 1000
        cpu[name] = min(spent for _, spent in times) * 1000
    return out, cpu


def _timed(run) -> tuple[float, float, object]:
    """(wall s, CPU s of the process, result) of `run()`."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = run()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def sweep_seconds() -> dict:
    """The lap-time sweep: seconds, CPU seconds and the lap times' range (s)."""
    stem, name, low, high, count = SWEEP
    preset = load_preset(BUILTIN_DIR / f"{stem}.json")
    track = _track()
    base = dict(preset.tuning)
    measure(preset.model, {**base, name: np.array([low, high])}, preset.hz, track)  # loads the compiled code
    params = {**base, name: np.linspace(low, high, count)}
    wall, cpu, values = _timed(lambda: measure(preset.model, params, preset.hz, track))
    times = values["lap_time"]
    return {
        "tunings": count,
        "seconds": wall,
        "cpu_seconds": cpu,
        "lap_time_range_s": [float(np.nanmin(times)), float(np.nanmax(times))],
        "no_lap": int(np.isnan(times).sum()),
    }


def tune_seconds(seed: int = 1) -> dict:
    """The lap-time tune: seconds, CPU seconds, whether it hit, tunings evaluated."""
    stem, free, share = TUNE
    preset = load_preset(BUILTIN_DIR / f"{stem}.json")
    track = _track()
    tuning = dict(preset.tuning)
    now = measure(preset.model, tuning, preset.hz, track)
    lap, top = float(now["lap_time"][0]), float(now["top_speed"][0])
    targets = [Target("lap_time", share * lap, 0.1), Target("top_speed", top, 5.0)]
    wall, cpu, result = _timed(lambda: search(preset.model, tuning, targets, list(free), preset.hz, seed, track=track))
    return {
        "seconds": wall,
        "cpu_seconds": cpu,
        "hit": result.hit,
        "evaluations": result.evaluations,
        "from_s": lap,
        "to_s": float(result.achieved["lap_time"]),
    }


def run(quick: bool = False) -> dict:
    wall, cpu = driver_lap_ms(1 if quick else 3)
    return {
        "driver_lap_ms": wall,
        "driver_lap_cpu_ms": cpu,
        "sweep": sweep_seconds(),
        "tune": tune_seconds(),
        "targets": TARGETS,
    }


def report(f: dict) -> list[str]:
    t = f["targets"]
    lines = per_model(
        f"one driver lap of the {TRACK.replace('_', ' ')} (the drive, its plan made before), ms:",
        f["driver_lap_ms"],
        "ms",
        1,
        t["driver_lap_ms"],
        True,
    )
    lines.append("  of CPU: " + ", ".join(f"{name} {ms:.1f} ms" for name, ms in f["driver_lap_cpu_ms"].items()))
    s = f["sweep"]
    low, high = s["lap_time_range_s"]
    lines.append(
        f"lap-time sweep of {s['tunings']:,d} tunings: {s['seconds']:.2f} s ({s['cpu_seconds']:.2f} s of CPU)  "
        f"target ≤ {t['sweep_s']} s: {verdict(s['seconds'] <= t['sweep_s'])}; laps {low:.2f} … {high:.2f} s, "
        f"{s['no_lap']} without a lap"
    )
    u = f["tune"]
    lines.append(
        f"tune to a lap-time target, four free values: {u['seconds']:.2f} s ({u['cpu_seconds']:.2f} s of CPU)  "
        f"target ≤ {t['tune_s']} s: {verdict(u['seconds'] <= t['tune_s'])}; {u['from_s']:.2f} → {u['to_s']:.2f} s, "
        f"{'hit' if u['hit'] else 'NOT hit'} after {u['evaluations']} tunings"
    )
    return lines


if __name__ == "__main__":
    print("\n".join(report(run())))
