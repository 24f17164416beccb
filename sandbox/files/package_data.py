"""The files the app ships inside its package (package data, pyproject.toml's
[tool.setuptools.package-data]), found through importlib.resources wherever the package
is installed: a clone (editable install), a wheel, pipx.

  builtin_presets/   the built-in presets (one JSON file each)
  godot_templates/   the Godot script templates, a folder per Godot version
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

FOLDERS = ("builtin_presets", "godot_templates")
"""The package data folders of sandbox.files (a wheel's file-list test checks each ships)."""


def package_folder(name: str) -> Path:
    """The package data folder `name` of sandbox.files, on disk.

    pip and pipx install a wheel as files, so the folder is a real one: the built-in
    presets are opened, listed and remembered by their paths like the user's own."""
    folder = resources.files(__package__).joinpath(name)
    if not isinstance(folder, Path):  # a zipped package (zipimport): not how the app is installed
        raise RuntimeError(f"car-sandbox must be installed as files (pip install), not run from {folder}")
    return folder
