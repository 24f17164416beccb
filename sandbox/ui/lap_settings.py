"""The Laps tab's choices in the window: the reference lap the car view's live delta
and predicted time are taken to, and the cone penalty (s per cone), applied to the
live timer and kept between runs (QSettings: PENALTY_KEY)."""

from __future__ import annotations

from ..physics.lap_timer import CONE_PENALTY_S
from .laps_tab import CONE_PENALTY_RANGE
from .window_memory import settings

PENALTY_KEY = "laps/cone_penalty"


class LapSettings:
    """Joins `window`'s Laps tab (`window.laps`) to its drive session's laps."""

    def __init__(self, window):
        self.window = w = window
        low, high, _ = CONE_PENALTY_RANGE
        penalty = w.memory.setting(PENALTY_KEY, CONE_PENALTY_S, low=low, high=high) if w.remember else CONE_PENALTY_S
        w.laps.show_cone_penalty(penalty)
        w.drive.laps.set_cone_penalty(penalty)
        w.laps.cone_penalty_changed.connect(self.set_cone_penalty)
        w.laps.reference_chosen.connect(self.set_reference)

    def set_cone_penalty(self, seconds: float) -> None:
        """s per cone: the laps driven re-timed and shown, the setting kept."""
        w = self.window
        w.drive.laps.set_cone_penalty(seconds)
        if w.remember:
            settings().setValue(PENALTY_KEY, float(seconds))
        w.drive_view.refresh()

    def set_reference(self, number: int | None) -> None:
        """The live delta taken to lap `number` (None: the best lap)."""
        self.window.drive.laps.reference = number
        self.window.drive_view.refresh()
