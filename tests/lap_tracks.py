"""Tracks the lap tests build in code, with their sizes known by construction, and a car
moved round the ring by hand.

The ring (`ring`): a centre line of radius r (m) about the origin, driven the way the
angle θ grows (clockwise on screen, y down), so the ring's inside is on the car's right
and its outer wall on the car's left. The start line is the radial line across the road
at θ = 0 (crossed towards +y); a sector line is the radial line at its angle, crossed
the way of travel. The timer's ring (`ring_track`): r = R, the road 5 m each side, a
sector line at θ = π (crossed towards -y): each half of a lap is a sector."""

from __future__ import annotations

import math

import numpy as np

from sandbox.physics import lap_timer as lt
from sandbox.physics.track import Circle, Line, Polyline, Pose, Track

R = 50.0
"""m: the timer's ring's radius."""
POINTS = 400
"""The timer's ring's centre-line points."""
WALL_POINTS = 1440
"""Points of a ring's outer wall: a polygon this fine strays from its circle by r·(1 − cos(π/1440))."""


def circle(radius: float, count: int) -> np.ndarray:
    """`count` points round a circle about the origin, angle rising (clockwise on the screen, y down)."""
    angle = np.linspace(0.0, 2 * np.pi, count, endpoint=False)
    return radius * np.column_stack((np.cos(angle), np.sin(angle)))


def across(radius: float, inner: float, outer: float, angle: float) -> Line:
    """The radial line across the ring's road at `angle` (rad), crossed the way of travel."""
    c, s = math.cos(angle), math.sin(angle)
    r1, r2 = radius - inner, radius + outer
    return Line(r1 * c, r1 * s, r2 * c, r2 * s, (-s, c))


def ring(
    radius: float,
    inner: float,
    outer: float | None = None,
    points: int = 360,
    sectors: tuple[float, ...] = (),
    start: bool = True,
    centre: bool = True,
) -> Track:
    """A ring road in metres about the origin (see the module's docstring): its centre
    line the circle of `radius` (`points` points), a solid disc `inner` inside it and a
    wall `outer` (default `inner`) outside it (a polygon of `WALL_POINTS` points on its
    circle); the start line across the road at θ = 0, a sector line at each angle of
    `sectors` (rad); the spawn on the centre line 0.05 rad before the start line, facing
    along the road. `start`, `centre`: whether it has a start line, a centre line."""
    outer = inner if outer is None else outer
    outside = circle(radius + outer, WALL_POINTS)
    before = -0.05  # rad: the spawn, 0.05 rad before the start line
    return Track(
        name="ring",
        unit="m",
        polylines=(Polyline(np.vstack([outside, outside[:1]])),),
        circles=(Circle(0.0, 0.0, radius - inner),),
        start=across(radius, inner, outer, 0.0) if start else None,
        sectors=tuple(across(radius, inner, outer, a) for a in sectors),
        centre_line=Polyline(circle(radius, points), closed=True) if centre else None,
        spawn=Pose(radius * math.cos(before), radius * math.sin(before), before + math.pi / 2),
    )


def sagitta(radius: float, count: int) -> float:
    """How far inside its circle a polygon of `count` points on it strays at most."""
    return radius * (1 - np.cos(np.pi / count))


def ring_track() -> Track:
    """The timer's ring (see the module's docstring)."""
    return ring(R, 5.0, points=POINTS, sectors=(math.pi,))


def ring_corridor(left: float, right: float, flip: bool = False):
    """The timer's ring's centre line with a corridor `left` and `right` of it (m), as
    (points, normals, left, right); `flip`: the normals pointing the other way (to the
    car's right), the half-widths given along them."""
    points = ring_track().centre_line.points
    outward = points / R  # the car's left, driving clockwise on screen
    if flip:
        return points, -outward, np.full(POINTS, right), np.full(POINTS, left)
    return points, outward, np.full(POINTS, left), np.full(POINTS, right)


def drive(course, timer, theta, radius=R, t0=0.0, dt=1 / 60, cones=None):
    """The car moved through angles `theta` (rad, one per tick's end, the first where it
    starts) at `radius` (a number or one per angle) round the timer's ring; returns the
    running lap and lap distance after each tick."""
    radius = np.broadcast_to(np.asarray(radius, dtype=float), np.shape(theta))
    xs, ys = radius * np.cos(theta), radius * np.sin(theta)
    n = len(theta) - 1
    cones = np.zeros(n) if cones is None else np.asarray(cones, dtype=float)
    lap, distance = np.zeros(n), np.zeros(n)
    lt.timer_ticks(course, timer, np.ascontiguousarray(xs), np.ascontiguousarray(ys), t0, dt, cones, lap, distance)
    return lap, distance


def steady(speed: float, seconds: float, dt: float, theta0: float = -0.3) -> np.ndarray:
    """Angles on the timer's ring at `speed` (m/s) from θ0, one per tick over `seconds`."""
    ticks = int(round(seconds / dt))
    return theta0 + speed * dt * np.arange(ticks + 1) / R


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
