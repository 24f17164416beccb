"""What every model must do, whatever its source: pedals and steering act the right
way, and no tuning inside the declared ranges produces NaN or inf."""

import numpy as np
import pytest

from random_tunings import random_tunings
from sandbox.physics.models import MODELS
from sandbox.physics.params import Tuning
from sandbox.physics.sim import step
from sandbox.physics.state import Controls, State

ALL = sorted(MODELS)
DT = 1 / 60


def run(model, state, controls, p, ticks):
    return step(model, state, controls, p, DT, ticks=ticks)  # one compiled run


@pytest.mark.parametrize("name", ALL)
def test_throttle_raises_speed_and_brake_lowers_it(name):
    model = MODELS[name]
    p = Tuning(model.PARAMS)
    s = run(model, State.at_rest(), Controls(0, 1, 0), p, 60)
    assert s.speed[0] > 0
    moving = s.speed[0]
    s = run(model, s, Controls(0, 0, 1), p, 60)  # a spinning wheel takes a moment to slow
    assert s.speed[0] < moving


@pytest.mark.parametrize("name", ALL)
def test_positive_steer_forward_turns_right(name):
    model = MODELS[name]
    p = Tuning(model.PARAMS)
    s = run(model, State.at_rest(), Controls(0, 1, 0), p, 60)
    s = run(model, s, Controls(1, 1, 0), p, 20)
    assert s.heading[0] > 0.01  # heading increases = clockwise on a y-down screen
    s = run(model, State.at_rest(), Controls(0, 1, 0), p, 60)
    s = run(model, s, Controls(-1, 1, 0), p, 20)
    assert s.heading[0] < -0.01


@pytest.mark.parametrize("hz", [30, 240])
@pytest.mark.parametrize("name", ALL)
def test_random_tunings_and_controls_stay_finite(name, hz):
    """500 cars, each with its own random tuning (edges of the ranges included) and
    random controls changing every half second, for 20 s."""
    model = MODELS[name]
    seed = ALL.index(name) * 1000 + hz  # stable across runs (hash() of a str is not)
    rng = np.random.default_rng(seed)
    n = 500
    params = random_tunings(model, seed, n, edges=0.08)
    state = State.at_rest(n)
    dt = 1 / hz
    for tick in range(20 * hz):
        if tick % (hz // 2) == 0:
            controls = Controls(
                rng.uniform(-1, 1, n).round(1), rng.integers(0, 2, n).astype(float), rng.integers(0, 2, n).astype(float)
            )
        state = step(model, state, controls, params, dt)
    for field in ("x", "y", "heading", "vx", "vy"):
        assert np.isfinite(getattr(state, field)).all(), field
    for name_, value in state.extra.items():
        if name_ not in ("icr_x", "icr_y"):  # NaN there means "going straight"
            assert np.isfinite(value).all(), name_


@pytest.mark.parametrize("name", ALL)
def test_a_batch_equals_its_cars_run_one_by_one(name):
    """Bit for bit: a car's arithmetic may not depend on the rest of its batch (the
    models skip work a uniform batch does not need, and keep trig from the last tick)."""
    model = MODELS[name]
    seed = 77 + ALL.index(name)
    rng = np.random.default_rng(seed)
    n, ticks = 6, 150
    params = random_tunings(model, seed, n, edges=0.1)
    # pedals and steering held for 20 ticks at a time, so the held-steering reuse is exercised
    plan = [
        Controls(
            rng.choice([-1.0, -0.3, 0.0, 1.0], n),
            rng.integers(0, 2, n).astype(float),
            rng.integers(0, 2, n).astype(float),
            rng.integers(0, 2, n).astype(float),
            rng.choice([-1.0, 0.0, 1.0], n),
        )
        for _ in range(ticks // 20 + 1)
    ]
    batch = State.at_rest(n)
    for tick in range(ticks):
        batch = step(model, batch, plan[tick // 20], params, DT)
    for i in range(n):
        single = State.at_rest(1)
        mine = {k: v[i] for k, v in params.items()}
        for tick in range(ticks):
            c = plan[tick // 20]
            single = step(
                model, single, Controls(c.steer[i], c.throttle[i], c.brake[i], c.handbrake[i], c.shift[i]), mine, DT
            )
        for field in ("x", "y", "heading", "vx", "vy"):
            assert getattr(single, field)[0] == getattr(batch, field)[i], (field, i)


@pytest.mark.parametrize(
    "name, values, seconds",
    [
        ("arcade", {"friction": 0.0, "drag": 0.0, "engine_power": 4000.0}, 10),  # nothing resists
        ("rigid_body", {}, 120),  # the seed has no drag at all
        (
            "monster",
            {
                "gear_6": 0.2,
                "differential": 1.0,
                "wheel_radius": 0.5,
                "c_drag": 0.0,
                "c_rr": 0.0,
                "mass": 500.0,
                "redline_rpm": 9000.0,
            },
            120,
        ),
    ],
)
def test_no_car_leaves_the_world_at_an_absurd_speed(name, values, seconds):
    """Full throttle for a long time where the source sets no limit: the speed stops at
    the shared guard (SPEED_LIMIT), finite, and the state stays finite."""
    from sandbox.physics.models.limits import SPEED_LIMIT

    model = MODELS[name]
    limit = SPEED_LIMIT[model.LENGTH_UNIT]
    s = run(model, State.at_rest(), Controls(0, 1, 0), Tuning(model.PARAMS, values), seconds * 60)
    assert s.speed[0] <= limit * (1 + 1e-12)
    assert all(np.isfinite(getattr(s, f)).all() for f in ("x", "y", "heading", "vx", "vy"))
    assert all(np.isfinite(v).all() for v in s.extra.values())
    if name != "monster":  # this gearing tops out near 250 m/s (fourth gear): under the guard
        assert s.speed[0] == pytest.approx(limit)
