"""The frame clock's tick accounting: wall time decides how many whole ticks run,
never what a tick computes (the same controls give the same drive at any frame rate)."""

from __future__ import annotations

MAX_CATCH_UP = 0.25
"""s: a frame longer than this runs only this much physics (the game slows, the
physics stays the same) so one stall cannot trigger a burst of hundreds of ticks."""


class FrameClock:
    """Accumulates wall seconds and hands them out as whole ticks of `dt`; the fraction
    of a tick left over carries on to the next frame."""

    def __init__(self):
        self.accumulator = 0.0

    def reset(self) -> None:
        self.accumulator = 0.0

    def ticks_due(self, elapsed: float, dt: float, limit: int | None = None) -> int:
        """Whole ticks of `dt` due after `elapsed` more wall seconds (a frame counts at
        most MAX_CATCH_UP, so a stall cannot start a burst of ticks), at most `limit`
        (then the leftover is dropped: the end of a replay). Over many frames the count
        is floor(Σ elapsed / dt)."""
        self.accumulator += min(elapsed, MAX_CATCH_UP)
        due = 0
        while self.accumulator >= dt:
            if limit is not None and due >= limit:
                self.accumulator = 0.0
                break
            self.accumulator -= dt
            due += 1
        return due
