"""The rigid body with tyre patches against seed 003: the chassis integrator, AddForce,
the inertia formula, and what the patches may and may not do."""

import math

import numpy as np
import pytest

from sandbox.physics.models import rigid_body as rb
from sandbox.physics.params import Tuning
from sandbox.physics.sim import step
from sandbox.physics.state import Controls, State


def moving(vx=0.0, vy=0.0, omega=0.0, heading=0.0, wheel_speed=None):
    s = State(np.zeros(1), np.zeros(1), np.array([heading]), np.array([vx]), np.array([vy]))
    s.extra["omega"] = np.array([omega])
    if wheel_speed is not None:
        s.extra["wheel_speed"] = np.array([wheel_speed], dtype=float)
    return s


def test_with_no_wheel_forces_the_chassis_keeps_its_linear_and_angular_velocity():
    p = Tuning(rb.PARAMS, {"side_grip": 0, "forward_grip": 0})  # the patches can push nothing
    s = moving(vx=3.0, vy=-1.5, omega=0.7)
    for _ in range(300):
        s = step(rb, s, Controls(1, 0, 0), p, 1 / 60)
    assert (s.vx[0], s.vy[0], s.extra["omega"][0]) == pytest.approx((3.0, -1.5, 0.7), abs=1e-12)
    assert (s.x[0], s.y[0]) == pytest.approx((15.0, -7.5), abs=1e-9)
    assert s.heading[0] == pytest.approx(math.remainder(0.7 * 5, 2 * math.pi), abs=1e-9)


def test_euler_integrator_uses_the_new_velocity():
    """Seed RigidBody.Update: v += F/m·T, then p += v·T with that v."""
    p = Tuning(rb.PARAMS, {"mass": 2.0})
    row = moving(vx=1.0).bound(rb.STATE).data[0]
    vx, vy = rb.integrate(row, 4.0, 0.0, 0.5, p["mass"], rb.inertia(p), 0.1)
    x, heading, omega = row[rb.S.x], row[rb.S.heading], row[rb.S.omega]
    assert vx == pytest.approx(1.0 + 4.0 / 2.0 * 0.1) and x == pytest.approx(vx * 0.1)
    assert omega == pytest.approx(0.5 / rb.inertia(p) * 0.1) and heading == pytest.approx(omega * 0.1)


def test_add_force_accumulates_force_and_offset_cross_force_torque():
    force_x, force_y, torque = 0.0, 0.0, 0.0
    force_x, force_y, torque = rb.add_force(force_x, force_y, torque, 0.0, 3.0, 2.0, 0.0)
    assert torque == pytest.approx(6.0)  # 2·3 − 0·0
    force_x, force_y, torque = rb.add_force(force_x, force_y, torque, 1.0, 0.0, 0.0, 1.0)
    assert (force_x, force_y) == (1.0, 3.0) and torque == pytest.approx(6.0 - 1.0)  # + (0·0 − 1·1)
    force_x, force_y, torque = rb.add_force(force_x, force_y, torque, 5.0, 5.0, 0.0, 0.0)
    assert torque == pytest.approx(5.0)  # a force at the centre adds no torque


def test_inertia_is_the_seeds_formula_unless_fixed():
    p = Tuning(rb.PARAMS, {"mass": 12.0, "half_length": 2.0, "half_width": 1.0})
    assert rb.inertia(p) == pytest.approx((1 / 12) * 2.0**2 * 1.0**2 * 12.0)  # the seed multiplies half sizes
    p["box_inertia"] = True
    assert rb.inertia(p) == pytest.approx(12.0 * (4.0**2 + 2.0**2) / 12)  # a box: m(L² + W²)/12


def test_rolling_straight_with_wheels_at_road_speed_keeps_its_speed():
    """The seed models no rolling resistance: a patch that matches the road pushes
    nothing, so coasting straight loses no speed at all."""
    p = Tuning(rb.PARAMS)
    spin = 6.0 / p["wheel_radius"]
    s = moving(vx=6.0, wheel_speed=[spin] * 4)
    for _ in range(600):
        s = step(rb, s, Controls(0, 0, 0), p, 1 / 60)
    assert s.vx[0] == pytest.approx(6.0, abs=1e-12) and s.vy[0] == pytest.approx(0.0, abs=1e-12)


def test_coasting_trades_speed_only_with_the_wheels():
    """With the seed's forward constant 1, the force on the chassis (−slip) and the
    torque on the wheel (+slip·radius) balance: m·v + Σ I_w·ω/r is conserved while
    the wheels and the road settle to a common speed."""
    p = Tuning(rb.PARAMS)
    r, iw, m = p["wheel_radius"], p["wheel_inertia"], p["mass"]
    s = moving(vx=8.0, wheel_speed=[0.0, 0.0, 30.0, 30.0])
    start = m * s.vx[0] + iw * s.extra["wheel_speed"].sum() / r
    for _ in range(600):
        s = step(rb, s, Controls(0, 0, 0), p, 1 / 60)
        assert m * s.vx[0] + iw * s.extra["wheel_speed"].sum() / r == pytest.approx(start, rel=1e-12)
    patches = s.extra["wheel_speed"][0] * r
    assert patches == pytest.approx(np.full(4, s.vx[0]), abs=1e-6)  # settled: no slip left


def test_grip_limit_caps_each_tyres_force():
    free = Tuning(rb.PARAMS, {"side_grip": 50})
    capped = Tuning(rb.PARAMS, {"side_grip": 50, "grip_limit": True, "max_grip": 1.0})
    sideways = moving(vx=0.0, vy=5.0)  # sliding sideways at 5 m/s
    a = step(rb, sideways, Controls(0, 0, 0), free, 1 / 60)
    b = step(rb, sideways, Controls(0, 0, 0), capped, 1 / 60)
    assert abs(b.extra["side_force_front"][0]) == pytest.approx(2 * 1.0)  # two tyres at the cap
    assert abs(a.extra["side_force_front"][0]) > 2 * 1.0
    assert b.vy[0] > a.vy[0]  # the capped tyres slide on


def test_steered_front_wheels_push_the_nose_right():
    p = Tuning(rb.PARAMS)
    spin = 5.0 / p["wheel_radius"]
    s = step(rb, moving(vx=5.0, wheel_speed=[spin] * 4), Controls(1, 0, 0), p, 1 / 60)
    assert s.extra["side_force_front"][0] > 0 and s.extra["omega"][0] > 0
