"""Regenerate the goldens of the exported Godot scripts (needs godot3-server).

    python tools/make_export_goldens.py [PRESET ...] [--drive NAME]

For every built-in preset and option tuning (or the ones named), exports its Godot 3 script,
runs it in the engine (tools/godot_oracle, headless) on every scripted drive
(sandbox/devtools/export_drives.py) and writes the engine's trajectory to
tests/goldens/export/<preset>/<drive>_<hz>hz.csv.gz (t, x, y, heading in the model's
units). The rigid body and the dynamic car run a second time at 1 pixel per metre
(<preset>@1px). Prints how far the sandbox is from each: the figure the tests bound.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sandbox.devtools.export_drives import RUNS, drive  # noqa: E402
from sandbox.devtools.export_goldens import GOLDENS, gap_px, golden_path, save_golden, scales, tunings  # noqa: E402
from sandbox.devtools.oracle import godot_binary, run_oracle  # noqa: E402
from sandbox.files.godot import export_script  # noqa: E402
from sandbox.files.traces import save_trace  # noqa: E402
from sandbox.physics.sim import run_trace  # noqa: E402


def main(names: list[str]) -> int:
    drives = {names[i + 1] for i, name in enumerate(names[:-1]) if name == "--drive"}
    names = [name for i, name in enumerate(names) if name != "--drive" and (i == 0 or names[i - 1] != "--drive")]
    if godot_binary() is None:
        print("godot3-server not found: apt-get install godot3-server", file=sys.stderr)
        return 1
    chosen = [(name, preset) for name, preset in tunings() if not names or name in names]
    worst = {"position_px": 0.0, "heading_rad": 0.0}
    with tempfile.TemporaryDirectory() as tmp:
        for stem, preset in chosen:
            for ppm in scales(preset.model):
                for name, hz in RUNS:
                    if drives and name not in drives:
                        continue
                    trace = drive(name, hz)
                    trace_path = Path(tmp) / f"{name}_{hz}.csv"
                    save_trace(trace_path, trace)
                    preset.hz = hz
                    godot = run_oracle(trace_path, hz=hz, script_text=export_script(preset, 3, ppm))
                    out = golden_path(stem, preset.model, ppm, name, hz)
                    save_golden(out, godot)
                    gap = gap_px(run_trace(preset.model, preset.tuning, trace, hz), godot, ppm)
                    worst = {k: max(worst[k], gap[k]) for k in worst}
                    print(
                        f"{out.relative_to(GOLDENS)!s:50s} {len(godot):5d} ticks  "
                        f"position {gap['position_px']:.2e} px  heading {gap['heading_rad']:.2e} rad",
                        flush=True,
                    )
    print(f"worst: position {worst['position_px']:.2e} px, heading {worst['heading_rad']:.2e} rad")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
