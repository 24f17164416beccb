"""A script run in a process of its own with an empty kernel cache (kernels compiled in
the test's own process would not compile again), its last line of JSON its result."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

COUNTING = r"""
from sandbox.physics.kernel_cache import use_kernel_cache
use_kernel_cache()
from numba.core.dispatcher import Dispatcher
used = set()  # every compiled function asked for a signature here (compiled, or loaded from the cache)
original = Dispatcher.compile
def compile(self, sig):
    used.add(self)
    return original(self, sig)
Dispatcher.compile = compile
from sandbox.analysis import kernel_prep
apart = []  # the levels compiled by a separate process
compile_apart = kernel_prep._compile_apart
def record_apart(model, level, *args):
    apart.append(level)
    return compile_apart(model, level, *args)
kernel_prep._compile_apart = record_apart
def compiled_here():
    return sorted({d.py_func.__qualname__ for d in used if sum(d.stats.cache_misses.values())})
"""
"""A prelude for a cold run: `used` and `compiled_here()` (the compiled functions that
missed the cache here), `apart` (the levels `kernel_prep` compiled in a separate process)."""


def run_cold(script: str, tmp_path: Path, **env_extra: str) -> tuple[dict, subprocess.CompletedProcess]:
    """(the result, the finished process) of `script` run with an empty kernel cache and
    settings folder under `tmp_path`."""
    env = dict(
        os.environ,
        CAR_SANDBOX_KERNEL_CACHE=str(tmp_path / "kernels"),
        CAR_SANDBOX_HOME=str(tmp_path / "home"),
        **env_extra,
    )
    env.pop("NUMBA_CACHE_DIR", None)
    done = subprocess.run(
        [sys.executable, "-c", script],
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
        cwd=Path(__file__).resolve().parents[1],
    )
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    assert lines, done.stderr[-3000:]
    return json.loads(lines[-1]), done
