"""Track files: the versioned JSON track format (docs/tracks.md describes every key),
read into a `Track` and written from one, and the built-in tracks.

    {"format": "car-sandbox track", "version": 2, "name": "Skid pad", "unit": "m",
     "pixels_per_metre": 25, "wall_restitution": 0.2, "wall_friction": 0.5,
     "walls": [{"polyline": [[x, y], ...], "closed": true},
               {"rect": {"x": 0, "y": 0, "width": 4, "height": 2, "angle_deg": 0}},
               {"circle": {"x": 0, "y": 0, "radius": 1}}],
     "cones": [{"x": 10, "y": 0, "radius": 0.15}],
     "start": {"from": [x, y], "to": [x, y], "direction": [1, 0]},
     "sectors": [{"from": ..., "to": ..., "direction": ...}],
     "centre_line": {"points": [[x, y], ...], "closed": true},
     "surfaces": [{"polygon": [[x, y], ...], "grip": 0.6}],
     "spawn": {"x": 0, "y": 0, "heading_deg": 0}}

Everything but format, version and name may be left out. Version 1 (before the walls'
restitution and friction) reads as version 2 with their defaults. A file is checked whole when
read (files/track_checks.py); a problem is one TrackError naming the element.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import numpy as np

from ..errors import printable
from ..physics.track import (
    DEFAULT_PIXELS_PER_METRE,
    DEFAULT_WALL_FRICTION,
    DEFAULT_WALL_RESTITUTION,
    UNITS,
    Circle,
    Line,
    Polyline,
    Pose,
    Rect,
    Surface,
    Track,
)
from ..physics.track_geometry import repeated_point
from .disk import read_text, write_text_atomic
from .package_data import find_builtin, package_folder
from .track_checks import MAX_COORDINATE, MAX_ELEMENTS, TrackError, check_track, count_elements  # noqa: F401
from .track_writing import FORMAT, VERSION, dump_track, track_to_json  # noqa: F401 (part of this module's interface)

READS = (1, VERSION)
"""The versions read: 1 (no wall_restitution or wall_friction: their defaults) and this one."""
TRACK_LIMIT = 32 * 1024 * 1024
"""bytes: a track file larger than this is refused unread (200 000 points take about 6 MB)."""
BUILTIN_TRACKS = package_folder("builtin_tracks")
"""The built-in tracks, shipped inside the package (tools/make_tracks.py writes them)."""

TOP_KEYS = (
    "format", "version", "name", "description", "credit", "unit", "pixels_per_metre", "wall_restitution",
    "wall_friction", "walls", "cones", "start", "sectors", "centre_line", "surfaces", "spawn",
)  # fmt: skip


class _Reader:
    """Reads one track's JSON data, naming each element it finds wrong (`walls[3].polyline
    point 7: x is NaN`) in a TrackError that starts with `source`."""

    def __init__(self, source: str):
        self.source = source

    def fail(self, where: str, what: str) -> TrackError:
        return TrackError(f"{self.source}: {where}: {what}" if where else f"{self.source}: {what}")

    def keys(self, value, where: str, known: tuple[str, ...], required: tuple[str, ...] = ()) -> dict:
        if not isinstance(value, dict):
            raise self.fail(where, f"expected an object with {', '.join(known)}, got {_kind(value)}")
        unknown = [key for key in value if key not in known]
        if unknown:
            raise self.fail(where, f"unknown key {json.dumps(unknown[0])} (known: {', '.join(known)})")
        for key in required:
            if key not in value:
                raise self.fail(where, f"{key} is missing")
        return value

    def number(self, value, where: str, low: float = -MAX_COORDINATE, high: float = MAX_COORDINATE) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TrackError(f"{self.source}: {where} is {_kind(value)}, not a number")
        x = float(value)
        if math.isnan(x):
            raise TrackError(f"{self.source}: {where} is NaN")
        if not low <= x <= high:
            raise TrackError(f"{self.source}: {where} is {x:g}, outside {low:g} … {high:g}")
        return x

    def point(self, value, where: str) -> tuple[float, float]:
        if not isinstance(value, list) or len(value) != 2:
            raise self.fail(where, f"expected [x, y], got {_kind(value)}")
        return self.number(value[0], f"{where}: x"), self.number(value[1], f"{where}: y")

    def points(self, value, where: str, least: int) -> np.ndarray:
        if not isinstance(value, list):
            raise self.fail(where, f"expected a list of [x, y] points, got {_kind(value)}")
        if len(value) < least:
            raise self.fail(where, f"{len(value)} point(s); at least {least} are needed")
        array = _plain_points(value)
        if array is None:  # something is wrong: found point by point, to name it
            array = np.array([self.point(p, f"{where} point {i}") for i, p in enumerate(value)], dtype=np.float64)
        again = repeated_point(Polyline(array))
        if again is not None:
            raise self.fail(where, f"point {again} is point {again - 1} again")
        return array

    def flag(self, value, where: str) -> bool:
        if not isinstance(value, bool):
            raise self.fail(where, f"expected true or false, got {_kind(value)}")
        return value

    def text(self, value, where: str) -> str:
        if not isinstance(value, str):
            raise self.fail(where, f"expected text, got {_kind(value)}")
        return value

    def items(self, value, where: str) -> list:
        if not isinstance(value, list):
            raise self.fail(where, f"expected a list, got {_kind(value)}")
        return value

    def circle(self, value, where: str) -> Circle:
        c = self.keys(value, where, ("x", "y", "radius"), ("x", "y", "radius"))
        radius = self.number(c["radius"], f"{where}.radius", 0.0)
        if radius <= 0:
            raise self.fail(f"{where}.radius", "must be more than 0")
        return Circle(self.number(c["x"], f"{where}.x"), self.number(c["y"], f"{where}.y"), radius)

    def rect(self, value, where: str) -> Rect:
        r = self.keys(value, where, ("x", "y", "width", "height", "angle_deg"), ("x", "y", "width", "height"))
        size = [self.number(r[k], f"{where}.{k}", 0.0) for k in ("width", "height")]
        if min(size) <= 0:
            raise self.fail(f"{where}.{'width' if size[0] <= 0 else 'height'}", "must be more than 0")
        angle = math.radians(self.number(r.get("angle_deg", 0.0), f"{where}.angle_deg", -3600, 3600))
        return Rect(self.number(r["x"], f"{where}.x"), self.number(r["y"], f"{where}.y"), *size, angle)

    def line(self, value, where: str) -> Line:
        s = self.keys(value, where, ("from", "to", "direction"), ("from", "to", "direction"))
        (x1, y1), (x2, y2) = self.point(s["from"], f"{where}.from"), self.point(s["to"], f"{where}.to")
        dx, dy = self.point(s["direction"], f"{where}.direction")
        norm, along = math.hypot(dx, dy), math.hypot(x2 - x1, y2 - y1)
        if along == 0:
            raise self.fail(where, "from and to are the same point")
        if norm == 0:
            raise self.fail(f"{where}.direction", "is [0, 0]; give the way a lap crosses the line")
        dx, dy = dx / norm, dy / norm
        if abs((x2 - x1) * dy - (y2 - y1) * dx) / along < math.sin(math.radians(5)):
            raise self.fail(f"{where}.direction", "runs along the line; give the way a lap crosses it")
        return Line(x1, y1, x2, y2, (dx, dy))


def _plain_points(value: list) -> np.ndarray | None:
    """(n, 2) of a list of [x, y] number pairs within ±MAX_COORDINATE, read at numpy's
    speed; None when any is not (then each is read on its own, to name the one)."""
    try:
        cells = np.array(value, dtype=object)
    except ValueError:
        return None
    if cells.ndim != 2 or cells.shape[1] != 2:
        return None
    plain = np.frompyfunc(_is_plain_number, 1, 1)(cells)
    if not plain.all():
        return None
    array = cells.astype(np.float64)
    return array if bool(np.all(np.abs(array) <= MAX_COORDINATE)) else None


def _is_plain_number(value) -> bool:
    """A JSON number: int or float, never true/false (bool is an int in Python), text or a list."""
    return type(value) in (int, float)


def _kind(value) -> str:
    if value is None:
        return "null"
    return {bool: "true/false", int: "a number", float: "a number", str: "text", list: "a list", dict: "an object"}.get(
        type(value), type(value).__name__
    )


def track_from_json(data, source: str) -> Track:
    """The track `data` (a file's parsed JSON) describes, checked whole; TrackError
    naming the element at fault. `source` starts each message (the file's name)."""
    r = _Reader(source)
    d = r.keys(data, "", TOP_KEYS, ("format", "version", "name"))
    if d["format"] != FORMAT:
        raise r.fail("format", f"{shown_json(d['format'])} is not a car-sandbox track (expected {json.dumps(FORMAT)})")
    if d["version"] not in READS or isinstance(d["version"], bool):
        raise r.fail(
            "version",
            f"{shown_json(d['version'])} is not a version this car-sandbox reads (it reads versions "
            f"{', '.join(map(str, READS))}; a newer car-sandbox may have written it)",
        )
    unit = d.get("unit", "m")
    if unit not in UNITS:
        raise r.fail("unit", f'{shown_json(unit)}: expected "px" or "m"')
    total = count_elements(d)
    if total > MAX_ELEMENTS:
        raise r.fail("", f"{total:,d} points and shapes; a track holds at most {MAX_ELEMENTS:,d}")
    polylines, rects, circles, wall_names = [], [], [], []
    for i, wall in enumerate(r.items(d.get("walls", []), "walls")):
        where = f"walls[{i}]"
        if isinstance(wall, dict) and "polyline" in wall:
            w = r.keys(wall, where, ("polyline", "closed"), ("polyline",))
            closed = r.flag(w.get("closed", False), f"{where}.closed")
            polylines.append(Polyline(r.points(w["polyline"], f"{where}.polyline", 3 if closed else 2), closed))
            wall_names.append(("polyline", len(polylines) - 1, f"{where}.polyline"))
        elif isinstance(wall, dict) and "rect" in wall:
            rects.append(r.rect(r.keys(wall, where, ("rect",))["rect"], f"{where}.rect"))
            wall_names.append(("rect", len(rects) - 1, f"{where}.rect"))
        elif isinstance(wall, dict) and "circle" in wall:
            circles.append(r.circle(r.keys(wall, where, ("circle",))["circle"], f"{where}.circle"))
            wall_names.append(("circle", len(circles) - 1, f"{where}.circle"))
        else:
            raise r.fail(where, 'expected {"polyline": …}, {"rect": …} or {"circle": …}')
    centre = None
    if d.get("centre_line") is not None:
        c = r.keys(d["centre_line"], "centre_line", ("points", "closed"), ("points",))
        closed = r.flag(c.get("closed", False), "centre_line.closed")
        centre = Polyline(r.points(c["points"], "centre_line.points", 3 if closed else 2), closed)
    surfaces = []
    for i, s in enumerate(r.items(d.get("surfaces", []), "surfaces")):
        s = r.keys(s, f"surfaces[{i}]", ("polygon", "grip"), ("polygon", "grip"))
        surfaces.append(
            Surface(
                r.points(s["polygon"], f"surfaces[{i}].polygon", 3), r.number(s["grip"], f"surfaces[{i}].grip", 0, 10)
            )
        )
    spawn = Pose()
    if d.get("spawn") is not None:
        s = r.keys(d["spawn"], "spawn", ("x", "y", "heading_deg"), ("x", "y"))
        heading = math.radians(r.number(s.get("heading_deg", 0.0), "spawn.heading_deg", -3600, 3600))
        spawn = Pose(r.number(s["x"], "spawn.x"), r.number(s["y"], "spawn.y"), heading)
    track = Track(
        name=r.text(d["name"], "name"),
        unit=unit,
        pixels_per_metre=r.number(
            d.get("pixels_per_metre", DEFAULT_PIXELS_PER_METRE), "pixels_per_metre", 0.001, 100_000.0
        ),
        wall_restitution=r.number(d.get("wall_restitution", DEFAULT_WALL_RESTITUTION), "wall_restitution"),
        wall_friction=r.number(d.get("wall_friction", DEFAULT_WALL_FRICTION), "wall_friction"),
        polylines=tuple(polylines),
        rects=tuple(rects),
        circles=tuple(circles),
        cones=tuple(r.circle(c, f"cones[{i}]") for i, c in enumerate(r.items(d.get("cones", []), "cones"))),
        start=None if d.get("start") is None else r.line(d["start"], "start"),
        sectors=tuple(r.line(s, f"sectors[{i}]") for i, s in enumerate(r.items(d.get("sectors", []), "sectors"))),
        centre_line=centre,
        surfaces=tuple(surfaces),
        spawn=spawn,
        description=r.text(d.get("description", ""), "description"),
        credit=r.text(d.get("credit", ""), "credit"),
    )
    check_track(track, source, {(kind, index): name for kind, index, name in wall_names})
    return track


def shown_json(value) -> str:
    """A JSON value as a message quotes it, cut short."""
    text = json.dumps(value)
    return printable(text if len(text) <= 60 else text[:50] + "…")


def load_track(path: str | os.PathLike) -> Track:
    """The track in the JSON file `path`; TrackError naming the file and the problem."""
    source = printable(path)
    text = read_text(path, TRACK_LIMIT, TrackError)
    if text.count("[") > 4 * MAX_ELEMENTS:  # every point opens a list: far too many, known before parsing
        raise TrackError(f"{source}: more than {MAX_ELEMENTS:,d} points and shapes; a track holds at most that many")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TrackError(f"{source}: not JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})") from None
    except RecursionError:
        raise TrackError(f"{source}: not a track (nested too deeply)") from None
    return track_from_json(data, source)


def save_track(track: Track, path: str | os.PathLike) -> Path:
    """Write `track` to `path` as a JSON track file, atomically (a failure leaves the
    old file as it was). The track is checked first: a track that would not load again
    is refused, nothing written."""
    check_track(track, printable(path))
    return write_text_atomic(path, dump_track(track), TrackError)


def _builtin_files() -> dict[str, Path]:
    """{a built-in track's file stem and its name, in lower case: its file}."""
    found: dict[str, Path] = {}
    for path in sorted(BUILTIN_TRACKS.glob("*.json")):
        found[path.stem.lower()] = path
        try:
            name = json.loads(path.read_text(encoding="utf-8")).get("name")
        except (OSError, ValueError):
            continue
        if isinstance(name, str):
            found.setdefault(name.strip().lower(), path)
    return found


def builtin_track_names() -> list[str]:
    """The built-in tracks' names, as a user types them (their file stems: "skid_pad")."""
    return sorted(path.stem for path in BUILTIN_TRACKS.glob("*.json"))


def find_builtin_track(name: str | os.PathLike) -> Path:
    """The track file `name` names: that file when it exists, else the built-in track
    whose file stem or name it is, whatever the case ("skid_pad", "Skid pad",
    "Skid_Pad.json"); TrackError listing the close built-in names when there is none."""
    return find_builtin(name, _builtin_files(), "track", TrackError)


def open_track(path: str | os.PathLike) -> Track:
    """The track in any file a track can be read from, by its name's ending: a JSON
    track (.json), a racetrack-database circuit (.csv) or a Godot level (.tscn)."""
    suffix = Path(path).suffix.lower()
    if suffix == ".csv":
        from .track_csv import read_track_csv

        return read_track_csv(path)
    if suffix == ".tscn":
        return _godot_level(path)
    if suffix != ".json":
        raise TrackError(
            f"{printable(path)}: not a kind of track file car-sandbox reads (a track .json, a circuit .csv of "
            "the racetrack-database, or a Godot level .tscn)"
        )
    return load_track(path)


GODOT_LEVELS = f"{__package__}.godot_level"
"""The module that reads Godot levels (`read_level(path) -> Track`)."""


def _godot_level(path: str | os.PathLike) -> Track:
    import importlib

    try:
        reader = importlib.import_module(GODOT_LEVELS)
    except ModuleNotFoundError as exc:
        if exc.name != GODOT_LEVELS:  # the reader is there but something it needs is not: a bug, shown as one
            raise
        raise TrackError(
            f"{printable(path)}: reading Godot levels (.tscn) is not available in this car-sandbox"
        ) from None
    return reader.read_level(path)
