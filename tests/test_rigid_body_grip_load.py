"""Grip ∝ load on the rigid body: each tyre gives at most μ × its quarter of the
weight, so the four together can hold the car on a circle at no more than μ·g, and a
car near its limit settles on a steady circle there (friction circle: F ≤ μ·m·g)."""

import numpy as np
import pytest

from sandbox.files.presets import BUILTIN_DIR, load_preset
from sandbox.physics.models import rigid_body as rb
from sandbox.physics.sim import record

G = rb.GRAVITY
ROAD = dict(load_preset(BUILTIN_DIR / "rigid_body_road.json").tuning)
STEER = 0.6
THROTTLES = (0.05, 0.1, 0.2, 0.3, 0.4)


def circle(tuning, steer: float, throttle: float, hz: int = 60, seconds: float = 60.0):
    """(speed m/s, yaw rate rad/s, speed·yaw rate m/s²) over the last 10 s of a drive
    with steer and throttle held, and the largest acceleration |Δv|/dt of the drive."""
    trace = np.zeros((int(seconds * hz), 5))
    trace[:, 0], trace[:, 1] = steer, throttle
    vx, vy, omega = record(rb, tuning, trace, hz, ("vx", "vy", "omega")).T
    largest = np.hypot(np.diff(vx), np.diff(vy)).max() * hz
    vx, vy, omega = vx[-10 * hz :], vy[-10 * hz :], omega[-10 * hz :]
    speed = np.hypot(vx, vy)
    return speed, omega, speed * omega, largest


def steady(values: np.ndarray) -> bool:
    return np.ptp(values) <= 0.01 * np.abs(values).mean()


@pytest.mark.parametrize("mu", [1.0, 0.5])
def test_the_road_preset_holds_a_steady_circle_at_mu_g(mu):
    tuning = dict(ROAD, mu=mu)
    best = 0.0
    for throttle in THROTTLES:
        speed, omega, lateral, largest = circle(tuning, STEER, throttle)
        assert largest <= mu * G * (1 + 1e-9)  # never past the friction circle
        if steady(speed) and steady(omega):  # on a circle: lateral acceleration = v·ω
            best = max(best, lateral.mean())
    assert best == pytest.approx(mu * G, rel=0.05)


def test_without_grip_load_the_linear_tyres_pass_mu_g():
    """The seed's linear patches have no limit: the same car and drive go past 1 g."""
    speed, omega, lateral, largest = circle(dict(ROAD, grip_load=False), STEER, 0.4)
    assert lateral.max() > 1.5 * G and largest > 1.5 * G


def test_grip_load_cap_is_mu_times_the_quarter_weight():
    """A car at rest, its wheels spun hard: each rear patch pushes with μ·m·g/4."""
    from sandbox.physics.sim import step
    from sandbox.physics.state import Controls, State

    tuning = dict(ROAD, mu=0.8, forward_grip=600)
    s = State.at_rest(1, rb.STATE)
    s.extra["wheel_speed"][0] = [0.0, 0.0, 200.0, 200.0]
    after = step(rb, s, Controls(0.0, 0.0, 0.0), tuning, 1 / 60)
    force = (after.vx[0] - 0.0) * tuning["mass"] * 60  # F = m·Δv/dt
    assert force == pytest.approx(2 * 0.8 * tuning["mass"] * G / 4, rel=1e-9)
