"""Compare one model's compiled kernel with the recorded goldens, drive by drive.

    python tools/check_model_goldens.py MODEL

Runs the kernel directly (no drivers), so a model can be checked on its own. Prints
the largest difference of each drive, absolute and relative to the path's extent.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
from numba import njit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

GOLDENS = ROOT / "tests" / "goldens" / "models"


def main(name: str) -> int:
    import importlib

    import record_model_goldens as recorded
    from sandbox.files.presets import BUILTIN_DIR, load_preset
    from sandbox.physics.params import param_rows

    model = importlib.import_module(f"sandbox.physics.models.{name}")
    kernel = model.tick

    @njit
    def run(s, trace, p, dt, columns, every, out):
        k = 0
        for t in range(trace.shape[0]):
            kernel(s, trace[t], p, dt)
            if (t + 1) % every == 0 or t == trace.shape[0] - 1:
                out[k, 0] = t + 1
                for j in range(columns.shape[0]):
                    out[k, 1 + j] = s[columns[j]]
                k += 1

    index = json.loads((GOLDENS / "index.json").read_text())
    worst = 0.0
    for tuning_name, info in index.items():
        if info["model"] != name:
            continue
        preset = load_preset(BUILTIN_DIR / f"{info['preset']}.json")
        tuning = preset.tuning.copy()
        for key, value in info["overrides"].items():
            tuning.set(key, value)
        golden = np.load(GOLDENS / f"{tuning_name}.npz")
        names = info["columns"][1:]
        columns = np.array([model.STATE.offset[n] for n in names], dtype=np.int64)
        for drive in info["drives"]:
            stem, rate = drive.rsplit("_", 1)
            hz = int(rate[:-2])
            gold = golden[drive]
            rows, _ = param_rows(model.PARAMS, tuning, 1)
            out = np.zeros_like(gold)
            run(model.STATE.rest(1)[0], recorded.drives(hz)[stem], rows[0], 1.0 / hz, columns, recorded.EVERY, out)
            extent = max(np.ptp(gold[:, 1]), np.ptp(gold[:, 2]), 1.0)
            gap = np.abs(out - gold)
            both_nan = np.isnan(out) & np.isnan(gold)
            gap[both_nan] = 0.0
            col = int(np.nanargmax(gap.max(axis=0))) if np.isfinite(gap).all() else -1
            d = float(np.nanmax(gap)) if np.isfinite(gap).all() else float("inf")
            pos = float(gap[:, 1:3].max())
            worst = max(worst, pos / extent)
            print(
                f"{tuning_name:40s} {drive:14s} max gap {d:.3e} (in {info['columns'][col] if col >= 0 else '?'}), "
                f"position {pos:.3e} = {pos / extent:.1e} of the path's extent"
            )
    print(f"worst position gap / extent: {worst:.2e}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
