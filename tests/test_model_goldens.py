"""Change detector, recorded from the sandbox itself (not an independent truth).

Every model's compiled kernel is driven through the recording driver (`sim.record`)
and compared with the trajectories that tools/record_model_goldens.py recorded from
the sandbox's own physics at an earlier commit (tests/goldens/models/*.npz, listed
in index.json): each value within 1e-9 relative, or within 1e-9 of the path's extent
for values near zero. Recorded: the 17 built-in presets there were at the last
recording and five option variants, each on a straight, a circle and a seeded mixed
drive of 30 s at its preset's tick rate, the mixed one also at 30 Hz; every 5th
tick and the last one. (recipe_2020 and monster_corvette_c5_road_test came later and
are not in the recording.) A failure says only that the physics has moved since.

Re-record after a deliberate change of the physics, and say why in the commit:
`python tools/record_model_goldens.py` rewrites every .npz, index.json and
metrics.json (test_metrics_goldens.py), and records the presets added since too;
`python tools/check_model_goldens.py MODEL` shows how far one model has moved
before re-recording. The independent oracles, the Godot engine's own trajectories, are
tests/test_godot_parity.py and tests/test_godot_export_goldens.py."""

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from sandbox.files.presets import BUILTIN_DIR, load_preset
from sandbox.physics.models import MODELS
from sandbox.physics.sim import record

ROOT = Path(__file__).resolve().parent.parent
GOLDENS = ROOT / "tests" / "goldens" / "models"
INDEX = json.loads((GOLDENS / "index.json").read_text())
sys.path.insert(0, str(ROOT / "tools"))
from record_model_goldens import EVERY, drives  # noqa: E402

CASES = [(name, drive) for name, info in INDEX.items() for drive in info["drives"]]


@pytest.mark.parametrize("name,drive", CASES, ids=[f"{n}-{d}" for n, d in CASES])
def test_kernel_reproduces_the_recorded_drive(name, drive):
    info = INDEX[name]
    model = MODELS[info["model"]]
    preset = load_preset(BUILTIN_DIR / f"{info['preset']}.json")
    tuning = preset.tuning.copy()
    for key, value in info["overrides"].items():
        tuning.set(key, value)
    stem, rate = drive.rsplit("_", 1)
    hz = int(rate[:-2])
    trace = drives(hz)[stem]
    gold = np.load(GOLDENS / f"{name}.npz")[drive]
    ours = record(model, tuning, trace, hz, tuple(info["columns"][1:]))
    kept = gold[:, 0].astype(int) - 1  # every EVERY-th tick and the last
    assert EVERY > 1 and len(kept) == len(gold)
    extent = max(np.ptp(gold[:, 1]), np.ptp(gold[:, 2]), 1.0)
    # within 1e-9 of each value, or of the path's extent for positions near zero
    np.testing.assert_allclose(ours[kept], gold[:, 1:], rtol=1e-9, atol=1e-9 * extent, equal_nan=True)
