"""How much of its grip each tyre uses, and what the axles carry: the figures the g-g
dock shows beside its diagram, from the car's states before and after a tick (no Qt).

Friction-circle use = √(Fx² + Fy²) / (μ·Fz), the force the tyre gives the road over
the most its friction allows, as a share (1 = 100 %):
- dynamic car (per axle): the rear's traction and lateral force over μ·(rear load);
  the front's brake force and lateral force over μ·(front load). The model caps the
  force along and the side force each at μ·load, apart: an axle driven or braked and
  cornering at once can pass 100 % (√2 at most). μ is the tuning's times the surface's grip; the loads
  (N) carry the weight transfer, beside their values at rest;
- rigid body (per patch, front-left, front-right, rear-left, rear-right): each patch's
  force as the tick computed it (`patch_forces`) over its cap, `max_grip` N with
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

from ..physics.kernel import kernel
from ..physics.models import rigid_body as rb
from ..physics.models.geometry import rotate
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


@kernel
def patch_forces(s, steer, p, dt):
    """The four patches' response forces (4, 2) (N, vehicle frame: forward, right) the
    rigid body's tick computes from state row `s` (before the tick) at front-wheel
    angle `steer` (rad) and tuning row `p` (its grips scaled by the surface): steps 1
    to 4 of rigid_body.tick, capped as it caps them."""
    mass = p[rb.P.mass]
    inertia = rb.yaw_inertia(p[rb.P.half_length], p[rb.P.half_width], mass, p[rb.P.box_inertia] != 0.0)
    grip_limit = p[rb.P.grip_limit] != 0.0 or p[rb.P.grip_load] != 0.0
    cap = p[rb.P.mu] * mass * rb.GRAVITY / 4.0 if p[rb.P.grip_load] != 0.0 else p[rb.P.max_grip]
    radius = p[rb.P.wheel_radius]
    vx, vy, omega = s[rb.S.vx], s[rb.S.vy], s[rb.S.omega]
    ch, sh = math.cos(s[rb.S.heading]), math.sin(s[rb.S.heading])
    cos_steer, sin_steer = math.cos(steer), math.sin(steer)
    forward_grip = rb._forward_grip(
        p[rb.P.forward_grip],
        p[rb.P.half_length],
        p[rb.P.half_width],
        cos_steer,
        sin_steer,
        mass,
        inertia,
        radius * radius / p[rb.P.wheel_inertia],
        dt,
    )
    out = np.zeros((4, 2))
    for k in range(4):
        ox, oy = rb.CORNER_X[k] * p[rb.P.half_length], rb.CORNER_Y[k] * p[rb.P.half_width]
        wx, wy = rotate(ox, oy, ch, sh)
        fx, fy = (cos_steer, sin_steer) if rb.FRONT[k] else (1.0, 0.0)
        sx, sy = -fy, fx
        gx, gy = rotate(vx - omega * wy, vy + omega * wx, ch, -sh)
        dx = gx - fx * s[rb.S.wheel_speed + k] * radius
        dy = gy - fy * s[rb.S.wheel_speed + k] * radius
        side_mag = dx * sx + dy * sy
        forward_mag = dx * fx + dy * fy
        side_grip = min(p[rb.P.side_grip], rb._grip_cap(ox, oy, sx, sy, mass, inertia, dt))
        rx = -sx * side_mag * side_grip - fx * forward_mag * forward_grip
        ry = -sy * side_mag * side_grip - fy * forward_mag * forward_grip
        if grip_limit:
            size = math.hypot(rx, ry)
            if size > cap:
                rx, ry = rx * cap / max(size, 1e-12), ry * cap / max(size, 1e-12)
        out[k, 0], out[k, 1] = rx, ry
    return out


def _share(force: float, limit: float) -> float:
    """`force` over `limit` (NaN where there is no limit: μ or the load at 0)."""
    return force / limit if limit > 0 else math.nan


def _value(layout: Layout, row: np.ndarray, name: str) -> float:
    return float(row[layout.offset[name]])


def grip_use(model: ModuleType, tuning: Mapping, before: np.ndarray, after: np.ndarray, hz: float) -> GripUse:
    """The `GripUse` of the tick from state row `before` to `after` (the model's layout)
    with `tuning` at `hz` ticks per second."""
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
        for name in rb.GRIP_PARAMS:
            row[rb.P._fields.index(name)] *= grip
        steer = _value(layout, after, "wheel_angle")
        forces = patch_forces(np.ascontiguousarray(before, dtype=np.float64), steer, row, 1.0 / hz)
        cap = row[rb.P.mu] * row[rb.P.mass] * rb.GRAVITY / 4.0 if tuning["grip_load"] else row[rb.P.max_grip]
        use = np.array([_share(math.hypot(fx, fy), cap) for fx, fy in forces])
        return GripUse(PATCHES, use, np.empty(0), np.empty(0), quarter)
    return GripUse((), np.empty(0), np.empty(0), np.empty(0), NO_FORCES)
