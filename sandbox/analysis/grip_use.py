"""How much of its grip each tyre uses, and what the axles carry: the figures the g-g
dock shows beside its diagram, from the car's state after a tick (no Qt).

Friction-circle use = √(Fx² + Fy²) / (μ·Fz), the force the tyre gives the road over
the most its friction allows, as a share (1 = 100 %):
- dynamic car (per axle): the rear's traction and lateral force over μ·(rear load);
  the front's brake force and lateral force over μ·(front load). The model caps the
  force along and the side force each at μ·load, apart: an axle driven or braked and
  cornering at once can pass 100 % (√2 at most). μ is the tuning's times the surface's grip; the loads
  (N) carry the weight transfer, beside their values at rest;
- rigid body (per patch, front-left, front-right, rear-left, rear-right): the length of
  each patch's force as the tick wrote it (its `patch_force` slots) over the tick's own
  cap (`rigid_body.patch_limit`, its grips scaled by the surface's): `max_grip` N with
  `grip_limit` on, μ·m·g/4 with `grip_load` on (each patch carries a quarter of the
  weight: no weight transfer). Without either cap the patches' friction is linear in
  the slip, with no limit to use a share of;
- the arcade, the bicycle and the Ackermann car compute no tyre forces: `GripUse.note`
  says what the g-g diagram shows for them instead.
"""

from __future__ import annotations

import math
from types import ModuleType
from typing import Mapping, NamedTuple

import numpy as np

from ..physics.models import rigid_body as rb
from ..physics.models.monster_curves import axle_loads
from ..physics.sim import tuning_rows
from ..physics.state import Layout


class GripUse(NamedTuple):
    """Per wheel or axle (`labels`): friction-circle `use` (share, 1 = 100 %; empty
    when the model has none), the `loads` (N) and their `static` values at rest (empty
    without weight transfer), and a `note` on what is shown or why nothing is."""

    labels: tuple[str, ...]
    use: np.ndarray
    loads: np.ndarray
    static: np.ndarray
    note: str


NO_FORCES = (
    "This model computes no tyre forces and no loads: the diagram shows the car's "
    "accelerations against the grip it showed in its manoeuvres."
)
PATCHES = ("front left", "front right", "rear left", "rear right")
NO_CAP = "The patches' friction has no cap with grip limit and grip ∝ load both off: no share of a limit to show."


def _share(force: float, limit: float) -> float:
    """`force` over `limit` (NaN where there is no limit: μ or the load at 0)."""
    return force / limit if limit > 0 else math.nan


def _value(layout: Layout, row: np.ndarray, name: str) -> float:
    return float(row[layout.offset[name]])


def grip_use(model: ModuleType, tuning: Mapping, after: np.ndarray) -> GripUse:
    """The `GripUse` of the tick that ended in state row `after` (the model's layout)
    with `tuning`."""
    layout = model.STATE
    grip = _value(layout, after, "surface_grip")
    if model.NAME == "monster":
        mu = float(tuning["mu"]) * grip
        front, rear = _value(layout, after, "load_front"), _value(layout, after, "load_rear")
        use = np.array(
            [
                _share(
                    math.hypot(_value(layout, after, "brake_front"), _value(layout, after, "lat_front")), mu * front
                ),
                _share(math.hypot(_value(layout, after, "traction"), _value(layout, after, "lat_rear")), mu * rear),
            ]
        )
        static = np.array([float(v) for v in axle_loads(tuning, 0.0)])
        return GripUse(("front", "rear"), use, np.array([front, rear]), static, "")
    if model.NAME == "rigid_body":
        quarter = f"Each patch carries m·g/4 = {float(tuning['mass']) * rb.GRAVITY / 4.0:.4g} N: no weight transfer."
        if not (tuning["grip_limit"] or tuning["grip_load"]):
            return GripUse(PATCHES, np.empty(0), np.empty(0), np.empty(0), f"{NO_CAP} {quarter}")
        rows, which = tuning_rows(rb, tuning, 1)
        row = rows[which[0]].copy()
        for name in rb.GRIP_PARAMS:  # as the tick on a surface scales them (physics/world_step.py)
            row[rb.P._fields.index(name)] *= grip
        _, cap = rb.patch_limit(row, row[rb.P.mass])
        forces = after[layout.offset["patch_force"] : layout.offset["patch_force"] + len(PATCHES)]
        use = np.array([_share(float(force), cap) for force in forces])
        return GripUse(PATCHES, use, np.empty(0), np.empty(0), quarter)
    return GripUse((), np.empty(0), np.empty(0), np.empty(0), NO_FORCES)
