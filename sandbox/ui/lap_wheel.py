"""Car → Driver at the wheel (F9): the lap driver drives the window's car round the track
and gives the wheel back on F9 again. Its lap plan (the car's measured limits, the
racing line, the speed profile, practised on a lap from the spawn:
`analysis/driven_laps.practised_plan`) is made on a worker thread for the tuning, rate
and track shown, and again when any of them changes while the driver drives; until a
plan is ready the car coasts (no pedal, no steering)."""

from __future__ import annotations

from ..analysis.driven_laps import practised_plan
from ..analysis.kernel_prep import DRIVER, prepare
from ..errors import UserError
from ..session.lap_wheel import DriverSource
from ..session.sources import HeldControls
from .worker import Worker

TIP = (
    "The lap driver takes the wheel: it follows the racing line at this tuning's own speed profile "
    "(its measured grip, braking and acceleration), so the laps it sets measure the tuning. F9 again "
    "gives the wheel back to the keyboard"
)
WHY_DISABLED = "Open a track with a closed centre line and a start line (Track → Built-in tracks)"


class WheelControl:
    """Who drives the car of `window` (a MainWindow, which owns this): the keyboard, or
    the lap driver (`driving`)."""

    def __init__(self, window):
        self.window = window
        self.driving = False
        self.waiting = HeldControls()  # the car coasts while its plan is made
        self.job = Worker(window, "lap plan")
        self.job.finished.connect(self._planned)
        self.job.failed.connect(self._failed)
        window.tuning.changed.connect(lambda change: self._replan())

    @property
    def available(self) -> bool:
        """A lap can be driven here: the track has a closed centre line and a start line."""
        return self.window.drive.laps.course is not None

    def toggle(self) -> None:
        """Hand the wheel to the driver, or take it back."""
        if self.driving:
            self.give_back("The wheel is yours again: the keyboard drives")
            return
        if not self.available:
            self.window.show_error(f"The driver needs a lap to drive. {WHY_DISABLED}.", "Driver at the wheel")
            return
        self.driving = True
        self.window.keys.release_all()
        self.window.drive.live = self.waiting
        self._replan()
        self.window.menus.refresh()

    def give_back(self, said: str) -> None:
        """The keyboard drives again (`said` in the status bar)."""
        self.driving = False
        self.job.cancel()
        self.window.track.world.set_racing_line(None)
        self.window.drive.live = self.window.keys
        self.window.statusBar().showMessage(said, 5000)
        self.window.menus.refresh()

    def track_changed(self) -> None:
        """Another track: a new plan for it, or the wheel back where no lap can be driven."""
        if not self.driving:
            return
        if self.available:
            self._replan()
        else:
            self.give_back("The wheel is yours again: no lap can be driven on this track")

    def _replan(self) -> None:
        if not self.driving:
            return
        w = self.window
        model, tuning, hz, track = w.model, dict(w.tuning), w.sim.hz, w.world_track
        w.drive.live = self.waiting
        w.track.world.set_racing_line(None)  # until the new plan's line
        w.statusBar().showMessage("The driver studies the track and the car…", 10000)
        self.job.request(lambda task: (_planned_apart(model, tuning, track, hz), model, tuning, hz, track))

    def _planned(self, result, seconds: float) -> None:
        plan, model, tuning, hz, track = result
        w = self.window
        if not self.driving or track is not w.world_track or model is not w.model or hz != w.sim.hz:
            return  # made for what is no longer shown: a newer request follows
        w.drive.live = DriverSource(plan, model, tuning, hz, lambda: w.drive.sim.state)
        w.track.world.set_racing_line(plan.line.points)  # in the model's unit, the view's
        w.statusBar().showMessage(f"The driver is at the wheel (planned in {seconds:.1f} s): F9 takes it back", 8000)

    def _failed(self, why: str) -> None:
        error = self.job.error
        said = str(error) if isinstance(error, UserError) else why
        self.give_back(f"The driver could not drive here: {said}")

    def who(self) -> str:
        """The status line's word on who drives."""
        if not self.driving:
            return ""
        return "driver at the wheel · " if isinstance(self.window.drive.live, DriverSource) else "driver planning · "


def _planned_apart(model, tuning, track, hz: float):
    """The plan, on the job's worker thread, the lap kernels compiled apart first (a
    first use: `kernel_prep`), so neither the plan nor the driver's ticks on the
    window's thread compile anything."""
    prepare(model, DRIVER)
    return practised_plan(model, tuning, track, hz)
