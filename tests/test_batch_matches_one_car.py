"""A batch gives each car exactly what the one-car kernel gives it.

The batch drivers advance chunks of cars tick by tick (the arcade's innermost loop
runs across cars, vectorised by the compiler); the one-car path is the model's `tick`
called once per tick (a replay's seek, and the live car's step). With the same operations in the same order
and no reassociation, every car's state must match bit for bit: different tunings
(random, inside the declared ranges, switches included) and different held controls,
on one core and spread over both."""

import numpy as np
import pytest

from random_tunings import random_tunings
from sandbox.physics import sim
from sandbox.physics.models import MODELS
from sandbox.physics.state import Controls, State

TICKS = 150
HZ = 60


def _controls(n: int, seed: int) -> Controls:
    rng = np.random.default_rng(seed)
    brake = np.where(rng.random(n) < 0.3, rng.uniform(0, 1, n), 0.0)
    return Controls(rng.uniform(-1, 1, n), rng.uniform(0, 1, n), brake, np.where(rng.random(n) < 0.2, 1.0, 0.0))


@pytest.mark.parametrize("name", sorted(MODELS))
@pytest.mark.parametrize("cars", [300, sim.PARALLEL_FROM + 77])  # one core (two chunks); both cores
def test_every_car_of_a_batch_has_its_one_car_bits(name, cars):
    model = MODELS[name]
    tunings = random_tunings(model, seed=11, n=cars, edges=0.1)
    controls = _controls(cars, seed=12)
    start = State.at_rest(cars, model.STATE)
    start.x[:] = np.linspace(-500, 500, cars)  # not all from the origin, not all facing +x
    start.heading[:] = np.linspace(-3, 3, cars)
    batch = sim.step(model, start, controls, tunings, 1 / HZ, ticks=TICKS)
    rows = controls.rows(cars)
    for i in range(0, cars, 23):
        one = State.of(model.STATE, start.data[i : i + 1].copy())
        tuning = {key: value[i] for key, value in tunings.items()}
        ticks = sim.seek_states(model, tuning, np.tile(rows[i], (TICKS, 1)), HZ, start=one)
        assert np.array_equal(ticks.data[-1], batch.data[i], equal_nan=True), (name, i)
        live = sim.step(model, one, Controls(*rows[i]), tuning, 1 / HZ, ticks=TICKS)  # the live car's own driver
        assert np.array_equal(live.data[0], batch.data[i], equal_nan=True), (name, i)


@pytest.mark.parametrize("name", sorted(MODELS))
@pytest.mark.parametrize("cars", [300, sim.PARALLEL_FROM + 77])
def test_every_car_through_a_trace_has_its_one_car_bits(name, cars):
    """A sweep's batch: every car through the same control trace (a new row each tick),
    each with its own tuning."""
    model = MODELS[name]
    tunings = random_tunings(model, seed=21, n=cars, edges=0.1)
    rng = np.random.default_rng(22)
    trace = np.column_stack(
        [
            np.repeat(rng.uniform(-1, 1, TICKS // 10), 10),
            np.repeat(rng.uniform(0, 1, TICKS // 10), 10),
            np.repeat(np.where(rng.random(TICKS // 10) < 0.3, 1.0, 0.0), 10),
        ]
    )
    batch = sim.run_batch(model, tunings, cars, trace, TICKS, HZ)
    for i in range(0, cars, 23):
        tuning = {key: value[i] for key, value in tunings.items()}
        ticks = sim.seek_states(model, tuning, trace, HZ)
        assert np.array_equal(ticks.data[-1], batch.data[i], equal_nan=True), (name, i)
