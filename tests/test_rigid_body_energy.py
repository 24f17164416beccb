"""The rigid body's tyres only take energy out: coasting, the kinetic energy of the
chassis (translation and yaw) and the four wheels' spin never rises.

Each patch pushes the chassis and, with the opposite sign, its wheel: the power is
F·(v_patch − ω_wheel·r) = −grip·slip² ≤ 0 when both feel the same force, and the
explicit tick keeps that sign as long as it does not push a slip past its opposite."""

import numpy as np
import pytest

from random_tunings import random_tunings
from sandbox.files.presets import BUILTIN_DIR, load_preset
from sandbox.physics.models import rigid_body as rb
from sandbox.physics.sim import step, tuning_rows
from sandbox.physics.state import Controls, State

PRESETS = sorted(p.stem for p in BUILTIN_DIR.glob("rigid_body_*.json"))
ROUNDING = 1e-12
"""relative: how far float rounding may lift the energy in one tick."""


def energy(state: State, tuning) -> np.ndarray:
    """J per car: ½m|v|² + ½Iω² + Σ½I_w·ω_w²."""
    m, iw = np.asarray(tuning["mass"]), np.asarray(tuning["wheel_inertia"])
    spin = state.extra["wheel_speed"]
    return (
        0.5 * m * (state.vx**2 + state.vy**2)
        + 0.5 * rb.inertia(tuning) * state.extra["omega"] ** 2
        + 0.5 * iw * (spin**2).sum(axis=1)
    )


def moving_cars(n: int, seed: int) -> State:
    """n cars sliding every way: random velocity, yaw rate and wheel spins."""
    rng = np.random.default_rng(seed)
    s = State.at_rest(n, rb.STATE)
    s.heading[:] = rng.uniform(-np.pi, np.pi, n)
    s.vx[:], s.vy[:] = rng.uniform(-15, 15, n), rng.uniform(-15, 15, n)
    s.extra["omega"][:] = rng.uniform(-3, 3, n)
    s.extra["wheel_speed"][:] = rng.uniform(-40, 40, (n, 4))
    return s


def largest_rise(tuning, n: int, hz: int, ticks: int = 240) -> float:
    """The largest one-tick rise of any car's energy, relative to its energy then."""
    s = moving_cars(n, seed=hz)
    packed = tuning_rows(rb, tuning, n)
    worst = -np.inf
    before = energy(s, tuning)
    for _ in range(ticks):
        s = step(rb, s, Controls(0.0, 0.0, 0.0), tuning, 1.0 / hz, packed)
        after = energy(s, tuning)
        worst = max(worst, float(np.max((after - before) / np.maximum(before, 1e-300))))
        before = after
    return worst


@pytest.mark.parametrize("hz", [30, 60, 240])
@pytest.mark.parametrize("preset", PRESETS)
def test_coasting_never_gains_energy_with_a_built_in_preset(preset, hz):
    tuning = dict(load_preset(BUILTIN_DIR / f"{preset}.json").tuning)
    assert largest_rise(tuning, 50, hz) <= ROUNDING


@pytest.mark.parametrize("hz", [30, 60, 240])
def test_coasting_never_gains_energy_with_random_tunings(hz):
    tuning = random_tunings(rb, seed=15, n=200, edges=0.2)
    assert largest_rise(tuning, 200, hz) <= ROUNDING


def test_the_wheel_feels_the_force_the_chassis_gets():
    """With forward grip 3, a slipping wheel on a car at rest: the chassis's momentum
    gain equals the momentum the wheels lose (m·Δv = −Σ I_w·Δω/r), so nothing is created."""
    tuning = {"forward_grip": 3.0, "side_grip": 0.0, "box_inertia": True}
    s = State.at_rest(1, rb.STATE)
    s.extra["wheel_speed"][0] = [0.0, 0.0, 20.0, 20.0]
    r, iw, m = 0.5, 0.05, 1.0
    start = m * s.vx[0] + iw * s.extra["wheel_speed"][0].sum() / r
    for _ in range(120):
        s = step(rb, s, Controls(0.0, 0.0, 0.0), tuning, 1 / 60)
        assert m * s.vx[0] + iw * s.extra["wheel_speed"][0].sum() / r == pytest.approx(start, rel=1e-12)
    assert s.vx[0] > 1.0  # the spinning wheels did push the car
