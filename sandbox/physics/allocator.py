"""Keep freed memory for the next tick (glibc's malloc; a no-op elsewhere).

A batch tick allocates and frees dozens of arrays of 128 KiB (16 384 cars × 8 bytes,
sim.BATCH_CHUNK). Left to its defaults, glibc maps such blocks afresh or hands the
free top of its heap back to the system (past M_TRIM_THRESHOLD), and takes the pages
again on the next tick, one page fault per 4 KiB: in `bench` at 100 000 cars about 230
faults a tick for the arcade model and 860 for the dynamic car (getrusage's minor
faults; the count depends on the process's memory layout), 10-20 % of the tick. With
the thresholds below the pages stay with the process and the faults fall to ~0
(tests/test_allocator.py counts them). The cost: up to TRIM_BYTES of freed memory
kept after a big batch instead of returned.
"""

from __future__ import annotations

import ctypes

M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
"""mallopt parameter numbers (glibc's malloc.h)."""
TRIM_BYTES = 64 << 20
"""Free heap top kept before any is handed back (glibc's default: 128 KiB, adapting)."""
MMAP_BYTES = 1 << 20
"""Blocks below this come from the heap, not a fresh mapping of their own (the
default, 128 KiB, is exactly one chunk's array). Setting either threshold turns
off glibc's own adapting of both, so both are set."""

_kept: bool | None = None


def keep_freed_memory() -> bool:
    """Ask malloc once per process to keep freed memory; True if it agreed (glibc)."""
    global _kept
    if _kept is None:
        try:
            mallopt = ctypes.CDLL(None).mallopt  # the C library this process runs on
        except (OSError, AttributeError):  # no mallopt: macOS, Windows
            _kept = False
        else:
            _kept = mallopt(M_MMAP_THRESHOLD, MMAP_BYTES) == 1 and mallopt(M_TRIM_THRESHOLD, TRIM_BYTES) == 1
    return _kept
