"""Write the built-in test drives (sandbox/files/builtin_traces/*.csv): control traces at 60 ticks/s.

python tools/make_test_drives.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sandbox.files.traces import BUILTIN_TRACES, save_trace  # noqa: E402

HZ = 60


def hold(seconds: float, steer: float = 0.0, throttle: float = 0.0, brake: float = 0.0) -> list:
    return [(steer, throttle, brake)] * round(seconds * HZ)


DRIVES = {
    "drag_strip": hold(12, throttle=1),
    "skid_pad": hold(2, throttle=1) + hold(15, steer=0.6, throttle=1),
    "slalom": [(round(float(np.sin(2 * np.pi * i / (2 * HZ))), 4), 1.0, 0.0) for i in range(14 * HZ)],
    "hairpin": hold(3, throttle=1) + hold(1, brake=1) + hold(2.5, steer=1, throttle=1) + hold(2, throttle=1),
    "brake_test": hold(6, throttle=1) + hold(4, brake=1),
    "reverse_park": hold(2, brake=1)
    + hold(1.5, steer=-1, brake=1)
    + hold(1)
    + hold(0.6, steer=1, throttle=1)
    + hold(1.5),
}


def main() -> None:
    for name, rows in DRIVES.items():
        path = BUILTIN_TRACES / f"{name}.csv"
        save_trace(path, np.array(rows, dtype=np.float64))
        print(f"{path.relative_to(ROOT)}: {len(rows)} ticks ({len(rows) / HZ:g} s)")


if __name__ == "__main__":
    main()
