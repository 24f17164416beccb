"""The auto-tune and sensitivity figures of `car-sandbox bench`.

Auto-tune: from each model's default preset, three targets (the top speed 10 % up, the
braking distance from it 10 % longer, the slow full-lock radius 10 % tighter; ±2 %)
over four free parameters. The dynamic car's slow full-lock turn is grip-limited (a
tighter one at a higher speed needs more grip), so its free parameters include the
tyres' μ instead of the steering angle. The rigid body has no top speed (nothing in its source
resists rolling): its targets are the time to 100 km/h 10 % shorter, the braking
distance from 100 km/h 10 % longer and the kerb-to-kerb circle 10 % tighter.
Sensitivity: every slider against every metric, as the Sensitivity view computes it.
"""

from __future__ import annotations

import statistics
import time

from ..analysis.metrics import compute
from ..analysis.sensitivity import sensitivity
from ..analysis.tune import Target, search
from ..files.presets import BUILTIN_DIR, load_preset

CASES = {
    "arcade": (
        "recipe_defaults",
        ("engine_power", "drag", "braking", "steering_angle"),
        {"top_speed": 1.1, "braking_from_top": 1.1, "radius_low": 0.9},
    ),
    "bicycle": (
        "bicycle_blog",
        ("max_speed", "braking", "max_steer", "wheel_base"),
        {"top_speed": 1.1, "braking_from_top": 1.1, "radius_low": 0.9},
    ),
    "ackermann": (
        "ackermann_notes",
        ("max_speed", "braking", "max_steer", "wheel_base"),
        {"top_speed": 1.1, "braking_from_top": 1.1, "radius_low": 0.9},
    ),
    "rigid_body": (
        "rigid_body_road",
        ("drive_torque", "brake_torque", "max_steer", "side_grip"),
        {"time_to_100": 0.9, "braking_from_100": 1.1, "turning_circle": 0.9},
    ),
    "monster": (
        "monster_corvette_c5",
        ("c_drag", "brake_force", "mu", "differential"),
        {"top_speed": 1.1, "braking_from_top": 1.1, "radius_low": 0.9},
    ),
}
"""model: (preset, the four free parameters, metric -> factor of the preset's value)."""
TOLERANCE = 0.02


def tune_seconds(seed: int = 1) -> dict:
    """Per model: seconds of the search (after a first one, so nothing loads during
    it), whether it hit, and the tunings it evaluated."""
    out = {}
    for name, (stem, free, factors) in CASES.items():
        preset = load_preset(BUILTIN_DIR / f"{stem}.json")
        now = compute(preset.model, dict(preset.tuning), preset.hz)
        targets = [
            Target(metric, float(now[metric][0]) * factor, TOLERANCE * float(now[metric][0]) * factor)
            for metric, factor in factors.items()
        ]
        search(preset.model, dict(preset.tuning), targets, list(free), preset.hz, seed, max_evaluations=50)
        start = time.perf_counter()
        result = search(preset.model, dict(preset.tuning), targets, list(free), preset.hz, seed)
        out[name] = {"seconds": time.perf_counter() - start, "hit": result.hit, "evaluations": result.evaluations}
    return out


def sensitivity_ms(repeats: int = 5) -> dict:
    """Per model: median milliseconds of the whole table, after a warm-up."""
    out = {}
    for name, (stem, _, _) in CASES.items():
        preset = load_preset(BUILTIN_DIR / f"{stem}.json")
        sensitivity(preset.model, dict(preset.tuning), preset.hz)
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            sensitivity(preset.model, dict(preset.tuning), preset.hz)
            times.append(time.perf_counter() - start)
        out[name] = statistics.median(times) * 1000
    return out
