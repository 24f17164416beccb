"""Friction-circle use and loads from known forces: a dynamic car's axles worked by hand,
the rigid body's patch forces held to Newton's law on the tick that applied them, and
the models without tyre forces saying so."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sandbox.analysis.grip_use import NO_CAP, NO_FORCES, grip_use, patch_forces
from sandbox.physics.models import arcade, monster
from sandbox.physics.models import rigid_body as rb
from sandbox.physics.params import Tuning
from sandbox.physics.sim import step, tuning_rows
from sandbox.physics.state import Controls, State


def test_a_dynamic_cars_axles_use_their_forces_over_mu_times_load():
    tuning = Tuning(monster.PARAMS, {"mu": 0.8})
    state = State.at_rest(1, monster.STATE)
    for name, value in {
        "lat_front": -2400.0,  # with the brake's 3200 N: √(2400² + 3200²) = 4000 N over 0.8 · 6000 N
        "brake_front": -3200.0,
        "load_front": 6000.0,
        "traction": 3000.0,  # √(3000² + 4000²) = 5000 N over 0.8 · 10000 N: 62.5 %
        "lat_rear": 4000.0,
        "load_rear": 10000.0,
    }.items():
        state.extra[name] = value
    use = grip_use(monster, tuning, state.data[0], state.data[0], 60)
    assert use.labels == ("front", "rear")
    assert use.use == pytest.approx([4000 / 4800, 0.625])
    assert use.loads == pytest.approx([6000.0, 10000.0])
    # at rest the Corvette's 1500 kg sit on b = c = 1.25 m: half the weight on each axle
    g = 9.8  # the seed's gravity
    assert use.static == pytest.approx([1500 * g / 2, 1500 * g / 2])


def test_the_dynamic_cars_front_brake_force_is_the_one_that_slowed_it():
    """Braking in a straight line at 30 m/s: the front's force is the text's
    Fbraking = −u·Cbraking (within μ × front load), and with the rear's traction and the
    resistance −(Cdrag·v + Crr)·v it makes m·a along the car ("Straight line physics")."""
    tuning = Tuning(monster.PARAMS)
    state = State.at_rest(1, monster.STATE)
    state.vx[:] = 30.0
    after = step(monster, state, Controls(brake=0.5), tuning, 1 / 60)
    value = {name: float(after.channel(name)[0]) for name in ("brake_front", "load_front", "traction", "accel_long")}
    assert value["brake_front"] == pytest.approx(-min(0.5 * tuning["brake_force"], tuning["mu"] * value["load_front"]))
    assert value["brake_front"] < -1000.0
    resistance = (tuning["c_drag"] * 30.0 + tuning["c_rr"]) * 30.0
    forces = value["traction"] + value["brake_front"] - resistance
    assert tuning["mass"] * value["accel_long"] == pytest.approx(forces, rel=1e-12)


def test_the_rigid_bodys_patch_forces_are_the_ones_that_moved_it():
    """Summed and turned into the world, the four forces over the mass are the tick's
    change of velocity (Newton's second law), on a car sliding into a bend with the cap on."""
    tuning = Tuning(rb.PARAMS, {"grip_load": True, "mu": 0.9, "mass": 1.0})
    before = State.at_rest(1, rb.STATE)
    before.data[0, rb.S.vx], before.data[0, rb.S.vy], before.data[0, rb.S.heading] = 6.0, 2.0, 0.3
    before.data[0, rb.S.omega] = 0.4
    before.extra["wheel_speed"] = np.array([[10.0, 12.0, 20.0, 25.0]])
    dt = 1 / 60
    after = step(rb, before, Controls(0.6, 1.0, 0.0), tuning, dt)
    rows, which = tuning_rows(rb, tuning, 1)
    forces = patch_forces(before.data[0].copy(), after.data[0, rb.S.wheel_angle], rows[which[0]], dt)
    c, s = math.cos(0.3), math.sin(0.3)
    total_x = np.sum(forces[:, 0] * c - forces[:, 1] * s)
    total_y = np.sum(forces[:, 0] * s + forces[:, 1] * c)
    assert (total_x, total_y) == pytest.approx(
        ((after.vx[0] - 6.0) / dt * 1.0, (after.vy[0] - 2.0) / dt * 1.0), rel=1e-9
    )
    use = grip_use(rb, tuning, before.data[0], after.data[0], 60)
    cap = 0.9 * 1.0 * rb.GRAVITY / 4
    assert use.use == pytest.approx(np.hypot(forces[:, 0], forces[:, 1]) / cap)
    assert np.all(use.use <= 1.0 + 1e-12) and np.isclose(use.use.max(), 1.0)  # sliding: at the cap
    assert len(use.loads) == 0 and "no weight transfer" in use.note  # each patch carries m·g/4


def test_the_rigid_body_without_a_cap_and_the_arcade_say_what_they_show():
    rigid = grip_use(rb, Tuning(rb.PARAMS, {}), rb.STATE.rest(1)[0], rb.STATE.rest(1)[0], 60)
    assert rigid.note.startswith(NO_CAP) and len(rigid.use) == 0
    plain = grip_use(arcade, Tuning(arcade.PARAMS, {}), arcade.STATE.rest(1)[0], arcade.STATE.rest(1)[0], 60)
    assert plain.note == NO_FORCES and len(plain.use) == 0 and len(plain.loads) == 0


def test_an_axle_on_a_surface_without_grip_has_no_share_to_show():
    state = State.at_rest(1, monster.STATE)
    state.extra["load_front"], state.extra["load_rear"] = 6000.0, 9000.0
    state.data[0, monster.STATE.offset["surface_grip"]] = 0.0  # ice with no grip at all: μ·Fz = 0
    use = grip_use(monster, Tuning(monster.PARAMS, {}), state.data[0], state.data[0], 60)
    assert np.all(np.isnan(use.use))
