"""The grip envelope: what a car may do at a speed, as the lap driver plans it and the
g-g diagram draws it. One definition for both.

From the car's measured limits (`lap_plan.Limits`, in its model's units):
- lateral grip a_lat (`skidpad_lateral`), either way;
- braking a_brake;
- acceleration a_accel(v), read from the full-throttle table at the speed v (held flat
  beyond its ends; below 0 where drag beats the drive).
The grips are shared as a friction ellipse: using a_y of the lateral grip, the car
accelerates or brakes at most √(1 − u²) of its straight-line figure, u = |a_y| / a_lat
(`grip_share`; an acceleration below 0 is not scaled: drag is no grip). So at a speed
the envelope is the ellipse of half-axes a_lat across, a_accel(v) ahead and a_brake
behind, and on a steady circle (a_y = v²/R = a_lat) nothing is left to brake or
accelerate with. Every acceleration is the model's length unit per s².

`speed_profile.forward_backward` (the driver's speed profile, `combined`) and
`outline` (the g-g diagram's envelope) both call these kernels.
"""

from __future__ import annotations

import math

import numpy as np

from ..physics.kernel import kernel


@kernel
def grip_share(lateral, a_lat):
    """The share of the straight-line grip left using `lateral` (length/s², either
    sign) of the lateral grip `a_lat`: √(1 − u²), u = |lateral| / a_lat (0 at or past
    the lateral limit)."""
    u = abs(lateral) / a_lat
    return math.sqrt(max(0.0, 1.0 - u * u))


@kernel
def drive_at(v, accel_v, accel_a):
    """Full-throttle acceleration (length/s²) at speed `v` (length/s) from the table of
    speeds `accel_v` (ascending) and accelerations `accel_a`."""
    return np.interp(v, accel_v, accel_a)


@kernel
def accelerating_limit(v, lateral, a_lat, accel_v, accel_a):
    """The most the car accelerates (length/s²) at speed `v` using `lateral` of its
    lateral grip: the table's acceleration, scaled by `grip_share` where it is above 0."""
    drive = drive_at(v, accel_v, accel_a)
    if drive > 0:
        drive *= grip_share(lateral, a_lat)
    return drive


@kernel
def braking_limit(lateral, a_lat, a_brake):
    """The most the car brakes (length/s², above 0) using `lateral` of its lateral grip."""
    return a_brake * grip_share(lateral, a_lat)


@kernel
def outline(v, a_lat, a_brake, accel_v, accel_a, points):
    """The envelope at speed `v` as a closed loop of 2·`points` + 1 (lateral,
    longitudinal) pairs (length/s²; lateral positive to the right, longitudinal
    positive speeding up): the accelerating half from left to right, then the braking
    half back."""
    lateral = np.empty(2 * points + 1)
    longitudinal = np.empty(2 * points + 1)
    for i in range(points):
        a_y = a_lat * (-1.0 + 2.0 * i / (points - 1))
        lateral[i] = a_y
        longitudinal[i] = accelerating_limit(v, a_y, a_lat, accel_v, accel_a)
        lateral[points + i] = -a_y
        longitudinal[points + i] = -braking_limit(-a_y, a_lat, a_brake)
    lateral[2 * points] = lateral[0]
    longitudinal[2 * points] = longitudinal[0]
    return lateral, longitudinal
