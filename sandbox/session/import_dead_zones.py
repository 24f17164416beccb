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
    """The project.godot found beside an import and the report's words for its dead zones:
    `said` (one line; empty when the file could not be read) and `notes` (what was odd in
    it, or why it could not be read)."""

    project: Path
    said: str
    notes: tuple = ()


def release_name(engine: str) -> str:
    """The release's name as a report says it (Godot 3, Godot 4.3…); a bare "4" is the newest
    Godot 4, whose default differs from 4.3's."""
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
        return ImportedZones(file, "", (f"controller dead zones not read: {exc}",))
    return ImportedZones(file, zones_words(zones, engine, printable(file)), zones.notes)
