"""Compare cars ("ghosts") in the window: the Compare menu's commands and the
auto-tune's ghost, over the drive session's ghosts (sandbox/session/ghosts.py)."""

from __future__ import annotations

from ..files.presets import Preset, load_preset
from ..physics.params import Tuning
from ..physics.sim import Simulation
from ..session.ghosts import MAX_GHOSTS
from .model_prep import ModelPreparer

TUNE_GHOST = "auto-tune: best so far"
"""The ghost the auto-tune's best tuning drives as while it searches."""


class Compare:
    """Adding and removing the ghosts of `window` (a MainWindow, which owns this) in
    its drive session (`window.drive.ghosts`)."""

    def __init__(self, window):
        self.window = window
        self.preparer = ModelPreparer(window, "prepare ghost")  # a ghost of a model not compiled yet waits for it

    @property
    def first(self) -> Simulation | None:
        """The first ghost's simulation (the one the metrics panel compares with)."""
        ghosts = self.window.drive.ghosts
        return ghosts[0].sim if ghosts else None

    def add(self, preset: Preset, name: str) -> bool:
        """Drive `preset` beside the car with the same controls; all restart together
        (once its model is compiled, where it is not yet: `model_prep`)."""
        self.preparer.enabled = self.window.switcher.prepare_first
        if self.preparer.when_ready(preset.model, "for the ghost", lambda: self._add_now(preset, name)):
            return self._added
        return True

    def _add_now(self, preset: Preset, name: str) -> None:
        w = self.window
        self._added = False
        try:
            w.drive.add_ghost(preset.model, preset.tuning.copy(), name)
        except ValueError:  # the session holds at most MAX_GHOSTS
            w.show_error(f"At most {MAX_GHOSTS} ghosts: Compare → Remove the ghosts first")
            return
        self._added = True
        self._changed()
        w.statusBar().showMessage(f"Ghost: {name} — it drives with your controls", 5000)

    def pin(self) -> None:
        """The tuning on screen as a ghost."""
        w = self.window
        self.add(w.current_preset(), f"pinned {w.preset.name}")

    def add_from_file(self, path) -> bool:
        preset = self.window.files.read(load_preset, path)
        return preset is not None and self.add(preset, preset.name)

    def remove_all(self) -> None:
        self.window.drive.remove_ghosts()
        self._changed()

    def _changed(self) -> None:
        w = self.window
        w.plots.set_ghost_names([g.name for g in w.drive.ghosts])
        w.drive_view.reset_car()
        w._request_metrics()

    def follow_tune(self, tuning: dict | None) -> None:
        """The auto-tune's best tuning so far drives as a ghost beside the car (updated in
        place, so the car is reset once, when the ghost appears); gone when it ends."""
        w = self.window
        ghosts = w.drive.ghosts
        ghost = next((g for g in ghosts if g.name == TUNE_GHOST), None)
        if tuning is None:
            if ghost is not None:
                w.drive.drop_ghost(ghost)
                w.plots.set_ghost_names([g.name for g in w.drive.ghosts])
                w._request_metrics()
                w.drive_view.refresh()
            return
        if ghost is not None:
            ghost.sim.params.update(tuning)
            ghost.sim.retune()
            ghost.body = w.model.body(tuning)
        elif len(ghosts) < MAX_GHOSTS and tuning.keys() == w.tuning.keys():
            self.add(Preset(w.model, Tuning(w.model.PARAMS, tuning), TUNE_GHOST, hz=w.sim.hz), TUNE_GHOST)
