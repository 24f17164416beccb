"""Control traces: CSV files, one row per tick, with the header `steer,throttle,brake`
or, when the handbrake or the gears were used, `steer,throttle,brake,handbrake,shift`.

Both load as rows of all five controls (a three-column file has no handbrake and no
shifts: zeros), so traces written before the dynamic car keep loading unchanged. A
recording (the same controls with the car's pose per tick, files/recordings.py) loads
as a trace too: its controls, unless ticks are missing from it (a tick the live link
lost: its controls are unknown, so the recording cannot be replayed tick by tick); the
comment lines above a recording's header (files/recording_header.py) are skipped."""

from __future__ import annotations

import itertools
import math
import os
import warnings
from pathlib import Path
from typing import Iterator

import numpy as np

from ..csv_rows import format_rows
from ..errors import TraceError, printable, shown
from .disk import check_readable, read_failure, read_text, write_text_atomic
from .package_data import find_builtin, package_folder
from .recording_columns import (
    CHANNEL_COLUMNS,
    CONTROL_COLUMNS,
    DEVICE_COLUMNS,
    POSE_COLUMNS,
    RECORDING_COLUMNS,
    TIME_COLUMN,
)
from .recording_header import TrackRef, comment_lines, is_comment, leading_comments, parse_comment
from .recording_ticks import refuse_gap_in_trace, tick_steps

TRACE_COLUMNS = CONTROL_COLUMNS
"""The five controls of a tick, in `Controls` order; a file may stop after the pedals."""
PEDAL_COLUMNS = TRACE_COLUMNS[:3]
CONTROL_HEADERS = (PEDAL_COLUMNS, TRACE_COLUMNS, PEDAL_COLUMNS + DEVICE_COLUMNS, TRACE_COLUMNS + DEVICE_COLUMNS)
"""A trace's headers: the pedals or the five controls, then maybe the device's raw values."""
TRACE_RANGES = {
    "steer": (-1.0, 1.0),
    "throttle": (0.0, 1.0),
    "brake": (0.0, 1.0),
    "handbrake": (0.0, 1.0),
    "shift": (-1.0, 1.0),
    "steer_device": (-1.0, 1.0),
    "throttle_device": (0.0, 1.0),
    "brake_device": (0.0, 1.0),
}
CHUNK_ROWS = 100_000
"""Rows read, simulated and written at a time by `simulate` (about 10 MB at once)."""
TRACE_LIMIT = 64 * 1024 * 1024
"""bytes: about 3 million ticks (14 h at 60 Hz); larger files are refused unread."""

UNCHECKED_COLUMNS = CHANNEL_COLUMNS - set(RECORDING_COLUMNS)
"""The channels a file keeps that no fit reads (a recording's state values, such as
`gear`, are checked as before): any number, NaN where a value was not known."""
TRAJECTORY_COLUMNS = ("t", "x", "y", "heading", "vx", "vy", "speed", "slip_angle")
BUILTIN_TRACES = package_folder("builtin_traces")
"""The built-in test drives, shipped inside the package (files/package_data.py;
tools/make_test_drives.py writes them)."""


def user_trace_dir() -> Path:
    """Folder for recorded traces, beside the user presets."""
    from .presets import user_dir

    return user_dir().parent / "traces"


def find_trace(given: str | os.PathLike) -> Path:
    """The trace file `given` names: that file when it exists, else the built-in test
    drive whose file stem it is, whatever the case ("slalom", "Slalom.csv"); TraceError
    listing the close built-in drives (or all of them) when there is none."""
    drives = {path.stem.lower(): path for path in BUILTIN_TRACES.glob("*.csv")}
    return find_builtin(given, drives, "test drive", TraceError)


def list_traces() -> list[tuple[Path, bool]]:
    """(path, is_builtin) of the built-in test drives, then the user's traces."""
    found = []
    for folder, builtin in ((BUILTIN_TRACES, True), (user_trace_dir(), False)):
        if folder.is_dir():
            found += [(path, builtin) for path in sorted(folder.glob("*.csv"))]
    return found


def _header(line: str, source: str, number: int = 1) -> tuple[str, ...]:
    """The columns of the header `line` (line `number` of `source`), checked."""
    expected = f"{','.join(PEDAL_COLUMNS)} or {','.join(TRACE_COLUMNS)}"
    if not line.strip():
        raise TraceError(f"{source}: empty file; expected the header {expected}")
    header = tuple(h.strip() for h in line.split(","))
    twice = sorted({h for h in header if header.count(h) > 1})
    if twice:
        raise TraceError(f"{source} line {number}: column {shown(repr(twice[0]))} given twice; expected {expected}")
    if is_recording(header):
        unknown = [(k, h) for k, h in enumerate(header, start=1) if h not in RECORDING_COLUMNS + tuple(CHANNEL_COLUMNS)]
        if unknown:
            k, name = unknown[0]
            raise TraceError(
                f"{source} line {number} column {k}: {shown(repr(name))} is not a column of a recording "
                f"(known: {', '.join(RECORDING_COLUMNS)})"
            )
        return header
    controls = header[: next((k for k, h in enumerate(header) if h in CHANNEL_COLUMNS), len(header))]
    if controls not in CONTROL_HEADERS or any(h not in CHANNEL_COLUMNS for h in header[len(controls) :]):
        raise TraceError(f"{source} line {number}: header is {shown(repr(line.strip()))}, expected {expected}")
    return header


def is_recording(header: tuple[str, ...]) -> bool:
    """Whether a header is a recording's: the pedals' columns and a pose column or `t`."""
    return set(PEDAL_COLUMNS) <= set(header) and bool(set(header) & set(POSE_COLUMNS + (TIME_COLUMN,)))


def _rows_one_by_one(lines: list[str], first: int, header: tuple[str, ...], source: str) -> np.ndarray:
    """The rows of `lines` (line `first` onwards), each cell checked: TraceError names
    the line, the column and the value."""
    width = len(header)
    rows = []
    for number, line in enumerate(lines, start=first):
        if not line.strip():
            continue
        cells = line.split(",")
        if len(cells) != width:
            raise TraceError(f"{source} line {number}: {len(cells)} values, expected {width} ({','.join(header)})")
        row = []
        for name, cell in zip(header, cells):
            lo, hi = TRACE_RANGES.get(name, (-math.inf, math.inf))
            try:
                value = float(cell)
            except ValueError:
                raise TraceError(
                    f"{source} line {number}: {name} {shown(repr(cell.strip()))} is not a number"
                ) from None
            if name in UNCHECKED_COLUMNS:  # a channel kept: any number, NaN where not known
                row.append(value)
                continue
            if not math.isfinite(value) and name not in TRACE_RANGES:
                raise TraceError(f"{source} line {number}: {name} {shown(cell.strip())} is not a finite number")
            if not math.isfinite(value) or not lo <= value <= hi:
                raise TraceError(f"{source} line {number}: {name} {shown(cell.strip())} is outside {lo:g} … {hi:g}")
            row.append(value)
        rows.append(row)
    return np.array(rows, dtype=np.float64).reshape(len(rows), width)


def table_rows(lines: list[str], first: int, header: tuple[str, ...], source: str) -> np.ndarray:
    """(k, len(header)) rows of `lines`, every value a finite number (a control within
    its range): numpy's parser when every line is good (about 30 times faster), else
    the cell-by-cell reading that names the bad line."""
    width = len(header)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "empty input": judged below
            rows = np.loadtxt(lines, delimiter=",", comments=None, dtype=np.float64, ndmin=2)
        lows, highs = np.array([TRACE_RANGES.get(name, (-np.inf, np.inf)) for name in header]).reshape(-1, 2).T
        free = np.array([name in UNCHECKED_COLUMNS for name in header])  # a channel may be NaN
        good = rows.shape[1] == width and bool(
            np.all(((rows >= lows) & (rows <= highs) & np.isfinite(rows)) | (free & ~np.isinf(rows)))
        )
    except ValueError:
        good = False
    if not good or len(rows) != sum(1 for line in lines if line.strip()):
        rows = _rows_one_by_one(lines, first, header, source)
    return rows


def _rows(
    lines: list[str], first: int, header: tuple[str, ...], source: str, before: tuple[float, float] | None = None
) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]:
    """((k, 5) control rows of `lines` (a recording's controls columns), their t or
    None, their (k, 3) device values or None); a recording with a tick missing is
    refused (`before`: t of the row before these and the tick (s), when they follow
    other rows)."""
    table = table_rows(lines, first, header, source)
    t = table[:, header.index(TIME_COLUMN)] if TIME_COLUMN in header else None
    if t is not None and before is None:
        refuse_gap_in_trace(t, source, first)
    elif t is not None and len(t):
        refuse_gap_in_trace(np.concatenate([[before[0]], t]), source, first - 1, before[1])
    device = table[:, [header.index(name) for name in DEVICE_COLUMNS]] if DEVICE_COLUMNS[0] in header else None
    return controls_of(table, header), t, device


def controls_of(table: np.ndarray, header: tuple[str, ...]) -> np.ndarray:
    """The (k, 5) controls of rows laid out by `header`: a column it lacks is zero."""
    padded = np.zeros((len(table), len(TRACE_COLUMNS)))
    for j, name in enumerate(TRACE_COLUMNS):
        if name in header:
            padded[:, j] = table[:, header.index(name)]
    return padded


def _lines(text: str) -> list[str]:
    """Lines as a file read line by line gives them (\\n, \\r\\n or \\r end a line; nothing
    else does), so a trace parses alike whole and a chunk at a time."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def parse_trace(text: str, source: str = "<trace>") -> np.ndarray:
    """Rows of (steer, throttle, brake, handbrake, shift) as an (n, 5) float array;
    TraceError names the line."""
    return parse_trace_and_device(text, source)[0]


def parse_trace_and_device(text: str, source: str = "<trace>") -> tuple[np.ndarray, np.ndarray | None]:
    """(the (n, 5) rows of parse_trace, the (n, 3) raw device values of DEVICE_COLUMNS or
    None when the file has none)."""
    lines = _lines(text)
    _, k = leading_comments(lines, source)
    header = _header(lines[k] if k < len(lines) else "", source, k + 1)
    rows, _, device = _rows(lines[k + 1 :], k + 2, header, source)
    if not len(rows):
        raise TraceError(f"{source}: no rows after the header")
    return rows, device


def load_trace(path: str | os.PathLike, max_rows: int | None = None) -> np.ndarray:
    """A trace file's rows; with `max_rows`, a longer trace is refused before it is parsed."""
    return load_trace_and_device(path, max_rows)[0]


def load_trace_and_device(path: str | os.PathLike, max_rows: int | None = None) -> tuple[np.ndarray, np.ndarray | None]:
    """A trace file's rows and its device values (None: the file has none), as
    parse_trace_and_device; with `max_rows`, a longer trace is refused before it is parsed."""
    text = read_text(path, TRACE_LIMIT, TraceError)
    if max_rows is not None:
        count = max(text.count("\n"), text.count("\r")) - 1 + (not text.endswith(("\n", "\r")))
        if count > max_rows:
            raise TraceError(
                f"{path}: {count:,d} ticks is more than the {max_rows:,d} the window replays; "
                "simulate it with `car-sandbox simulate` instead"
            )
    return parse_trace_and_device(text, printable(path))


def trace_chunks(path: str | os.PathLike, rows_per_chunk: int = CHUNK_ROWS) -> Iterator[tuple[np.ndarray, float]]:
    """A trace file read a chunk at a time (memory bounded whatever its length): yields
    ((k, 5) rows, the share of the file read so far); TraceError names the line."""
    path = Path(path)
    size = max(check_readable(path, TRACE_LIMIT, TraceError).st_size, 1)
    source, number, any_rows, before = printable(path), 2, False, None
    try:
        with open(path, encoding="utf-8-sig", newline=None) as f:
            line, stated = f.readline().rstrip("\n"), {}
            while is_comment(line):  # a recording's switches: checked, not needed here
                stated.update(parse_comment(line, source, number - 1, stated))
                line, number = f.readline().rstrip("\n"), number + 1
            header = _header(line, source, number - 1)
            while True:
                lines = list(itertools.islice(f, rows_per_chunk))
                if not lines:
                    break
                lines = [line.rstrip("\n") for line in lines]
                rows, t, _ = _rows(lines, number, header, source, before)
                if t is not None and len(t):  # the next chunk's gaps: by the tick of the rows so far
                    step = before[1] if before is not None else (tick_steps(t)[0] if len(t) > 1 else None)
                    before = (float(t[-1]), step) if step is not None else None
                number += len(lines)
                any_rows = any_rows or len(rows) > 0
                yield rows, min(f.buffer.tell() / size, 1.0)
    except UnicodeDecodeError:
        raise TraceError(f"{source} lines {number} … {number + rows_per_chunk - 1}: not UTF-8 text") from None
    except OSError as exc:
        raise read_failure(path, exc, TraceError) from None
    if not any_rows:
        raise TraceError(f"{source}: no rows after the header")


def save_trace(
    path: str | os.PathLike,
    trace: np.ndarray,
    track: TrackRef | None = None,
    device: np.ndarray | None = None,
    channels: dict | None = None,
) -> None:
    """Write rows of the five controls (or of the pedals only); the handbrake and shift
    columns only when a row uses them, so pedal-only traces keep the three-column
    header every earlier version (and the Godot oracle) reads. A drive on a track
    names it above the header (recording_header.py; on the open field, nothing).
    `device`: (n, 3) raw device values (NaN: unknown, the control's value is written),
    written as DEVICE_COLUMNS only when a row's differ from its controls (a controller's
    dead zone or shaping: a keyboard's drive keeps the header of before). `channels`:
    column name (CHANNEL_COLUMNS) -> (n,) values, written last."""
    trace = np.asarray(trace, dtype=np.float64).reshape(len(trace), -1)
    pedals_only = trace.shape[1] == len(PEDAL_COLUMNS) or not trace[:, len(PEDAL_COLUMNS) :].any()
    columns = PEDAL_COLUMNS if pedals_only else TRACE_COLUMNS
    rows = trace[:, : len(columns)]
    if device is not None and len(device) == len(trace):
        pedals = trace[:, : len(PEDAL_COLUMNS)]
        device = np.where(np.isfinite(device), device, pedals)
        if np.any(device != pedals):
            columns, rows = columns + DEVICE_COLUMNS, np.hstack([rows, device])
    if channels:
        columns += tuple(channels)
        rows = np.hstack([rows, np.column_stack([np.asarray(v, dtype=np.float64) for v in channels.values()])])
    text = comment_lines({}, track) + format_rows(columns, rows)
    write_text_atomic(path, text, TraceError)


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
