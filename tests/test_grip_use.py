"""Friction-circle use and loads from known forces: a dynamic car's axles (its front brake
force held to m·a) and the rigid body's patches worked by hand (the patch forces
themselves, the state's `patch_force`, are held to m·Δv in test_tyre_curves.py), and
the models without tyre forces saying so."""

from __future__ import annotations

import numpy as np
import pytest

from sandbox.analysis.grip_use import NO_CAP, NO_FORCES, grip_use
from sandbox.physics.models import arcade, monster
from sandbox.physics.models import rigid_body as rb
from sandbox.physics.params import Tuning
from sandbox.physics.sim import step
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
    use = grip_use(monster, tuning, state.data[0])
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


def sliding_sideways(values: dict, speed: float, grip: float = 1.0) -> np.ndarray:
    """The state row after one tick (60 Hz) of the rigid body pointing along x, sliding
    sideways at `speed` m/s, wheels still, on a surface of `grip` (the tick run with
    the tuning's grips scaled by it, as a track's surface scales them)."""
    state = State.at_rest(1, rb.STATE)
    state.vy[:] = speed
    state.data[0, rb.STATE.offset["surface_grip"]] = grip
    scaled = dict(Tuning(rb.PARAMS, values))
    for name in rb.GRIP_PARAMS:
        scaled[name] *= grip
    return step(rb, state, Controls(), scaled, 1 / 60).data[0]


def test_a_rigid_body_patch_uses_its_force_over_its_cap():
    """Sliding sideways at 0.5 m/s with the box's inertia (its guard, m_eff/(4·dt) =
    (1/3.4)·60/4 = 4.4 N·s/m, above the side grip 2 N·s/m): each patch pushes back
    2 × 0.5 = 1 N, two thirds of a 1.5 N cap."""
    values = {"box_inertia": True, "side_grip": 2.0, "grip_limit": True, "max_grip": 1.5}
    use = grip_use(rb, Tuning(rb.PARAMS, values), sliding_sideways(values, 0.5))
    assert use.labels == ("front left", "front right", "rear left", "rear right")
    assert use.use == pytest.approx([2 / 3] * 4, rel=1e-9)
    assert len(use.loads) == 0 and "no weight transfer" in use.note  # each patch carries m·g/4


def test_on_a_slippery_surface_the_cap_is_the_surfaces_share_of_the_weight():
    """Grip ∝ load on a surface of grip 0.5: the side grip 2 → 1 N·s/m pushes back
    1 × 0.5 = 0.5 N per patch, against μ·m·g/4 = (0.5 × 1.0) × 1 kg × 9.81 / 4 N."""
    values = {"box_inertia": True, "side_grip": 2.0, "grip_load": True, "mu": 1.0, "mass": 1.0}
    use = grip_use(rb, Tuning(rb.PARAMS, values), sliding_sideways(values, 0.5, grip=0.5))
    assert use.use == pytest.approx([0.5 / (0.5 * 9.81 / 4)] * 4, rel=1e-9)


def test_a_rigid_body_sliding_into_a_bend_uses_its_whole_cap_and_no_more():
    tuning = Tuning(rb.PARAMS, {"grip_load": True, "mu": 0.9, "mass": 1.0})
    before = State.at_rest(1, rb.STATE)
    before.data[0, rb.S.vx], before.data[0, rb.S.vy], before.data[0, rb.S.heading] = 6.0, 2.0, 0.3
    before.data[0, rb.S.omega] = 0.4
    before.extra["wheel_speed"] = np.array([[10.0, 12.0, 20.0, 25.0]])
    after = step(rb, before, Controls(0.6, 1.0, 0.0), tuning, 1 / 60)
    use = grip_use(rb, tuning, after.data[0])
    cap = 0.9 * 1.0 * 9.81 / 4  # μ·m·g/4
    assert use.use == pytest.approx(after.channel("patch_force")[0] / cap)
    assert np.all(use.use <= 1.0 + 1e-12) and np.isclose(use.use.max(), 1.0)  # sliding: at the cap


def test_the_rigid_body_without_a_cap_and_the_arcade_say_what_they_show():
    rigid = grip_use(rb, Tuning(rb.PARAMS, {}), rb.STATE.rest(1)[0])
    assert rigid.note.startswith(NO_CAP) and len(rigid.use) == 0
    plain = grip_use(arcade, Tuning(arcade.PARAMS, {}), arcade.STATE.rest(1)[0])
    assert plain.note == NO_FORCES and len(plain.use) == 0 and len(plain.loads) == 0


def test_an_axle_on_a_surface_without_grip_has_no_share_to_show():
    state = State.at_rest(1, monster.STATE)
    state.extra["load_front"], state.extra["load_rear"] = 6000.0, 9000.0
    state.data[0, monster.STATE.offset["surface_grip"]] = 0.0  # ice with no grip at all: μ·Fz = 0
    use = grip_use(monster, Tuning(monster.PARAMS, {}), state.data[0])
    assert np.all(np.isnan(use.use))
