"""Accelerations in the car's frame: a car on a circle feels v²/R towards the centre,
a car speeding up straight feels its dv/dt along itself, whatever way it points."""

import math

import numpy as np

from sandbox.physics.car_frame import accelerations


def test_a_car_going_round_a_right_hand_circle_feels_v_squared_over_r_to_its_right():
    v, r, dt = 20.0, 50.0, 1e-4
    h0 = 0.3
    h1 = h0 + v / r * dt  # clockwise on screen: a right-hand turn in Godot's axes
    vx0, vy0 = v * math.cos(h0), v * math.sin(h0)
    vx1, vy1 = v * math.cos(h1), v * math.sin(h1)
    along, across = accelerations(vx0, vy0, vx1, vy1, (h0 + h1) / 2, dt)
    assert abs(along) < 1e-6 * v * v / r
    assert math.isclose(across, v * v / r, rel_tol=1e-6)


def test_speeding_up_straight_is_along_the_car_at_any_heading():
    headings = np.linspace(-3, 3, 7)
    a, dt = 4.0, 0.01
    along, across = accelerations(
        np.cos(headings),
        np.sin(headings),
        (1 + a * dt) * np.cos(headings),
        (1 + a * dt) * np.sin(headings),
        headings,
        dt,
    )
    assert np.allclose(along, a) and np.allclose(across, 0.0, atol=1e-9)
