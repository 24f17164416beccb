"""Every model's compiled kernel against trajectories recorded from the numpy
implementation it replaced (tools/record_model_goldens.py): each built-in preset and
five option variants, four 30-s drives each, through the same drivers the window and
the CLI use. The numbers are those of the earlier code, not of this one."""

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from sandbox.files.presets import load_preset
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
    preset = load_preset(ROOT / "presets" / f"{info['preset']}.json")
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
