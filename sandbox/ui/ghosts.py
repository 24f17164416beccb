"""Compare cars ("ghosts"): up to MAX_GHOSTS other tunings or models driven by the
same controls as the car, for MainWindow (a mixin: it uses the window's attributes)."""

from __future__ import annotations

from dataclasses import dataclass

from ..files.presets import Preset, load_preset
from ..physics.sim import Simulation

MAX_GHOSTS = 4


@dataclass
class Ghost:
    """A compare car: its own simulation, drawn translucent in colour `colour` (index)."""

    sim: Simulation
    body: dict
    name: str
    colour: int
    travelled: float = 0.0


class GhostMixin:
    """Adding, removing and scaling the window's ghosts (`self.ghosts`)."""

    @property
    def ghost(self) -> Simulation | None:
        """The first ghost's simulation (the one the metrics panel compares with)."""
        return self.ghosts[0].sim if self.ghosts else None

    def set_ghost(self, preset: Preset, name: str) -> bool:
        """Drive `preset` beside the car with the same controls; all restart together."""
        if len(self.ghosts) >= MAX_GHOSTS:
            self.show_error(f"At most {MAX_GHOSTS} ghosts: Compare → Remove the ghosts first")
            return False
        sim = Simulation(preset.model, preset.tuning.copy(), n=1, hz=self.sim.hz)
        self.ghosts.append(Ghost(sim, preset.model.body(preset.tuning), name, len(self.ghosts)))
        self.plots.set_ghost_names([g.name for g in self.ghosts])
        self.reset_car()
        self._request_metrics()
        self.statusBar().showMessage(f"Ghost: {name} — it drives with your controls", 5000)
        return True

    def pin_ghost(self) -> None:
        self.set_ghost(self.current_preset(), f"pinned {self.preset.name}")

    def ghost_from_file(self, path) -> bool:
        preset = self._read(load_preset, path)
        return preset is not None and self.set_ghost(preset, preset.name)

    def remove_ghost(self) -> None:
        self.ghosts.clear()
        self.plots.set_ghost_names([])
        self.track.ghosts = []
        self.reset_car()
        self._request_metrics()

    def _unit_scale(self, model) -> float:
        """Screen px per unit of `model` at zoom 1."""
        return 1.0 if model.LENGTH_UNIT == "px" else self.px_per_metre

    def ghost_scale(self, ghost: "Ghost | None" = None) -> float:
        """Factor from a ghost's length unit (default: the first's) to the car's (px ↔ m
        via px per metre)."""
        ghost = ghost or (self.ghosts[0] if self.ghosts else None)
        return self._unit_scale(ghost.sim.model) / self._unit_scale(self.model) if ghost else 1.0
