"""A lap's channels: what the car did over each timed lap, tick by tick, for the Laps
tab's overlays, its coloured track map and the CSV export.

The shape the tab takes (and the drive session hands in): a mapping from a lap's number
to its channels, each channel's name to a `Channel` (its values, one per tick of the
lap, and its unit). Every lap's channels hold `distance` (along the centre line from
the start line, course unit), `time` (s since the lap's start), `x` and `y` (the car's
position, course unit); the others are what the source knows (from a driver's drive:
speed, steer, throttle, brake, off line).
"""

from __future__ import annotations

from typing import Mapping, NamedTuple

import numpy as np

from ..physics.track import Track
from .lap_driver import BRAKE, COL_X, COL_Y, OFF_PATH, SPEED, STEER, THROTTLE
from .laps import LapBook

REQUIRED = ("distance", "time", "x", "y")
"""The channels every lap has: where along the lap, when, and where on the track."""


class Channel(NamedTuple):
    """One channel of a lap: its values (one per tick) and their unit ("" for none)."""

    values: np.ndarray
    unit: str


LapChannels = Mapping[str, Channel]
"""A lap's channels by name (at least `REQUIRED`)."""
BookChannels = Mapping[int, LapChannels]
"""Each lap's channels, by the lap's number."""


def drive_columns(unit: str) -> dict[str, tuple[int, str]]:
    """The driver's drive columns shown as channels: name → (column, unit)."""
    return {
        "speed": (SPEED, f"{unit}/s"),
        "steer": (STEER, ""),
        "throttle": (THROTTLE, ""),
        "brake": (BRAKE, ""),
        "off line": (OFF_PATH, unit),
        "x": (COL_X, unit),
        "y": (COL_Y, unit),
    }


def ticks_of(done, lap: np.ndarray, time: np.ndarray, distance: np.ndarray) -> np.ndarray:
    """Which ticks belong to the completed lap `done` (`laps.Lap`), from each tick's
    running lap (its number after the tick), the time at its end (s, the timer's clock)
    and its distance along the lap: those of its number that end within its time and
    short of its distance (a lap the timer ended early, cut, keeps only what it timed)."""
    return (lap == done.number) & (time - done.start < done.raw) & (distance < done.distance)


def book_channels(
    book: LapBook, time: np.ndarray, lap: np.ndarray, distance: np.ndarray, rows: np.ndarray, unit: str
) -> dict[int, dict[str, Channel]]:
    """Each of `book`'s laps' channels, from the ticks of a timed drive: the time after
    each tick (s), the lap it ended in and its distance (`driven_laps.timed_ticks`), and
    the drive's rows (`lap_driver.COLUMNS`) in the model's `unit`."""
    columns = drive_columns(unit)
    out: dict[int, dict[str, Channel]] = {}
    for done in book.laps:
        on = ticks_of(done, lap, time, distance)
        channels = {"distance": Channel(distance[on], unit), "time": Channel(time[on] - done.start, "s")}
        channels |= {name: Channel(rows[on, column], u) for name, (column, u) in columns.items()}
        out[done.number] = channels
    return out


def driven_channels(driven, track: Track, unit: str) -> dict[int, dict[str, Channel]]:
    """Each lap's channels of a driver's laps of `track` (`driven_laps.drive_timed_laps`'s
    result; the model's length `unit`): the drive timed again with its ticks kept."""
    from .driven_laps import timed_ticks

    ticks = timed_ticks(driven.plan.course, driven.drive, track.in_unit(unit))
    return book_channels(driven.book, ticks.time, ticks.lap, ticks.distance, driven.drive.rows, unit)
