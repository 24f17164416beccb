"""The lap book: one car's completed laps, read from its lap timer
(`physics/lap_timer.py`), with what motorsport timing shows of them: sector splits,
the last and best lap, the optimal lap, and the live delta to a reference lap.

Times are in s, distances along the centre line in the course's unit (m or px) from
the lap's start line.

- A lap's time is the time between its two start-line crossings plus its penalty
  (cones × the cone penalty); its sector times add up to the time as driven.
- Valid: a lap with no mark (not driven backwards, not cut, no sector line missed, no
  cone knocked). The best lap is the valid lap of least time; the best sectors are
  each sector's least time over the valid laps; the optimal lap is their sum.
- Time at distance t(d): when the lap first reached distance d (s since its start),
  interpolated between the ticks (from the per-tick samples the driver or window
  hands in: time, the running lap's number, its distance), 0 at d = 0 and the time as
  driven at the lap's full distance.
- Delta to a reference lap at distance d: Δ(d) = elapsed - t_ref(d), positive when the
  lap is slower than the reference there (as motorsport tools show it). The reference
  is the best lap unless another is chosen.
- Predicted lap time: the reference's time as driven + Δ(d) + the running lap's own
  penalty so far (a reference with cones does not lend its penalty to another lap).
- The cone penalty is a setting: `retime(cone_penalty)` re-times the laps already in
  the book (a lap's time = its time as driven + cones × the penalty); the best lap,
  the optimal lap and the delta follow (a lap with cones is never valid, so only the
  times of laps that do not count change).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from ..physics import lap_timer as lt

MARKS = ((lt.BACKWARDS, "driven backwards"), (lt.CUT, "cut"), (lt.MISSED, "missed a sector line"))
"""A lap's marks in words (cones are said with their count)."""


@dataclass(frozen=True, eq=False)
class Lap:
    """A completed lap: its number (1, 2, …), start (s, on the timer's clock), time
    (s, penalty included), raw (s, as driven), penalty (s), cones knocked, flags
    (lap_timer's marks), distance (course unit, start line to start line), sector
    times (s), and its samples: distances and times since its start (s), the first
    time it reached each distance, increasing. Laps compare by identity."""

    number: int
    start: float
    time: float
    raw: float
    penalty: float
    cones: int
    flags: int
    distance: float
    sectors: tuple[float, ...]
    sample_distance: np.ndarray = field(repr=False)
    sample_time: np.ndarray = field(repr=False)

    @property
    def valid(self) -> bool:
        """No mark: the lap may be the best."""
        return self.flags == 0

    @property
    def marks(self) -> tuple[str, ...]:
        """What keeps the lap out of the best, in words (empty when valid)."""
        words = tuple(text for flag, text in MARKS if self.flags & flag)
        if self.cones:
            words += (f"{self.cones} cone{'s' if self.cones != 1 else ''} (+{self.penalty:g} s)",)
        return words

    def time_at(self, distance):
        """s since the lap's start when it first reached `distance` (course unit; a
        number or an array), interpolated between its samples; held at the lap's time
        as driven beyond its end."""
        return np.interp(distance, self.sample_distance, self.sample_time)


def first_reached(distance: np.ndarray, time: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The samples where the distance passes every earlier one (a new furthest point),
    as (distance, time): increasing distance, so time at a distance interpolates."""
    furthest = np.maximum.accumulate(distance)
    new = np.concatenate([[True], distance[1:] > furthest[:-1]])
    return distance[new], time[new]


class LapBook:
    """One car's laps: `update(course, timer)` after a batch of ticks reads the laps
    the timer completed; `add_ticks` keeps the per-tick samples the laps' time at
    distance comes from (give them before the update that reads their lap)."""

    def __init__(self):
        self.laps: list[Lap] = []
        self.cone_penalty: float | None = None
        """s per cone set by `retime` (None: as the timer timed the laps)."""
        self._samples: dict[int, list[np.ndarray]] = {}

    def add_ticks(self, time, lap, distance) -> None:
        """Samples after ticks: the time at the tick's end (s), the running lap's number
        (lap_timer.LAP) and its distance (lap_timer.LAP_DISTANCE); numbers or arrays.
        The out lap's samples (lap 0) are not kept."""
        time, lap, distance = np.broadcast_arrays(
            *(np.atleast_1d(np.asarray(a, dtype=float)) for a in (time, lap, distance))
        )
        for number in np.unique(lap[lap > 0]):
            on = lap == number
            self._samples.setdefault(int(number), []).append(np.column_stack([time[on], distance[on]]))

    def update(self, course: lt.Course, timer: np.ndarray) -> list[Lap]:
        """Read the laps the timer completed since the last update; returns them."""
        since = self.laps[-1].number if self.laps else 0
        new = [self._lap(row) for row in lt.laps_of(course, timer, since)]
        if self.cone_penalty is not None:
            new = [_retimed(lap, self.cone_penalty) for lap in new]
        self.laps.extend(new)
        for number in [n for n in self._samples if self.laps and n <= self.laps[-1].number]:
            del self._samples[number]  # a lap dropped by a reset, or overwritten before it was read
        return new

    def _lap(self, row: np.ndarray) -> Lap:
        number, start, raw, length = int(row[lt.E_LAP]), row[lt.E_START], row[lt.E_RAW], row[lt.E_DISTANCE]
        ticks = self._samples.pop(number, [])
        ticks = np.vstack(ticks) if ticks else np.empty((0, 2))
        inside = (ticks[:, 0] - start < raw) & (ticks[:, 1] < length)  # the tick that ended it is the next lap's
        elapsed = np.concatenate([[0.0], ticks[inside, 0] - start, [raw]])
        distance = np.concatenate([[0.0], ticks[inside, 1], [length]])
        d, t = first_reached(distance, elapsed)
        return Lap(
            number=number,
            start=float(start),
            time=float(row[lt.E_TIME]),
            raw=float(raw),
            penalty=float(row[lt.E_PENALTY]),
            cones=int(row[lt.E_CONES]),
            flags=int(row[lt.E_FLAGS]),
            distance=float(length),
            sectors=tuple(float(x) for x in row[lt.EVENT_SLOTS :]),
            sample_distance=d,
            sample_time=t,
        )

    def retime(self, cone_penalty: float) -> None:
        """Every lap's time with `cone_penalty` s per cone knocked (and the laps read
        later too). A lap re-timed is a new `Lap` (of the same number)."""
        self.cone_penalty = float(cone_penalty)
        self.laps = [_retimed(lap, self.cone_penalty) for lap in self.laps]

    def lap(self, number: int) -> Lap:
        """The lap of that number; KeyError if it is not in the book."""
        for lap in self.laps:
            if lap.number == number:
                return lap
        raise KeyError(f"no lap {number} in the book")

    @property
    def last(self) -> Lap | None:
        """The lap completed last (valid or not), None before any."""
        return self.laps[-1] if self.laps else None

    @property
    def best(self) -> Lap | None:
        """The valid lap of least time (the earlier of equal ones), None without one."""
        valid = [lap for lap in self.laps if lap.valid]
        return min(valid, key=lambda lap: lap.time) if valid else None

    @property
    def best_sectors(self) -> tuple[float, ...]:
        """Each sector's least time over the valid laps (s); () without a valid lap."""
        valid = np.array([lap.sectors for lap in self.laps if lap.valid])
        return tuple(float(x) for x in valid.min(axis=0)) if len(valid) else ()

    @property
    def optimal(self) -> float:
        """s: the sum of the best sectors (the lap the best sectors would make); NaN
        without a valid lap."""
        best = self.best_sectors
        return float(sum(best)) if best else float("nan")

    def reference(self, reference: Lap | int | None = None) -> Lap | None:
        """The lap deltas are taken to: `reference` itself, the lap of that number, or
        (None) the best lap."""
        if isinstance(reference, Lap):
            return reference
        return self.best if reference is None else self.lap(reference)

    def delta(self, distance, elapsed, reference: Lap | int | None = None):
        """Δ = elapsed - t_ref(distance) (s; positive: slower than the reference there):
        a lap at `distance` (course unit) after `elapsed` s since its start; numbers
        or arrays. NaN without a reference."""
        ref = self.reference(reference)
        if ref is None:
            return np.full(np.shape(distance), np.nan) if np.ndim(distance) else float("nan")
        return np.asarray(elapsed, dtype=float) - ref.time_at(distance)

    def predicted(self, distance, elapsed, reference: Lap | int | None = None, penalty: float = 0.0):
        """s: the running lap's predicted time: the reference's time as driven + Δ at
        `distance` + `penalty` (s, the running lap's own cone penalty so far)."""
        ref = self.reference(reference)
        return self.delta(distance, elapsed, ref) + (ref.raw + penalty if ref is not None else float("nan"))


def _retimed(lap: Lap, cone_penalty: float) -> Lap:
    """`lap` with `cone_penalty` s per cone (itself when that is its time already)."""
    penalty = lap.cones * cone_penalty
    if penalty == lap.penalty:
        return lap
    return replace(lap, time=lap.raw + penalty, penalty=penalty)
