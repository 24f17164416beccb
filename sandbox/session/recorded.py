"""A drive recorded in a game, replayed through the sandbox car: where the replay
starts, and how far the sandbox car is from the recorded pose at each tick.

Row i of a recording is the car after the game's tick i, driven by row i's controls.
The replay starts from row 0's recorded state (its pose, and its velocity and state
columns where the recording has them; every other slot at its default), and its tick
k drives row k's controls, so after k ticks it is compared with row k: the distance
at tick 0 is 0 by construction. A recording without velocities starts at row 1
instead, with the velocity its first two positions give (v = (p₁ − p₀)·hz, as the fit
anchors it: physics/shooting.py)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from types import ModuleType
from typing import Mapping

import numpy as np

from ..analysis.metrics import format_value
from ..files.recordings import Recording
from ..physics.shooting import velocities
from ..physics.sim import record
from ..physics.state import State
from ..physics.track import Track
from ..physics.walls import walls_for

POSE = ("x", "y", "heading")


@dataclass
class ReplayedRecording:
    """A recording as the window replays it, from row `first` (0, or 1 without
    velocities): `controls` (rows first+1…n−1, one a replay tick), `start` (row
    first's state, in the model's state layout) and the recorded path `x`, `y`,
    `heading` (rows first…n−1: replay tick k is row first + k), at `hz` ticks per second."""

    name: str
    controls: np.ndarray
    start: State
    x: np.ndarray
    y: np.ndarray
    heading: np.ndarray
    hz: float
    anchored: tuple[str, ...]  # the state slots the recording gave the start (the others: defaults)
    first: int = 0

    @property
    def ticks(self) -> int:
        """Replay ticks."""
        return len(self.controls)

    @property
    def rows(self) -> np.ndarray:
        """The recording's row (its tick) of each replay tick 0…ticks."""
        return np.arange(len(self.x)) + self.first

    @property
    def times(self) -> np.ndarray:
        """s since the recording's first row, per replay tick 0…ticks."""
        return self.rows / self.hz


def start_state(model: ModuleType, recording: Recording, row: int = 0) -> tuple[State, tuple[str, ...]]:
    """Row `row` of `recording` as a state of `model`: pose, velocity (recorded, or
    from the positions of the row and the one before) and each state column the
    model has; the slots set, in order."""
    state = State.at_rest(1, model.STATE)
    pose = np.asarray(recording.pose, dtype=np.float64)
    given = {"x": pose[:, 0], "y": pose[:, 1], "heading": pose[:, 2]}
    velocity = recording.velocity
    if velocity is None and row > 0:
        velocity = velocities(pose, 1.0 / recording.hz)
    if velocity is not None:
        given["vx"], given["vy"] = velocity[:, 0], velocity[:, 1]
    given.update(recording.states)
    anchored = []
    for name, column in given.items():
        if name in model.STATE.offset and model.STATE.slot[name].size == 1:
            state.data[0, model.STATE.offset[name]] = float(np.asarray(column)[row])
            anchored.append(name)
    return state, tuple(anchored)


def recorded_drive(model: ModuleType, recording: Recording, name: str) -> ReplayedRecording:
    """`recording` ready to replay with `model`."""
    first = 0 if recording.velocity is not None else 1
    start, anchored = start_state(model, recording, first)
    controls = np.asarray(recording.controls, dtype=np.float64)
    pose = np.asarray(recording.pose, dtype=np.float64)[first:]
    return ReplayedRecording(
        name, controls[first + 1 :], start, pose[:, 0], pose[:, 1], pose[:, 2], float(recording.hz), anchored, first
    )


@dataclass
class Divergence:
    """Per tick 0…n−1: the distance (the model's length unit) between the sandbox car
    and the recorded car, and the sandbox car's position; the worst tick."""

    distance: np.ndarray
    x: np.ndarray
    y: np.ndarray

    @property
    def worst(self) -> int:
        return int(np.argmax(self.distance)) if len(self.distance) else 0

    @property
    def rms(self) -> float:
        return float(np.sqrt(np.mean(self.distance**2))) if len(self.distance) else 0.0


def divergence(
    model: ModuleType, tuning: Mapping[str, object], hz: float, drive: ReplayedRecording, track: Track | None = None
) -> Divergence:
    """The sandbox car (`model`, `tuning`, at `hz`) driven through the recording from its
    start on `track` (None: the open field), tick by tick in one compiled call (the same
    numbers as the window's replay), against the recorded path: hypot(Δx, Δy) per tick."""
    x0, y0 = float(drive.start.x[0]), float(drive.start.y[0])
    if drive.ticks:
        walls = walls_for(track, model.LENGTH_UNIT)
        moved = record(model, tuning, drive.controls, hz, ("x", "y"), start=drive.start, walls=walls)
        x, y = np.concatenate([[x0], moved[:, 0]]), np.concatenate([[y0], moved[:, 1]])
    else:
        x, y = np.array([x0]), np.array([y0])
    return Divergence(np.hypot(x - drive.x, y - drive.y), x, y)


def summary(div: Divergence, drive: ReplayedRecording, unit: str) -> str:
    """One line for people: the worst distance, where, and the RMS."""
    i = div.worst
    worst = float(div.distance[i]) if len(div.distance) else 0.0
    when, row = float(drive.times[i]), int(drive.rows[i])
    if not math.isfinite(worst):
        return f"The sandbox car left the recording's path (distance not finite at {when:.2f} s)."
    return (
        f"Worst {format_value(worst)} {unit} at {when:.2f} s (tick {row}); RMS {format_value(div.rms)} {unit} "
        f"over {drive.ticks / drive.hz:.2f} s"
    )


UNIT_HINT = 4.0
"""A recorded path this many times longer (or shorter) than the sandbox car's, over the
same controls, is most likely in the other length unit (px against m)."""


def units_note(unit: str, drive: ReplayedRecording, div: Divergence) -> str:
    """What to say when the recorded car went much further or less far than the sandbox
    car: the recording is likely in the other unit (nothing is converted)."""
    recorded = float(np.nansum(np.hypot(np.diff(drive.x), np.diff(drive.y))))
    sandbox = float(np.nansum(np.hypot(np.diff(div.x), np.diff(div.y))))
    if not (recorded > 0 and sandbox > 0):
        return ""
    ratio = recorded / sandbox
    if 1 / UNIT_HINT <= ratio <= UNIT_HINT:
        return ""
    other = "px" if unit == "m" else "m"
    return (
        f"The recorded car went {ratio:.3g}× as far as the sandbox car: is the recording in {other}? "
        f"The sandbox reads it in {unit}, the model's unit, and converts nothing."
    )
