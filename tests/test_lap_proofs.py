"""Proofs that the driver laps as fast as the car's own measured limits allow, against
figures worked out here from those limits and the track's geometry, not read from the
driver or the planner:

- on a ring of radius R (tests/lap_tracks.py, walls both sides), the steady speed is
  √(a_lat·R) (or the top speed, where that is lower) and the lap 2πR / v, within 2 %;
- on an oval of two straights and two half circles, the lap is within 3 % of a
  forward–backward pass over the oval's own geometry, worked out here.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from lap_tracks import oval, ring
from sandbox.analysis.driven_laps import drive_timed_laps
from sandbox.analysis.lap_driver import COL_X, COL_Y, DISTANCE, SPEED
from sandbox.physics.models import MODELS
from sandbox.physics.params import Tuning

HZ = 60
RADIUS, HALF_WIDTH = 60.0, 8.0
"""m: the ring's middle and its half width."""
ALL = sorted(MODELS)
TOP_LIMITED = {"ackermann", "arcade", "bicycle"}
"""Models whose default tuning's top speed is below √(a_lat·R) on this ring: the
kinematic bicycle and Ackermann cars turn on a circle at any speed (their skid-pad
figure is only their full-lock circle at their top speed), and the arcade car's grip
(36 m/s²) would hold 47 m/s there, twice its top speed. The monster's and the rigid
body's grip is the limit."""


def per_metre(model) -> float:
    """The model's length units per metre (25 px per metre for the models in px)."""
    return 25.0 if model.LENGTH_UNIT == "px" else 1.0


@pytest.mark.parametrize("name", ALL)
def test_on_a_ring_the_driver_holds_the_grip_limit_speed_and_laps_in_two_pi_r_over_v(name):
    """R is the radius the racing line takes on the ring (least curvature: as far out
    as the walls less the car's margin let it), measured from the line's points; the
    car holds that circle within 0.75 m from half-way round lap 2 (the rigid body
    weaves ±0.5 m), and its laps 2 and 3 take 2πR / v, v = min(√(a_lat·R), v_top)
    from the car's measured limits (`car_limits`)."""
    model = MODELS[name]
    k = per_metre(model)
    driven = drive_timed_laps(model, Tuning(model.PARAMS), ring(RADIUS, HALF_WIDTH), 3, HZ)
    limits = driven.plan.limits
    radius = float(np.mean(np.hypot(*driven.plan.line.points.T)))
    assert np.ptp(np.hypot(*driven.plan.line.points.T)) < 0.01 * k, "the line on a ring is a circle"
    grip = math.sqrt(limits.lateral * radius)
    expected = min(grip, limits.top)
    assert (grip > limits.top) == (name in TOP_LIMITED)
    rows = driven.drive.rows
    settled = rows[:, DISTANCE] > driven.first + 1.5 * driven.drive.lap_length  # laps 2 and 3, mostly
    held = np.hypot(rows[settled, COL_X], rows[settled, COL_Y])
    assert np.abs(held - radius).max() <= 0.75 * k, f"{name}: {np.abs(held - radius).max() / k:.2f} m off the line"
    assert rows[settled, SPEED].mean() == pytest.approx(expected, rel=0.02)
    laps = driven.laps[:3]
    assert len(laps) == 3 and all(lap.valid for lap in laps)
    for lap in laps[1:]:
        assert lap.time == pytest.approx(2 * math.pi * radius / expected, rel=0.02)


OVAL_RADIUS, OVAL_STRAIGHT, OVAL_HALF_WIDTH = 40.0, 150.0, 8.0
"""m: the oval's bends (radius along its middle), its straights, its half width."""


def curvature_of(points: np.ndarray) -> np.ndarray:
    """|κ| (n,) at each point of a closed polygon: 1 / the radius of the circle through
    it and its two neighbours (4·area / the product of the triangle's sides)."""
    a, b, c = np.roll(points, 1, axis=0), points, np.roll(points, -1, axis=0)
    sides = np.hypot(*(b - a).T) * np.hypot(*(c - b).T) * np.hypot(*(a - c).T)
    cross = (b - a)[:, 0] * (c - b)[:, 1] - (b - a)[:, 1] * (c - b)[:, 0]
    return 2.0 * np.abs(cross) / sides


def lap_time_from_limits(points: np.ndarray, limits) -> float:
    """The lap (s) round the closed polygon `points` at the fastest speeds the limits
    allow: at each point at most the top speed and √(a_lat / |κ|); from point to point
    the speed grows by at most v² + 2·a(v)·ds (a(v) the car's acceleration table) and
    falls by at most the braking's v² + 2·a_brake·ds, both times √(1 − u²) where the
    car uses a share u = v²·|κ| / a_lat of its grip (a friction ellipse); passes run
    round twice each way, three times over; each stretch at a steady acceleration."""
    ds = np.hypot(*(np.roll(points, -1, axis=0) - points).T)
    kappa = curvature_of(points)
    top = limits.top if math.isfinite(limits.top) else math.inf
    v = np.minimum(top, np.sqrt(limits.lateral / np.maximum(kappa, 1e-12)))
    n = len(v)

    def left(i):
        u = v[i] ** 2 * kappa[i] / limits.lateral
        return math.sqrt(max(0.0, 1.0 - u * u))

    for _ in range(3):
        for step in range(2 * n):
            i, j = step % n, (step + 1) % n
            drive = np.interp(v[i], limits.accel[:, 0], limits.accel[:, 1]) * left(i)
            v[j] = min(v[j], math.sqrt(max(0.0, v[i] ** 2 + 2.0 * drive * ds[i])))
        for step in range(2 * n):
            j = (-step) % n
            i = (j - 1) % n
            v[i] = min(v[i], math.sqrt(v[j] ** 2 + 2.0 * limits.braking * left(j) * ds[i]))
    return float(np.sum(2.0 * ds / (v + np.roll(v, -1))))


@pytest.mark.parametrize("name", ALL)
def test_on_an_oval_the_flying_laps_take_the_time_the_car_s_limits_allow(name):
    """Laps 2 and 3 (flying laps; lap 1 starts from rest) within 3 % of the lap worked
    out here over the racing line's points from the car's measured limits."""
    model = MODELS[name]
    track = oval(OVAL_RADIUS, OVAL_STRAIGHT, OVAL_HALF_WIDTH)
    driven = drive_timed_laps(model, Tuning(model.PARAMS), track, 3, HZ)
    expected = lap_time_from_limits(np.asarray(driven.plan.line.points), driven.plan.limits)
    laps = driven.laps[:3]
    assert len(laps) == 3 and all(lap.valid for lap in laps), [lap.marks for lap in laps]
    for lap in laps[1:]:
        assert lap.time == pytest.approx(expected, rel=0.03)
