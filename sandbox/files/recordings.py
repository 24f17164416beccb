"""Recordings: a trace file with the car's pose added per tick (docs/link.md,
"Recordings"), the drive a fit explains.

    steer,throttle,brake,handbrake,shift,t,x,y,heading[,vx,vy][,state columns…]

Above the header, a comment line may state the game's on/off options
(files/recording_header.py): `# switches: analog_pedals=1 recipe_2020=0`.
Row k: the controls the car read in tick k and its pose after that tick; x, y in the
model's length unit (px or m), heading in rad, t in s (optional: the tick rate is then
given), vx, vy in length units/s and any of a model's state values (omega, rpm, gear,
…) optional. Columns may come in any order; handbrake and shift may be left out. A
tick the live link lost is left out (t jumps by whole ticks): its row's `tick` says so.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from types import ModuleType
from typing import Mapping

import numpy as np

from ..analysis.fit_objective import RecordedDrive
from ..csv_rows import format_rows
from ..errors import TraceError, printable
from ..physics.sim import at_rest, record
from ..physics.track import Pose, Track
from ..physics.walls import walls_for
from .disk import read_text, write_text_atomic
from .recording_columns import (
    CONTROL_COLUMNS,
    POSE_COLUMNS,
    STATE_COLUMNS,
    TIME_COLUMN,
    VELOCITY_COLUMNS,
)
from .recording_header import TrackRef, comment_lines, read_header
from .recording_ticks import refuse_gap_in_trace, tick_numbers
from .traces import TRACE_LIMIT, _header, _lines, controls_of, table_rows

SHORTEST_S = 2.0
"""s: a shorter recording is refused (too little to tell a tuning by)."""
HZ_AGREE = 0.005
"""Share by which the tick rate of t's steps and the one given may differ."""
HZ_RANGE = (10.0, 1000.0)


@dataclass
class Recording(RecordedDrive):
    """A recording's columns: controls (n, 5), pose (n, 3), velocity (n, 2) or None,
    state values by name, each row's tick or None (none missing); its tick rate (Hz),
    t (n,) or None, where it came from, and the switches it states."""

    hz: float = 60.0
    t: np.ndarray | None = None
    source: str = "<recording>"
    columns: tuple[str, ...] = field(default_factory=tuple)
    switches: dict[str, bool] = field(default_factory=dict)
    """The on/off options the game said its car's script has (its comment line): empty
    when the recording does not say."""
    track_ref: TrackRef | None = None
    """The track the file says the drive was on (None: the open field); `track`, the
    track opened, is set by whoever drives it (files/recorded_track.py)."""

    @property
    def seconds(self) -> float:
        """s spanned from the first row to the last."""
        return self.span_ticks / self.hz


def parse_recording(
    text: str, source: str = "<recording>", hz: float | None = None, shortest_s: float = SHORTEST_S
) -> Recording:
    """A recording's text as a Recording; TraceError names the source, and the line and
    column where one is at fault (and a drive shorter than `shortest_s` s)."""
    lines = _lines(text)
    switches, track_ref, k = read_header(lines, source)
    header = _header(lines[k] if k < len(lines) else "", source, k + 1)
    missing = [name for name in POSE_COLUMNS if name not in header]
    if missing:
        what = "no pose columns" if len(missing) == len(POSE_COLUMNS) else f"no {', '.join(missing)} column"
        raise TraceError(
            f"{source} line {k + 1}: {what} ({', '.join(POSE_COLUMNS)}): a trace of controls only says nothing "
            "of where the car went; a fit needs its pose per tick (the recording format: "
            f"{','.join(CONTROL_COLUMNS)},{TIME_COLUMN},{','.join(POSE_COLUMNS)}[,vx,vy])"
        )
    if ("vx" in header) != ("vy" in header):
        raise TraceError(f"{source} line {k + 1}: vx and vy come together (one is given without the other)")
    table = table_rows(lines[k + 1 :], k + 2, header, source)
    if not len(table):
        raise TraceError(f"{source}: no rows after the header")

    def column(name: str) -> np.ndarray:
        return table[:, header.index(name)]

    t = column(TIME_COLUMN) if TIME_COLUMN in header else None
    rate, tick = _tick_rate(t, hz, source, header, k + 2)
    recording = Recording(
        controls=controls_of(table, header),
        pose=np.column_stack([column(name) for name in POSE_COLUMNS]),
        velocity=np.column_stack([column(name) for name in VELOCITY_COLUMNS]) if "vx" in header else None,
        states={name: column(name) for name in header if name in STATE_COLUMNS},
        tick=tick,
        hz=rate,
        t=t,
        source=source,
        columns=header,
        switches=switches,
        track_ref=track_ref,
    )
    if recording.seconds < shortest_s:
        raise TraceError(
            f"{source}: {recording.seconds:.2f} s of driving ({len(recording)} ticks at {rate:g} Hz); "
            f"a fit needs at least {SHORTEST_S:g} s"
        )
    return recording


def _tick_rate(
    t: np.ndarray | None, hz: float | None, source: str, header: tuple[str, ...], first: int = 2
) -> tuple[float, np.ndarray | None]:
    """(the tick rate (Hz) of the recording, each row's tick or None when none is
    missing): from t's steps, each a whole number of ticks, agreeing with `hz` when
    both are given."""
    if t is None:
        if hz is None:
            raise TraceError(f"{source}: no t column, so the tick rate is unknown: give it (--hz)")
        return float(hz), None
    if len(t) < 2:
        return (float(hz) if hz is not None else HZ_RANGE[0]), None  # too short anyway: refused by its length
    column = header.index(TIME_COLUMN) + 1
    step, tick = tick_numbers(t, source, column, first)
    rate = 1.0 / step
    if abs(rate - round(rate)) <= 1e-3 * rate:
        rate = float(round(rate))
    if not HZ_RANGE[0] <= rate <= HZ_RANGE[1]:
        raise TraceError(
            f"{source} column {column}: t steps by {step:g} s ({rate:g} Hz), outside the tick rates "
            f"{HZ_RANGE[0]:g} … {HZ_RANGE[1]:g} Hz (is t in seconds?)"
        )
    if hz is not None and abs(rate - hz) > HZ_AGREE * hz:
        raise TraceError(
            f"{source} column {column}: t steps by {step:g} s, a tick rate of {rate:g} Hz, but --hz {hz:g} "
            "was given: which is it?"
        )
    return rate, tick


def load_recording(path: str | os.PathLike, hz: float | None = None, shortest_s: float = SHORTEST_S) -> Recording:
    """A recording file (see the module's text); `hz` the tick rate when it has no t,
    checked against t's steps when it has; a drive shorter than `shortest_s` s is refused."""
    return parse_recording(read_text(path, TRACE_LIMIT, TraceError), printable(path), hz, shortest_s)


def replayable(recording: Recording) -> Recording:
    """`recording`, when it can be replayed tick by tick (no tick lost); else the
    TraceError a trace with a lost tick gets, naming the first missing tick."""
    if recording.t is not None and recording.missing_ticks:
        refuse_gap_in_trace(recording.t, recording.source, 2)
    return recording


def save_recording(path: str | os.PathLike, recording: Recording) -> None:
    """Write `recording` atomically: the comment lines of its track and its switches
    when it names any, the five controls, t (tick/hz from 0 when it has none), the
    pose, the velocity when it has one, its state values."""
    n = len(recording)
    ticks = recording.tick if recording.tick is not None else np.arange(n)
    t = recording.t if recording.t is not None else ticks / recording.hz
    columns = list(CONTROL_COLUMNS) + [TIME_COLUMN] + list(POSE_COLUMNS)
    parts = [recording.controls, t[:, None], recording.pose]
    if recording.velocity is not None:
        columns += list(VELOCITY_COLUMNS)
        parts.append(recording.velocity)
    for name in STATE_COLUMNS:
        if name in recording.states:
            columns.append(name)
            parts.append(np.asarray(recording.states[name])[:, None])
    text = comment_lines(recording.switches, recording.track_ref) + format_rows(tuple(columns), np.hstack(parts))
    write_text_atomic(path, text, TraceError)


def drive_recording(
    model: ModuleType,
    tuning: Mapping[str, object],
    controls: np.ndarray,
    hz: float,
    velocity: bool = True,
    states: tuple[str, ...] = (),
    source: str = "sandbox drive",
    track: Track | None = None,
    start: Pose | None = None,
    track_ref: TrackRef | None = None,
) -> Recording:
    """A recording of the sandbox's own car under `tuning` driving `controls` (n, 5)
    from rest at `start` (default: on `track`, its spawn, else the origin), meeting the
    walls of `track` (None: the open field; the file names `track_ref`): a first row of
    the car at rest with no controls (as it stood before the drive), then one row per
    tick of the drive."""
    given = np.asarray(controls, dtype=np.float64)
    controls = np.zeros((len(given), len(CONTROL_COLUMNS)))
    controls[:, : given.shape[1]] = given
    names = POSE_COLUMNS + (VELOCITY_COLUMNS if velocity else ()) + tuple(states)
    if start is None and track is not None:
        start = track.in_unit(model.LENGTH_UNIT).spawn
    walls = walls_for(track, model.LENGTH_UNIT)
    moved = record(model, tuning, controls, hz, names, at_rest(model, 1, start), walls=walls)
    first = np.zeros((1, len(names)))
    if start is not None:
        first[0, :3] = start.x, start.y, start.heading
    rows = np.vstack([first, moved])
    rest = model.STATE.rest(1)[0]
    for j, name in enumerate(states):
        rows[0, len(names) - len(states) + j] = rest[model.STATE.offset[name]]
    n = len(rows)
    return Recording(
        controls=np.vstack([np.zeros((1, len(CONTROL_COLUMNS))), controls]),
        pose=rows[:, :3],
        velocity=rows[:, 3:5] if velocity else None,
        states={name: rows[:, len(names) - len(states) + j] for j, name in enumerate(states)},
        hz=float(hz),
        t=np.arange(n) / hz,
        source=source,
        track=track,
        track_ref=track_ref,
    )
