"""Where the engine's trajectories of the exported scripts are kept, and how they
are compared with the sandbox (tools/make_export_goldens.py writes them)."""

from __future__ import annotations

import gzip
from pathlib import Path
from types import ModuleType

import numpy as np

from ..files.godot import DEFAULT_PX_PER_METRE
from .oracle import compare

GOLDENS = Path(__file__).resolve().parents[2] / "tests" / "goldens" / "export"
COLUMNS = ("t", "x", "y", "heading")
"""Kept of each tick of the engine's trajectory (the model's units: px or m, rad)."""
SLIDING = ("rigid_body", "monster")
"""Models whose exports are also checked at 1 pixel per metre."""


FEEL = {"steer_time": 0.25, "return_time": 0.15, "lock_at_2": 70.0, "lock_at_3": 45.0, "rate_at_3": 60.0}
"""The steering feel as a racing game sets it: the steer builds up and returns at a rate,
less lock and a slower rate at speed."""
ASSISTS = {"countersteer_help": 60.0, "countersteer_slip": 4.0, "drift_hold": 30.0, "drift_hold_angle": 20.0}
"""Both assists on, in the models with slip angles."""
OPTION_TUNINGS = {
    "bicycle_all_options": (
        "bicycle_drift_illusion",
        {"keep_wheel_base": True, "steer_rate": 90.0, "return_with_speed": True, "drift_delay": 0.05},
    ),
    "rigid_body_box_grip_limit": ("rigid_body_seed", {"box_inertia": True, "grip_limit": True, "max_grip": 1.0}),
    "rigid_body_grip_load_ice": ("rigid_body_road", {"grip_load": True, "mu": 0.1}),
    "monster_pacejka_tutorial": ("monster_corvette_c5", {"pacejka": True, "tutorial_cornering": True}),
    "monster_four_wheel_abs": ("monster_drift_manual", {"four_wheel_brakes": True, "abs": True, "pacejka": True}),
    "arcade_steering_feel": ("drift", {**FEEL, **ASSISTS}),
    "bicycle_steering_feel": ("bicycle_blog", FEEL),
    "ackermann_steering_feel": ("ackermann_van", FEEL),
    "rigid_body_steering_feel": ("rigid_body_road", {**FEEL, **ASSISTS}),
    "monster_steering_feel": ("monster_corvette_c5", {**FEEL, **ASSISTS}),
}
"""Tunings that turn on the options no built-in preset does: name -> (preset, changes)."""


def tunings():
    """(name, preset) of every built-in preset and every option tuning, each checked
    against the engine."""
    from ..files.presets import BUILTIN_DIR, load_preset

    found = [(path.stem, load_preset(path)) for path in sorted(BUILTIN_DIR.glob("*.json"))]
    for name, (stem, changes) in OPTION_TUNINGS.items():
        preset = load_preset(BUILTIN_DIR / f"{stem}.json")
        for key, value in changes.items():
            preset.tuning[key] = value
        found.append((name, preset))
    return found


def scales(model: ModuleType) -> tuple[float, ...]:
    """Pixels per metre an export of `model` is checked at (1 for a model in pixels)."""
    if model.LENGTH_UNIT == "px":
        return (1.0,)
    return (DEFAULT_PX_PER_METRE, 1.0) if model.NAME in SLIDING else (DEFAULT_PX_PER_METRE,)


def golden_path(preset: str, model: ModuleType, ppm: float, drive: str, hz: int) -> Path:
    """The golden of the tuning named `preset` (see `tunings`) on one run; at a scale
    other than the model's first, in a folder named for the scale (`<preset>@1px`)."""
    folder = preset if ppm == scales(model)[0] else f"{preset}@{ppm:g}px"
    return GOLDENS / folder / f"{drive}_{hz}hz.csv.gz"


def save_golden(path: Path, rows: np.ndarray) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = ",".join(COLUMNS) + "\n" + "\n".join(",".join(f"{v:.7f}" for v in row[: len(COLUMNS)]) for row in rows)
    path.write_bytes(gzip.compress((text + "\n").encode(), mtime=0))


def load_golden(path: Path) -> np.ndarray:
    lines = gzip.decompress(path.read_bytes()).decode().splitlines()
    if tuple(lines[0].split(",")) != COLUMNS:
        raise ValueError(f"{path}: unexpected header {lines[0]!r}")
    return np.loadtxt(lines[1:], delimiter=",", ndmin=2)


def gap_px(sandbox_rows: np.ndarray, godot_rows: np.ndarray, ppm: float) -> dict[str, float]:
    """The largest position gap in the engine's pixels and heading gap (rad) of a run."""
    gap = compare(sandbox_rows[:, : len(COLUMNS)], godot_rows[:, : len(COLUMNS)])
    return {"position_px": gap["position_px"] * ppm, "heading_rad": gap["heading_rad"]}
