"""The largest inputs the sandbox accepts, measured: peak memory of the largest sweep
and of the longest trace the CLI takes, and the time to import the largest Godot
script (one line padded with spaces, the shape that once took minutes)."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ..analysis.sweep import MAX_POINTS
from ..files.godot import SCRIPT_LIMIT, export_script
from ..files.godot_import import parse_script
from ..files.presets import BUILTIN_DIR, load_preset
from ..files.traces import TRACE_LIMIT
from ..physics.models import arcade

MEMORY_TARGET_MB = 500

# Runs the program as `python -m sandbox ARGS` does and reads its peak memory in the same
# process. Through the entry point, not `sandbox.cli`: the commands run the bench, so the
# bench importing the cli would close a loop in the layers.
_MEASURE = """
import json, resource, runpy, sys, time
sys.argv[0] = "car-sandbox"
start = time.perf_counter()
try:
    runpy.run_module("sandbox", run_name="__main__", alter_sys=True)
    code = 0
except SystemExit as stop:
    code = stop.code if isinstance(stop.code, int) else int(stop.code is not None)
try:  # this process's own high-water mark: ru_maxrss would include the parent's from before exec
    with open("/proc/self/status") as status:
        peak = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:")) / 1024
except (OSError, StopIteration):
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"code": code, "seconds": time.perf_counter() - start, "peak_mb": peak}))
"""


def _measured(*args: str) -> dict:
    """Run one CLI command in a fresh process: its exit code, seconds and peak memory."""
    done = subprocess.run([sys.executable, "-c", _MEASURE, *args], capture_output=True, text=True, timeout=3600)
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines or json.loads(lines[-1])["code"] != 0:
        raise RuntimeError(f"car-sandbox {' '.join(args[:1])} failed: {done.stderr.strip()[-300:]}")
    return json.loads(lines[-1])


def largest_sweep() -> dict:
    """The arcade swept over the most grid points accepted (a square grid)."""
    side = int(MAX_POINTS**0.5)
    with tempfile.TemporaryDirectory() as folder:
        figures = _measured(
            "sweep",
            "--preset",
            str(BUILTIN_DIR / "recipe_defaults.json"),
            "--param",
            f"drag=-0.5:-0.01:{side}",
            "--param",
            f"engine_power=500:2000:{side}",
            "--metric",
            "top_speed",
            "--out",
            str(Path(folder) / "sweep.csv"),
        )
    return {"points": side * side, **figures}


def longest_trace() -> dict:
    """`simulate` of the longest trace accepted: a file of the size limit, short rows."""
    row = "0.5,1,0\n"
    rows = (TRACE_LIMIT - 30) // len(row)
    with tempfile.TemporaryDirectory() as folder:
        trace = Path(folder) / "long.csv"
        trace.write_text("steer,throttle,brake\n" + row * rows)
        figures = _measured(
            "simulate",
            "--preset",
            str(BUILTIN_DIR / "recipe_defaults.json"),
            "--controls",
            str(trace),
            "--out",
            str(Path(folder) / "out.csv"),
        )
    return {"ticks": rows, **figures}


def largest_godot_import() -> float:
    """Seconds to import the largest script accepted: the arcade's, one declaration
    padded with spaces up to the size limit."""
    script = export_script(load_preset(BUILTIN_DIR / "recipe_defaults.json"), 4)
    padding = " " * (SCRIPT_LIMIT - len(script.encode("utf-8")))
    text = script.replace("var wheel_base =", "var wheel_base =" + padding, 1)
    start = time.perf_counter()
    parse_script(text, arcade)
    return time.perf_counter() - start


def run() -> dict:
    return {
        "largest_sweep": largest_sweep(),
        "longest_trace": longest_trace(),
        "godot_import_largest_s": largest_godot_import(),
        "memory_target_mb": MEMORY_TARGET_MB,
    }


def report(f: dict) -> list[str]:
    target = f["memory_target_mb"]
    lines = []
    for label, key, size in (
        ("largest sweep", "largest_sweep", f"{f['largest_sweep']['points']:,d} points"),
        ("longest trace, simulate", "longest_trace", f"{f['longest_trace']['ticks']:,d} ticks"),
    ):
        m = f[key]
        lines.append(
            f"{label} ({size}): peak {m['peak_mb']:.0f} MB in {m['seconds']:.1f} s  target ≤ {target} MB: "
            f"{'met' if m['peak_mb'] <= target else 'NOT MET'}"
        )
    lines.append(
        f"Godot import of the largest script accepted: {f['godot_import_largest_s']:.3f} s  target < 1 s: "
        f"{'met' if f['godot_import_largest_s'] < 1 else 'NOT MET'}"
    )
    return lines
