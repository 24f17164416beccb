"""A kernel calling a parallel kernel, loaded from the cache by a fresh run, runs.

numba saves such a kernel without its note to start the parallel threads when the
run that compiled it had loaded the parallel kernel from the cache (numba/numba#8578).
A later run whose first parallel code is that kernel crashed (a segmentation fault;
seen in a test run whose processes shared one cold cache). Three runs share a cache
here: the first compiles the parallel kernel alone, the second compiles its caller
(the parallel kernel loaded), the third only loads the caller and calls it."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path

from sandbox.physics import kernel_cache_guard as guard

ROOT = Path(__file__).resolve().parent.parent
N = 1000

MODULE = """
from numba import prange
from sandbox.physics.kernel import kernel


@kernel(parallel=True)
def doubled_plus_index(a):
    for i in prange(a.shape[0]):
        a[i] = 2.0 * a[i] + i


@kernel
def total_after(a):
    doubled_plus_index(a)
    return a.sum()
"""

RUN = """
import sys
import numpy as np
import sandbox.physics  # the kernel cache, as the app sets it
import parallel_caller as m
a = np.ones({n})
if sys.argv[1] == "parallel":
    m.doubled_plus_index(a)
    print(a.sum())
else:
    print(m.total_after(a))
"""


def _run(folder: Path, env: dict, which: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(folder / "run.py"), which],
        capture_output=True,
        text=True,
        env=env,
        cwd=folder,
        timeout=600,
    )


def test_a_caller_of_a_parallel_kernel_loaded_by_a_fresh_run_runs(tmp_path, monkeypatch):
    (tmp_path / "parallel_caller.py").write_text(textwrap.dedent(MODULE))
    (tmp_path / "run.py").write_text(RUN.format(n=N))
    env = dict(
        os.environ, CAR_SANDBOX_KERNEL_CACHE=str(tmp_path / "kernels"), PYTHONPATH=f"{tmp_path}{os.pathsep}{ROOT}"
    )
    env.pop("NUMBA_CACHE_DIR", None)
    expected = 2 * N + N * (N - 1) / 2  # Σ (2·1 + i), i = 0 … N−1

    first = _run(tmp_path, env, "parallel")  # compiles the parallel kernel, saved alone
    assert first.returncode == 0, first.stderr
    assert float(first.stdout) == expected
    second = _run(tmp_path, env, "caller")  # compiles the caller, the parallel kernel loaded
    assert second.returncode == 0, second.stderr
    assert float(second.stdout) == expected

    # the case numba mishandles: the caller saved without its note to start the threads
    saved = list((tmp_path / "kernels").rglob("parallel_caller.total_after-*.nbc"))
    assert len(saved) == 1
    monkeypatch.syspath_prepend(str(tmp_path))  # the saved code names its module
    _, _, data = pickle.loads(guard.read_checked(str(saved[0])))
    sys.modules.pop("parallel_caller", None)
    assert data[7] == []  # reload_init: nothing would start the parallel threads

    third = _run(tmp_path, env, "caller")  # loads the caller only: before, a crash here
    assert third.returncode == 0, f"exit {third.returncode}: {third.stderr[-2000:]}"
    assert float(third.stdout) == expected
