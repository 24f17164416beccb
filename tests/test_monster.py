"""The dynamic car against seed 004: its worked numbers, and the behaviour it
promises (and the low-speed treatment it asks for)."""

import math

import numpy as np
import pytest

from sandbox.physics.models import monster as mo
from sandbox.physics.params import Tuning
from sandbox.physics.sim import step
from sandbox.physics.state import Controls, State

DT = 1 / 60


def corvette(**changes):
    return Tuning(mo.PARAMS, changes)


def drive(state, controls, p, ticks):
    return step(mo, state, controls, p, DT, ticks=ticks)  # one compiled run


def test_448_nm_in_first_gear_gives_8391_n():
    p = corvette()
    assert round(float(mo.drive_force(448, mo.gear_ratio(p, 1), p))) == 8391  # 448·2.66·3.42·0.7/0.34


def test_17_rad_s_in_first_is_about_1460_rpm():
    """The seed rounds 17·2.66·3.42 = 154.7 rad/s to 153 and gets 1460 rpm; the exact
    product is 1477 rpm, within that rounding."""
    rpm = float(mo.engine_rpm(17.0, mo.gear_ratio(corvette(), 1), corvette()))
    assert rpm == pytest.approx(17 * 2.66 * 3.42 * 60 / (2 * math.pi))
    assert rpm == pytest.approx(1460, rel=0.012)


def test_weight_shift_is_2940_n_at_4_9_m_s2():
    front, rear = mo.axle_loads(corvette(), 4.9)  # b = c = 1.25, h = 1.0, 1500 kg
    assert float(front) == pytest.approx(7350 - 2940) and float(rear) == pytest.approx(7350 + 2940)


def test_4400_rpm_in_first_is_17_2_m_s():
    p = corvette()
    # rolling: speed = rpm·2π/60 / (xg·xd) · Rw; find it from the model's own rpm formula
    speed = 17.2
    assert float(mo.engine_rpm(speed / 0.34, mo.gear_ratio(p, 1), p)) == pytest.approx(4400, rel=0.002)


def test_torque_curve_passes_the_seeds_points():
    p = corvette()
    assert list(mo.torque_curve(np.array([2500.0, 4400.0, 6500.0]), p)) == [448, 475, 0]


def test_torque_curve_per_car_is_bit_for_bit_the_shared_one():
    """One curve for all cars goes through np.interp, curves per car through the
    formula written out: a car's torque may not depend on which one its batch took.
    Between two points it is the straight line through them; beyond them, their value."""
    rng = np.random.default_rng(5)
    p = dict(
        corvette(),
        **{f"torque_{r}": float(v) for r, v in zip(mo.TORQUE_RPM, rng.uniform(100, 900, 8))},
        redline_rpm=9000.0,
    )
    rpm = np.concatenate([rng.uniform(0, 9000, 5000), np.array(mo.TORQUE_RPM, dtype=float)])
    shared = mo.torque_curve(rpm, p)
    per_car = mo.torque_curve(
        rpm, dict(p, **{f"torque_{r}": np.full(len(rpm), p[f"torque_{r}"]) for r in mo.TORQUE_RPM})
    )
    assert np.array_equal(shared, per_car)
    knots, values = np.array(mo.TORQUE_RPM, dtype=float), [p[f"torque_{r}"] for r in mo.TORQUE_RPM]
    middle = (knots[2] + knots[3]) / 2
    assert float(mo.torque_curve(np.array([middle]), p)[0]) == pytest.approx((values[2] + values[3]) / 2)
    assert list(mo.torque_curve(np.array([500.0, 8000.0]), p)) == [values[0], values[-1]]


def kinetic_energy(s, p):
    """Car, yaw and rear-axle spin: what the tyre forces can only take away."""
    return (
        0.5 * p["mass"] * s.speed[0] ** 2
        + 0.5 * p["yaw_inertia"] * s.extra["omega"][0] ** 2
        + 0.5 * p["wheel_inertia"] * s.extra["wheel_omega"][0] ** 2
    )


@pytest.mark.parametrize("speed", [5.0, 15.0, 30.0])
def test_coasting_at_full_lock_never_gains_speed(speed):
    """Rolling (wheels at road speed), no pedal, full lock: slower every tick."""
    p = corvette()
    s = State.at_rest()
    s.vx[:] = speed
    s.extra["wheel_omega"] = np.array([speed / p["wheel_radius"]])
    s.extra["gear"] = np.array([3.0])
    for _ in range(60 * 8):
        before = s.speed[0]
        s = step(mo, s, Controls(1, 0, 0), p, DT)
        assert s.speed[0] <= before
    assert s.speed[0] < speed


def test_lifting_off_at_full_lock_never_adds_energy():
    """Released from full throttle the spinning rear wheels still push (the seed has no
    engine braking), but the total kinetic energy only ever falls."""
    p = corvette()
    s = drive(State.at_rest(), Controls(0, 1, 0), p, 60 * 5)
    for _ in range(60 * 8):
        energy = kinetic_energy(s, p)
        s = step(mo, s, Controls(1, 0, 0), p, DT)
        assert kinetic_energy(s, p) <= energy * (1 + 1e-12)


@pytest.mark.parametrize("literal", [False, True])
def test_only_the_tutorials_literal_cornering_force_adds_energy(literal):
    """Why the correction is on by default. With drag and rolling resistance off, so
    only the tyres act, a car rolling at 25 m/s on full lock: the whole tyre force never
    adds energy; the tutorial's cornering force (without −sin δ·F_lat,f) does."""
    p = corvette(tutorial_cornering=literal, c_drag=0, c_rr=0)
    s = State.at_rest()
    s.vx[:] = 25.0
    s.extra["wheel_omega"] = np.array([25.0 / p["wheel_radius"]])
    s.extra["gear"] = np.array([3.0])
    s.extra["omega"] = np.array([0.0])
    gained = 0
    for _ in range(480):
        energy = kinetic_energy(s, p)
        s = step(mo, s, Controls(1, 0, 0), p, DT)
        gained += kinetic_energy(s, p) > energy * (1 + 1e-12)
    assert (gained > 0) == literal


def test_standing_still_with_full_steer_and_no_throttle_does_not_move():
    s = drive(State.at_rest(), Controls(1, 0, 0), corvette(), 600)
    assert (s.x[0], s.y[0], s.heading[0], s.vx[0], s.vy[0]) == (0, 0, 0, 0, 0)


def forward(s):
    return math.cos(s.heading[0]) * s.vx[0] + math.sin(s.heading[0]) * s.vy[0]


def test_braking_to_a_stop_neither_jitters_nor_creeps():
    p = corvette()
    s = drive(State.at_rest(), Controls(0, 1, 0), p, 120)
    s = drive(s, Controls(0.5, 1, 0), p, 60)
    speeds = []
    while forward(s) > mo.STOP:  # brake until nearly stopped (holding on would reverse)
        s = step(mo, s, Controls(0, 0, 1), p, DT)
        speeds.append(forward(s))
    assert np.all(np.diff(speeds) < 0)  # every braking tick slower, no bounce
    ticks = 0
    while s.speed[0] > 0:  # released: rolls to a stop in finite time (the seed's weak Crr)
        s = step(mo, s, Controls(0, 0, 0), p, DT)
        assert forward(s) >= 0  # never rolls backwards
        ticks += 1
        assert ticks < 60 * 30
    x, y, h = s.x[0], s.y[0], s.heading[0]
    s = drive(s, Controls(0, 0, 0), p, 600)  # then stays put, exactly: no creep
    assert (s.x[0], s.y[0], s.heading[0], s.speed[0]) == (x, y, h, 0)


def test_coasting_stops_in_finite_time_instead_of_creeping():
    s = State.at_rest()
    s.vx[:] = 1.5  # rolling slowly, wheels matching
    s.extra["wheel_omega"] = np.array([1.5 / 0.34])
    s = drive(s, Controls(0, 0, 0), corvette(), 60 * 120)
    # held at Crr·2 m/s the slowdown is 0.017 m/s²: stopped within ~90 s, while Crr·v
    # alone would still be rolling at 1.5·e^(-12.8/1500·120) = 0.54 m/s
    assert s.speed[0] == 0


def test_automatic_gearbox_shifts_up_and_the_engine_stays_in_range():
    p = corvette()
    s = State.at_rest()
    gears, rpms = [], []
    for _ in range(60 * 20):
        s = step(mo, s, Controls(0, 1, 0), p, DT)
        gears.append(s.extra["gear"][0])
        rpms.append(s.extra["rpm"][0])
    assert gears[0] == 1 and max(gears) >= 4 and np.all(np.diff(gears) >= 0)
    assert min(rpms) >= 1000 and max(rpms) <= 6000 + 300  # idle floor, shifts before the redline


def test_manual_gears_follow_the_shift_input_only():
    p = corvette(manual_gears=True)
    s = drive(State.at_rest(), Controls(0, 1, 0), p, 60 * 6)
    assert s.extra["gear"][0] == 1  # no automatic shift
    s = step(mo, s, Controls(0, 1, 0, shift=1), p, DT)
    assert s.extra["gear"][0] == 2
    s = step(mo, s, Controls(0, 1, 0, shift=-1), p, DT)
    assert s.extra["gear"][0] == 1


def test_brake_at_rest_reverses_and_throttle_goes_forward_again():
    p = corvette()
    s = drive(State.at_rest(), Controls(0, 0, 1), p, 120)
    assert s.extra["gear"][0] == -1 and s.vx[0] < -0.5
    s = drive(s, Controls(0, 1, 0), p, 90)  # in reverse the throttle brakes, then drives forward
    assert s.extra["gear"][0] == 1 and s.vx[0] > 0.5


def test_handbrake_locks_the_rear_wheels():
    p = corvette()
    s = drive(State.at_rest(), Controls(0, 1, 0), p, 180)
    s = drive(s, Controls(0, 0, 0, handbrake=1), p, 2)
    assert s.extra["wheel_omega"][0] == 0
    assert s.extra["slip_ratio"][0] == pytest.approx(-1.0)  # a locked wheel slides: SR = -1


def test_traction_curves():
    p = corvette()
    sr = np.array([0.0, 0.03, 0.06, 0.5, -0.5])
    assert list(mo.traction_ratio(sr, p)) == pytest.approx([0.0, 0.501, 1.0, 1.0, -1.0], abs=1e-3)  # capped linear
    magic = mo.traction_ratio(np.linspace(0, 1, 201), corvette(pacejka=True))
    peak = np.argmax(magic)
    assert magic[peak] == pytest.approx(1.0, abs=0.01) and 0 < peak < 200 and magic[-1] < magic[peak]


def test_grip_limit_follows_the_axle_load():
    """Lateral force never exceeds μ × the axle's load, whatever the slip angle."""
    p = corvette()
    s = drive(State.at_rest(), Controls(0, 1, 0), p, 300)
    for _ in range(300):
        s = step(mo, s, Controls(1, 1, 0), p, DT)
        assert abs(s.extra["lat_front"][0]) <= s.extra["load_front"][0] * 1.0 + 1e-9
        assert abs(s.extra["lat_rear"][0]) <= s.extra["load_rear"][0] * 1.0 + 1e-9


def test_force_curve_has_a_line_per_gear_and_the_top_speed_balances():
    p = corvette()
    top = mo.top_speed(p, DT)
    curve = mo.force_curve(p, np.array([top]), DT)
    assert [k for k in curve] == [f"gear {g}" for g in "123456"] + ["resistance", "net"]
    assert curve["net"][0] == pytest.approx(0, abs=1e-6)
    # straight-line simulation reaches the same top speed (wheels slip a little: within 2 %)
    s = drive(State.at_rest(), Controls(0, 1, 0), p, 60 * 120)
    assert s.speed[0] == pytest.approx(top, rel=0.02)


def test_whether_a_tuning_has_a_top_speed_is_whether_its_net_force_ever_falls_to_zero():
    """The batch answer (`has_top_speeds`, tuning rows) against the force curve's net
    acceleration over the top-speed grid: the Corvette balances drag (finite); with no
    drag nor rolling resistance and a sixth gear whose redline speed,
    redline·2π/60·Rw/(x6·xd), is beyond the grid's 150 m/s, nothing balances it (inf)."""
    from sandbox.physics.params import param_rows

    tunings = [corvette(), corvette(c_drag=0.0, c_rr=0.0, gear_6=0.5, differential=1.0), corvette(mass=900.0)]
    p = tunings[1]
    redline_speed = p["redline_rpm"] * 2 * math.pi / 60 * p["wheel_radius"] / (p["gear_6"] * p["differential"])
    assert redline_speed > mo.TOP_SPEED_GRID[-1]
    rows = np.vstack([param_rows(mo.PARAMS, t, 1)[0] for t in tunings])
    expected = [bool(np.any(mo.force_curve(t, mo.TOP_SPEED_GRID, DT)["net"] <= 0)) for t in tunings]
    assert expected == [True, False, True]
    assert mo.has_top_speeds(rows, DT).tolist() == expected
    assert [math.isfinite(mo.top_speed(t, DT)) for t in tunings] == expected
