"""The standard manoeuvres on a track (`metrics --track`): every simulated figure is
driven from the track's spawn among its walls, and a figure whose run met a wall is
no figure of the car: it is given as NaN with when its run met the wall.

Which figures take the track: all the simulated ones (every manoeuvre moves the car:
the straight runs go far, the circles need a pad as wide as the car's circle); the
top speed from the parameters is a formula and takes none. The circles aim at 25 % of
the open field's top speed, so a track too short for the top speed run still drives
the slow circle. A track without walls (the open field, a course of cones) gives the
open field's figures. A model that does not meet walls yet drives through them: its
figures are the open field's (`meets_walls` says which). The handling figures
(handling.py: steady circles up to 40 m round, a step steer at speed) are always the
open field's: a track rarely has the room, and they describe the car, not the place;
no wall is met in their runs (met_at NaN).
"""

from __future__ import annotations

import math
from types import ModuleType
from typing import Mapping

import numpy as np

from ..physics import kernels
from ..physics.sim import model_number
from ..physics.track import Track
from ..physics.walls import walls_for
from . import manoeuvres
from .metrics import MANOEUVRE_COUNT, METRICS, compute, manoeuvre_arguments


def meets_walls(model: ModuleType) -> bool:
    """Whether `model`'s car meets walls (else it drives through them)."""
    return bool(getattr(model, "MEETS_WALLS", False)) and "wall_contacts" in model.STATE.offset


def compute_on_track(
    model: ModuleType, params: Mapping[str, object], hz: float, track: Track
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """(values, met_at) of every metric for every tuning in `params` on `track`: values
    as `metrics.compute` (NaN where the run met a wall), met_at name -> the time (s)
    into its run at which the run a figure stands on first met a wall (NaN: none)."""
    open_field = compute(model, params, hz)
    walls = walls_for(track, model.LENGTH_UNIT)
    if walls is None or not meets_walls(model):
        return open_field, {name: np.full(np.size(v), math.nan) for name, v in open_field.items()}
    rows, which, arguments = manoeuvre_arguments(model, params, hz)
    spawn = track.in_unit(model.LENGTH_UNIT).spawn
    start = np.array([spawn.x, spawn.y, spawn.heading], dtype=np.float64)
    aims = np.empty(len(rows))
    aims[which] = open_field["top_speed"]
    out = np.empty((len(rows), MANOEUVRE_COUNT))
    met = np.full((len(rows), MANOEUVRE_COUNT), math.nan)
    kernels.call(manoeuvres.metrics_rows_on, model_number(model), rows, *arguments, out, (walls, start, aims, met))
    out, met = out[which], met[which]
    out[np.isfinite(met)] = math.nan
    on_track = list(METRICS)[:MANOEUVRE_COUNT]
    values = {name: np.ascontiguousarray(out[:, j]) for j, name in enumerate(on_track)}
    met_at = {name: np.ascontiguousarray(met[:, j]) for j, name in enumerate(on_track)}
    for name in list(METRICS)[MANOEUVRE_COUNT:]:  # the handling figures: the open field's
        values[name] = open_field[name]
        met_at[name] = np.full(np.size(open_field[name]), math.nan)
    return values, met_at


def wall_note(seconds: float) -> str:
    """The missing-reason of a figure whose run met a wall `seconds` into it."""
    return f"n/a: met a wall {seconds:.2f} s into its run (the track has no room for it)"
