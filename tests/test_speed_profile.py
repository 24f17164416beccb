"""The forward–backward speed profile against speeds and lap times worked by hand:
round a circle the grip's √(a_lat·R); round an oval of two straights and two half
circles, straight-line kinematics (v² = v0² + 2as) between the bends."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sandbox.analysis.speed_profile import forward_backward, lap_time, profile
from sandbox.physics.kernel import kernel

A_LAT, A_BRAKE, A_ACCEL = 9.0, 9.0, 5.0


def oval(straight: float, radius: float, spacing: float = 0.5):
    """(s (n + 1,), kappa (n,)) of an oval, its points about `spacing` apart, starting
    half way along a straight (so the braking into the first bend wraps past the end);
    each bend's first and last points are on the bend (κ = 1/R), each straight's between
    them (κ = 0), so the straights are exactly `straight` long."""
    pieces = [(straight / 2, 0.0), (math.pi * radius, 1.0 / radius), (straight, 0.0)]
    pieces += [(math.pi * radius, 1.0 / radius), (straight / 2, 0.0)]
    s, kappa, at = [], [], 0.0
    for length, k in pieces:
        count = round(length / spacing)
        inside = np.linspace(at, at + length, count + 1)
        ends = (0 if k or not at else 1, count + 1 if k else count)  # a bend holds its ends
        s += list(inside[ends[0] : ends[1]])
        kappa += [k] * (ends[1] - ends[0])
        at += length
    return np.array(s + [at]), np.array(kappa)


def straight_time(length: float, v_bend: float, v_top: float) -> float:
    """Time (s) on a straight of `length` from a bend at `v_bend` to the next, worked by
    hand: accelerate at A_ACCEL, brake at A_BRAKE, cruise at v_top if reached."""
    both = 1 / A_ACCEL + 1 / A_BRAKE
    v_peak = math.sqrt(v_bend**2 + 2 * length / both)  # (v² − vb²)/2a + (v² − vb²)/2b = length
    if v_peak <= v_top:
        return (v_peak - v_bend) * both
    cruise = length - (v_top**2 - v_bend**2) / 2 * both
    return (v_top - v_bend) * both + cruise / v_top


def test_round_a_circle_the_speed_is_the_grips_and_the_lap_its_length_over_it():
    radius = 50.0
    n = 600
    s = np.linspace(0.0, 2 * math.pi * radius, n + 1)
    v = profile(s, np.full(n, -1.0 / radius), A_LAT, A_BRAKE, A_ACCEL, 100.0)
    assert np.allclose(v, math.sqrt(A_LAT * radius))
    assert lap_time(s, v) == pytest.approx(2 * math.pi * radius / math.sqrt(A_LAT * radius))


@pytest.mark.parametrize("v_top", [100.0, 30.0], ids=["grip-bound", "top-speed-bound"])
def test_an_ovals_lap_is_the_hand_worked_one(v_top):
    straight, radius = 200.0, 40.0
    s, kappa = oval(straight, radius)
    v = profile(s, kappa, A_LAT, A_BRAKE, A_ACCEL, v_top)
    v_bend = math.sqrt(A_LAT * radius)
    by_hand = 2 * math.pi * radius / v_bend + 2 * straight_time(straight, v_bend, v_top)
    assert lap_time(s, v) == pytest.approx(by_hand, rel=1e-5)
    v_peak = math.sqrt(v_bend**2 + 2 * straight / (1 / A_ACCEL + 1 / A_BRAKE))
    assert v.max() == pytest.approx(min(v_top, v_peak), rel=1e-3)  # the peak may fall between points
    assert np.allclose(v[kappa > 0], v_bend)


def test_a_tabled_acceleration_that_ends_at_a_speed_caps_it_there():
    """An acceleration of 5 up to 30 m/s and none above drives the oval as a top speed
    of 30 would (each step overshoots by at most one step's gain)."""
    s, kappa = oval(200.0, 40.0)
    table = [(0.0, A_ACCEL), (30.0, A_ACCEL), (30.000001, 0.0)]
    v = profile(s, kappa, A_LAT, A_BRAKE, table, 100.0)
    assert v.max() == pytest.approx(30.0, abs=0.1)
    by_hand = 2 * math.pi * 40.0 / math.sqrt(A_LAT * 40.0) + 2 * straight_time(200.0, math.sqrt(A_LAT * 40.0), 30.0)
    assert lap_time(s, v) == pytest.approx(by_hand, rel=2e-3)


def test_an_open_line_starts_and_ends_at_its_ends_limits():
    """100 m straight into a bend of 10 m radius at its end: the speed at the end is the
    bend's, and braking to it from the top speed takes (v_top² − v_bend²) / 2b."""
    s = np.linspace(0.0, 100.0, 201)
    kappa = np.zeros(201)
    kappa[-1] = 0.1
    v = profile(s, kappa, A_LAT, A_BRAKE, A_ACCEL, 20.0, closed=False)
    v_bend = math.sqrt(A_LAT * 10.0)
    assert v[0] == 20.0 and v[-1] == pytest.approx(v_bend)
    braking = (20.0**2 - v_bend**2) / (2 * A_BRAKE)
    assert np.all(v[s < 100.0 - braking - 1e-9] == 20.0)
    assert np.all(v[s > 100.0 - braking + 0.5] < 20.0)


@kernel
def _twice(s, kappa, accel_v, accel_a):
    """forward_backward called from compiled code, as a compiled sweep would."""
    return forward_backward(s, kappa, A_LAT, A_BRAKE, accel_v, accel_a, 100.0, True)


def test_the_pass_runs_inside_compiled_code():
    s, kappa = oval(200.0, 40.0)
    inside = _twice(s, kappa, np.array([0.0]), np.array([A_ACCEL]))
    assert np.array_equal(inside, profile(s, kappa, A_LAT, A_BRAKE, A_ACCEL, 100.0))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"s": np.linspace(0, 10, 10)}, "a closed line of 10 curvatures takes 11 distances, not 10"),
        ({"s": np.linspace(10, 0, 11)}, "must not decrease"),
        ({"a_lat": 0.0}, "a_lat must be above 0, not 0.0"),
        ({"a_accel": [(10.0, 1.0), (5.0, 2.0)]}, "speeds must rise"),
    ],
)
def test_bad_input_is_named(change, message):
    arguments = {
        "s": np.linspace(0, 10, 11),
        "kappa": np.zeros(10),
        "a_lat": A_LAT,
        "a_brake": A_BRAKE,
        "a_accel": A_ACCEL,
        "v_top": 50.0,
    }
    with pytest.raises(ValueError, match=message):
        profile(**{**arguments, **change})


def test_an_acceleration_below_zero_slows_the_car_there():
    """A car whose drag beats its drive above 25 m/s (−1 m/s² there) tops out at 25 m/s
    on the oval's straights, never at its top speed; one whose drag above 5 m/s takes
    more than a step's v² away (−60 m/s² over 0.5 m: 60 m²/s², more than 5.1²) stops
    there and pulls away again, never keeping the speed the bends allow."""
    s, kappa = oval(200.0, 40.0)
    v = profile(s, kappa, A_LAT, A_BRAKE, [(0.0, A_ACCEL), (25.0, A_ACCEL), (25.000001, -1.0)], 100.0)
    assert v.max() == pytest.approx(25.0, abs=0.1)
    v = profile(s, kappa, A_LAT, A_BRAKE, [(0.0, A_ACCEL), (5.0, A_ACCEL), (5.000001, -60.0)], 100.0)
    assert v.min() == 0.0 and v.max() < 5.0 + 0.5
