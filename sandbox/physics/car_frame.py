"""Accelerations in the car's own frame, from the velocity before and after a tick.

Godot 2D axes (y down, heading clockwise): the car's forward unit vector is
(cos h, sin h) and its right-hand one (−sin h, cos h). Over a tick of `dt` s the world
acceleration is a = (v_after − v_before)/dt; along the car it is a·forward (positive:
speeding up going forward), across it a·right (positive: pushed to the car's right, as
in a right-hand bend taken forward). `heading` is the heading the body is drawn with
(State.display_heading): slip angles are measured from it too. Arrays or floats; the
unit is the model's length unit per s²; the metric models' figures are shown in g
(`STANDARD_G`).
"""

from __future__ import annotations

import numpy as np

STANDARD_G = 9.80665
"""m/s²: one g (standard gravity), the unit the metric models' accelerations are shown
in. The models keep their own sources' gravity (9.8 in the dynamic car's text)."""


def accelerations(vx_before, vy_before, vx_after, vy_after, heading, dt):
    """(longitudinal, lateral) acceleration in the car's frame (length/s²) over a tick of
    `dt` s, the axes at `heading` (rad, the body's heading after the tick)."""
    ax = (np.asarray(vx_after, dtype=np.float64) - vx_before) / dt
    ay = (np.asarray(vy_after, dtype=np.float64) - vy_before) / dt
    c, s = np.cos(heading), np.sin(heading)
    return ax * c + ay * s, -ax * s + ay * c
