"""Tracks built in code for the driver's tests: a ring whose geometry is known exactly."""

from __future__ import annotations

import math

import numpy as np

from sandbox.physics.track import Circle, Line, Polyline, Pose, Track


def ring(radius: float, half_width: float, points: int = 360, start: bool = True, centre: bool = True) -> Track:
    """A ring road in metres about the origin: `radius` along its middle, walls
    `half_width` either side (a solid disc inside, a ring of wall outside), driven
    clockwise on screen (y down); its centre line the middle circle of `points` points,
    the start line across the road at angle 0, the spawn a little before it facing
    along the road. `start`, `centre`: whether it has a start line, a centre line."""
    a = np.linspace(0.0, 2 * math.pi, points, endpoint=False)
    outside = (radius + half_width) * np.column_stack([np.cos(a), np.sin(a)])
    before = -0.05  # rad: the spawn, 0.05 rad before the start line
    return Track(
        name="Ring",
        unit="m",
        polylines=(Polyline(np.vstack([outside, outside[:1]])),),
        circles=(Circle(0.0, 0.0, radius - half_width),),
        start=Line(radius - half_width, 0.0, radius + half_width, 0.0, (0.0, 1.0)) if start else None,
        centre_line=Polyline(radius * np.column_stack([np.cos(a), np.sin(a)]), closed=True) if centre else None,
        spawn=Pose(radius * math.cos(before), radius * math.sin(before), before + math.pi / 2),
    )
