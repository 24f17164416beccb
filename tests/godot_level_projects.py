"""A Godot project written in a test's temporary folder, for the level import's tests."""

from pathlib import Path

HEADER4 = '[gd_scene load_steps=2 format=3 uid="uid://level"]\n\n'
"""The first line of a Godot 4 scene, and the blank line after it."""


def project(tmp_path: Path, files: dict[str, str]) -> Path:
    """A Godot project in tmp_path/game with `files` (path -> text)."""
    root = tmp_path / "game"
    (root / "props").mkdir(parents=True, exist_ok=True)
    (root / "project.godot").write_text("config_version=5\n", encoding="utf-8")
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root
