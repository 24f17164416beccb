"""Control traces: CSV files, one row per tick, with the header `steer,throttle,brake`
or, when the handbrake or the gears were used, `steer,throttle,brake,handbrake,shift`.

Both load as rows of all five controls (a three-column file has no handbrake and no
shifts: zeros), so traces written before the dynamic car keep loading unchanged."""

from __future__ import annotations

import math
import os
from pathlib import Path

import numpy as np

from ..errors import TraceError, shown
from .disk import read_text, write_text_atomic

PEDAL_COLUMNS = ("steer", "throttle", "brake")
TRACE_COLUMNS = PEDAL_COLUMNS + ("handbrake", "shift")
"""The five controls of a tick, in `Controls` order; a file may stop after the pedals."""
TRACE_RANGES = {"steer": (-1.0, 1.0), "throttle": (0.0, 1.0), "brake": (0.0, 1.0), "handbrake": (0.0, 1.0),
                "shift": (-1.0, 1.0)}
TRACE_LIMIT = 64 * 1024 * 1024
"""bytes: about 3 million ticks (14 h at 60 Hz); larger files are refused unread."""

TRAJECTORY_COLUMNS = ("t", "x", "y", "heading", "vx", "vy", "speed", "slip_angle")
BUILTIN_TRACES = Path(__file__).resolve().parents[2] / "traces"
"""The built-in test drives (tools/make_test_drives.py writes them)."""


def user_trace_dir() -> Path:
    """Folder for recorded traces, beside the user presets."""
    from .presets import user_dir

    return user_dir().parent / "traces"


def list_traces() -> list[tuple[Path, bool]]:
    """(path, is_builtin) of the built-in test drives, then the user's traces."""
    found = []
    for folder, builtin in ((BUILTIN_TRACES, True), (user_trace_dir(), False)):
        if folder.is_dir():
            found += [(path, builtin) for path in sorted(folder.glob("*.csv"))]
    return found


def parse_trace(text: str, source: str = "<trace>") -> np.ndarray:
    """Rows of (steer, throttle, brake, handbrake, shift) as an (n, 5) float array;
    TraceError names the line."""
    lines = text.splitlines()
    expected = f"{','.join(PEDAL_COLUMNS)} or {','.join(TRACE_COLUMNS)}"
    if not lines or not lines[0].strip():
        raise TraceError(f"{source}: empty file; expected the header {expected}")
    header = tuple(h.strip() for h in lines[0].split(","))
    if header not in (PEDAL_COLUMNS, TRACE_COLUMNS):
        raise TraceError(f"{source} line 1: header is {shown(repr(lines[0].strip()))}, expected {expected}")
    width = len(header)
    rows = []
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        cells = line.split(",")
        if len(cells) != width:
            raise TraceError(f"{source} line {number}: {len(cells)} values, expected {width} ({','.join(header)})")
        row = []
        for name, cell in zip(header, cells):
            lo, hi = TRACE_RANGES[name]
            try:
                value = float(cell)
            except ValueError:
                raise TraceError(f"{source} line {number}: {name} {shown(repr(cell.strip()))} is not a number") from None
            if not math.isfinite(value) or not lo <= value <= hi:
                raise TraceError(f"{source} line {number}: {name} {shown(cell.strip())} is outside {lo:g} … {hi:g}")
            row.append(value)
        rows.append(row + [0.0] * (len(TRACE_COLUMNS) - width))
    if not rows:
        raise TraceError(f"{source}: no rows after the header")
    return np.array(rows, dtype=np.float64)


def load_trace(path: str | os.PathLike) -> np.ndarray:
    return parse_trace(read_text(path, TRACE_LIMIT, TraceError), str(path))


def format_rows(columns: tuple[str, ...], rows: np.ndarray) -> str:
    """CSV text with every float written as its shortest exact repr (byte-stable).

    Adding 0.0 turns -0.0 into 0.0 and leaves every other value as it is.
    """
    body = "\n".join(",".join(repr(float(v) + 0.0) for v in row) for row in rows)
    return ",".join(columns) + "\n" + body + ("\n" if len(rows) else "")


def save_trace(path: str | os.PathLike, trace: np.ndarray) -> None:
    """Write rows of the five controls (or of the pedals only); the handbrake and shift
    columns only when a row uses them, so pedal-only traces keep the three-column
    header every earlier version (and the Godot oracle) reads."""
    trace = np.asarray(trace, dtype=np.float64).reshape(len(trace), -1)
    pedals_only = trace.shape[1] == len(PEDAL_COLUMNS) or not trace[:, len(PEDAL_COLUMNS):].any()
    columns = PEDAL_COLUMNS if pedals_only else TRACE_COLUMNS
    write_text_atomic(path, format_rows(columns, trace[:, :len(columns)]), TraceError)


def save_trajectory(path: str | os.PathLike, rows: np.ndarray) -> None:
    write_text_atomic(path, format_rows(TRAJECTORY_COLUMNS, rows), TraceError)


def demo_drive(t: float) -> tuple[float, float, float]:
    """Scripted controls (steer, throttle, brake) at time `t` s, used by `screenshot`:
    full throttle straight, a long right-hander, a flick left, then right again."""
    if t < 1.8:
        return 0.0, 1.0, 0.0
    if t < 3.6:
        return 1.0, 1.0, 0.0
    if t < 4.4:
        return -1.0, 1.0, 0.0
    return 1.0, 1.0, 0.0
