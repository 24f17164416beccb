"""The files the app ships inside its package (package data, pyproject.toml's
[tool.setuptools.package-data]), found through importlib.resources wherever the package
is installed: a clone (editable install), a wheel, pipx.

  builtin_presets/   the built-in presets (one JSON file each)
  builtin_traces/    the built-in test drives (one control trace CSV each)
  builtin_tracks/    the built-in tracks (one JSON track file each)
  godot_templates/   the Godot script templates, a folder per Godot version

A user names a built-in file by its name wherever a file of its kind is asked for
(`find_builtin`), so the same command works in a clone and installed.
"""

from __future__ import annotations

import difflib
import os
import re
from importlib import resources
from pathlib import Path
from typing import Mapping

from ..errors import printable

FOLDERS = ("builtin_presets", "builtin_traces", "builtin_tracks", "godot_templates")
"""The package data folders of sandbox.files (a wheel's file-list test checks each ships)."""


def package_folder(name: str) -> Path:
    """The package data folder `name` of sandbox.files, on disk.

    pip and pipx install a wheel as files, so the folder is a real one: the built-in
    presets are opened, listed and remembered by their paths like the user's own."""
    folder = resources.files(__package__).joinpath(name)
    if not isinstance(folder, Path):  # a zipped package (zipimport): not how the app is installed
        raise RuntimeError(f"car-sandbox must be installed as files (pip install), not run from {folder}")
    return folder


def find_builtin(given: str | os.PathLike, builtins: Mapping[str, Path], kind: str, error: type[Exception]) -> Path:
    """The file `given` names: that file when it exists, else the built-in `kind`
    ("preset", "test drive") whose name or file stem it is, whatever the case ("drift",
    "Drift.json"); `builtins`: {a name or stem in lower case: its file}. `error` when there
    is none, listing the close built-in names (all of them when none is close)."""
    path = Path(given)
    if os.path.lexists(path):
        return path
    wanted = [str(given).strip().lower()]
    if len(path.parts) == 1 and any(path.suffix.lower() == p.suffix.lower() for p in builtins.values()):
        wanted.append(path.stem.lower())
    for key in wanted:
        if key in builtins:
            return builtins[key]
    named = sorted({builtins[key].stem for key in builtins if _close(wanted[-1], key)})[:6]
    hint = (
        f"; close built-in {kind}s: {', '.join(named)}"
        if named
        else f"; the built-in {kind}s: {', '.join(sorted({path.stem for path in builtins.values()}))}"
    )
    raise error(f"{printable(given)}: no such file, and no built-in {kind} of that name{hint}")


def _close(wanted: str, name: str) -> bool:
    """Whether `name` is like `wanted`: it holds it, or it or one of its words is spelt
    almost alike (a letter or two off)."""
    if len(wanted) >= 3 and wanted in name:
        return True
    words = [name] + [word for word in re.split(r"[^\w]+|_", name) if len(word) >= 3]
    return any(difflib.SequenceMatcher(None, wanted, word).ratio() >= 0.8 for word in words)
