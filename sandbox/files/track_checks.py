"""A track checked whole before it is used or written: its size, its coordinates, walls
that cross themselves, timing lines, and a spawn inside a wall. One TrackError names
the first problem and the element it is in."""

from __future__ import annotations

import math
from typing import Mapping

import numpy as np

from ..errors import UserError
from ..physics.track import Track
from ..physics.track_geometry import (
    first_self_crossing,
    line_crosses,
    meeting_point,
    repeated_point,
    segments,
    solid_at,
)

MAX_COORDINATE = 1e7
"""Largest |x| or |y| a track may hold, in its unit: 10 000 km in m, far beyond any
level in px; a larger number is a mistake (1e300), and would overflow the arithmetic."""
MAX_ELEMENTS = 200_000
"""Most points (of every wall, centre line and surface) and shapes (rectangles,
circles, cones, timing lines) one track may hold: a real circuit takes a few thousand,
and 200 000 are checked in under a second."""


MAX_WALL_FRICTION = 10.0
"""Largest wall friction coefficient a track may hold (rubber on concrete is about 1)."""


class TrackError(UserError):
    """A track that cannot be read, checked or written; the message names the element."""


def count_elements(data) -> int:
    """How many points and shapes the JSON data of a track holds, counted without
    reading them (so a file of a million points is refused at once)."""
    if not isinstance(data, dict):
        return 0
    total = 0
    for wall in _list(data.get("walls")):
        total += len(_list(wall.get("polyline"))) if isinstance(wall, dict) and "polyline" in wall else 1
    total += len(_list(data.get("cones"))) + len(_list(data.get("sectors"))) + 1
    centre = data.get("centre_line")
    total += len(_list(centre.get("points"))) if isinstance(centre, dict) else 0
    return total + sum(len(_list(s.get("polygon"))) for s in _list(data.get("surfaces")) if isinstance(s, dict))


def _list(value) -> list:
    return value if isinstance(value, list) else []


def wall_name(track: Track, kind: str, index: int) -> str:
    """A wall as a written track file names it: polylines first, then rectangles, then circles."""
    first = {"polyline": 0, "rect": len(track.polylines), "circle": len(track.polylines) + len(track.rects)}[kind]
    return f"walls[{first + index}].{kind}"


def check_track(track: Track, source: str, names: Mapping[tuple[str, int], str] | None = None) -> None:
    """TrackError (starting with `source`) for the first problem of `track`: too many
    elements, a coordinate not finite or beyond MAX_COORDINATE, a wall polyline that
    crosses itself, a circuit (closed centre line, or sectors) without a start line, a
    timing line that does not cross the centre line, a spawn inside a wall, a wall
    restitution outside 0 … 1 or a wall friction outside 0 … MAX_WALL_FRICTION. `names`:
    {(kind, index): how the file names that wall}, else as `wall_name` writes it."""

    def name(kind: str, index: int) -> str:
        return names[(kind, index)] if names is not None else wall_name(track, kind, index)

    def fail(where: str, what: str) -> TrackError:
        return TrackError(f"{source}: {where}: {what}")

    if not (math.isfinite(track.pixels_per_metre) and track.pixels_per_metre > 0):
        raise fail("pixels_per_metre", f"{track.pixels_per_metre!r} is not a scale (px/m, more than 0)")
    if not 0.0 <= track.wall_restitution <= 1.0:
        raise fail(
            "wall_restitution",
            f"{track.wall_restitution!r} is outside 0 … 1 (the share of the speed into a wall a car keeps going out)",
        )
    if not 0.0 <= track.wall_friction <= MAX_WALL_FRICTION:
        raise fail(
            "wall_friction",
            f"{track.wall_friction!r} is outside 0 … {MAX_WALL_FRICTION:g} (the friction coefficient along a wall)",
        )
    total = _elements(track)
    if total > MAX_ELEMENTS:
        raise TrackError(f"{source}: {total:,d} points and shapes; a track holds at most {MAX_ELEMENTS:,d}")
    for where, values in _numbers(track, name):
        values = np.asarray(values, dtype=np.float64).reshape(-1)
        bad = np.flatnonzero(~(np.abs(values) <= MAX_COORDINATE))
        if len(bad):
            raise fail(where, f"{values[bad[0]]!r} is not a coordinate within ±{MAX_COORDINATE:g}")
    lines = [(name("polyline", i), line) for i, line in enumerate(track.polylines)]
    for where, line in lines + ([("centre_line", track.centre_line)] if track.centre_line is not None else []):
        again = repeated_point(line)
        if again is not None:
            before = (again - 1) % len(line.points)
            raise fail(
                where,
                f"point {again} is point {before} again"
                + (" (a closed line joins its ends itself)" if again == 0 else ""),
            )
    for index, line in enumerate(track.polylines):
        crossing = first_self_crossing(line)
        if crossing is not None:
            i, j = crossing
            a, b = segments(line)
            x, y = meeting_point(a[i], b[i], a[j], b[j])
            n = len(line.points)
            raise fail(
                name("polyline", index),
                f"the wall crosses itself: its segment from point {i} to {(i + 1) % n} meets the one "
                f"from point {j} to {(j + 1) % n} near ({x:.6g}, {y:.6g})",
            )
    circuit = track.sectors or (track.centre_line is not None and track.centre_line.closed)
    if circuit and track.start is None:
        raise TrackError(f"{source}: start: a circuit (a closed centre line, or sectors) needs a start line")
    if track.centre_line is not None:
        lines = ([("start", track.start)] if track.start is not None else []) + [
            (f"sectors[{i}]", s) for i, s in enumerate(track.sectors)
        ]
        for where, line in lines:
            if not line_crosses(track.centre_line, (line.x1, line.y1), (line.x2, line.y2)):
                raise fail(where, "the line does not cross the centre line")
    hit = solid_at(track, track.spawn.x, track.spawn.y)
    if hit is not None:
        raise fail("spawn", f"({track.spawn.x:g}, {track.spawn.y:g}) is inside the wall {name(*hit)}")


def _elements(track: Track) -> int:
    points = sum(len(p.points) for p in track.polylines) + sum(len(s.polygon) for s in track.surfaces)
    points += 0 if track.centre_line is None else len(track.centre_line.points)
    return points + len(track.rects) + len(track.circles) + len(track.cones) + len(track.sectors) + 1


def _numbers(track: Track, name):
    """(where, the numbers there) of every length and coordinate of the track."""
    for index, p in enumerate(track.polylines):
        yield name("polyline", index), p.points
    for index, r in enumerate(track.rects):
        yield name("rect", index), [r.x, r.y, r.width, r.height, r.angle]
    for index, c in enumerate(track.circles):
        yield name("circle", index), [c.x, c.y, c.radius]
    for index, c in enumerate(track.cones):
        yield f"cones[{index}]", [c.x, c.y, c.radius]
    for where, line in [("start", track.start)] + [(f"sectors[{i}]", s) for i, s in enumerate(track.sectors)]:
        if line is not None:
            yield where, [line.x1, line.y1, line.x2, line.y2, *line.direction]
    if track.centre_line is not None:
        yield "centre_line", track.centre_line.points
    for index, s in enumerate(track.surfaces):
        yield f"surfaces[{index}]", [*s.polygon.reshape(-1), s.grip]
    yield "spawn", [track.spawn.x, track.spawn.y, track.spawn.heading]
