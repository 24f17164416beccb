"""The exported Godot 3 scripts of the rigid body and the dynamic car, unmodified, driven
in the real engine into the parking lot's walls (static bodies, the car's shape from
its tuning) beside the sandbox's own drive: move_and_collide's contact and the same
impulse, within 1 px every tick (the kinematic cars' bound). Measured: 0.25 px for the
rigid body head-on, 0.005 px for the dynamic car head-on and 0.22 px at 35°; the rest
is Godot 3's 32-bit node positions and contact normals, against the sandbox's 64 bits."""

from __future__ import annotations

import functools
import math
import tempfile
from pathlib import Path

import numpy as np
import pytest

from sandbox.devtools.oracle import godot_binary, run_oracle
from sandbox.files.godot import DEFAULT_PX_PER_METRE, export_script
from sandbox.files.presets import BUILTIN_DIR, load_preset
from sandbox.files.tracks import find_builtin_track, load_track
from sandbox.physics.body_shape import shape_of
from sandbox.physics.sim import trace_trajectory
from sandbox.physics.track import Pose

POSITION_PX = 1.0
needs_godot = pytest.mark.skipif(godot_binary() is None, reason="godot3-server is not installed")
CONTROLS = np.vstack([np.tile([0.0, 1.0, 0.0], (150, 1)), np.tile([0.0, 0.0, 1.0], (60, 1))])
"""Full throttle for 2.5 s, then the brake (reversing once stopped) for 1 s."""
DRIVES = {
    "rigid_body_head_on": ("rigid_body_road", (563.0, 1450.0, 90.0)),  # down into the bottom wall
    "monster_head_on": ("monster_corvette_c5", (563.0, 1450.0, 90.0)),
    "monster_glancing": ("monster_corvette_c5", (400.0, 700.0, 145.0)),  # at 35° into the left wall
}


@functools.lru_cache(maxsize=None)
def both(name: str) -> tuple[np.ndarray, np.ndarray]:
    """(the sandbox's rows, the engine's rows) of drive `name`, positions in px: t, x, y,
    heading, …; the sandbox's rows end with the tick's wall contacts."""
    stem, (x, y, degrees) = DRIVES[name]
    preset = load_preset(BUILTIN_DIR / f"{stem}.json")
    track = load_track(find_builtin_track("parking_lot"))
    ppm = DEFAULT_PX_PER_METRE
    shape = shape_of(preset.tuning) * np.array([1.0, ppm, ppm, ppm, ppm, 1.0])  # lengths in px
    with tempfile.TemporaryDirectory(prefix="car-impulse-") as tmp:
        trace = Path(tmp) / "trace.csv"
        trace.write_text("steer,throttle,brake\n" + "".join(f"{s!r},{t!r},{b!r}\n" for s, t, b in CONTROLS.tolist()))
        godot = run_oracle(
            trace,
            hz=60,
            script_text=export_script(preset, 3),
            track=track,
            shape=shape,
            start=(x, y, math.radians(degrees)),
        )
    start = Pose(x / ppm, y / ppm, math.radians(degrees))
    ours = next(trace_trajectory(preset.model, preset.tuning, iter([CONTROLS]), 60, track, start, contacts=True))
    n = min(len(ours), len(godot))
    assert n >= len(CONTROLS) - 1
    ours, godot = ours[:n].copy(), godot[:n].copy()
    ours[:, 1:3] *= ppm
    godot[:, 1:3] *= ppm  # the driver writes a metric car's position in m
    return ours, godot


@needs_godot
@pytest.mark.parametrize("name", sorted(DRIVES))
def test_the_exported_rigid_car_bounces_off_the_parking_lots_wall_as_in_the_engine(name):
    ours, godot = both(name)
    met = ours[:, 8] > 0
    assert met.any() and not met[:100].any()  # it meets the wall, after a free run
    first = int(np.argmax(met))
    assert ours[first, 6] < 0.95 * ours[first - 1, 6]  # the hit took speed away
    gap = np.hypot(ours[:, 1] - godot[:, 1], ours[:, 2] - godot[:, 2])
    assert gap.max() < POSITION_PX, {"worst tick": int(gap.argmax()), "gap": float(gap.max())}
