"""A Godot 3 level as the real engine holds it (tools/godot_oracle/level_dump.gd, run
headless in a copy of the level's project): every static body's shapes with their global
transforms, every Path2D's baked curve, and which static bodies hold each probe point.
The level import's tests hold the importer to it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .oracle import PROJECT, OracleError, required_binary

DUMP = PROJECT / "level_dump.gd"
SHAPE_TYPES = {0: "line", 1: "ray", 2: "segment", 3: "circle", 4: "rectangle", 5: "capsule", 6: "convex", 7: "concave"}
"""Physics2DServer.ShapeType in Godot 3."""


@dataclass
class EngineShape:
    """One shape of a static body: the node owning it, its kind, flags, the body's
    collision layer, its global transform (x.x, x.y, y.x, y.y, origin.x, origin.y) and
    the physics server's data for it (flat numbers)."""

    node: str
    kind: str
    disabled: bool
    one_way: bool
    layer: int
    transform: tuple[float, ...]
    data: tuple[float, ...]


@dataclass
class EngineLevel:
    shapes: list[EngineShape] = field(default_factory=list)
    paths: dict[str, np.ndarray] = field(default_factory=dict)
    probes: list[list[str]] = field(default_factory=list)
    meets: dict[str, bool] = field(default_factory=dict)


def _numbers(text: str) -> tuple[float, ...]:
    return tuple(float(v) for v in text.split())


def engine_level(
    project: Path, scene: str, probes: np.ndarray, meets: tuple[str, ...] = (), timeout: float = 120
) -> EngineLevel:
    """The level `scene` (a res:// path) of the Godot 3 project at `project` as the
    engine loads it; `probes`: (n, 2) points to ask about; `meets`: bodies (node paths
    from the level's root) a car on Godot's default layer and mask is driven through."""
    binary = required_binary()
    with tempfile.TemporaryDirectory(prefix="car-level-") as tmp:
        copy = Path(tmp) / "project"
        shutil.copytree(project, copy, ignore=shutil.ignore_patterns(".import"))
        shutil.copy(DUMP, copy / DUMP.name)
        probe_file, out = Path(tmp) / "probes.txt", Path(tmp) / "out.txt"
        probe_file.write_text(
            "".join(f"{x!r} {y!r}\n" for x, y in np.asarray(probes, dtype=float).tolist()), encoding="utf-8"
        )
        env = {**os.environ, "LEVEL_SCENE": scene, "LEVEL_OUT": str(out), "LEVEL_PROBES": str(probe_file)}
        env["LEVEL_MEETS"] = ",".join(meets)
        result = subprocess.run(
            [binary, "--path", str(copy), "-s", f"res://{DUMP.name}"],
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if "SCRIPT ERROR" in result.stderr or not out.exists():
            raise OracleError(f"Godot failed ({result.returncode}): {result.stderr.strip()[-500:]}")
        lines = out.read_text(encoding="utf-8").splitlines()
    level = EngineLevel()
    for line in lines:
        kind, *fields = line.split("|")
        if kind == "shape":
            node, _index, shape_type, disabled, one_way, layer, transform, data = fields
            level.shapes.append(
                EngineShape(
                    node,
                    SHAPE_TYPES[int(shape_type)],
                    disabled == "1",
                    one_way == "1",
                    int(layer),
                    _numbers(transform),
                    _numbers(data),
                )
            )
        elif kind == "path":
            level.paths[fields[0]] = np.array(_numbers(fields[1])).reshape(-1, 2)
        elif kind == "probe":
            level.probes.append([name for name in fields[1].split(",") if name])
        elif kind == "meets":
            level.meets[fields[0]] = fields[1] == "1"
    if len(level.probes) != len(probes):
        raise OracleError(f"Godot answered {len(level.probes)} of {len(probes)} probe points")
    return level
