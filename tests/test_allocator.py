"""The batch engine keeps freed memory: a tick's fresh arrays do not page-fault.

Counts minor page faults (getrusage), not time: a count does not depend on how busy
the machine is. Each measurement runs in its own interpreter, since the setting is
for the whole process and cannot be undone. Both start from glibc's documented
default thresholds (128 KiB) held fixed: left to adapt, glibc faults or not on the
same ticks depending on the process's memory layout (even the size of its
environment), so a count from that would prove nothing either way.
"""

import subprocess
import sys

import pytest

from sandbox.physics.allocator import keep_freed_memory

COUNT_FAULTS = """
import ctypes, resource, sys
from sandbox.physics.allocator import M_MMAP_THRESHOLD, M_TRIM_THRESHOLD, keep_freed_memory
mallopt = ctypes.CDLL(None).mallopt
assert mallopt(M_MMAP_THRESHOLD, 128 * 1024) == 1 and mallopt(M_TRIM_THRESHOLD, 128 * 1024) == 1
from sandbox.physics.models import arcade
from sandbox.physics.state import Controls, State
if sys.argv[1] == "keep":
    keep_freed_memory()
p = {q.name: q.default for q in arcade.PARAMS}
state, controls = State.at_rest(16384), Controls(0.3, 1.0, 0.0)
for _ in range(5):
    state = arcade.step(state, controls, p, 1 / 60)
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(60):
    state = arcade.step(state, controls, p, 1 / 60)
print((resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / 60)
"""


def _faults_per_tick(mode: str) -> float:
    out = subprocess.run([sys.executable, "-c", COUNT_FAULTS, mode], capture_output=True, text=True, check=True)
    return float(out.stdout)


def test_a_chunk_of_cars_ticks_without_page_faults_once_memory_is_kept():
    if not keep_freed_memory():
        pytest.skip("not glibc: malloc has no mallopt here")
    default, kept = _faults_per_tick("default"), _faults_per_tick("keep")
    # one chunk's arrays are 128 KiB = 32 pages each, and a tick makes dozens of them:
    # mapped and faulted in afresh at the default thresholds, reused once memory is kept
    assert default >= 32, default
    assert kept < 2, kept
