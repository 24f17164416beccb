"""The track a recording was driven on: named when it is written (`track_ref`), opened
when it is replayed, simulated or fitted (`open_recorded_track`).

A built-in track is named by its name; a track file by its absolute path and the
SHA-256 of its bytes (a Godot level: of its main scene file), so that a file moved,
deleted or changed since the drive is noticed and said, never silently driven on as
it is now."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from ..errors import printable
from ..physics.track import Track
from .recording_header import TrackRef, is_comment, read_header
from .track_checks import TrackError
from .tracks import BUILTIN_TRACKS, find_builtin_track, open_track

BUILTIN = "builtin:"
"""How the window keeps a built-in track's source ("builtin:NAME")."""


def file_hash(path: str | os.PathLike) -> str:
    """The SHA-256 (hex) of the file's bytes; TrackError naming it when it cannot be read."""
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError as exc:
        raise TrackError(f"{printable(path)}: cannot be read ({exc.strerror or exc})") from None


def track_ref(source: str | os.PathLike) -> TrackRef:
    """The TrackRef of a track opened from `source`: "builtin:NAME", a built-in track's
    name, or a track file's path."""
    text = str(source)
    if text.startswith(BUILTIN):
        return TrackRef(builtin=text[len(BUILTIN) :])
    path = find_builtin_track(text).resolve()
    if path.parent == BUILTIN_TRACKS.resolve():
        return TrackRef(builtin=path.stem)
    return TrackRef(path=str(path), sha256=file_hash(path))


def open_recorded_track(ref: TrackRef, source: str) -> Track:
    """The track `ref` names, for the recording `source`; TrackError saying what to do
    when its file is gone or has changed since the drive."""
    if ref.builtin:
        return open_track(find_builtin_track(ref.builtin))
    path = Path(ref.path)
    if not path.is_file():
        raise TrackError(
            f"{source} was driven on the track {printable(path)}, which is not there now (moved or deleted?): "
            "give the track to drive it on (--track, or open the track first)"
        )
    if file_hash(path) != ref.sha256:
        raise TrackError(
            f"{source} was driven on the track {printable(path)}, which has changed since (its content is not "
            "what it was): give the track to drive it on as it is now (--track, or open the track first)"
        )
    return open_track(path)


def track_for(ref: TrackRef | None, source: str, given: str | None = None) -> Track | None:
    """The track to drive a recording (`source`) on: `given` (a track's name or file,
    the user's choice) when there is one, else the track the recording names (`ref`),
    else None (the open field)."""
    if given is not None:
        return open_track(find_builtin_track(given))
    return None if ref is None else open_recorded_track(ref, source)


def named_track(path: str | os.PathLike) -> TrackRef | None:
    """The track the comment lines at the top of a trace or recording file name (None:
    none, or a file that is no text: the trace reader says what is wrong with it)."""
    lines = []
    try:
        with open(path, encoding="utf-8-sig") as f:
            for line in f:
                lines.append(line.rstrip("\n"))
                if not is_comment(line) or len(lines) > 16:
                    break
    except (OSError, UnicodeDecodeError):
        return None
    return read_header(lines, printable(path))[1]
