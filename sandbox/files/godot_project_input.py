"""The input map of a Godot game's `project.godot`, read (never run): each action's dead
zone, and which Godot the project is for.

Godot 3 and 4 write the `[input]` section alike, an action a key each, its value a
dictionary over several lines, with the events as inline objects:

    [input]

    accelerate={
    "deadzone": 0.5,
    "events": [ Object(InputEventJoypadMotion,"resource_local_to_scene":false,…,"axis":7,"axis_value":1.0,"script":null)
     ]
    }

(Godot 4: `Object(InputEventJoypadMotion,…,"axis":5,"axis_value":1.0,…)` without the spaces,
and `"device":-1`). Values are read by the text-resource reader (tscn_reader.py).
`config_version=4` is a Godot 3 project, `config_version=5` a Godot 4 one, whose
`[application]` `config/features` names its release ("4.3").
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import UserError, printable, shown
from .disk import read_text
from .tscn_reader import SceneError, read_value

PROJECT_LIMIT = 1024 * 1024
"""A project.godot larger than this (1 MiB) is refused unread; Godot's own are a few KiB."""


class ProjectInputError(UserError):
    """A project.godot whose input map cannot be read."""


@dataclass(frozen=True)
class ProjectInput:
    """What a project.godot says about input: each action's dead zone as written (None
    when the action names none; any value, checked by the caller), the Godot release it
    is for ("3", "4" or "4.3"; None when it does not say) and what was odd, in words."""

    source: str
    dead_zones: dict
    engine: str | None
    notes: tuple = ()


_SECTION = re.compile(r"^\[([^\]\n]*)\][ \t]*\r?$", re.MULTILINE)
_ENTRY = re.compile(r"(?:[ \t]*(?:;[^\n]*)?\r?\n)*[ \t]*(?:(?P<section>\[)|(?P<key>[^=\n\[;\s][^=\n]*?)[ \t]*=)")
_CONFIG = re.compile(r"^config_version[ \t]*=[ \t]*(\d+)", re.MULTILINE)
_FEATURES = re.compile(r'^config/features[ \t]*=[^\n]*?"(\d+\.\d+)"', re.MULTILINE)


def read_project_input(path: str | os.PathLike) -> ProjectInput:
    """The input map of the project.godot at `path` (or in the folder `path`);
    ProjectInputError naming the file and the problem."""
    path = Path(path)
    if path.is_dir():
        path = path / "project.godot"
    text = read_text(path, PROJECT_LIMIT, ProjectInputError)
    return parse_project_input(text, str(path))


def parse_project_input(text: str, source: str = "project.godot") -> ProjectInput:
    """`text` of a project.godot as a ProjectInput. A project without an [input] section
    (one that uses Godot's built-in actions only) gives no dead zones and says so; an
    action whose value is not a dictionary is left out and said; a malformed value is a
    ProjectInputError naming its line."""
    source = printable(source)
    engine = _engine_of(text)
    sections = list(_SECTION.finditer(text))
    start = next((m for m in sections if m.group(1).strip() == "input"), None)
    if start is None:
        note = (
            f"{source}: no [input] section (the game defines no actions of its own); Godot's default dead zone is used"
        )
        return ProjectInput(source, {}, engine, (note,))
    found, notes = {}, []
    pos = start.end()
    while True:
        entry = _ENTRY.match(text, pos)
        if entry is None or entry.group("section"):
            break
        key = entry.group("key").strip().strip('"')
        try:
            value, pos = read_value(text, entry.end(), source)
        except SceneError as exc:
            raise ProjectInputError(f"{exc} (in the [input] section, action {shown(key)})") from None
        if not isinstance(value, dict):
            notes.append(f"{source}: [input] {shown(key)} is not an action (its value is not a dictionary); left out")
            continue
        found[key] = value.get("deadzone")
    return ProjectInput(source, found, engine, tuple(notes))


def _engine_of(text: str) -> str | None:
    """Godot 3 ("3") for config_version 4; for config_version 5, the Godot 4 release named
    in config/features ("4.3"), else "4"; None when the file does not say."""
    m = _CONFIG.search(text)
    if m is None:
        return None
    if m.group(1) == "4":
        return "3"
    if m.group(1) == "5":
        features = _FEATURES.search(text)
        return features.group(1) if features else "4"
    return None
