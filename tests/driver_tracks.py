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


def stadium(radius: float, straight: float, points_per_metre: float = 0.5) -> np.ndarray:
    """The closed outline (n, 2) of an oval about the origin: two straights `straight`
    long along x (y = ∓`radius`) joined by half circles of `radius`, clockwise on screen
    (y down), from the top straight's left end; about `points_per_metre` points a metre."""
    half = straight / 2
    along = np.linspace(-half, half, max(2, int(straight * points_per_metre)), endpoint=False)
    turn = np.linspace(-math.pi / 2, math.pi / 2, max(2, int(math.pi * radius * points_per_metre)), endpoint=False)
    return np.vstack(
        [
            np.column_stack([along, np.full_like(along, -radius)]),
            np.column_stack([half + radius * np.cos(turn), radius * np.sin(turn)]),
            np.column_stack([-along, np.full_like(along, radius)]),
            np.column_stack([-half - radius * np.cos(turn), -radius * np.sin(turn)]),
        ]
    )


def oval(radius: float, straight: float, half_width: float) -> Track:
    """An oval road in metres (`stadium`): its middle `radius` round the bends and
    `straight` long on the straights, walls `half_width` either side, driven clockwise
    on screen; the start line across the top straight's middle, the spawn a little
    before it."""
    outside = stadium(radius + half_width, straight)
    inside = stadium(radius - half_width, straight)
    return Track(
        name="Oval",
        unit="m",
        polylines=(Polyline(np.vstack([outside, outside[:1]])), Polyline(np.vstack([inside, inside[:1]]))),
        start=Line(0.0, -radius - half_width, 0.0, -radius + half_width, (1.0, 0.0)),
        centre_line=Polyline(stadium(radius, straight), closed=True),
        spawn=Pose(-5.0, -radius, 0.0),
    )
