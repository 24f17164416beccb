"""A track: the world a car drives in, in one length unit (px or m).

Plain data, no file format (the JSON track files are read and written by
`files/tracks.py`; Godot levels and circuit CSVs are turned into this by the
importers). Coordinates are Godot 2D's: x right, y down; angles in radians,
clockwise on screen (as `rotation`).

- walls: static solids the car meets, as Godot levels make them: open or closed
  polylines (a closed one is the outline of a solid: its inside is wall), rectangles
  (centre, full size, rotation) and circles;
- cones: small circles a car knocks over (counted, then no longer solid);
- start: the start/finish line, a segment with the direction a lap crosses it in;
- sectors: more timing lines, in lap order;
- centre_line: the line distance along the lap is measured on (closed for a circuit);
- surfaces: polygons whose grip is scaled by `grip` for the models that can use it;
- spawn: where a car starts (position and heading);
- wall_restitution, wall_friction: how a rigid car (the rigid body, the dynamic car)
  bounces off the walls: the share of its speed into a wall it keeps going out (0 …
  1) and the Coulomb friction coefficient along the wall (≥ 0); the kinematic cars
  slide as Godot's move_and_slide does and read neither;
- description, credit: what the track is and where its data comes from, in words.

A wall that is a ring but not solid (a circuit's outer wall, a Godot concave polygon)
is an open polyline whose last point is its first.

`in_unit` gives the same track in the other unit (px ↔ m at `pixels_per_metre`, the
Godot export's scale).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

UNITS = ("px", "m")
DEFAULT_PIXELS_PER_METRE = 25.0
"""px/m: the Godot export's default `pixels_per_metre`."""
DEFAULT_WALL_RESTITUTION = 0.2
"""A rigid car's bounce off a wall: a fifth of its speed into the wall comes back out
(a car's bumper and tyres take most of a hit; 0 would stick, 1 bounce like a ball)."""
DEFAULT_WALL_FRICTION = 0.5
"""Coulomb friction coefficient between a car's body and a wall (steel or painted
concrete against a car's body is about 0.3 … 0.6)."""


def _points(points) -> np.ndarray:
    array = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    array.setflags(write=False)
    return array


@dataclass(frozen=True)
class Polyline:
    """A wall along `points` ((n, 2)); `closed`: the last point joins the first and the
    inside is solid."""

    points: np.ndarray
    closed: bool = False

    def __post_init__(self):
        object.__setattr__(self, "points", _points(self.points))


@dataclass(frozen=True)
class Rect:
    """A solid rectangle: centre (x, y), full size (width along its own x, height),
    rotation `angle` (rad)."""

    x: float
    y: float
    width: float
    height: float
    angle: float = 0.0

    def corners(self) -> np.ndarray:
        """The four corners, (4, 2), in order around the rectangle."""
        c, s = math.cos(self.angle), math.sin(self.angle)
        w, h = self.width / 2, self.height / 2
        return _points([(self.x + c * sx * w - s * sy * h, self.y + s * sx * w + c * sy * h) for sx, sy in _AROUND])


_AROUND = ((-1, -1), (1, -1), (1, 1), (-1, 1))
"""A rectangle's corners in order around it, as signs of its half width and height."""


@dataclass(frozen=True)
class Circle:
    """A solid disc: centre (x, y), radius."""

    x: float
    y: float
    radius: float


@dataclass(frozen=True)
class Line:
    """A timing line from (x1, y1) to (x2, y2), crossed in `direction` (a unit vector)."""

    x1: float
    y1: float
    x2: float
    y2: float
    direction: tuple[float, float]


@dataclass(frozen=True)
class Surface:
    """A region (polygon points, (n, 2)) whose tyre grip is multiplied by `grip`."""

    polygon: np.ndarray
    grip: float

    def __post_init__(self):
        object.__setattr__(self, "polygon", _points(self.polygon))


@dataclass(frozen=True)
class Pose:
    """Where a car starts: position and heading (rad)."""

    x: float = 0.0
    y: float = 0.0
    heading: float = 0.0


@dataclass(frozen=True)
class Track:
    """A world in `unit` (px or m); see the module's docstring for each part.
    `notes`: what an import could not carry over, said to the user."""

    name: str
    unit: str = "m"
    pixels_per_metre: float = DEFAULT_PIXELS_PER_METRE
    polylines: tuple[Polyline, ...] = ()
    rects: tuple[Rect, ...] = ()
    circles: tuple[Circle, ...] = ()
    cones: tuple[Circle, ...] = ()
    start: Line | None = None
    sectors: tuple[Line, ...] = ()
    centre_line: Polyline | None = None
    surfaces: tuple[Surface, ...] = ()
    spawn: Pose = field(default_factory=Pose)
    wall_restitution: float = DEFAULT_WALL_RESTITUTION
    wall_friction: float = DEFAULT_WALL_FRICTION
    notes: tuple[str, ...] = ()
    description: str = ""
    credit: str = ""

    @property
    def is_open_field(self) -> bool:
        """Nothing to meet: a car drives as on today's empty field."""
        return not (self.polylines or self.rects or self.circles or self.cones)

    def in_unit(self, unit: str) -> Track:
        """This track with every length in `unit` (px or m)."""
        if unit not in UNITS:
            raise ValueError(f"a track's unit is px or m, not {unit!r}")
        if unit == self.unit:
            return self
        k = self.pixels_per_metre if unit == "px" else 1.0 / self.pixels_per_metre
        return replace(
            self,
            unit=unit,
            polylines=tuple(_scaled(p, k) for p in self.polylines),
            rects=tuple(Rect(r.x * k, r.y * k, r.width * k, r.height * k, r.angle) for r in self.rects),
            circles=tuple(Circle(c.x * k, c.y * k, c.radius * k) for c in self.circles),
            cones=tuple(Circle(c.x * k, c.y * k, c.radius * k) for c in self.cones),
            start=_scaled_line(self.start, k),
            sectors=tuple(_scaled_line(s, k) for s in self.sectors),
            centre_line=None if self.centre_line is None else _scaled(self.centre_line, k),
            surfaces=tuple(Surface(s.polygon * k, s.grip) for s in self.surfaces),
            spawn=Pose(self.spawn.x * k, self.spawn.y * k, self.spawn.heading),
        )

    def bounds(self) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) of everything drawn, the spawn included."""
        xs, ys = [self.spawn.x], [self.spawn.y]
        for points in self._outlines():
            xs.extend(points[:, 0])
            ys.extend(points[:, 1])
        for c in self.circles + self.cones:
            xs += [c.x - c.radius, c.x + c.radius]
            ys += [c.y - c.radius, c.y + c.radius]
        return min(xs), min(ys), max(xs), max(ys)

    def _outlines(self):
        for p in self.polylines:
            yield p.points
        for r in self.rects:
            yield r.corners()
        for line in (self.start, *self.sectors):
            if line is not None:
                yield np.array([[line.x1, line.y1], [line.x2, line.y2]])
        if self.centre_line is not None:
            yield self.centre_line.points
        for s in self.surfaces:
            yield s.polygon


def _scaled(line: Polyline, k: float) -> Polyline:
    return Polyline(line.points * k, line.closed)


def _scaled_line(line: Line | None, k: float) -> Line | None:
    if line is None:
        return None
    return Line(line.x1 * k, line.y1 * k, line.x2 * k, line.y2 * k, line.direction)


OPEN_FIELD = Track(name="Open field")
"""Today's default: nothing to meet, the car starts at the origin heading +x."""
