"""Compare cars ("ghosts") in the window: the Compare menu's commands and the
auto-tune's ghost, over the drive session's ghosts (sandbox/session/ghosts.py). A mixin
for MainWindow."""

from __future__ import annotations

from ..files.presets import Preset, load_preset
from ..physics.params import Tuning
from ..physics.sim import Simulation
from ..session.ghosts import MAX_GHOSTS, Ghost

TUNE_GHOST = "auto-tune: best so far"
"""The ghost the auto-tune's best tuning drives as while it searches."""


class GhostMixin:
    """Adding and removing the window's ghosts (`self.drive.ghosts`)."""

    @property
    def ghosts(self) -> list[Ghost]:
        return self.drive.ghosts

    @property
    def ghost(self) -> Simulation | None:
        """The first ghost's simulation (the one the metrics panel compares with)."""
        return self.ghosts[0].sim if self.ghosts else None

    def set_ghost(self, preset: Preset, name: str) -> bool:
        """Drive `preset` beside the car with the same controls; all restart together."""
        if len(self.ghosts) >= MAX_GHOSTS:
            self.show_error(f"At most {MAX_GHOSTS} ghosts: Compare → Remove the ghosts first")
            return False
        self.drive.add_ghost(preset.model, preset.tuning.copy(), name)
        self._ghosts_changed()
        self.statusBar().showMessage(f"Ghost: {name} — it drives with your controls", 5000)
        return True

    def pin_ghost(self) -> None:
        self.set_ghost(self.current_preset(), f"pinned {self.preset.name}")

    def ghost_from_file(self, path) -> bool:
        preset = self.files.read(load_preset, path)
        return preset is not None and self.set_ghost(preset, preset.name)

    def remove_ghost(self) -> None:
        self.drive.remove_ghosts()
        self._ghosts_changed()

    def _ghosts_changed(self) -> None:
        self.plots.set_ghost_names([g.name for g in self.ghosts])
        self.reset_car()
        self._request_metrics()

    def ghost_scale(self, ghost: Ghost | None = None) -> float:
        """Factor from a ghost's length unit (default: the first's) to the car's."""
        return self.drive.ghost_scale(ghost)

    def _tune_ghost(self, tuning: dict | None) -> None:
        """The auto-tune's best tuning so far drives as a ghost beside the car (updated in
        place, so the car is reset once, when the ghost appears); gone when it ends."""
        ghost = next((g for g in self.ghosts if g.name == TUNE_GHOST), None)
        if tuning is None:
            if ghost is not None:
                self.drive.drop_ghost(ghost)
                self.plots.set_ghost_names([g.name for g in self.ghosts])
                self._request_metrics()
                self._refresh_views()
            return
        if ghost is not None:
            ghost.sim.params.update(tuning)
            ghost.body = self.model.body(tuning)
        elif len(self.ghosts) < MAX_GHOSTS and tuning.keys() == self.tuning.keys():
            self.set_ghost(
                Preset(self.model, Tuning(self.model.PARAMS, tuning), TUNE_GHOST, hz=self.sim.hz), TUNE_GHOST
            )
