"""The fit's objective: how far a tuning's car strays from a recorded drive, as one
compiled batch of tunings (physics/shooting.py, multiple shooting).

Units: positions in the model's length unit, headings in rad. A tuning's score is
Σ (dx² + dy²) + w²·Σ dheading² over every tick scored, w the heading weight in
length units per radian: by default half the car's drawn length (a heading error of
1 rad counts as the sideways move of the car's nose about its centre).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import ModuleType
from typing import Mapping

import numpy as np

from ..physics import kernels, shooting
from ..physics.sim import model_number, tuning_rows
from ..physics.state import as_engine_controls
from ..physics.track import Track
from ..physics.walls import Walls, walls_for

PARALLEL_TICKS = 20_000
"""candidate-ticks: from this many a batch is spread over the cores."""


@dataclass
class RecordedDrive:
    """A drive as the fit reads it: controls (n, 5) in Controls order, the pose (n, 3)
    x, y, heading after each tick, the velocity (n, 2) or None, model state values by
    name ((n,) each), and each row's tick counted from the first ((n,) int), None when
    no tick is missing (a row per tick); the track it was driven on (its walls met as
    the car drove), None for the open field."""

    controls: np.ndarray
    pose: np.ndarray
    velocity: np.ndarray | None = None
    states: dict[str, np.ndarray] = field(default_factory=dict)
    tick: np.ndarray | None = None
    track: Track | None = None

    def __len__(self) -> int:
        return len(self.pose)

    @property
    def span_ticks(self) -> int:
        """Ticks from the first row to the last."""
        return int(self.tick[-1]) if self.tick is not None else len(self) - 1

    @property
    def missing_ticks(self) -> int:
        """Ticks lost between the first row and the last (rows left out)."""
        return self.span_ticks - (len(self) - 1)

    @property
    def gaps(self) -> np.ndarray:
        """The rows that come after lost ticks (ascending)."""
        if self.tick is None:
            return np.zeros(0, dtype=np.int64)
        return np.flatnonzero(np.diff(self.tick) > 1) + 1


def heading_weight_of(model: ModuleType, tuning: Mapping[str, object]) -> float:
    """Length units per radian: half the car's drawn length under `tuning`."""
    return float(model.body(tuning)["length"]) / 2.0


_WALLS: dict = {}
"""(id of a track, unit) -> (the track, its Walls): the world is built once per track,
not once per objective (a fit makes many)."""


def walls_of(track: Track | None, unit: str) -> Walls | None:
    """`walls.walls_for(track, unit)`, kept for the last few tracks."""
    if track is None:
        return None
    key = (id(track), unit)
    kept = _WALLS.get(key)
    if kept is None or kept[0] is not track:
        if len(_WALLS) >= 4:
            _WALLS.clear()
        kept = _WALLS[key] = (track, walls_for(track, unit))
    return kept[1]


class Objective:
    """`model`'s car replaying `drive` at `hz` Hz, re-anchored every `segment` ticks,
    under `base` with the values a batch gives (name -> (k,) arrays), among the walls
    of the drive's track (none: the open field)."""

    def __init__(
        self,
        model: ModuleType,
        drive: RecordedDrive,
        hz: float,
        base: Mapping[str, object],
        segment: int,
        heading_weight: float | None = None,
        left_out=(),
    ):
        self.model, self.drive, self.hz, self.base = model, drive, float(hz), dict(base)
        self.walls = walls_of(drive.track, model.LENGTH_UNIT)
        self.segment = int(segment)
        self.heading_weight = heading_weight_of(model, base) if heading_weight is None else float(heading_weight)
        dt = 1.0 / self.hz
        self.controls = as_engine_controls(drive.controls)
        self.pose = np.ascontiguousarray(drive.pose, dtype=np.float64)
        layout = model.STATE
        gaps = drive.gaps
        self.velocity = (
            shooting.velocities(self.pose, dt, gaps)
            if drive.velocity is None
            else np.ascontiguousarray(drive.velocity, dtype=np.float64)
        )
        self.first = 1 if drive.velocity is None else 0
        self.integrator = shooting.integrator_of(model, base) if drive.velocity is None else shooting.END_VELOCITY
        every = shooting.segments(len(drive), self.segment, self.first, gaps)
        if self.integrator == shooting.MIDPOINT:
            self.velocity = _midpoint_after_gaps(self.velocity, every[0][every[2]], every[1][every[2]])
        self.every_anchor, self.every_end = every[0], every[1]
        """Every segment's anchor and end rows, those left out too."""
        self.left_out = np.unique(np.asarray(left_out, dtype=np.int64))
        """The segments (indexes into every_anchor) not scored: what the model cannot explain."""
        kept = np.setdiff1d(np.arange(len(every[0])), self.left_out)
        self.anchors, self.ends, self.fresh = every[0][kept], every[1][kept], every[2][kept]
        held = [name for name in drive.states if name in layout.offset and layout.slot[name].size == 1]
        self.columns = np.array([layout.offset[name] for name in held], dtype=np.int64)
        self.values = np.ascontiguousarray(
            np.column_stack([drive.states[n] for n in held]) if held else np.zeros((len(drive), 0))
        )
        self.heading_vector = np.array(
            [layout.offset.get("heading_x", -1), layout.offset.get("heading_y", -1)], dtype=np.int64
        )
        self.start = layout.rest(1)[0]
        self.scored = np.concatenate(
            [np.arange(a + 1, end + 1) - 1 for a, end in zip(self.anchors, self.ends)] or [np.zeros(0, np.int64)]
        )
        """The rows of the per-tick errors that are scored (row t − 1 is tick t)."""
        self.segment_of = np.repeat(np.arange(len(self.anchors)), self.ends - self.anchors)
        """The segment of each tick scored."""

    def spans(self, segments) -> list[list[float]]:
        """[start, end] (s since the recording's first row) of each of `segments`
        (indexes into every_anchor)."""
        tick = self.drive.tick if self.drive.tick is not None else np.arange(len(self.drive))
        return [
            [float(tick[self.every_anchor[s]]) / self.hz, float(tick[self.every_end[s]]) / self.hz] for s in segments
        ]

    @property
    def ticks(self) -> int:
        """Ticks scored."""
        return len(self.scored)

    def run(self, values: Mapping[str, np.ndarray], errors: bool = False) -> tuple[np.ndarray, np.ndarray | None]:
        """(sums (k, 2): Σ position error² and Σ heading error² per tuning; with
        `errors`, the per-tick errors (k, ticks, 3): dx, dy, dheading), NaN for a tuning
        whose car left the numbers."""
        k = max((len(np.atleast_1d(v)) for v in values.values()), default=1)
        rows, which = tuning_rows(self.model, {**self.base, **values}, k)
        params = np.ascontiguousarray(rows[which])
        n = len(self.drive)
        sums = np.zeros((k, 2))
        out = np.zeros((k, n - 1 if errors else 0, 3))
        parallel = k > 1 and k * n >= PARALLEL_TICKS
        run = shooting.shoot_parallel if parallel else shooting.shoot
        walls = ()
        if self.walls is not None:
            run = shooting.shoot_parallel_walls if parallel else shooting.shoot
            walls = kernels.walls_arguments(self.walls) if parallel else (self.walls,)
        kernels.call(
            run,
            model_number(self.model),
            self.start,
            self.controls,
            self.pose,
            self.velocity,
            self.columns,
            self.values,
            self.heading_vector,
            params,
            1.0 / self.hz,
            self.anchors,
            self.ends,
            self.fresh,
            self.integrator,
            sums,
            out,
            *walls,
        )
        return sums, (out[:, self.scored] if errors else None)

    def scores(self, values: Mapping[str, np.ndarray]) -> np.ndarray:
        """(k,) Σ (dx² + dy²) + w²·Σ dheading² per tuning; inf where it is not a number."""
        sums, _ = self.run(values)
        score = sums[:, 0] + self.heading_weight**2 * sums[:, 1]
        return np.where(np.isfinite(score), score, np.inf)

    def residuals(self, values: Mapping[str, np.ndarray]) -> np.ndarray:
        """(k, 3·ticks) each tuning's errors (dx, dy, w·dheading) tick after tick: the
        score is the sum of their squares."""
        _, errors = self.run(values, errors=True)
        errors[:, :, 2] *= self.heading_weight
        return errors.reshape(len(errors), -1)


def _midpoint_after_gaps(velocity: np.ndarray, anchors: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """`velocity` (the pose differences d_k, mean velocity over tick k under MIDPOINT)
    with each anchor a after a gap given v_a ≈ (d_a + d_{a+1})/2, exact while the
    acceleration holds over the two ticks (the car's velocity before tick a is
    unknown there: the tick before it was lost)."""
    out = velocity.copy()
    for a, end in zip(anchors, ends):
        if a + 1 <= end:
            out[a] = (velocity[a] + velocity[a + 1]) / 2
    return out
