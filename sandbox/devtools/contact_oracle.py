"""Wall contact in the real Godot 3 engine (tools/godot_contact) beside the sandbox's
`contact_godot3.move_and_slide`: the same walls, car shape, pose and velocity per tick
on both, one row per tick (tick, x, y, returned vx, vy, slides, normal x, y).

Needs `godot3-server` (as sandbox/devtools/oracle.py); `DRIVES` are the scripted
drives the engine tests run (60 Hz, the recipe car's Godot 3 capsule, px).
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import tempfile
from pathlib import Path
from typing import NamedTuple

import numpy as np

from ..physics.body_shape import RECIPE_CAPSULE_GODOT3, circle, rectangle
from ..physics.contact_godot3 import SAFE_MARGIN, move_and_slide
from ..physics.track import Circle, Polyline, Rect, Track
from ..physics.world import build_world
from .oracle import OracleError, required_binary

PROJECT = Path(__file__).resolve().parents[2] / "tools" / "godot_contact"
COLUMNS = ("tick", "x", "y", "vx", "vy", "slides", "nx", "ny")


def scene(track: Track, shape, pose, velocities, hz: int, concave: bool = False) -> dict:
    """The JSON description the engine's driver builds its scene from."""
    return {
        "hz": hz,
        "concave": concave,
        "polylines": [{"points": p.points.tolist(), "closed": p.closed} for p in track.polylines],
        "rects": [[r.x, r.y, r.width, r.height, r.angle] for r in track.rects],
        "circles": [[c.x, c.y, c.radius] for c in track.circles],
        "polygons": [],
        "shape": [float(v) for v in shape],
        "pose": [float(v) for v in pose],
        "velocities": np.asarray(velocities, dtype=float).tolist(),
    }


def run_engine(
    track: Track, shape, pose, velocities, hz: int = 60, concave: bool = False, timeout: float = 120
) -> np.ndarray:
    """Rows (COLUMNS) from Godot 3: move_and_slide(velocity) once per physics tick."""
    binary = required_binary()
    if not PROJECT.is_dir():
        raise OracleError("the contact oracle's Godot project (tools/godot_contact) is in the source checkout only")
    with tempfile.TemporaryDirectory(prefix="car-contact-") as tmp:
        description, out = Path(tmp) / "scene.json", Path(tmp) / "rows.csv"
        description.write_text(json.dumps(scene(track, shape, pose, velocities, hz, concave)), encoding="utf-8")
        env = {**os.environ, "LC_ALL": "C.UTF-8", "CONTACT_SCENE": str(description), "CONTACT_OUT": str(out)}
        result = subprocess.run(
            [binary, "--path", str(PROJECT), "--fixed-fps", str(hz)],
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if result.returncode != 0 or not out.exists() or "SCRIPT ERROR" in result.stderr:
            raise OracleError(f"Godot failed ({result.returncode}): {result.stderr.strip()[-500:]}")
        return np.loadtxt(out, delimiter=",", skiprows=1, ndmin=2)


def run_sandbox(track: Track, shape, pose, velocities, hz: int = 60, concave: bool = False) -> np.ndarray:
    """Rows (COLUMNS) from the sandbox's kernel fed the same velocities."""
    world = build_world(track, concave)
    x, y, heading = (float(v) for v in pose)
    rows = []
    for n, (vx, vy) in enumerate(np.asarray(velocities, dtype=float)):
        x, y, rvx, rvy, slides, nx, ny = move_and_slide(world, shape, x, y, heading, vx, vy, 1.0 / hz, SAFE_MARGIN)
        rows.append((n, x, y, rvx, rvy, slides, nx, ny))
    return np.array(rows, dtype=float).reshape(-1, len(COLUMNS))


def compare(ours: np.ndarray, godot: np.ndarray) -> dict:
    """Largest position gap (px) over the ticks, the ticks whose contact decision
    (any slide or none) differs, and how many ticks had a contact in the engine."""
    if ours.shape != godot.shape:
        raise ValueError(f"different lengths: {ours.shape} vs {godot.shape}")
    gap = np.hypot(ours[:, 1] - godot[:, 1], ours[:, 2] - godot[:, 2])
    differ = np.flatnonzero((ours[:, 5] > 0) != (godot[:, 5] > 0))
    return {
        "position_px": float(gap.max()),
        "worst_tick": int(gap.argmax()),
        "decisions_differ": differ.tolist(),
        "contact_ticks": int((godot[:, 5] > 0).sum()),
    }


def _steady(vx: float, vy: float, ticks: int) -> np.ndarray:
    return np.tile([vx, vy], (ticks, 1))


def _heading(degrees: float, speed: float, ticks: int) -> np.ndarray:
    a = math.radians(degrees)
    return _steady(speed * math.cos(a), speed * math.sin(a), ticks)


class Drive(NamedTuple):
    """A scripted drive: walls, the car's start (x, y, heading), a velocity per tick
    (px/s), the tick rate, whether the polylines are Godot concave polygons, and the
    car's shape (body_shape's array; the recipe car's capsule unless said)."""

    track: Track
    pose: tuple
    velocities: np.ndarray
    hz: int = 60
    concave: bool = False
    shape: np.ndarray = RECIPE_CAPSULE_GODOT3


def _drives() -> dict:
    """The drives by name (see Drive)."""
    px = dict(unit="px")
    wall_x = Track("wall", polylines=(Polyline([(600, -400), (600, 400)]),), **px)
    floor = Track("floor", rects=(Rect(0, 300, 4000, 100),), **px)
    corridor = Track(
        "corridor", polylines=(Polyline([(-100, -60), (3000, -60)]), Polyline([(-100, 60), (3000, 60)])), **px
    )
    weave = np.array([(420.0, 260.0 * math.sin(n / 9.0)) for n in range(150)])
    garage = Track("garage", rects=(Rect(-300, 0, 40, 600),), circles=(Circle(-200, 150, 20),), **px)
    block = Track("block", rects=(Rect(400, 0, 200, 200),), **px)
    corner = Track("corner", polylines=(Polyline([(-300, 300), (300, 300), (300, -300)]),), **px)
    post = Track("post", circles=(Circle(500, 40, 50),), **px)
    tilted = Track(
        "tilted box",
        rects=(Rect(500, 0, 120, 400, math.radians(20)),),
        polylines=(Polyline([(350, -500), (700, -350), (900, 100)], closed=True),),
        **px,
    )
    thin = Track("thin wall", polylines=(Polyline([(3000, -2000), (3000, 2000)]),), **px)
    # a wall's end met at 45°: a segment shape pushes along its normal, a concave
    # polygon's piece away from its end (docs/tracks.md, "A wall's end")
    end = Track("a wall's end", polylines=(Polyline([(0, 0), (300, 0)]),), **px)
    head_on = np.vstack([_steady(400, 0, 70), _steady(-200, 0, 15), _steady(300, 0, 25)])
    return {
        "head_on": Drive(wall_x, (300.0, 0.0, 0.0), head_on),
        "head_on_concave": Drive(wall_x, (300.0, 0.0, 0.0), head_on, concave=True),
        "glancing_35": Drive(
            floor, (0.0, 0.0, math.radians(35)), np.vstack([_heading(35, 500, 110), _heading(-20, 300, 20)])
        ),
        "corridor": Drive(corridor, (0.0, 0.0, 0.0), weave),
        "corridor_concave": Drive(corridor, (0.0, 0.0, 0.0), weave, concave=True),
        "reverse_park": Drive(garage, (0.0, 0.0, 0.0), np.vstack([_steady(-150, 0, 40), _steady(-180, 25, 80)])),
        "convex_corner": Drive(block, (90.0, -300.0, math.radians(45)), _heading(45, 400, 90)),
        "concave_corner": Drive(corner, (-100.0, -100.0, math.radians(40)), _heading(40, 450, 90)),
        "concave_corner_concave": Drive(
            corner, (-100.0, -100.0, math.radians(40)), _heading(40, 450, 90), concave=True
        ),
        "circle_post": Drive(post, (200.0, 0.0, 0.0), _steady(350, 0, 90)),
        "tilted_walls": Drive(
            tilted, (100.0, -100.0, math.radians(10)), np.vstack([_heading(10, 380, 80), _heading(-60, 380, 60)])
        ),
        "fast_thin_wall_30hz": Drive(thin, (0.0, 0.0, 0.0), _heading(3, 20000, 12), hz=30),
        "fast_thin_wall_30hz_concave": Drive(thin, (0.0, 0.0, 0.0), _heading(3, 20000, 12), hz=30, concave=True),
        "round_car_at_a_wall_end": Drive(end, (330.0, -40.0, 0.0), _steady(-300, 300, 40), shape=circle(20)),
        "round_car_at_a_wall_end_concave": Drive(
            end, (330.0, -40.0, 0.0), _steady(-300, 300, 40), concave=True, shape=circle(20)
        ),
        "box_car_glancing": Drive(
            floor, (0.0, 0.0, math.radians(30)), _heading(30, 450, 100), shape=rectangle(120, 60, 10, 0, 0.1)
        ),
        "round_car_corners": Drive(
            tilted,
            (100.0, -100.0, 0.0),
            np.vstack([_heading(10, 380, 80), _heading(-60, 380, 60)]),
            shape=circle(30, 5, -3),
        ),
    }


DRIVES = _drives()
"""The engine tests' scripted drives."""
SHAPE = RECIPE_CAPSULE_GODOT3


def both(drive: Drive) -> tuple[np.ndarray, np.ndarray]:
    """(the sandbox's rows, the engine's rows) for `drive`."""
    args = (drive.track, drive.shape, drive.pose, drive.velocities, drive.hz)
    return run_sandbox(*args, concave=drive.concave), run_engine(*args, concave=drive.concave)


def report() -> dict:
    """Each drive on the engine and on the sandbox: compare()'s figures by name."""
    return {name: compare(*both(drive)) for name, drive in DRIVES.items()}


if __name__ == "__main__":
    for drive_name, figures in report().items():
        print(f"{drive_name:28s} {figures}")
