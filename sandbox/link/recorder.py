"""Recordings of the game's drive: the telemetry of each tick as a trace file with the
car's pose added (docs/link.md, Recordings): the game's switches as a comment line
when its hello said them, then the five controls, then
`t,x,y,heading,vx,vy`, then the state variables the game sent in every tick, by name
in alphabetical order. Ticks that never arrived are left out and counted, never filled
in."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Mapping

import numpy as np

from ..csv_rows import format_rows
from ..files.disk import write_text_atomic
from ..files.recording_columns import STATE_COLUMNS
from ..files.recording_header import comment_lines
from .game import RecordingSummary, Telemetry
from .protocol import CONTROLS, POSE, LinkError
from .record_target import replaced_recording

POSE_COLUMNS = POSE
"""t (s), x and y (the model's units), heading (rad), vx and vy (units/s)."""


def state_columns(rows: list[Telemetry]) -> tuple[str, ...]:
    """The state variables every row has (a variable missing from some ticks has no value
    to write there) that a recording holds (files/recording_columns.STATE_COLUMNS: not
    those named like a control or the pose, such as the bicycle's `steer`, whose column is
    the control's), alphabetically."""
    common = set(rows[0].state)
    for row in rows[1:]:
        common &= row.state.keys()
    return tuple(sorted(common & set(STATE_COLUMNS)))


def recording_table(rows: list[Telemetry], hz: float | None = None) -> tuple[tuple[str, ...], np.ndarray]:
    """(columns, one row per telemetry) of a recording; t = tick / hz (docs/link.md) when
    the tick rate is known, exact where the game's text of t is rounded."""
    states = state_columns(rows)
    table = np.array(
        [(*row.controls, row.tick / hz if hz else row.t, row.x, row.y, row.heading, row.vx, row.vy,
          *(row.state[s] for s in states))
         for row in rows],
        dtype=np.float64,
    ).reshape(len(rows), len(CONTROLS) + len(POSE_COLUMNS) + len(states))  # fmt: skip
    return CONTROLS + POSE_COLUMNS + states, table


def write_recording(
    path: str | os.PathLike,
    rows: list[Telemetry],
    lost_ticks: int,
    hz: float | None,
    *,
    ended: str | None = None,
    switches: Mapping[str, bool] | None = None,
) -> RecordingSummary:
    """Write `rows` to `path` atomically, below the comment line of the game's `switches`
    when it said any, an older recording there kept as .bak; LinkError (nothing written)
    when there are none, or when the file there is not a recording. The seconds spanned
    are (last tick - first tick + 1) / hz, else from `t`. `ended`: why the recording
    ended before it was stopped (said in the summary)."""
    if not rows:
        raise LinkError("no telemetry arrived from the game while recording: nothing written")
    backup = replaced_recording(path)
    columns, table = recording_table(rows, hz)
    write_text_atomic(path, comment_lines(switches or {}) + format_rows(columns, table), LinkError, backup=backup)
    span = (rows[-1].tick - rows[0].tick + 1) / hz if hz else rows[-1].t - rows[0].t
    return RecordingSummary(rows=len(rows), seconds=span, lost_ticks=lost_ticks, columns=columns, path=Path(path),
                            backup=backup, ended=ended)  # fmt: skip
