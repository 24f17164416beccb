"""Property tests: no tuning inside the declared ranges, at any offered tick rate, and
no control sequence produces NaN or inf, or a speed above the shared guard, for every
model.

Each example is a batch: hypothesis draws a seed, how often the range ends appear,
and one random control trace; the seed makes 25 tunings (numpy, for speed: drawing
950 floats one by one made the dynamic car's test take minutes), all stepped together,
so 80 examples make 2 000 tuning × trace cases per model within CI time."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from random_tunings import random_tunings
from sandbox.physics.models import MODELS
from sandbox.physics.models.limits import SPEED_LIMIT
from sandbox.physics.sim import TICK_RATES, step
from sandbox.physics.state import Controls, State

TICKS = 150


BATCH = 25


controls = st.tuples(
    st.sampled_from([-1.0, -0.5, 0.0, 0.3, 1.0]),
    st.sampled_from([0.0, 1.0]),
    st.sampled_from([0.0, 1.0]),
    st.sampled_from([0.0, 1.0]),
    st.sampled_from([-1, 0, 0, 1]),
)


@pytest.mark.parametrize("name", sorted(MODELS))
def test_every_tick_stays_finite(name):
    model = MODELS[name]
    limit = SPEED_LIMIT[model.LENGTH_UNIT] * (1 + 1e-12)

    @settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(
        seed=st.integers(0, 2**32 - 1),
        edges=st.sampled_from([0.0, 0.2, 0.6]),
        trace=st.lists(st.tuples(controls, st.integers(1, 40)), min_size=1, max_size=8),
        hz=st.sampled_from(TICK_RATES),
    )
    def check(seed, edges, trace, hz):
        params = random_tunings(model, seed, BATCH, edges)
        state = State.at_rest(BATCH)
        rows = [row for row, repeat in trace for _ in range(repeat)]
        for tick in range(TICKS):
            steer, throttle, brake, handbrake, shift = rows[tick % len(rows)]
            state = step(model, state, Controls(steer, throttle, brake, handbrake, shift), params, 1 / hz)
            for field in ("x", "y", "heading", "vx", "vy"):
                values = getattr(state, field)
                assert np.isfinite(values).all(), (field, tick)
            for key, values in state.extra.items():
                if key not in ("icr_x", "icr_y"):  # NaN there means "going straight"
                    assert np.isfinite(values).all(), (key, tick)
            assert (state.speed <= limit).all(), tick  # nobody leaves the world at an absurd speed

    check()
