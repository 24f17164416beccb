"""The kinematic bicycle (seed 000) and Ackermann kinematics (seed 002) against
their sources' numbers and geometry."""

import math

import numpy as np
import pytest

from sandbox.physics.models import ackermann, bicycle
from sandbox.physics.params import Tuning
from sandbox.physics.sim import step
from sandbox.physics.state import Controls, State


def cruising(model, speed, **params):
    """A tuning whose throttle holds `speed` exactly, and a car already at it."""
    p = dict(Tuning(model.PARAMS, params))
    p["max_speed"] = speed
    s = State.at_rest()
    s.extra["speed"] = np.array([float(speed)])
    return p, s


def drive(model, state, p, controls, dt, seconds):
    return step(model, state, controls, p, dt, ticks=round(seconds / dt))  # one compiled run


@pytest.mark.parametrize("dt", [0.001, 0.01, 0.1])
def test_bicycle_reproduces_the_blogs_2_497_degrees(dt):
    """Blog reply 20.1: wheel base 2, speed 1, steer 5°, 1 s from heading 0 -> 2.497°."""
    p, s = cruising(bicycle, 1.0, wheel_base=2, max_steer=5)
    s = drive(bicycle, s, p, Controls(1, 1, 0), dt, 1.0)
    assert round(math.degrees(s.heading[0]), 3) == 2.497


def test_bicycle_limit_heading_rate_is_speed_sin_steer_over_wheel_base():
    p, s = cruising(bicycle, 1.0, wheel_base=2, max_steer=5)
    s = drive(bicycle, s, p, Controls(1, 1, 0), 0.0001, 1.0)
    assert s.heading[0] == pytest.approx(math.sin(math.radians(5)) / 2, rel=1e-4)


def test_bicycle_exact_arc_gives_the_same_pose_for_any_dt():
    poses = []
    for dt in (0.001, 0.1):
        p, s = cruising(bicycle, 3.0, wheel_base=2.5, max_steer=25, exact_arc=True)
        s = drive(bicycle, s, p, Controls(1, 1, 0), dt, 2.0)
        poses.append((s.x[0], s.y[0], s.heading[0]))
    assert poses[0] == pytest.approx(poses[1], abs=1e-9)
    # and it is a circle about the centre at wheel_base / tan(steer) off the back wheel
    back = 2.5 / math.tan(math.radians(25))
    radius = math.hypot(back, 2.5 / 2)
    x, y, _ = poses[0]
    assert math.hypot(x - (-1.25 * 1 + 0), y - back) == pytest.approx(radius, abs=1e-9)


def test_bicycle_wheel_base_is_conserved():
    """Comment 4/5: the wheels are rebuilt from the centre every tick, so turning for a
    minute never shrinks the wheel base: every tick turns by the same angle."""
    p, s = cruising(bicycle, 10.0, wheel_base=2.5, max_steer=20)
    turns = []
    for _ in range(3600):
        before = s.heading[0]
        s = step(bicycle, s, Controls(1, 1, 0), p, 1 / 60)
        turns.append(math.remainder(s.heading[0] - before, 2 * math.pi))
    assert max(turns) - min(turns) < 1e-9


def test_front_wheel_correction_keeps_the_wheels_exactly_one_wheel_base_apart():
    p, s = cruising(bicycle, 20.0, wheel_base=2.5, max_steer=40)
    plain = step(bicycle, s, Controls(1, 1, 0), p, 1 / 10)
    fixed = step(bicycle, s, Controls(1, 1, 0), {**p, "keep_wheel_base": True}, 1 / 10)
    assert abs(plain.extra["wheel_gap"][0] - 2.5) > 1e-3  # the blog's step stretches it
    assert fixed.extra["wheel_gap"][0] == pytest.approx(2.5, abs=1e-12)


def test_steering_eases_in_and_returns_to_centre_at_its_rates():
    p, s = cruising(bicycle, 10.0, max_steer=30, steer_rate=60, return_rate=120)
    s = step(bicycle, s, Controls(1, 1, 0), p, 0.1)
    assert math.degrees(s.extra["steer"][0]) == pytest.approx(6.0)  # 60 °/s for 0.1 s
    s = drive(bicycle, s, p, Controls(1, 1, 0), 0.1, 1.0)
    assert math.degrees(s.extra["steer"][0]) == pytest.approx(30.0)  # capped at full lock
    s = step(bicycle, s, Controls(0, 1, 0), p, 0.1)
    assert math.degrees(s.extra["steer"][0]) == pytest.approx(18.0)  # back at 120 °/s
    s = drive(bicycle, s, p, Controls(0, 1, 0), 0.1, 1.0)
    assert s.extra["steer"][0] == 0  # and not past zero


def test_return_with_speed_keeps_a_parked_cars_wheels_turned():
    p, s = cruising(bicycle, 0.0, steer_rate=90, return_rate=90, return_with_speed=True)
    s.extra["steer"] = np.array([0.3])
    s = drive(bicycle, s, p, Controls(0, 0, 0), 0.1, 1.0)
    assert s.extra["steer"][0] == 0.3


def test_drift_illusions_draw_the_body_off_the_path():
    p, s = cruising(bicycle, 15.0, drift_overrotate=1.0)
    s = drive(bicycle, s, p, Controls(1, 1, 0), 1 / 60, 0.5)
    assert s.extra["display_heading"][0] - s.heading[0] == pytest.approx(math.radians(30) * 15 / 15)
    assert abs(s.slip_angle[0]) > 0.3  # measured from the drawn body
    p, s = cruising(bicycle, 15.0, drift_delay=0.2)
    s = drive(bicycle, s, p, Controls(1, 1, 0), 1 / 60, 1.0)
    lagging = abs(s.slip_angle[0])
    p0, s0 = cruising(bicycle, 15.0)
    s0 = drive(bicycle, s0, p0, Controls(1, 1, 0), 1 / 60, 1.0)
    # the plain bicycle's centre already runs off the heading (it moves with the mean
    # of the two wheels); the delay adds a clear lag on top of the same drive without it
    assert lagging > abs(s0.slip_angle[0]) + 0.1


def test_ackermann_inner_angle_makes_all_axes_meet():
    p = Tuning(ackermann.PARAMS, {"wheel_base": 2.6, "track_width": 1.5})
    for deg in (5, 15, 30, 45):
        a = math.radians(deg)
        b = ackermann.inner_angle(np.array(a), p)
        assert 1 / math.tan(a) - 1 / math.tan(b) == pytest.approx(1.5 / 2.6, rel=1e-12)  # cot α − cot β = w/l
        assert b > a


def test_ackermann_centre_and_omega_follow_the_seed():
    p, s = cruising(ackermann, 5.0, wheel_base=2.6, track_width=1.5, max_steer=20)
    s.heading[:] = 0.3
    s.x[:], s.y[:] = 4.0, -2.0
    after = step(ackermann, s, Controls(1, 1, 0), p, 0.05)
    d = np.array([math.cos(0.3), math.sin(0.3)])
    perp = np.array([-d[1], d[0]])  # towards the centre on a right turn (y down)
    pr = np.array([4.0, -2.0]) - 1.3 * d - 0.75 * perp  # outer rear wheel
    c = pr + 2.6 / math.tan(math.radians(20)) * perp  # c = p_r + l cot α d⊥
    omega = 5.0 / (2.6 / math.tan(math.radians(20)))  # ω = s / (l cot α)
    assert after.extra["icr_x"][0] == pytest.approx(c[0]) and after.extra["icr_y"][0] == pytest.approx(c[1])
    assert after.extra["omega"][0] == pytest.approx(omega)
    turn = omega * 0.05
    rot = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
    expected = c + rot @ (np.array([4.0, -2.0]) - c)
    assert (after.x[0], after.y[0]) == pytest.approx(tuple(expected))
    assert after.heading[0] == pytest.approx(0.3 + turn)


@pytest.mark.parametrize("steer", [1.0, -0.6])
def test_ackermann_full_circle_returns_to_the_start(steer):
    p, s = cruising(ackermann, 4.0, max_steer=25)
    probe = step(ackermann, s, Controls(steer, 1, 0), p, 1e-3)
    period = 2 * math.pi / abs(probe.extra["omega"][0])
    ticks = 500
    s = drive(ackermann, s, p, Controls(steer, 1, 0), period / ticks, period)
    assert (s.x[0], s.y[0]) == pytest.approx((0.0, 0.0), abs=1e-9)
    assert math.remainder(s.heading[0], 2 * math.pi) == pytest.approx(0.0, abs=1e-9)


def test_ackermann_guards_the_inner_wheel_below_89_degrees():
    p, s = cruising(ackermann, 2.0, wheel_base=1.0, track_width=3.0, max_steer=60)
    s = step(ackermann, s, Controls(1, 1, 0), p, 0.1)
    assert math.degrees(s.extra["beta"][0]) == pytest.approx(89.0)
    assert np.isfinite([s.x[0], s.y[0], s.heading[0]]).all()
