"""The scripted drives every exported Godot script is checked on, against the sandbox.

Four drives of 30 s (straight with braking, a constant circle, a slalom with reverse,
and a drive on a gamepad's analog values such as 0.7 and 0.35) at 60 Hz, and the slalom
again at 30 Hz and at 144 Hz. They are written in seconds, so every rate drives the same
manoeuvre. Godot keeps an action's strength as a 32-bit float, and so does the sandbox
(state.as_engine_controls): the analog drive's values, which 32 bits cannot hold
exactly, reach both as the same number.
"""

from __future__ import annotations

import numpy as np

DRIVE_SECONDS = 30.0
DRIVES = ("straight_brake", "circle", "slalom_reverse", "analog")
RUNS = tuple((drive, 60) for drive in DRIVES) + (("slalom_reverse", 30), ("slalom_reverse", 144))
"""(drive, tick rate in Hz) of each run."""


def _slalom(seconds: float, throttle: float, brake: float, swing: float = 1.5) -> list:
    """Full lock left and right in turn, `swing` seconds each."""
    turns = int(seconds / swing)
    return [(swing, (-1.0) ** k, throttle, brake) for k in range(turns)]


SEGMENTS = {
    # (seconds, steer, throttle, brake)
    "straight_brake": [(10, 0, 1, 0), (3, 0, 0, 0), (6, 0, 0, 1), (3, 0, 0, 0), (5, 0, 0.5, 0), (3, 0, 0, 1)],
    "circle": [(3, 0, 1, 0), (27, 0.5, 0.5, 0)],
    "slalom_reverse": [(2, 0, 1, 0)] + _slalom(13.5, 1, 0) + [(6.5, 0, 0, 1)] + _slalom(6, 0, 1) + [(2, 0, 0, 0)],
    # a pad: part throttle and part lock, then the brake at the same part through zero into
    # reverse (where a pedal of 0.7 rather than 0.699999988 would start reversing a tick late)
    "analog": [
        (2, 0, 0.7, 0),
        (5, 0.4, 0, 0.7),
        (3, 0, 0.3, 0),
        (5, -0.6, 0, 0.3),
        (3, 0, 0.9, 0),
        (6, 0.7, 0, 0.9),
        (6, -0.3, 0.6, 0),
    ],
}


def drive(name: str, hz: int) -> np.ndarray:
    """Control rows (steer, throttle, brake), one per tick of `hz`, for DRIVE_SECONDS."""
    rows: list[tuple[float, float, float]] = []
    start = 0.0
    for seconds, steer, throttle, brake in SEGMENTS[name]:
        end = start + seconds
        rows += [(float(steer), float(throttle), float(brake))] * (round(end * hz) - round(start * hz))
        start = end
    assert start == DRIVE_SECONDS, (name, start)
    return np.array(rows, dtype=np.float64)
