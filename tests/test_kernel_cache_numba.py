"""The kernel cache's guard against numba's own changes, and the cache kept.

`kernel_cache_guard` replaces numba's private cache classes for the whole process:
a numba release that renames, drops or re-signs what it relies on fails here, by
name, with the numba version. And a second start loads every driver from the cache
without compiling anything (numba's cache needs each compiled function's source
file: the drivers are written without `exec` where numba allows it)."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import numba

from sandbox.physics import kernel  # noqa: F401 - installs the guard, as every kernel does
from sandbox.physics import kernel_cache_guard as guard

ROOT = Path(__file__).resolve().parent.parent


def test_the_guard_fits_this_numba():
    assert guard.numba_changes_said() == ""


def test_a_changed_method_is_named_with_the_numba_version(monkeypatch):
    monkeypatch.setitem(guard._NUMBA_CACHE, "load_overload", lambda self, sig, context: None)
    monkeypatch.delattr(guard._NUMBA_FILE, "_dump")
    said = guard.numba_changes_said()
    assert f"numba {numba.__version__} changed what sandbox/physics/kernel_cache_guard.py relies on" in said
    assert "Cache.load_overload takes (self, sig, context), not (self, sig, target_context)" in said
    assert "IndexDataCacheFile._dump is gone" in said


def test_a_method_that_no_longer_calls_what_is_replaced_is_named(monkeypatch):
    def load(self, key):  # numba's load, reading its files some other way
        return None

    monkeypatch.setattr(guard._NUMBA_FILE, "load", load)
    monkeypatch.setitem(guard.CALLS, "IndexDataCacheFile.load", (load, ("self._load_index()",)))
    assert "IndexDataCacheFile.load no longer has `self._load_index()`" in guard.numba_changes_said()


def test_only_the_guard_touches_numbas_cache_internals():
    touching = [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "sandbox").rglob("*.py"))
        if path.name != "kernel_cache_guard.py" and "caching" in path.read_text()
    ]
    assert touching == []


DRIVE = """
import json, sys
from sandbox.physics.kernel_cache import use_kernel_cache
use_kernel_cache()
from numba.core import event
from sandbox.physics import sim
from sandbox.physics.models import MODELS
from sandbox.physics.params import Tuning
from sandbox.physics.state import Controls, State
import numpy as np
out = {}
with event.install_recorder("numba:compile") as compiled:
    for name in ("arcade", "bicycle"):  # advanced a chunk at a time, and one car after another
        model = MODELS[name]
        tuning = Tuning(model.PARAMS)
        trace = np.tile([[0.3, 1.0, 0.0, 0.0, 0.0]], (30, 1))
        for cars in (1, 300, sim.PARALLEL_FROM):  # the live car, a batch on one core, on both
            held = sim.run_batch(model, tuning, cars, Controls(0.3, 1.0, 0.0), 30)
            traced = sim.run_batch(model, tuning, cars, trace, 30)
            out[f"{name} {cars}"] = [float(held.x[-1]), float(traced.x[-1])]
        out[f"{name} record"] = float(sim.record(model, tuning, trace, 60, ("x",))[-1, 0])
        state = State.at_rest(1, model.STATE)
        out[f"{name} step"] = float(sim.step(model, state, Controls(0.3, 1.0, 0.0), tuning, 1 / 60, ticks=30).x[0])
out["compiled"] = sorted({e.data["dispatcher"].py_func.__qualname__ for _, e in compiled.buffer if e.is_start})
print(json.dumps(out))
"""


def _drive(cache: Path) -> dict:
    env = dict(os.environ, CAR_SANDBOX_KERNEL_CACHE=str(cache), PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", DRIVE], env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


def test_a_second_start_loads_every_driver_from_the_cache_without_compiling(tmp_path):
    first = _drive(tmp_path / "cache")
    assert any(name.endswith("bound") for name in first.pop("compiled"))  # an empty cache: compiled
    second = _drive(tmp_path / "cache")
    assert second.pop("compiled") == []
    assert second == first


def test_no_compiled_code_is_written_with_exec():
    """numba caches only functions whose source file it can find: the compiled code
    is in the package's files, none written out as text and run with `exec`."""
    found = []
    for folder in ("physics", "analysis"):
        for path in sorted((ROOT / "sandbox" / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("exec", "eval"):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []
