"""Tyre curves sampled by the models' own compiled functions, one compiled call per
curve (the Tyres tab redraws them while the car drives, so no Python loop per point).

- dynamic car: `monster_tyres.lateral_force` against slip angle at a load, and the
  traction load·`monster_tyres.traction_ratio` against slip ratio;
- rigid body: a patch's response force (`rigid_body.patch_force`, with the grips and
  cap the tick uses at that steer and tick) against its slip speed, sideways or forward;
- arcade: the traction lerp's weight (`arcade.traction_weight`, weights from `held`)
  against speed.
Forces in N, angles in rad, speeds in the model's length unit per second.
"""

from __future__ import annotations

import math

import numpy as np

from ..kernel import kernel
from . import arcade, monster_tyres, rigid_body
from .rigid_body import P as RP


@kernel
def lateral_curve(cornering, alphas, load, mu, grip, out):
    """out[i] = the dynamic car's lateral force (N) at slip angle alphas[i] (rad)."""
    for i in range(alphas.shape[0]):
        out[i] = monster_tyres.lateral_force(cornering, alphas[i], load, mu, grip)


@kernel
def traction_curve(p, ratios, load, out):
    """out[i] = load · Fn,long(ratios[i]) (N): the rear wheels' traction at a slip ratio."""
    for i in range(ratios.shape[0]):
        out[i] = load * monster_tyres.traction_ratio(p, ratios[i])


@kernel
def patch_curve(p, k, steer, dt, slips, side_out, forward_out):
    """Patch k's response force (N, its length) to a slip speed slips[i] (m/s) purely
    sideways (side_out) or purely forward (forward_out), with the grips and the cap the
    rigid body's tick uses at wheel angle `steer` (rad) and tick `dt` (s)."""
    mass = p[RP.mass]
    inertia = rigid_body.yaw_inertia(p[RP.half_length], p[RP.half_width], mass, p[RP.box_inertia] != 0.0)
    cos_steer, sin_steer = math.cos(steer), math.sin(steer)
    limit, cap = rigid_body.patch_limit(p, mass)
    side_grip = rigid_body.side_grip_of(p, k, cos_steer, sin_steer, mass, inertia, dt)
    forward_grip = rigid_body.forward_grip_of(p, cos_steer, sin_steer, mass, inertia, dt)
    fx, fy = (cos_steer, sin_steer) if rigid_body.FRONT[k] else (1.0, 0.0)
    for i in range(slips.shape[0]):
        rx, ry, _ = rigid_body.patch_force(slips[i], 0.0, -fy, fx, fx, fy, side_grip, forward_grip, limit, cap)
        side_out[i] = math.hypot(rx, ry)
        rx, ry, _ = rigid_body.patch_force(0.0, slips[i], -fy, fx, fx, fy, side_grip, forward_grip, limit, cap)
        forward_out[i] = math.hypot(rx, ry)


@kernel
def arcade_weight_curve(p, dt, speeds, out):
    """out[i] = the arcade's traction lerp weight (share of the turn taken in a tick)
    at speeds[i] px/s, driving forward (controls held at rest: `held` needs none)."""
    u = arcade.held(np.zeros(5), p, dt)
    for i in range(speeds.shape[0]):
        _, out[i] = arcade.traction_weight(speeds[i], u, p)
