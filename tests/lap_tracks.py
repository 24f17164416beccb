"""Tracks the lap tests build in code, with their sizes known by construction."""

from __future__ import annotations

import numpy as np

from sandbox.physics.track import Polyline, Track

WALL_POINTS = 1440
"""Points of a ring's walls: a polygon this fine strays from its circle by R·(1 − cos(π/1440))."""


def circle(radius: float, count: int) -> np.ndarray:
    """`count` points round a circle about the origin, angle rising (clockwise on the screen, y down)."""
    angle = np.linspace(0.0, 2 * np.pi, count, endpoint=False)
    return radius * np.column_stack((np.cos(angle), np.sin(angle)))


def ring(radius: float, inner: float, outer: float, unit: str = "m") -> Track:
    """A ring road about the origin: the centre line a circle of `radius` driven clockwise
    on the screen, a solid infield `inner` inside it and a hollow outer wall `outer`
    outside it. Driven clockwise, the outer wall is on the driver's left."""
    outer_wall = circle(radius + outer, WALL_POINTS)
    return Track(
        "ring",
        unit=unit,
        polylines=(
            Polyline(circle(radius - inner, WALL_POINTS), closed=True),
            Polyline(np.vstack((outer_wall, outer_wall[:1]))),
        ),
        centre_line=Polyline(circle(radius, 720), closed=True),
    )


def sagitta(radius: float, count: int) -> float:
    """How far inside its circle a polygon of `count` points on it strays at most."""
    return radius * (1 - np.cos(np.pi / count))
