"""The controller dead zones of the Godot project an imported car script or scene belongs to
(the nearest folder at or above it that holds project.godot), and how the import's report
words them: `import-godot` prints them; the window's import uses them for its controllers.
A project.godot that cannot be read is a note: the import itself goes on."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from ..errors import UserError, printable
from ..files.godot_level import find_project
from ..files.godot_project_input import read_project_input
from .godot_input import DeadZones, project_zones


@dataclass(frozen=True)
class ImportedZones:
    """The project.godot found beside an import, its dead zones (None: it could not be
    read), the Godot release they are for, and the report's words: `said` (one line,
    empty when not read) and `notes` (what was odd, or why it was not read)."""

    project: Path
    zones: DeadZones | None
    engine: str
    said: str
    notes: tuple = ()


def release_name(engine: str) -> str:
    """ "Godot 3", "Godot 4.3"…; a bare "4" is the newest Godot 4, whose default differs from 4.3's."""
    return "Godot 4.4 and later" if engine == "4" else f"Godot {engine}"


def zones_words(zones: DeadZones, engine: str, source: str) -> str:
    """One line of a report: each action's dead zone `source` (a project.godot) sets, and the
    default of Godot `engine` for the rest; or that it sets none and the default applies."""
    default = f"{release_name(engine)}'s default {zones.default:g}"
    if not zones.actions:
        return f"controller dead zones: {source} sets none; {default} applies to every action"
    found = ", ".join(f"{action} {value:g}" for action, value in sorted(zones.actions.items()))
    return f"controller dead zones from {source}: {found}; any other action {default}"


def imported_zones(path: str | os.PathLike, godot: int | None) -> ImportedZones | None:
    """The dead zones of the project the car script or scene at `path` belongs to, for the
    release its project.godot says, else Godot `godot` (the one the import found the file
    written for), else Godot 3; None when no folder at or above it holds project.godot."""
    folder = find_project(Path(path))
    if folder is None:
        return None
    file = folder / "project.godot"
    fallback = str(godot) if godot else "3"
    try:
        project = read_project_input(file)
        engine = project.engine or fallback
        zones = project_zones(project, engine)
    except UserError as exc:
        return ImportedZones(file, None, fallback, "", (f"controller dead zones not read: {exc}",))
    return ImportedZones(file, zones, engine, zones_words(zones, engine, printable(file)), zones.notes)
