"""A recording's comment lines: what the game said of its car's script, above the
columns' header (docs/link.md, "Recordings").

    # switches: analog_pedals=1 recipe_2020=0 rate_independent=0

Each on/off option the game's link node knows from the script's code, 1 on and 0 off.
A recording driven on a track (format 2) also says so, and which track:

    # recording: 2
    # track: builtin parking_lot
    # track: file sha256=<64 hex digits> /home/me/game/level.tscn

a built-in track by its name, a track file by its path and the SHA-256 of its content
when it was recorded (files/recorded_track.py opens it and notices a file changed or
moved since). Lines starting with `#` come only before the header; a trace loader skips
them, so a recording with them is taken wherever a trace is. A file without them (every
recording written before they existed: format 1) loads as before: nothing is known of
the switches, and it was driven on the open field. A format newer than FORMAT_VERSION
is refused, never guessed at."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping

from ..errors import TraceError, shown
from ..physics.models import MODELS

COMMENT = "#"
SWITCHES_KEY = "switches"
VERSION_KEY = "recording"
TRACK_KEY = "track"
FORMAT_VERSION = 2
"""The recording format this car-sandbox writes (2: it may name its track) and reads up to."""
HASH = re.compile(r"sha256=([0-9a-f]{64})$")
SWITCH_NAMES = tuple(sorted({p.name for model in MODELS.values() for p in model.PARAMS if p.is_bool}))
"""Every model's on/off options: the names a recording's switches line may hold."""
VALUES = {"1": True, "0": False, "true": True, "false": False}
FORM = f"# {SWITCHES_KEY}: NAME=1|0 …"


def is_comment(line: str) -> bool:
    return line.lstrip().startswith(COMMENT)


@dataclass(frozen=True)
class TrackRef:
    """The track a recording was driven on: a built-in track's `builtin` name, or a
    track file's `path` and the SHA-256 (hex) of its content when it was recorded."""

    builtin: str = ""
    path: str = ""
    sha256: str = ""

    def line(self) -> str:
        """Its comment line, with its line end."""
        if self.builtin:
            return f"{COMMENT} {TRACK_KEY}: builtin {self.builtin}\n"
        return f"{COMMENT} {TRACK_KEY}: file sha256={self.sha256} {self.path}\n"

    def __str__(self) -> str:
        return f"the built-in track {self.builtin}" if self.builtin else f"the track file {self.path}"


def leading_comments(lines: list[str], source: str) -> tuple[dict[str, bool], int]:
    """(the switches the comment lines above the header state, the index of the header
    line in `lines`); TraceError names the line of a comment it cannot read."""
    switches, _, k = read_header(lines, source)
    return switches, k


def read_header(lines: list[str], source: str) -> tuple[dict[str, bool], TrackRef | None, int]:
    """(the switches the comment lines state, the track they name or None, the index
    of the header line in `lines`); TraceError names the line of a comment it cannot read."""
    switches: dict[str, bool] = {}
    track = None
    k = 0
    while k < len(lines) and is_comment(lines[k]):
        switches.update(parse_comment(lines[k], source, k + 1, switches))
        key, _, rest = lines[k].strip()[len(COMMENT) :].partition(":")
        if key.strip() == TRACK_KEY:
            if track is not None:
                raise TraceError(f"{source} line {k + 1}: a second track line (a recording is driven on one track)")
            track = parse_track(rest.strip(), f"{source} line {k + 1}")
        k += 1
    return switches, track, k


def parse_track(text: str, where: str) -> TrackRef:
    """A track line's value: `builtin NAME` or `file sha256=HEX PATH`."""
    kind, _, rest = text.partition(" ")
    rest = rest.strip()
    if kind == "builtin" and rest:
        return TrackRef(builtin=rest)
    if kind == "file":
        digest, _, path = rest.partition(" ")
        found = HASH.match(digest)
        if found and path.strip():
            return TrackRef(path=path.strip(), sha256=found.group(1))
    raise TraceError(
        f"{where}: {shown(repr(text[:80]))} names no track: `{COMMENT} {TRACK_KEY}: builtin NAME` or "
        f"`{COMMENT} {TRACK_KEY}: file sha256=HEX PATH`"
    )


def parse_comment(line: str, source: str, number: int, before: Mapping[str, bool] = {}) -> dict[str, bool]:
    """The switches of one comment line (line `number` of `source`); `before`: those of
    earlier lines (a name given twice is refused)."""
    text = line.strip()[len(COMMENT) :].strip()
    key, colon, rest = text.partition(":")
    where = f"{source} line {number}"
    if colon and key.strip() == VERSION_KEY:
        version = rest.strip()
        if not version.isdigit() or not 1 <= int(version) <= FORMAT_VERSION:
            raise TraceError(
                f"{where}: recording format {shown(repr(version[:20]))}: this car-sandbox reads formats 1 … "
                f"{FORMAT_VERSION} (a newer car-sandbox wrote it?)"
            )
        return {}
    if colon and key.strip() == TRACK_KEY:
        return {}  # read by read_header
    if not colon or key.strip() != SWITCHES_KEY:
        raise TraceError(
            f"{where}: {shown(repr(line.strip()[:80]))} is no comment a recording holds: above its header a "
            f"recording has only `{FORM}` (the game's on/off options), `{COMMENT} {VERSION_KEY}: N` and "
            f"`{COMMENT} {TRACK_KEY}: …`"
        )
    found: dict[str, bool] = {}
    for item in rest.split():
        name, equals, value = item.partition("=")
        if not equals or value.strip().lower() not in VALUES:
            raise TraceError(f"{where}: {shown(repr(item[:80]))} is not NAME=1 or NAME=0 ({FORM})")
        if name not in SWITCH_NAMES:
            raise TraceError(
                f"{where}: {shown(repr(name[:80]))} is not an on/off option of any model "
                f"(known: {', '.join(SWITCH_NAMES)})"
            )
        if name in found or name in before:
            raise TraceError(f"{where}: switch {name} is given twice")
        found[name] = VALUES[value.strip().lower()]
    return found


def comment_lines(switches: Mapping[str, bool], track: TrackRef | None = None) -> str:
    """The comment lines: the format and the track when `track` is given (a drive on
    the open field is written as before), then `switches` (alphabetically); "" for none."""
    lines = f"{COMMENT} {VERSION_KEY}: {FORMAT_VERSION}\n" + track.line() if track is not None else ""
    if not switches:
        return lines
    stated = " ".join(f"{n}={int(bool(switches[n]))}" for n in sorted(switches))
    return lines + f"{COMMENT} {SWITCHES_KEY}: {stated}\n"


def known_switches(given: object, model_name: str) -> tuple[dict[str, bool], int]:
    """(the on/off options of `given`, an object from the game, that `model_name`'s model
    declares with a true/false value; how many entries were left out as not such)."""
    if not isinstance(given, dict):
        return {}, 0 if given is None else 1
    model = MODELS.get(model_name) if isinstance(model_name, str) else None
    declared = {p.name for p in model.PARAMS if p.is_bool} if model is not None else set()
    kept = {name: value for name, value in given.items() if name in declared and isinstance(value, bool)}
    return kept, len(given) - len(kept)
