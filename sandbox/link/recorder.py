"""Recordings of the game's drive: the telemetry of each tick as a trace file with the
car's pose added (docs/link.md, Recordings): the game's switches as a comment line
when its hello said them, then the five controls, then
`t,x,y,heading,vx,vy`, then the state variables the game sent in every tick, by name
in alphabetical order, then the channels its pose gives (speed, sideslip, yaw rate,
accelerations: physics/channels.py), each named with its unit, as the window's own
recordings keep them. Ticks that never arrived are left out and counted, never filled
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
from ..physics.channels import DERIVED, channel_values, column_name, common_channels
from ..physics.models import MODELS
from ..physics.state import Layout
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


NEEDS_TICK_BEFORE = ("accel_long", "accel_lat", "yaw_rate")
"""Derived channels worked out over the tick, from the state before it (a yaw rate from
the heading's change: a model with `omega` has its own)."""


def game_channels(
    rows: list[Telemetry], columns: tuple[str, ...], table: np.ndarray, hz: float | None, model: str, units: str
) -> tuple[tuple[str, ...], np.ndarray]:
    """(column names, values) of the channels the game's recording adds to what it sent:
    those worked out from the car's pose (speed, sideslip, yaw rate, the accelerations
    in the car's frame: physics/channels.py), in `units` (px or m, as its hello says;
    else the `model`'s). The state values and controls the game sent are in the
    recording already, under their own names. A channel over the tick is NaN after a
    tick that never arrived, and left out without the tick rate; the yaw rate is left
    out where the game sent its car's `omega`."""
    car = MODELS.get(model)
    unit = units if units in ("px", "m") else (car.LENGTH_UNIT if car is not None else "")
    if not unit:
        return (), np.empty((len(rows), 0))
    layout = Layout()
    states = np.full((len(rows), layout.size), np.nan)
    for name in ("x", "y", "heading", "vx", "vy"):
        states[:, layout.offset[name]] = table[:, columns.index(name)]
    ticks = np.array([row.tick for row in rows])
    after_gap = np.concatenate([[True], np.diff(ticks) != 1])
    names, values = [], []
    for channel in common_channels(unit):
        over_tick = channel.source in NEEDS_TICK_BEFORE
        if channel.kind != DERIVED or (
            over_tick and (hz is None or (channel.source == "yaw_rate" and "omega" in columns))
        ):
            continue
        value = channel_values(channel, layout, states, None, 1.0 / hz if hz else 1.0)
        if over_tick:
            value[after_gap] = np.nan
        names.append(column_name(channel))
        values.append(value)
    return tuple(names), np.array(values).T.reshape(len(rows), len(names))


def write_recording(
    path: str | os.PathLike,
    rows: list[Telemetry],
    lost_ticks: int,
    hz: float | None,
    *,
    ended: str | None = None,
    switches: Mapping[str, bool] | None = None,
    model: str = "",
    units: str = "",
) -> RecordingSummary:
    """Write `rows` to `path` atomically, below the comment line of the game's `switches`
    when it said any, an older recording there kept as .bak; LinkError (nothing written)
    when there are none, or when the file there is not a recording. The seconds spanned
    are (last tick - first tick + 1) / hz, else from `t`. `ended`: why the recording
    ended before it was stopped (said in the summary); `model` and `units`: the game's
    car, as its hello says them (what its channels are worked out in)."""
    if not rows:
        raise LinkError("no telemetry arrived from the game while recording: nothing written")
    backup = replaced_recording(path)
    columns, table = recording_table(rows, hz)
    more, values = game_channels(rows, columns, table, hz, model, units)
    columns, table = columns + more, np.hstack([table, values])
    write_text_atomic(path, comment_lines(switches or {}) + format_rows(columns, table), LinkError, backup=backup)
    span = (rows[-1].tick - rows[0].tick + 1) / hz if hz else rows[-1].t - rows[0].t
    return RecordingSummary(rows=len(rows), seconds=span, lost_ticks=lost_ticks, columns=columns, path=Path(path),
                            backup=backup, ended=ended)  # fmt: skip
