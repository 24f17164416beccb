"""A battery of fits of recordings made by the sandbox's own car under values the fit is
not told: the bench's cases (bench_fit.py) with the drive cut short by a few ticks,
other hidden values, other seeds, with and without the velocity, with ticks lost, with
noise. One line per case: the worst error of a value the recording determines (%), the
largest error in reported uncertainties (σ), the score (mean per tick, length²) at the
values found and at the hidden ones, the verdict, the seconds and the segments left out
as what the model cannot explain (none, for these drives of the model's own car); with
`--each`, under it each value's error in its reported uncertainties. At the end, the
coverage: the share of the values (those the recording determines) within 2 and 3 σ.

    python -m sandbox.devtools.fit_battery [--each] [WORD ...]   (only the cases whose name holds a WORD)
"""

from __future__ import annotations

import sys
import time

import numpy as np

from ..analysis.fit import fit, summary
from ..analysis.fit_objective import Objective, RecordedDrive
from ..analysis.tune_space import free_names
from ..files.presets import BUILTIN_DIR, load_preset
from ..files.recordings import drive_recording
from .bench_fit import ARCADE_HIDDEN, CORVETTE_FACTORS, CORVETTE_FREE
from .fit_drives import arcade_drive, corvette_drive

ARCADE_SETS = {
    "bench": ARCADE_HIDDEN,
    "slip-low": dict(ARCADE_HIDDEN, slip_speed=180.0, traction_fast=6.1, traction_slow=2.4),
    "slip-high": dict(ARCADE_HIDDEN, slip_speed=455.0, traction_fast=1.2, traction_slow=14.5),
    "engine": dict(ARCADE_HIDDEN, engine_power=1480.0, friction=-21.0, drag=-0.115, braking=-980.0),
    "grippy": dict(
        ARCADE_HIDDEN, wheel_base=55.0, steering_angle=26.0, engine_power=720.0, drag=-0.031, traction_fast=9.5
    ),
}
"""Hidden arcade values: the bench's; the slip speed low and high within the speeds the
drive reaches (the fast traction above and below the slow one); another engine and
resistance; another shape and grip."""
CORVETTE_SETS = {
    "bench": CORVETTE_FACTORS,
    "other": (0.9, 1.1, 0.94, 1.12, 0.88, 1.06, 0.9, 1.07),
}
"""Hidden Corvette values: each free value of its preset times these factors."""


def cut(recording, ticks: int) -> RecordedDrive:
    """The recording without its last `ticks` rows (no gap)."""
    n = len(recording) - ticks
    velocity = recording.velocity[:n] if recording.velocity is not None else None
    return RecordedDrive(recording.controls[:n], recording.pose[:n], velocity)


def lost(recording, rows) -> RecordedDrive:
    """The recording without `rows` (ticks the live link lost)."""
    kept = np.array([k for k in range(len(recording)) if k not in rows])
    velocity = recording.velocity[kept] if recording.velocity is not None else None
    return RecordedDrive(recording.controls[kept], recording.pose[kept], velocity, {}, kept)


def cases():
    """(name, model, start tuning, drive, free names, hidden tuning, seed) of every case."""
    arcade = load_preset(BUILTIN_DIR / "recipe_defaults.json")
    start = dict(arcade.tuning)
    names = free_names(arcade.model)
    drives = {}

    def drive(key, velocity):
        if (key, velocity) not in drives:
            hidden = dict(start, **ARCADE_SETS[key])
            drives[key, velocity] = (drive_recording(arcade.model, hidden, arcade_drive(30.0), 60, velocity), hidden)
        return drives[key, velocity]

    for ticks in range(11):
        recording, hidden = drive("bench", False)
        yield f"arcade bench cut{ticks}", arcade.model, start, cut(recording, ticks), names, hidden, 1
    for seed in (2, 3):
        for ticks in (0, 3):
            recording, hidden = drive("bench", False)
            yield f"arcade bench cut{ticks} seed{seed}", arcade.model, start, cut(recording, ticks), names, hidden, seed
    for ticks in (0, 3):
        recording, hidden = drive("bench", True)
        yield f"arcade bench cut{ticks} velocity", arcade.model, start, cut(recording, ticks), names, hidden, 1
    for key in list(ARCADE_SETS)[1:]:
        for ticks in (0, 3):
            recording, hidden = drive(key, False)
            yield f"arcade {key} cut{ticks}", arcade.model, start, cut(recording, ticks), names, hidden, 1
    for key in ARCADE_SETS:
        recording, hidden = drive(key, False)
        yield f"arcade {key} lost500", arcade.model, start, lost(recording, {500, 501, 502}), names, hidden, 1
    for seed in (4, 5):
        recording, hidden = drive("engine", False)
        yield f"arcade engine cut1 seed{seed}", arcade.model, start, cut(recording, 1), names, hidden, seed
    for key in ("bench", "slip-low", "slip-high"):
        recording, hidden = drive(key, False)
        for seed in (6, 7, 8, 9):
            ticks = seed - 4
            yield f"arcade {key} cut{ticks} seed{seed}", arcade.model, start, cut(recording, ticks), names, hidden, seed
    for key in ("bench", "slip-low"):
        recording, hidden = drive(key, True)
        pose = recording.pose + np.random.default_rng(7).normal(0.0, 1.0, recording.pose.shape) * [0.3, 0.3, 0.002]
        noisy = RecordedDrive(recording.controls, pose, recording.velocity)
        for ticks in (0, 3):
            yield f"arcade {key} noisy velocity cut{ticks}", arcade.model, start, cut(noisy, ticks), names, hidden, 1
    for key in ("bench", "slip-low"):
        hidden = dict(start, **ARCADE_SETS[key])
        recording = drive_recording(arcade.model, hidden, arcade_drive(15.0), 60, velocity=False)
        for ticks in range(4):
            yield f"arcade {key} 15s cut{ticks}", arcade.model, start, cut(recording, ticks), names, hidden, 1
    corvette = load_preset(BUILTIN_DIR / "monster_corvette_c5.json")
    start = dict(corvette.tuning)
    for key, factors in CORVETTE_SETS.items():
        hidden = dict(start, **{n: start[n] * f for n, f in zip(CORVETTE_FREE, factors)})
        recording = drive_recording(corvette.model, hidden, corvette_drive(30.0), 60)
        for ticks in (0, 3):
            drive = cut(recording, ticks)
            yield f"monster {key} cut{ticks}", corvette.model, start, drive, list(CORVETTE_FREE), hidden, 1


def run(words=(), each: bool = False) -> list[dict]:
    """Fit every case whose name holds one of `words` (every case when none); print
    and return a line of figures per case (`each`: and each value's error in σ), then
    the coverage."""
    out = []
    warmed = set()
    for name, model, start, drive, names, hidden, seed in cases():
        if words and not any(word in name for word in words):
            continue
        if model.__name__ not in warmed:  # compile before the clock starts
            fit(model, drive, start, names[:2], 60, max_evaluations=50)
            warmed.add(model.__name__)
        begin = time.perf_counter()
        result = fit(model, drive, start, names, 60, seed=seed)
        seconds = time.perf_counter() - begin
        truth = summary(Objective(model, drive, 60, start, 60), hidden, names).score
        errors = {n: abs(result.params[n] / hidden[n] - 1) for n in names if n not in result.undetermined and hidden[n]}
        worst = max(errors, key=errors.get)
        each_sigmas = {n: abs(result.params[n] - hidden[n]) / max(result.uncertainty[n], 1e-300) for n in errors}
        sigmas = max(each_sigmas.values())
        line = {
            "case": name,
            "worst_percent": 100 * errors[worst],
            "worst": worst,
            "sigmas": sigmas,
            "score": result.score,
            "truth": truth,
            "verdict": result.verdict,
            "seconds": seconds,
            "left_out": len(result.left_out_spans),
            "each_sigmas": each_sigmas,
        }
        print(
            f"{name:36s} worst {line['worst_percent']:9.4f} % ({worst:15s}) {sigmas:8.2g} σ score {result.score:9.3g} "
            f"truth {truth:9.3g} {result.verdict:5s} {seconds:6.1f} s left out {line['left_out']}",
            flush=True,
        )
        if each:
            print("    " + "  ".join(f"{n} {z:.2g} σ" for n, z in each_sigmas.items()), flush=True)
        out.append(line)
    print(coverage(out))
    return out


def coverage(lines: list[dict]) -> str:
    """The share of the values of `lines` within 2 and 3 reported standard deviations."""
    sigmas = np.array([z for line in lines for z in line["each_sigmas"].values()])
    if not len(sigmas):
        return "coverage: no values"
    return (
        f"coverage: {len(sigmas)} values, {100 * np.mean(sigmas <= 2):.0f} % within 2 σ, "
        f"{100 * np.mean(sigmas <= 3):.0f} % within 3 σ, the worst {np.max(sigmas):.2g} σ"
    )


if __name__ == "__main__":
    flags = [word for word in sys.argv[1:] if word.startswith("--")]
    run([word for word in sys.argv[1:] if word not in flags], each="--each" in flags)
