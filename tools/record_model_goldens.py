"""Record every model's trajectories on fixed drives as goldens (tests/goldens/models).

    python tools/record_model_goldens.py

Each built-in preset, and a few option variants of them, drives four 30-s drives
(three at the preset's tick rate, the mixed one also at 30 Hz). Every 5th tick and
the last one are kept: the pose, the velocity, the wheel angle and each model's own
telemetry channels. The tests hold the physics to these numbers; a change that moves
them must re-record them and say why. metrics.json holds each tuning's metrics at
its preset's tick rate.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

OUT = ROOT / "tests" / "goldens" / "models"
SECONDS = 30.0
EVERY = 5
VARIANTS = {  # extra tunings: a preset with options switched on, so every branch is recorded
    "recipe_defaults+rate_independent": ("recipe_defaults", {"rate_independent": True}),
    "drift+rate_independent": ("drift", {"rate_independent": True}),
    "bicycle_blog+night_steer_rate": (
        "bicycle_blog",
        {"keep_wheel_base": True, "steer_rate": 120, "return_with_speed": True},
    ),
    "rigid_body_seed+box_grip_limit": ("rigid_body_seed", {"box_inertia": True, "grip_limit": True}),
    "monster_corvette_c5+pacejka_tutorial": ("monster_corvette_c5", {"pacejka": True, "tutorial_cornering": True}),
}


def drives(hz: int) -> dict[str, np.ndarray]:
    """Control rows (steer, throttle, brake, handbrake, shift), one per tick."""
    n = int(SECONDS * hz)
    t = np.arange(n) / hz
    rows = np.zeros((n, 5))
    straight = rows.copy()  # full throttle, brake to rest and into reverse, coast
    straight[t < 12, 1] = 1
    straight[(t >= 12) & (t < 22), 2] = 1
    circle = rows.copy()  # up to speed, then full lock right, throttle held
    circle[:, 1] = 1
    circle[t >= 5, 0] = 1
    mixed = rows.copy()  # seeded random driving with the handbrake and gear shifts
    rng = np.random.default_rng(14)
    i = 0
    while i < n:
        span = int(rng.integers(int(0.3 * hz), int(2.0 * hz)))
        steer = rng.choice([-1, -0.5, 0, 0, 0.5, 1])
        throttle, brake = [(1, 0), (1, 0), (0, 1), (0, 0), (1, 1)][rng.integers(5)]
        mixed[i : i + span, :3] = steer, throttle, brake
        mixed[i : i + span, 3] = float(rng.random() < 0.15)
        mixed[i, 4] = rng.choice([0, 0, 0, 1, -1])
        i += span
    return {"straight": straight, "circle": circle, "mixed": mixed}


def channels(model) -> list[str]:
    """The recorded state names: pose, velocity, wheel angle, the telemetry keys."""
    keys = [key for _, lines in model.TELEMETRY.values() for key, _, _ in lines]
    return ["x", "y", "heading", "vx", "vy", "wheel_angle"] + [k for k in dict.fromkeys(keys) if k != "wheel_angle"]


def record(model, tuning, trace: np.ndarray, hz: int) -> np.ndarray:
    from sandbox.physics.sim import Simulation
    from sandbox.physics.state import Controls

    sim = Simulation(model, tuning, n=1, hz=hz)
    names = channels(model)
    out = []
    for tick, row in enumerate(trace, start=1):
        s = sim.tick(Controls(*row))
        if tick % EVERY == 0 or tick == len(trace):
            out.append([tick] + [float(np.asarray(s.channel(k)).reshape(-1)[0]) for k in names])
    return np.array(out)


def main() -> int:
    from sandbox.analysis.metrics import compute
    from sandbox.files.presets import BUILTIN_DIR, load_preset

    OUT.mkdir(parents=True, exist_ok=True)
    tunings = {path.stem: (path.stem, {}) for path in sorted(BUILTIN_DIR.glob("*.json"))}
    tunings.update(VARIANTS)
    index, metrics = {}, {}
    for name, (preset_name, overrides) in tunings.items():
        preset = load_preset(BUILTIN_DIR / f"{preset_name}.json")
        tuning = preset.tuning.copy()
        for key, value in overrides.items():
            tuning.set(key, value)
        arrays = {}
        for hz in dict.fromkeys((preset.hz, 30)):
            for drive, trace in drives(hz).items():
                if hz != preset.hz and drive != "mixed":
                    continue
                arrays[f"{drive}_{hz}hz"] = record(preset.model, tuning, trace, hz)
        np.savez_compressed(OUT / f"{name}.npz", **arrays)
        values = compute(preset.model, tuning, preset.hz)
        metrics[name] = {k: float(np.asarray(v).reshape(-1)[0]) for k, v in values.items()}
        index[name] = {
            "preset": preset_name,
            "overrides": overrides,
            "model": preset.model.NAME,
            "columns": ["tick"] + channels(preset.model),
            "drives": sorted(arrays),
        }
        print(f"{name:40s} {', '.join(sorted(arrays))}")
    (OUT / "index.json").write_text(json.dumps(index, indent=1) + "\n")
    (OUT / "metrics.json").write_text(json.dumps(metrics, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
