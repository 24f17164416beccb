"""The slip angle the plots show (the sideslip angle, physics/state.py): Marco Monster's
"arctangent of the lateral velocity divided by the longitudinal velocity", the
longitudinal part's size taken, so every model's car reversing draws a steady line."""

import math

import numpy as np
import pytest

from sandbox.physics.models import MODELS
from sandbox.physics.sim import run_trace
from sandbox.physics.state import sideslip, slip_angle


@pytest.mark.parametrize(
    ("heading", "vx", "vy", "degrees"),
    [
        (0.0, 10.0, 0.0, 0.0),  # straight ahead
        (0.0, -10.0, 0.0, 0.0),  # straight back: not ±180°
        (0.0, 10.0, 10.0, 45.0),  # ahead and to the right (y down)
        (0.0, -10.0, 10.0, 45.0),  # back and to the right: still to the right
        (0.0, -10.0, -10.0, -45.0),
        (math.pi / 2, 0.0, -10.0, 0.0),  # pointing down (+y), moving up: straight back
        (0.0, 0.0, 10.0, 90.0),  # sideways
        (0.3, -0.0, -0.0, 0.0),  # at rest after reversing
    ],
)
def test_the_sideslip_angle_is_the_texts_arctangent(heading, vx, vy, degrees):
    assert math.degrees(sideslip(heading, vx, vy)) == pytest.approx(degrees, abs=1e-12)


def test_ahead_it_is_the_slip_angle():
    angles = np.radians(np.linspace(-89.0, 89.0, 179))
    heading = 0.8
    vx, vy = 20 * np.cos(heading + angles), 20 * np.sin(heading + angles)
    assert sideslip(heading, vx, vy) == pytest.approx(slip_angle(heading, vx, vy), abs=1e-12)


@pytest.mark.parametrize("name", sorted(MODELS))
def test_every_model_reversing_draws_a_steady_line(name):
    """Forward in a turn, braked into reverse, then reversing with some steering: the
    heading-to-velocity angle jumps between ±180° there (all but the rigid body), the
    sideslip angle never jumps."""
    model = MODELS[name]
    trace = np.zeros((600, 5))
    trace[:120, 0], trace[:120, 1] = 0.5, 1.0
    trace[120:, 2] = 1.0
    trace[400:, 0] = 0.3
    if name == "monster":
        trace[120:125, 4] = -1.0  # down to reverse
    rows = run_trace(model, {p.name: p.default for p in model.PARAMS}, trace)
    reversing = np.abs(rows[:, 7]) > math.pi / 2
    assert reversing.sum() > 300
    heading = rows[:, 3] if "display_heading" not in model.STATE.offset else None
    if heading is None:  # the bicycle's drawn heading is where its slip angle is measured from
        heading = np.arctan2(rows[:, 5], rows[:, 4]) - rows[:, 7]
    plotted = np.degrees(sideslip(heading, rows[:, 4], rows[:, 5]))
    # a jump between ±180° would be 360°, and between ±90° 180°; a car that starts
    # reversing while it slides turns its velocity quickly (27° in a tick for the rigid body)
    assert np.abs(np.diff(plotted[reversing])).max() < 45.0
