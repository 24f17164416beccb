"""Wall drives of a kinematic car's exported Godot 3 script in the real engine beside the
sandbox's own drive of the same tuning with Engine: Godot 3, on the parking lot (its
walls as static bodies, the car's shape from its tuning): shared by the engine tests.

`both(model, drive)` gives the two trajectories, rows (t, x, y, heading, vx, vy, speed,
slip angle, contacts) in the model's unit; `gaps` what the tests hold them to."""

from __future__ import annotations

import functools
import math
import tempfile
from dataclasses import replace
from pathlib import Path

import numpy as np

from sandbox.devtools.oracle import run_oracle
from sandbox.files.godot import export_script
from sandbox.files.presets import BUILTIN_DIR, load_preset
from sandbox.files.tracks import find_builtin_track, load_track
from sandbox.physics.body_shape import shape_of
from sandbox.physics.car_shape import GODOT3, CarShape
from sandbox.physics.sim import trace_trajectory
from sandbox.physics.track import Pose

PRESETS = {"arcade": "recipe_defaults", "bicycle": "bicycle_blog", "ackermann": "ackermann_van"}
"""The preset each model drives (the arcade's is the recipe demo's car)."""
RECIPE_CAPSULE = CarShape("capsule", 138.0, 68.0)
"""px: the recipe demo's car shape (radius 34, height 70 in Godot 3, along the car)."""


def drive(*parts: tuple[int, float, float, float]) -> np.ndarray:
    """Control rows (steer, throttle, brake): `ticks` of each part held."""
    return np.vstack([np.tile([steer, throttle, brake], (ticks, 1)) for ticks, steer, throttle, brake in parts])


def weave(ticks: int, period: int, steer: float) -> tuple[tuple[int, float, float, float], ...]:
    """Full throttle, steering `steer` one way then the other every `period` ticks."""
    return tuple((period, steer * (-1) ** k, 1.0, 0.0) for k in range(ticks // period))


DRIVES = {
    # straight down into the bottom wall, pressed, then steering along it
    "head_on_then_along": (
        (563.0, 1450.0, 90.0),
        drive((150, 0.0, 1.0, 0.0), (90, 1.0, 1.0, 0.0), (60, -1.0, 1.0, 0.0)),
    ),
    # at 35° from the wall's normal into the left wall, then reversing out of it
    "glancing_then_reverse": ((200.0, 900.0, 145.0), drive((150, 0.0, 1.0, 0.0), (120, 0.5, 0.0, 1.0))),
    # the same from farther out: the arcade meets the wall faster (the others barely reach it)
    "glancing_from_afar": ((400.0, 700.0, 145.0), drive((150, 0.0, 1.0, 0.0), (120, 0.5, 0.0, 1.0))),
    # into the 512 px gap in the bottom wall (the lot has no corridor of two walls) past
    # the end of its left side, then weaving in it
    "corridor": ((1085.0, 1450.0, 97.0), drive((120, 0.0, 1.0, 0.0), *weave(120, 20, 0.6))),
    # backing into the corner of the left and the bottom walls, turning in, then out
    "reverse_park": ((230.0, 1560.0, 20.0), drive((90, 0.3, 0.0, 1.0), (90, 1.0, 0.0, 1.0), (60, -0.5, 1.0, 0.0))),
}
"""(x, y px, heading °) where the car starts, and its controls at 60 Hz."""


def tuning_of(model_name: str):
    """The model's preset, with Engine: Godot 3 and the recipe demo's capsule (at the
    track's scale for a model in metres)."""
    preset = load_preset(BUILTIN_DIR / f"{PRESETS[model_name]}.json")
    k = 1.0 if preset.model.LENGTH_UNIT == "px" else 1.0 / parking_lot().pixels_per_metre
    tuning = preset.tuning.copy()
    tuning.set_many({**RECIPE_CAPSULE.scaled(k).values(), "godot_engine": GODOT3})
    return replace(preset, tuning=tuning)


@functools.lru_cache(maxsize=None)
def parking_lot():
    return load_track(find_builtin_track("parking_lot"))


@functools.lru_cache(maxsize=None)
def both(model_name: str, name: str) -> tuple[np.ndarray, np.ndarray]:
    """(the sandbox's rows, the engine's rows) of drive `name` by `model_name`'s
    exported Godot 3 script, in the model's unit; the last column the tick's contacts
    (the engine's slide count)."""
    (x, y, degrees), controls = DRIVES[name]
    preset = tuning_of(model_name)
    track = parking_lot()
    ppm = track.pixels_per_metre
    metres = preset.model.LENGTH_UNIT == "m"
    with tempfile.TemporaryDirectory(prefix="car-walls-") as tmp:
        trace = Path(tmp) / "trace.csv"
        rows = "".join(f"{float(s)!r},{float(t)!r},{float(b)!r}\n" for s, t, b in controls)
        trace.write_text("steer,throttle,brake\n" + rows)
        shape = CarShape.of(preset.tuning).scaled(ppm if metres else 1.0)
        godot = run_oracle(
            trace,
            hz=60,
            script_text=export_script(preset, 3, ppm),
            track=track,
            shape=shape_of(shape.values()),
            start=(x, y, math.radians(degrees)),
        )
    k = 1.0 / ppm if metres else 1.0
    start = Pose(x * k, y * k, math.radians(degrees))
    ours = next(trace_trajectory(preset.model, preset.tuning, iter([controls]), 60, track, start, contacts=True))
    n = min(len(ours), len(godot))
    assert n >= len(controls) - 1
    return ours[:n], godot[:n]


def gaps(model_name: str, name: str) -> tuple[np.ndarray, np.ndarray]:
    """(the position gap in px on each tick, the ticks whose contact decision differs)."""
    ours, godot = both(model_name, name)
    scale = parking_lot().pixels_per_metre if tuning_of(model_name).model.LENGTH_UNIT == "m" else 1.0
    gap = np.hypot(ours[:, 1] - godot[:, 1], ours[:, 2] - godot[:, 2]) * scale
    return gap, np.flatnonzero((ours[:, 8] > 0) != (godot[:, 8] > 0))
