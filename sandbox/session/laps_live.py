"""Laps timed live in the drive session: the lap timer ticked after every tick of the car
(`physics/lap_timer.py`), its laps in a `LapBook` (`analysis/laps.py`), and each lap's
channels kept for the overlays, the coloured map and the best lap's ghost.

A lap is timed on a track with a closed centre line and a start line; on any other
(and on the open field) `course` is None and nothing is timed. The timer's clock is the
session's own: seconds driven since the book was started (`time`).

Per-lap channels (`channels[number]`, for every completed lap still in the book): a
dict of name → float array, one value per tick of the lap, in tick order; the ticks of
lap k are those after which the running lap was k (the tick that crosses the start line
belongs to the lap it starts), within the lap's time and distance as timed
(`lap_channels.ticks_of`, the cut the driver's laps are given too). `CHANNELS` names them with their units (`unit`: the
model's length unit, m or px):

| name       | unit     | what                                                       |
|------------|----------|------------------------------------------------------------|
| distance   | unit     | along the centre line since the lap's start line           |
| time       | s        | since the lap's start (its start-line crossing)            |
| speed      | unit/s   | the car's speed                                            |
| steer      | -1 … 1   | the tick's steering (+ right)                              |
| throttle   | 0 … 1    | the tick's throttle                                        |
| brake      | 0 … 1    | the tick's brake                                           |
| handbrake  | 0 … 1    | the tick's handbrake                                       |
| shift      | -1, 0, 1 | the tick's gear shift                                      |
| slip_angle | °        | the car's sideslip (the angle the plots show)              |
| x, y       | unit     | the car's position after the tick (the track's frame)      |

`starts[number]`: the car's state before the lap's first tick (its trace, the lap's
steer … shift rows, replays the lap from there: the best lap's ghost).

The reference lap (`reference`: a lap number, None for the best lap, which it follows
as it improves) is what the live delta and the predicted time are taken to; a lap
number no longer in the book counts as the best, and a new book starts from the best.
The cone penalty (`cone_penalty`, s per cone, `set_cone_penalty`) is a setting kept
across books: changing it re-times the laps already driven and the running one.

When the book starts again: a new tuning (of the same or another model), another tick
rate, another track: laps of one tuning at one rate are compared, never across a change.
A reset of the car drops the running lap only (the car is on an out lap again).
"""

from __future__ import annotations

import math

import numpy as np

from ..analysis.lap_channels import Channel, ticks_of
from ..analysis.lap_metrics import lap_track
from ..analysis.lap_plan import timed_course
from ..analysis.laps import Lap, LapBook
from ..errors import UserError
from ..physics import lap_timer as lt
from ..physics.state import State
from ..physics.track import Track

CHANNELS = (
    ("distance", "{unit}"), ("time", "s"), ("speed", "{unit}/s"), ("steer", ""), ("throttle", ""), ("brake", ""),
    ("handbrake", ""), ("shift", ""), ("slip_angle", "°"), ("x", "{unit}"), ("y", "{unit}"),
)  # fmt: skip
"""Each lap's channels, (name, unit) in the order of a sample row; see the module docstring."""
NAMES = tuple(name for name, _ in CHANNELS)
CONTROLS = slice(NAMES.index("steer"), NAMES.index("shift") + 1)
"""The columns of a sample row that are a control trace's row."""
_LAP, _END, _DISTANCE = 0, 1 + NAMES.index("time"), 1 + NAMES.index("distance")
"""Columns of a sample row kept until its lap is read: the running lap's number after the
tick, then the channels (`NAMES`); its "time" column holds the time at the tick's end
(s on the timer's clock) until the lap is read, when it becomes the time since its start."""
_ROW = 1 + len(NAMES)
KEPT_LAPS = 64
"""Completed laps whose channels are kept (the oldest dropped after)."""


def channel_units(unit: str) -> dict[str, str]:
    """name → unit of each channel, for a model whose length unit is `unit`."""
    return {name: text.format(unit=unit) for name, text in CHANNELS}


def timing_course(track: Track | None, unit: str) -> lt.Course | None:
    """The timing course of `track` in `unit`, with its corridor (the track's edges),
    as the lap driver's plan makes it; None for a track a lap cannot be timed on (no
    closed centre line, no start line) or the open field."""
    if lap_track(track) is None:
        return None
    try:
        return timed_course(track, unit)[0]
    except UserError:
        return None


class LiveLaps:
    """One car's laps in the drive session. `after_ticks` after every tick or run of
    ticks; `placed_again` after a reset; `restart` for a new book; `set_course` for
    another track. See the module docstring for what is kept."""

    def __init__(self, course: lt.Course | None = None, cone_penalty: float = lt.CONE_PENALTY_S):
        self.course = course
        self.cone_penalty = float(cone_penalty)
        self.restart()

    def set_cone_penalty(self, seconds: float) -> None:
        """s per cone knocked from now on: the laps in the book re-timed, the running
        lap timed with it, and every later book."""
        self.cone_penalty = float(seconds)
        if self.timer is not None:
            self.timer[lt.CONE_PENALTY] = self.cone_penalty
        self.book.retime(self.cone_penalty)

    def reference_lap(self) -> Lap | None:
        """The lap the delta is taken to: lap `reference` while it is in the book, else
        the best lap (None without one)."""
        if self.reference is not None and any(lap.number == self.reference for lap in self.book.laps):
            return self.book.lap(self.reference)
        return self.book.best

    def set_course(self, course: lt.Course | None) -> None:
        """Time on `course` (None: nothing timed) from a new book."""
        self.course = course
        self.restart()

    def restart(self) -> None:
        """A new book: no laps, the car on its out lap, the clock at 0."""
        self.timer = None if self.course is None else lt.new_timer(self.course, self.cone_penalty)
        self.book = LapBook()
        self.book.retime(self.cone_penalty)
        self.reference: int | None = None  # the best lap
        self.channels: dict[int, dict[str, np.ndarray]] = {}
        self.starts: dict[int, State] = {}
        self.time = 0.0
        self._done = 0.0  # laps the timer had completed at the last read
        self._rows: list[np.ndarray] = []  # sample rows since the last lap read (`_ROW`)
        self._sent = 0  # of them, the chunks already given to the book

    def placed_again(self) -> None:
        """The car put back (a reset): the running lap is dropped, the book kept."""
        if self.timer is not None:
            lt.timer_reset(self.timer)
        self._rows, self._sent = [], 0

    @property
    def lap(self) -> int:
        """The running lap's number (0: the out lap, or nothing timed)."""
        return 0 if self.timer is None else int(self.timer[lt.LAP])

    @property
    def elapsed(self) -> float:
        """s since the running lap's start (NaN on the out lap)."""
        return math.nan if self.timer is None else self.time - float(self.timer[lt.LAP_START])

    @property
    def distance(self) -> float:
        """The running lap's distance along the centre line (NaN on the out lap)."""
        return math.nan if self.timer is None else float(self.timer[lt.LAP_DISTANCE])

    def delta(self) -> float:
        """s: the running lap against the reference lap (`reference_lap`) at its
        distance; positive: slower. NaN on the out lap or without a reference."""
        ref = self.reference_lap()
        if self.lap == 0 or ref is None:
            return math.nan
        return float(self.book.delta(self.distance, self.elapsed, ref))

    def predicted(self) -> float:
        """s: the running lap's predicted time: the reference's time as driven + the
        delta + the running lap's cone penalty so far; NaN without a reference."""
        ref = self.reference_lap()
        if self.lap == 0 or ref is None:
            return math.nan
        penalty = float(self.timer[lt.LAP_CONES] * self.timer[lt.CONE_PENALTY])
        return float(self.book.predicted(self.distance, self.elapsed, ref, penalty))

    def after_ticks(self, before: State, states: State, controls, dt: float) -> list[Lap]:
        """Time the ticks that took the car from `before` (one row) through `states`
        (one row per tick) with `controls` ((ticks, 5) rows, or 3: no handbrake, no
        shift), each `dt` s long. Returns the laps they completed."""
        if self.timer is None:
            return []
        n = len(states.x)
        xs = np.concatenate([before.x[:1], states.x]).astype(np.float64)
        ys = np.concatenate([before.y[:1], states.y]).astype(np.float64)
        cones = np.ascontiguousarray(states.get("cones_hit"), dtype=np.float64)
        lap, distance = np.zeros(n), np.zeros(n)
        running = self.timer[lt.LAP]
        lt.timer_ticks(self.course, self.timer, xs, ys, self.time, dt, cones, lap, distance)
        rows = np.zeros((n, _ROW))
        rows[:, _LAP], rows[:, _END], rows[:, _DISTANCE] = lap, self.time + dt * np.arange(1, n + 1), distance
        rows[:, 1 + NAMES.index("speed")] = states.speed
        given = np.asarray(controls, dtype=np.float64).reshape(n, -1)[:, :5]
        rows[:, 1 + CONTROLS.start : 1 + CONTROLS.start + given.shape[1]] = given
        rows[:, 1 + NAMES.index("slip_angle")] = np.degrees(states.sideslip)
        rows[:, 1 + NAMES.index("x")], rows[:, 1 + NAMES.index("y")] = xs[1:], ys[1:]
        self.time = float(rows[-1, _END])
        self._rows.append(rows)
        if lap[0] != running or lap[-1] != lap[0]:  # a lap started in these ticks: the car before its first
            changes = np.flatnonzero(np.diff(np.concatenate([[running], lap])) != 0)
            for i in changes[lap[changes] > 0]:
                self.starts[int(lap[i])] = before if i == 0 else State.of(states.layout, states.data[i - 1 : i].copy())
        if self.timer[lt.DONE] == self._done:
            if self.timer[lt.LAP] == 0:  # on the out lap: no lap will read these rows
                self._rows, self._sent = [], 0
            return []  # the samples go to the book when a lap is read (one call, not one a tick)
        self._done = float(self.timer[lt.DONE])
        unsent = np.vstack(self._rows[self._sent :])
        self.book.add_ticks(unsent[:, _END], unsent[:, _LAP], unsent[:, _DISTANCE])
        new = self.book.update(self.course, self.timer)
        self._keep(new)
        return new

    def _keep(self, new: list[Lap]) -> None:
        """The completed laps' channels out of the rows kept (their time since the lap's
        start from the lap's start); the running lap's rows kept for later."""
        rows = np.vstack(self._rows)
        for done in new:
            mine = rows[ticks_of(done, rows[:, _LAP], rows[:, _END], rows[:, _DISTANCE])]
            mine[:, 1 + NAMES.index("time")] = mine[:, _END] - done.start
            self.channels[done.number] = {name: mine[:, 1 + k].copy() for k, name in enumerate(NAMES)}
        running = rows[rows[:, _LAP] == self.timer[lt.LAP]]
        self._rows, self._sent = [running], 1
        if not new:
            return
        last = new[-1].number
        for number in [n for n in self.channels if n <= last - KEPT_LAPS]:
            del self.channels[number]
        for number in [n for n in self.starts if n < last - KEPT_LAPS or (n <= last and n not in self.channels)]:
            del self.starts[number]

    def best_trace(self) -> tuple[Lap, np.ndarray, State] | None:
        """The best lap, its control rows ((ticks, 5): steer … shift) and the car's state
        before its first tick; None without a best lap whose channels are kept."""
        best = self.book.best
        if best is None or best.number not in self.channels or best.number not in self.starts:
            return None
        c = self.channels[best.number]
        return best, np.column_stack([c[name] for name in NAMES[CONTROLS]]), self.starts[best.number]


def tab_channels(live: LiveLaps, unit: str) -> dict[int, dict[str, Channel]]:
    """Each kept lap's channels as the Laps tab takes them (`lap_channels`): name →
    `Channel(values, unit)`, for a model whose length unit is `unit`."""
    units = channel_units(unit)
    return {
        number: {name: Channel(values, units[name]) for name, values in c.items()}
        for number, c in live.channels.items()
    }


def lap_lines(live: LiveLaps) -> list[str]:
    """The HUD's lines of the live timing: lap and running time, last and best, the delta
    to the reference lap (positive: slower) and the predicted time; [] with nothing timed."""
    if live.course is None:
        return []
    book = live.book
    if live.lap == 0:
        head = "out lap: lap 1 starts at the start line"
    else:
        head = f"lap {live.lap}  {clock(live.elapsed)}"
    last, best = book.last, book.best
    lines = [head]
    if last is not None:
        said = "" if last.valid else " (" + ", ".join(last.marks) + ")"
        lines.append(
            f"last {clock(last.time)}{said}" + (f" · best {clock(best.time)}" if best else " · no valid lap yet")
        )
    delta = live.delta()
    if math.isfinite(delta):
        to = "best" if live.reference_lap() is book.best else f"lap {live.reference_lap().number}"
        lines.append(f"Δ {delta:+.2f} s to {to} · predicted {clock(live.predicted())}")
    return lines


def clock(seconds: float) -> str:
    """A lap time as timing screens write it: 1:23.456 (or 23.456 under a minute)."""
    if not math.isfinite(seconds):
        return "–"
    minutes, rest = divmod(seconds, 60.0)
    return f"{int(minutes)}:{rest:06.3f}" if minutes else f"{rest:.3f}"
