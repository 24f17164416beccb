"""`track info|check|convert`: what a track holds (and its picture), whether it is a
good one, and a circuit CSV, a Godot level or a track file written as a track file."""

from __future__ import annotations

import math
import os

from ..errors import printable


def run(args) -> int:
    return {"info": info, "check": check, "convert": convert}[args.track_command](args)


def _open(args):
    from ..files.tracks import find_builtin_track, open_track

    path = find_builtin_track(args.track)
    return path, open_track(path)


def info(args) -> int:
    path, track = _open(args)
    print(describe(track, printable(path)))
    if args.out is not None:
        write_png(track, args.out)
        print(f"wrote {printable(args.out)}")
    return 0


def check(args) -> int:
    path, track = _open(args)
    print(f"{printable(path)}: a good track ({_counts(track)})")
    return 0


def convert(args) -> int:
    from ..files.tracks import TrackError, save_track

    if args.out.suffix.lower() != ".json":
        raise TrackError(f"{printable(args.out)}: a track file's name ends in .json")
    path, track = _open(args)
    for note in track.notes:
        print(f"note: {note}")
    save_track(track, args.out)
    print(f"wrote {printable(args.out)}: {track.name} ({_counts(track)})")
    return 0


def _counts(track) -> str:
    parts = [
        (len(track.polylines) + len(track.rects) + len(track.circles), "wall"),
        (len(track.cones), "cone"),
        (len(track.sectors), "sector line"),
    ]
    text = ", ".join(f"{n} {what}{'' if n == 1 else 's'}" for n, what in parts)
    return text + (", a start line" if track.start is not None else ", no start line")


def describe(track, source: str) -> str:
    """The lines `track info` prints."""
    from ..physics.track_geometry import length

    unit = track.unit
    closed = sum(p.closed for p in track.polylines)
    lines = [f"{track.name} ({source})"]
    if track.description:
        lines.append(f"  {track.description}")
    lines += [
        f"unit: {unit} ({track.pixels_per_metre:g} px/m)",
        f"walls: {len(track.polylines)} polylines ({closed} closed), {len(track.rects)} rectangles, "
        f"{len(track.circles)} circles",
        f"cones: {len(track.cones)}",
        f"start line: {'yes' if track.start is not None else 'none'}; sector lines: {len(track.sectors)}",
        f"surfaces: {len(track.surfaces)}",
    ]
    if track.centre_line is None:
        lines.append("centre line: none")
    else:
        kind = "a lap" if track.centre_line.closed else "open"
        lines.append(f"centre line: {kind}, {length(track.centre_line):.1f} {unit} long")
    left, top, right, bottom = track.bounds()
    lines.append(
        f"bounds: x {left:.6g} … {right:.6g}, y {top:.6g} … {bottom:.6g} "
        f"({right - left:.6g} × {bottom - top:.6g} {unit})"
    )
    s = track.spawn
    lines.append(f"spawn: ({s.x:.6g}, {s.y:.6g}) heading {math.degrees(s.heading):.6g}°")
    if track.credit:
        lines.append(f"credit: {track.credit}")
    lines += [f"note: {note}" for note in track.notes]
    return "\n".join(lines)


def write_png(track, out) -> None:
    """The whole track drawn to the PNG `out`, atomically (offscreen: no window opens)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from ..files.disk import png_complete, write_atomic
    from ..files.tracks import TrackError
    from ..ui.qt import application
    from ..ui.track_painter import track_image

    if out.suffix.lower() != ".png":
        raise TrackError(f"{printable(out)}: the picture is written as PNG (a name ending in .png)")
    application()  # text needs a QGuiApplication
    image = track_image(track)
    write_atomic(out, lambda name: image.save(name, "PNG"), TrackError, check=png_complete)
