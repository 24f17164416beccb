"""Courses the lap tests drive on, built in code, and a car moved round them by hand.

The ring: a centre line of radius R (m) about the origin, driven the way the angle θ
grows (clockwise on screen, y down), so the ring's inside is on the car's right. The
start line is the radial line at θ = 0 ((R ± 5, 0), crossed towards +y), the sector
line the one at θ = π (crossed towards -y): each half of a lap is a sector."""

from __future__ import annotations

import math

import numpy as np

from sandbox.physics import lap_timer as lt
from sandbox.physics.track import Line, Polyline, Track

R = 50.0
"""m: the ring's radius."""
POINTS = 400
"""The ring's centre-line points."""


def ring_track(sectors=None) -> Track:
    """The ring (see the module's docstring); `sectors`: other sector lines."""
    angle = np.linspace(0.0, 2 * math.pi, POINTS, endpoint=False)
    centre = Polyline(np.column_stack([R * np.cos(angle), R * np.sin(angle)]), closed=True)
    half = Line(-R - 5, 0, -R + 5, 0, (0, -1))
    return Track(
        name="ring",
        centre_line=centre,
        start=Line(R - 5, 0, R + 5, 0, (0, 1)),
        sectors=(half,) if sectors is None else sectors,
    )


def ring_corridor(left: float, right: float, flip: bool = False):
    """The ring's centre line with a corridor `left` and `right` of it (m), as
    (points, normals, left, right); `flip`: the normals pointing the other way (to the
    car's right), the half-widths given along them."""
    points = ring_track().centre_line.points
    outward = points / R  # the car's left, driving clockwise on screen
    if flip:
        return points, -outward, np.full(POINTS, right), np.full(POINTS, left)
    return points, outward, np.full(POINTS, left), np.full(POINTS, right)


def drive(course, timer, theta, radius=R, t0=0.0, dt=1 / 60, cones=None):
    """The car moved through angles `theta` (rad, one per tick's end, the first where it
    starts) at `radius` (a number or one per angle) round the ring; returns the running
    lap and lap distance after each tick."""
    radius = np.broadcast_to(np.asarray(radius, dtype=float), np.shape(theta))
    xs, ys = radius * np.cos(theta), radius * np.sin(theta)
    n = len(theta) - 1
    cones = np.zeros(n) if cones is None else np.asarray(cones, dtype=float)
    lap, distance = np.zeros(n), np.zeros(n)
    lt.timer_ticks(course, timer, np.ascontiguousarray(xs), np.ascontiguousarray(ys), t0, dt, cones, lap, distance)
    return lap, distance


def steady(speed: float, seconds: float, dt: float, theta0: float = -0.3) -> np.ndarray:
    """Angles on the ring at `speed` (m/s) from θ0, one per tick over `seconds`."""
    ticks = int(round(seconds / dt))
    return theta0 + speed * dt * np.arange(ticks + 1) / R
