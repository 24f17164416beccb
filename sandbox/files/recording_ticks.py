"""Where a recording's rows fall in time: each step of `t` is a whole number of ticks.
The live link leaves a tick it lost out of the recording (docs/link.md, "Recordings"):
t then jumps by two ticks or more, and nothing is filled in."""

from __future__ import annotations

import numpy as np

from ..errors import TraceError

EVEN = 0.1
"""Share of a tick by which a step of t may differ from a whole number of ticks (t written rounded)."""


def tick_steps(t: np.ndarray, step: float | None = None) -> tuple[float, np.ndarray, np.ndarray]:
    """(the tick (s): `step`, by default t's median step, (n − 1,) the whole number of
    ticks each step spans (rounded), (n − 1,) whether each step is that many ticks
    within EVEN of one)."""
    steps = np.diff(t)
    step = float(np.median(steps)) if step is None else float(step)
    whole = np.rint(steps / step) if step > 0 else np.zeros_like(steps)
    return step, whole, (whole >= 1) & (np.abs(steps - whole * step) <= EVEN * step)


def first_gap(t: np.ndarray, step: float | None = None) -> int | None:
    """The row after which the first lost tick falls (t's step there is two whole
    ticks or more; `step` the tick (s), by default t's median step), None when no tick
    is missing."""
    if len(t) < 2:
        return None
    _, whole, even = tick_steps(t, step)
    gaps = np.flatnonzero(even & (whole >= 2))
    return int(gaps[0]) if len(gaps) else None


def refuse_gap_in_trace(t: np.ndarray, source: str, line_of_row: int, step: float | None = None) -> None:
    """TraceError when ticks are missing from a recording taken as a trace of controls
    (line_of_row: the file's line of row 0; `step` the tick (s), by default t's median
    step): a trace replays every tick, and the controls of a lost tick are unknown."""
    k = first_gap(t, step)
    if k is None:
        return
    step = tick_steps(t, step)[0]
    missing = round(t[k] / step) + 1
    raise TraceError(
        f"{source} line {k + line_of_row + 1}: tick {missing} (t = {t[k] + step:g} s) is missing from this "
        "recording (lost on the way from the game): a replay drives every tick, and the controls of a lost "
        "tick are unknown, so it cannot be replayed; `car-sandbox fit` can use it (it starts a new "
        "segment after each lost tick)"
    )


def tick_numbers(t: np.ndarray, source: str, column: int, first: int = 2) -> tuple[float, np.ndarray | None]:
    """(the tick (s), each row's tick counted from the first (n,), or None when none is
    missing); TraceError names the line (`first`: the file's line of row 0) where t
    repeats, goes back, or steps by what is not a whole number of ticks."""
    step, whole, even = tick_steps(t)
    if not step > 0:
        raise TraceError(f"{source} column {column}: t does not increase from row to row")
    bad = np.flatnonzero(~even)
    if len(bad):
        k = int(bad[0])
        why = "a row repeated or out of order?" if t[k + 1] <= t[k] else "not a whole number of ticks"
        raise TraceError(
            f"{source} line {k + first + 1} column {column}: t goes from {t[k]:g} to {t[k + 1]:g} s, a step of "
            f"{t[k + 1] - t[k]:g} s where a tick is {step:g} s: the ticks are uneven ({why})"
        )
    if np.all(whole == 1):
        return step, None
    return step, np.concatenate([[0], np.cumsum(whole)]).astype(np.int64)
