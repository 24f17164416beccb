"""The exported Godot 3 arcade script, unmodified, driven in the real engine on the
parking lot's walls (static bodies, the car's capsule from its tuning) beside the
sandbox's own drive: the same contact decision every tick, and within 1 px every tick.
Not met yet: sliding for 1.5 s along the lot's left wall (pieces 128 px long, each
slanted 2.5 px) the velocity move_and_slide returns differs from the engine's by about
0.5 px/s a tick across the wall, and the positions part by up to 3.5 px (marked as an
expected failure, strict: it fails the suite once it holds)."""

from __future__ import annotations

import functools
import math
import tempfile
from pathlib import Path

import numpy as np
import pytest

from sandbox.devtools.oracle import godot_binary, run_oracle
from sandbox.files.godot import export_script
from sandbox.files.presets import BUILTIN_DIR, load_preset
from sandbox.files.tracks import find_builtin_track, load_track
from sandbox.physics.body_shape import shape_of
from sandbox.physics.sim import trace_trajectory
from sandbox.physics.track import Pose

POSITION_PX = 1.0
needs_godot = pytest.mark.skipif(godot_binary() is None, reason="godot3-server is not installed")


def drive(*parts: tuple[int, float, float, float]) -> np.ndarray:
    """Control rows (steer, throttle, brake): `ticks` of each part held."""
    return np.vstack([np.tile([steer, throttle, brake], (ticks, 1)) for ticks, steer, throttle, brake in parts])


DRIVES = {
    # straight down into the bottom wall, pressed, then steering along it
    "head_on_then_along": (
        (563.0, 1450.0, 90.0),
        drive((150, 0.0, 1.0, 0.0), (90, 1.0, 1.0, 0.0), (60, -1.0, 1.0, 0.0)),
    ),
    # at 35° into the left wall, then reversing out of it
    "glancing_then_reverse": ((400.0, 700.0, 145.0), drive((150, 0.0, 1.0, 0.0), (120, 0.5, 0.0, 1.0))),
}


@functools.lru_cache(maxsize=None)
def both(name: str) -> tuple[np.ndarray, np.ndarray]:
    """(the sandbox's rows, the engine's rows) of drive `name`: t, x, y, heading, vx,
    vy, speed, slip angle, and the tick's contacts (the engine's slide count)."""
    (x, y, degrees), controls = DRIVES[name]
    preset = load_preset(BUILTIN_DIR / "recipe_defaults.json")
    track = load_track(find_builtin_track("parking_lot"))
    with tempfile.TemporaryDirectory(prefix="car-walls-") as tmp:
        trace = Path(tmp) / "trace.csv"
        rows = "".join(f"{float(s)!r},{float(t)!r},{float(b)!r}\n" for s, t, b in controls)
        trace.write_text("steer,throttle,brake\n" + rows)
        godot = run_oracle(
            trace,
            hz=60,
            script_text=export_script(preset, 3),
            track=track,
            shape=shape_of(preset.tuning),
            start=(x, y, math.radians(degrees)),
        )
    start = Pose(x, y, math.radians(degrees))
    ours = next(trace_trajectory(preset.model, preset.tuning, iter([controls]), 60, track, start, contacts=True))
    n = min(len(ours), len(godot))
    assert n >= len(controls) - 1
    return ours[:n], godot[:n]


@needs_godot
@pytest.mark.parametrize("name", sorted(DRIVES))
def test_the_exported_arcade_meets_the_parking_lots_walls_on_the_engines_ticks(name):
    ours, godot = both(name)
    met = ours[:, 8] > 0
    assert met.any() and not met.all()  # the drive meets the walls, and not from the start
    differ = np.flatnonzero(met != (godot[:, 8] > 0))
    assert differ.size == 0, {"ticks": differ[:10].tolist()}


@needs_godot
@pytest.mark.parametrize(
    "name",
    [
        "head_on_then_along",
        pytest.param(
            "glancing_then_reverse",
            marks=pytest.mark.xfail(strict=True, reason="sliding along slanted wall pieces parts by up to 3.5 px"),
        ),
    ],
)
def test_the_exported_arcade_on_the_parking_lot_stays_within_1_px_of_the_engine(name):
    ours, godot = both(name)
    gap = np.hypot(ours[:, 1] - godot[:, 1], ours[:, 2] - godot[:, 2])
    assert gap.max() < POSITION_PX, {"worst tick": int(gap.argmax()), "gap": float(gap.max())}
