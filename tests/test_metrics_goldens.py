"""Change detector, recorded from the sandbox itself (not an independent truth).

The compiled metrics against tests/goldens/models/metrics.json, which
tools/record_model_goldens.py recorded with the sandbox's own `metrics.compute` at an
earlier commit: the tunings of index.json (see test_model_goldens.py) at their
preset's tick rate, each figure within 1e-9 relative (NaN = NaN, inf = inf). The
metrics added after the recording (the standing quarter mile, the skid pad's steady
lateral acceleration) are not in it: test_metrics.py checks them against closed
forms. A failure says only that a metric has moved since the recording.

Re-record after a deliberate change of the physics or of a manoeuvre, and say why in
the commit: `python tools/record_model_goldens.py` (it rewrites the trajectories of
test_model_goldens.py too, and records every metric there is)."""

import json
import math
from pathlib import Path

import numpy as np
import pytest

from sandbox.analysis.metrics import METRICS, compute
from sandbox.files.presets import BUILTIN_DIR, load_preset

ROOT = Path(__file__).resolve().parent.parent
GOLDENS = ROOT / "tests" / "goldens" / "models"
INDEX = json.loads((GOLDENS / "index.json").read_text())
RECORDED = json.loads((GOLDENS / "metrics.json").read_text())


def tuning_of(name):
    info = INDEX[name]
    preset = load_preset(BUILTIN_DIR / f"{info['preset']}.json")
    tuning = preset.tuning.copy()
    for key, value in info["overrides"].items():
        tuning.set(key, value)
    return preset, tuning


def same(value: float, recorded: float) -> bool:
    if math.isnan(recorded) or math.isinf(recorded):
        return value == recorded or (math.isnan(value) and math.isnan(recorded))
    return math.isfinite(value) and abs(value - recorded) <= 1e-9 * abs(recorded)


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_metrics_are_the_recorded_ones(name):
    preset, tuning = tuning_of(name)
    values = compute(preset.model, tuning, preset.hz)
    assert list(values) == list(METRICS) and list(RECORDED[name]) == list(METRICS)[: len(RECORDED[name])]
    got = {k: float(v[0]) for k, v in values.items()}
    wrong = {k: (got[k], RECORDED[name][k]) for k in RECORDED[name] if not same(got[k], RECORDED[name][k])}
    assert not wrong, wrong


def test_a_batch_of_every_models_presets_is_its_tunings_one_by_one():
    """The parallel batch gives each tuning the figures it has alone (the goldens)."""
    by_model = {}
    for name in sorted(RECORDED):
        preset, tuning = tuning_of(name)
        by_model.setdefault((preset.model, preset.hz), []).append((name, tuning))
    for (model, hz), members in by_model.items():
        if len(members) < 2:
            continue
        params = {p.name: np.array([t[p.name] for _, t in members]) for p in model.PARAMS}
        values = compute(model, params, hz)
        for i, (name, _) in enumerate(members):
            wrong = {
                k: (float(values[k][i]), RECORDED[name][k])
                for k in RECORDED[name]
                if not same(float(values[k][i]), RECORDED[name][k])
            }
            assert not wrong, (name, wrong)
