"""Run the Godot 3 oracle (tools/godot_oracle) headless: a car script driven through
the input actions by a control trace, writing a trajectory CSV.

Needs `godot3-server` (Debian: apt-get install godot3-server); everything else in the
sandbox runs without it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Mapping

import numpy as np

from ..files.traces import TRAJECTORY_COLUMNS

PROJECT = Path(__file__).resolve().parents[2] / "tools" / "godot_oracle"
BINARIES = ("godot3-server", "godot3", "godot3-runner")
NO_PROJECT = (
    "the Godot test game (tools/godot_oracle) is in the source checkout only, not in an installed app: "
    "run this from a clone"
)
"""Why the oracle cannot run in an installed app (pip, pipx): it has no tools/ folder."""
RECIPE_VARIABLES = (
    "wheel_base",
    "steering_angle",
    "engine_power",
    "friction",
    "drag",
    "braking",
    "max_speed_reverse",
    "slip_speed",
    "traction_fast",
    "traction_slow",
)


class OracleError(RuntimeError):
    """Godot could not run the oracle (missing binary, script error, bad output)."""


def godot_binary() -> str | None:
    """Path of a Godot 3 headless binary, or None when none is installed."""
    for name in BINARIES:
        found = shutil.which(name)
        if found:
            return found
    return None


def required_binary() -> str:
    """godot_binary(), or OracleError saying what to install."""
    binary = godot_binary()
    if binary is None:
        raise OracleError("no Godot 3 binary found (install the Debian package godot3-server)")
    return binary


def unavailable() -> str | None:
    """Why the oracle cannot run here, or None: no Godot 3 binary, or no oracle project
    (it is a developer's tool in the source checkout, not in an installed package)."""
    if godot_binary() is None:
        return "no Godot 3 binary (install the Debian package godot3-server)"
    if not PROJECT.is_dir():
        return NO_PROJECT
    return None


def copy_project(project: Path, script_text: str | None, scene: Mapping[str, str] | None) -> str:
    """A copy of the oracle project at `project` with the car's files: `script_text` as
    car.gd, `scene`'s files (name -> text). Returns the res:// path of the car script
    the driver puts on its own body (car.gd, else the oracle's port of the recipe)."""
    if not PROJECT.is_dir():
        raise OracleError(NO_PROJECT)
    shutil.copytree(PROJECT, project, ignore=shutil.ignore_patterns(".import", "*.csv"))
    script = "res://recipe_car.gd"
    if script_text is not None:
        (project / "car.gd").write_text(script_text, encoding="utf-8")
        script = "res://car.gd"
    for name, text in (scene or {}).items():
        (project / name).write_text(text, encoding="utf-8")
    return script


def run_oracle(
    trace_csv: Path,
    params: Mapping[str, float] | None = None,
    hz: int = 60,
    script_text: str | None = None,
    timeout: float = 300,
    car_adds_actions: bool = False,
    scene: Mapping[str, str] | None = None,
    track=None,
    shape=None,
    start: tuple[float, float, float] | None = None,
) -> np.ndarray:
    """Trajectory rows (t, x, y, heading, vx, vy, speed, slip_angle) from Godot.

    With `script_text`, that script (e.g. an exported car.gd, unmodified) drives the
    body instead of the oracle's own port of the recipe, and `params` should be None.
    `car_adds_actions`: the project has no input actions until the car script adds
    them (an exported script does, in its `_ready`). `scene`: files (name -> text) of a
    car scene, the first a .tscn, copied into the project; the driver instances it.
    `track` (a Track in px): its walls built as static bodies, and each row ends with
    the car's slide count after the tick; `shape`: the car's shape array
    (body_shape's); `start`: (x, y, rotation) where the car starts.
    """
    binary = required_binary()
    with tempfile.TemporaryDirectory(prefix="car-oracle-") as tmp:
        project = Path(tmp) / "project"
        script = copy_project(project, script_text, scene)
        out = Path(tmp) / "trajectory.csv"
        walls = Path(tmp) / "walls.json"
        if track is not None:
            walls.write_text(json.dumps(_walls_description(track)), encoding="utf-8")
        env = {
            **os.environ,
            "LC_ALL": "C.UTF-8",
            "LANG": "C.UTF-8",
            "ORACLE_TRACE": str(Path(trace_csv).resolve()),
            "ORACLE_OUT": str(out),
            "ORACLE_SCRIPT": script,
            "ORACLE_HZ": str(hz),
            "ORACLE_CAR_ADDS_ACTIONS": "1" if car_adds_actions else "",
            "ORACLE_SCENE": f"res://{next(iter(scene))}" if scene else "",
            "ORACLE_WALLS": str(walls) if track is not None else "",
            "ORACLE_SHAPE": ",".join(repr(float(v)) for v in shape) if shape is not None else "",
            "ORACLE_START": ",".join(repr(float(v)) for v in start) if start is not None else "",
            "ORACLE_PARAMS": ";".join(f"{k}={float(v)!r}" for k, v in (params or {}).items() if k in RECIPE_VARIABLES),
        }
        result = subprocess.run(
            [binary, "--path", str(project), "--fixed-fps", str(hz)],
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if result.returncode != 0 or not out.exists():
            raise OracleError(f"Godot failed ({result.returncode}): {result.stderr.strip()[-500:]}")
        header = out.read_text().splitlines()[0].split(",")
        if tuple(header) != TRAJECTORY_COLUMNS + (("slides",) if track is not None else ()):
            raise OracleError(f"unexpected trajectory header {header}")
        if "SCRIPT ERROR" in result.stderr or "Parse Error" in result.stderr:
            raise OracleError(f"Godot reported a script error: {result.stderr.strip()[-500:]}")
        return np.loadtxt(out, delimiter=",", skiprows=1, ndmin=2)


def _walls_description(track) -> dict:
    """The walls of `track` (px) as tools/godot_oracle/walls.gd reads them."""
    return {
        "polylines": [{"points": p.points.tolist(), "closed": p.closed} for p in track.polylines],
        "rects": [[r.x, r.y, r.width, r.height, r.angle] for r in track.rects],
        "circles": [[c.x, c.y, c.radius] for c in track.circles],
    }


def compare(sandbox_rows: np.ndarray, godot_rows: np.ndarray) -> dict[str, float]:
    """Largest position gap (px) and heading gap (rad, wrapped) over the whole run."""
    if sandbox_rows.shape != godot_rows.shape:
        raise ValueError(f"different lengths: {sandbox_rows.shape} vs {godot_rows.shape}")
    position = np.hypot(sandbox_rows[:, 1] - godot_rows[:, 1], sandbox_rows[:, 2] - godot_rows[:, 2])
    heading = np.abs(np.angle(np.exp(1j * (sandbox_rows[:, 3] - godot_rows[:, 3]))))
    return {"position_px": float(position.max()), "heading_rad": float(heading.max())}
