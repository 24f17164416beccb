"""The dynamic car's rear wheel and brakes: the slip settles on the tyre curve at
every tick rate, and braking can use the grip that is there.

Independent expectations: the tyre curve itself (traction = Ct·SR·rear load in its
linear part), the tick rate (30 Hz and 240 Hz must agree), the closed form v²/(2μg)
of a stop at the friction limit, and a = (brake torque/R + resistance)/(M + Iw/R²)
below it."""

import numpy as np
import pytest

from sandbox.files.presets import BUILTIN_DIR, load_preset
from sandbox.physics.models import monster as mo
from sandbox.physics.sim import record
from sandbox.physics.state import State

CORVETTE = dict(load_preset(BUILTIN_DIR / "monster_corvette_c5.json").tuning)
ABS = load_preset(BUILTIN_DIR / "monster_corvette_abs.json")
MPH_60 = 60 * 0.44704
RATES = (30, 60, 120, 240)


def launch(tuning, hz: int, seconds: float = 12.0):
    """Full throttle from rest: per tick (speed m/s, rpm, gear, slip ratio, traction N,
    rear load N), the state after each tick."""
    trace = np.zeros((int(seconds * hz), 5))
    trace[:, 1] = 1.0
    vx, vy, *rest = record(mo, tuning, trace, hz, ("vx", "vy", "rpm", "gear", "slip_ratio", "traction", "load_rear")).T
    return (np.hypot(vx, vy), *rest)


def zero_to_60(tuning, hz: int) -> float:
    speed = launch(tuning, hz)[0]
    i = int(np.argmax(speed >= MPH_60))
    return (i + (MPH_60 - speed[i - 1]) / (speed[i] - speed[i - 1])) / hz  # tick i ends at (i + 1)/hz


@pytest.mark.parametrize("pacejka", [False, True])
def test_rpm_at_a_speed_in_first_gear_agrees_between_tick_rates(pacejka):
    rpm_at = {}
    for hz in RATES:
        speed, rpm, gear, *_ = launch(dict(CORVETTE, pacejka=pacejka), hz)
        first = gear == 1
        rpm_at[hz] = np.interp(8.0, speed[first], rpm[first])
    assert max(rpm_at.values()) / min(rpm_at.values()) - 1 < 0.01, rpm_at


@pytest.mark.parametrize("pacejka", [False, True])
def test_zero_to_60_mph_agrees_between_tick_rates(pacejka):
    times = {hz: zero_to_60(dict(CORVETTE, pacejka=pacejka), hz) for hz in RATES}
    assert max(times.values()) / min(times.values()) - 1 < 0.01, times


@pytest.mark.parametrize("hz", [30, 60, 240])
def test_the_slip_settles_on_the_tyre_curve(hz):
    """In first gear below the grip limit, traction/rear load = Ct·SR (the capped linear
    curve's linear part) within 3 %: the slip is the curve's, not one tick's impulse."""
    speed, rpm, gear, slip, traction, load = launch(CORVETTE, hz)
    at = (gear == 1) & (speed > 8) & (speed < 14)
    assert at.sum() > 5
    ratio = traction[at] / (load[at] * slip[at])
    assert ratio == pytest.approx(np.full(at.sum(), CORVETTE["traction_slope"]), rel=0.03)
    assert np.all(slip[at] < CORVETTE["mu"] / CORVETTE["traction_slope"])  # below the peak


def brake_from(tuning, hz: int, v0: float, seconds: float = 20.0):
    """Full brake from v0 (m/s) in 4th gear, wheels rolling: (x, vx, wheel spin) per tick."""
    s = State.at_rest(1, mo.STATE)
    s.vx[:] = v0
    s.extra["wheel_omega"][:] = v0 / tuning["wheel_radius"]
    s.extra["gear"][:] = 4
    trace = np.zeros((int(seconds * hz), 5))
    trace[:, 2] = 1.0
    return record(mo, tuning, trace, hz, ("x", "vx", "wheel_omega"), start=s).T


@pytest.mark.parametrize("hz", [30, 60, 240])
def test_the_abs_preset_stops_from_100_kmh_at_mu_g(hz):
    v0 = 100 / 3.6
    tuning = dict(ABS.tuning)
    x, vx, _ = brake_from(tuning, hz, v0)
    stopped = int(np.argmax(vx <= 0.05))
    assert stopped > 0
    closed_form = v0**2 / (2 * tuning["mu"] * mo.G)
    assert x[stopped] == pytest.approx(closed_form, rel=0.05)


def test_the_texts_split_cannot_use_the_grip():
    """Default brakes (the tutorial's 6000 N front, 3000 N·m rear): well short of μ·g."""
    v0 = 100 / 3.6
    x, vx, _ = brake_from(CORVETTE, 60, v0)
    assert x[int(np.argmax(vx <= 0.05))] > 1.3 * v0**2 / (2 * CORVETTE["mu"] * mo.G)


def test_below_the_grip_the_brake_torque_sets_the_deceleration():
    """2000 N·m in all: every axle below its limit, so M·a = −T/R − resistance, the
    rear wheel's inertia adding Iw/R² to the mass it slows."""
    tuning = dict(CORVETTE, four_wheel_brakes=True, brake_total=2000, brake_bias=0.6)
    hz, v0 = 240, 20.0
    x, vx, _ = brake_from(tuning, hz, v0, seconds=2.0)
    t = 1.0
    i = int(t * hz)
    v = vx[i]
    a = (vx[i + 1] - vx[i - 1]) * hz / 2
    r, m, iw = tuning["wheel_radius"], tuning["mass"], tuning["wheel_inertia"]
    resist = tuning["c_drag"] * v * v + tuning["c_rr"] * v
    expected = -(tuning["brake_total"] / r + resist) / (m + iw / r**2)
    assert a == pytest.approx(expected, rel=0.01)


def test_without_abs_a_strong_brake_locks_the_rear_and_with_abs_it_keeps_turning():
    tuning = dict(CORVETTE, four_wheel_brakes=True, brake_total=12000, brake_bias=0.5)
    _, vx, spin = brake_from(tuning, 60, 25.0, seconds=1.0)
    assert spin[-1] == 0.0 and vx[-1] > 10
    _, vx, spin = brake_from(dict(tuning, abs=True), 60, 25.0, seconds=1.0)
    held = 1 - spin[-1] * tuning["wheel_radius"] / vx[-1]  # the braking slip ratio
    assert held == pytest.approx(tuning["mu"] / tuning["traction_slope"], rel=0.05)  # the curve's peak


def test_a_dynamic_car_preset_from_before_the_brake_options_drives_as_it_did():
    """A format-2 Corvette file loads with the text's brake split (the new options off)."""
    old = load_preset(__import__("pathlib").Path(__file__).parent / "data" / "preset_format2_monster_corvette_c5.json")
    assert old.tuning["four_wheel_brakes"] is False and old.tuning["abs"] is False
    a = brake_from(dict(old.tuning), 60, 25.0, seconds=3.0)
    b = brake_from(CORVETTE, 60, 25.0, seconds=3.0)
    assert np.array_equal(a, b)


@pytest.mark.parametrize("hz", [10, 20, 30, 60])
def test_abs_stops_a_slow_car_without_reversing_it(hz):
    """At walking pace a tick of full braking at the peak would take more than the
    speed: a braking tick ends at rest at worst, never rolling backwards. (Below
    monster.STOP the held brake pedal selects reverse and drives, as it always has.)"""
    for v0 in (0.3, 1.0, 3.0):
        _, vx, _ = brake_from(dict(ABS.tuning), hz, v0, seconds=1.0)
        before = np.concatenate([[v0], vx[:-1]])
        braking = before >= mo.STOP  # ticks that started fast enough for the pedal to brake
        assert braking.any() and vx[braking].min() > -1e-9, (v0, vx[:5])
