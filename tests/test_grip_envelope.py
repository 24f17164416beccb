"""The grip envelope the g-g diagram draws is the limit the driver's speed profile
plans with: the same kernels, an ellipse of half-axes a_lat across, the acceleration
table's figure ahead and a_brake behind (closed form), and the profile's speeds along a
bend's exit change at exactly the envelope's rate at the lateral acceleration used."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sandbox.analysis import grip_envelope, speed_profile
from sandbox.analysis.grip_envelope import outline
from sandbox.analysis.speed_profile import profile

A_LAT, A_BRAKE = 9.0, 7.0
TABLE_V = np.array([0.0, 20.0, 40.0])
TABLE_A = np.array([6.0, 4.0, 2.0])


def test_the_speed_profile_plans_with_the_envelopes_own_kernels():
    assert speed_profile.accelerating_limit is grip_envelope.accelerating_limit
    assert speed_profile.braking_limit is grip_envelope.braking_limit


@pytest.mark.parametrize("v", [0.0, 10.0, 30.0])
def test_the_envelope_is_the_friction_ellipse_of_the_limits(v):
    lateral, longitudinal = outline(v, A_LAT, A_BRAKE, TABLE_V, TABLE_A, 101)
    ahead = np.interp(v, TABLE_V, TABLE_A)  # 6, 5 and 3 m/s² by the table
    assert lateral.max() == pytest.approx(A_LAT) and lateral.min() == pytest.approx(-A_LAT)
    assert longitudinal.max() == pytest.approx(ahead)  # straight ahead, no lateral grip used
    assert longitudinal.min() == pytest.approx(-A_BRAKE)
    # at the lateral limit (a steady circle at its grip) nothing is left to brake or accelerate
    assert np.all(np.abs(longitudinal[np.isclose(np.abs(lateral), A_LAT)]) < 1e-9)
    half = np.where(longitudinal >= 0, ahead, A_BRAKE)
    assert np.allclose((lateral / A_LAT) ** 2 + (longitudinal / half) ** 2, 1.0)
    assert (lateral[0], longitudinal[0]) == (lateral[-1], longitudinal[-1])  # a closed loop


def test_drag_beating_the_drive_is_not_scaled_by_the_grip_used():
    lateral, longitudinal = outline(50.0, A_LAT, A_BRAKE, TABLE_V, np.array([1.0, 0.0, -0.5]), 11)
    assert np.allclose(longitudinal[:11], -0.5)  # the car slows whatever it corners at


def test_the_profile_leaves_a_bend_at_the_envelopes_acceleration():
    """A bend of 40 m radius eased into a straight over 60 m: on the easing the speed is
    below each point's own limit, and the forward pass raises it by the envelope's
    acceleration at the lateral acceleration v²·κ used there."""
    ds = 0.25
    kappa = np.concatenate([np.full(200, 1 / 40.0), np.linspace(1 / 40.0, 0.0, 240), np.zeros(400)])
    s = np.arange(len(kappa)) * ds
    table_a = np.full(3, 3.0)
    v = profile(s, kappa, A_LAT, A_BRAKE, np.column_stack([TABLE_V, table_a]), 60.0, closed=False, combined=True)
    lateral, longitudinal = outline(0.0, A_LAT, A_BRAKE, TABLE_V, table_a, 2001)
    ahead_lat, ahead_long = lateral[:2001], longitudinal[:2001]
    own = np.sqrt(A_LAT / np.maximum(kappa, 1e-12))
    checked = 0
    for i in range(200, 439):
        if v[i + 1] < min(own[i + 1], 60.0) - 1e-9 and v[i + 1] > v[i]:
            rate = (v[i + 1] ** 2 - v[i] ** 2) / (2 * ds)
            used = v[i] ** 2 * kappa[i]
            assert rate == pytest.approx(np.interp(used, ahead_lat, ahead_long), abs=2e-3)
            assert rate == pytest.approx(3.0 * math.sqrt(1 - (used / A_LAT) ** 2), rel=1e-9)
            checked += 1
    assert checked > 100
