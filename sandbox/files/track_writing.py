"""A track as the JSON track file's data and text (files/tracks.py reads them back):
parts that are empty left out, walls in the order polylines, rectangles, circles,
numbers to 6 decimals, and the text laid out for reading by hand."""

from __future__ import annotations

import json
import math

import numpy as np

from ..physics.track import Circle, Line, Track

FORMAT = "car-sandbox track"
VERSION = 2
"""The format written: 2 added the walls' restitution and friction (files/tracks.py reads 1 too)."""


def _rounded(x: float) -> float | int:
    """A coordinate as written: 6 decimals at most (a micrometre in m), whole numbers as ints."""
    x = round(float(x), 6)
    return int(x) if x.is_integer() else x


def _pts(points: np.ndarray) -> list:
    return [[_rounded(x), _rounded(y)] for x, y in points]


def _line(line: Line) -> dict:
    return {
        "from": [_rounded(line.x1), _rounded(line.y1)],
        "to": [_rounded(line.x2), _rounded(line.y2)],
        "direction": [_rounded(line.direction[0]), _rounded(line.direction[1])],
    }


def track_to_json(track: Track) -> dict:
    """The track as the file's JSON data (parts that are empty are left out)."""
    data: dict = {"format": FORMAT, "version": VERSION, "name": track.name}
    for key in ("description", "credit"):
        if getattr(track, key):
            data[key] = getattr(track, key)
    data |= {"unit": track.unit, "pixels_per_metre": _rounded(track.pixels_per_metre)}
    data |= {"wall_restitution": _rounded(track.wall_restitution), "wall_friction": _rounded(track.wall_friction)}
    walls = [{"polyline": _pts(p.points), "closed": p.closed} for p in track.polylines]
    walls += [
        {"rect": {"x": _rounded(r.x), "y": _rounded(r.y), "width": _rounded(r.width), "height": _rounded(r.height)}
         | ({"angle_deg": _rounded(math.degrees(r.angle))} if r.angle else {})}
        for r in track.rects
    ]  # fmt: skip
    walls += [{"circle": _circle(c)} for c in track.circles]
    parts = {
        "walls": walls,
        "cones": [_circle(c) for c in track.cones],
        "start": None if track.start is None else _line(track.start),
        "sectors": [_line(s) for s in track.sectors],
        "centre_line": None
        if track.centre_line is None
        else {"points": _pts(track.centre_line.points), "closed": track.centre_line.closed},
        "surfaces": [{"polygon": _pts(s.polygon), "grip": _rounded(s.grip)} for s in track.surfaces],
    }
    data |= {key: value for key, value in parts.items() if value}
    s = track.spawn
    data["spawn"] = {"x": _rounded(s.x), "y": _rounded(s.y), "heading_deg": _rounded(math.degrees(s.heading))}
    return data


def _circle(c: Circle) -> dict:
    return {"x": _rounded(c.x), "y": _rounded(c.y), "radius": _rounded(c.radius)}


def dump_track(track: Track) -> str:
    """The track file's text, for reading by hand: what fits on a line on one (a cone,
    a rectangle, a timing line), long point lists five points a line."""
    return _pretty(track_to_json(track), "") + "\n"


LINE_CHARS = 100
POINTS_A_LINE = 5


def _pretty(value, indent: str) -> str:
    compact = json.dumps(value, separators=(", ", ": "), ensure_ascii=False)
    if len(compact) + len(indent) <= LINE_CHARS or not isinstance(value, (dict, list)):
        return compact
    inner = indent + "  "
    if isinstance(value, dict):
        rows = [f"{inner}{json.dumps(key, ensure_ascii=False)}: {_pretty(item, inner)}" for key, item in value.items()]
    elif all(isinstance(p, list) and len(p) == 2 and not isinstance(p[0], list) for p in value):
        rows = [
            inner + ", ".join(json.dumps(p, separators=(", ", ": ")) for p in value[i : i + POINTS_A_LINE])
            for i in range(0, len(value), POINTS_A_LINE)
        ]
    else:
        rows = [inner + _pretty(item, inner) for item in value]
    brackets = "{}" if isinstance(value, dict) else "[]"
    return brackets[0] + "\n" + ",\n".join(rows) + "\n" + indent + brackets[1]
