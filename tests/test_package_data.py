"""The app's files ship in its wheel: every file under sandbox/ that is not Python (the
built-in presets and test drives, the Godot templates) is package data, and no code
reaches outside the package for a file (installed with pip or pipx, the app has only
its package).
CI also installs the wheel outside the clone and runs the app there (tools/wheel_smoke.py)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

import sandbox
from sandbox.files.godot import GODOT_VERSIONS, TEMPLATES, has_script
from sandbox.files.package_data import FOLDERS
from sandbox.files.presets import BUILTIN_DIR, list_presets
from sandbox.files.traces import BUILTIN_TRACES, list_traces
from sandbox.files.tracks import BUILTIN_TRACKS, builtin_track_names
from sandbox.physics.models import MODELS

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = Path(sandbox.__file__).resolve().parent
sys.path.insert(0, str(ROOT / "tools"))
from make_test_drives import DRIVES  # noqa: E402
from wheel_smoke import build_wheel, missing_from, shipped_files  # noqa: E402

FROM_THIS_FILE = re.compile(r"Path\(__file__\)(?:\.resolve\(\))?(?P<up>\.parents\[(?P<k>\d+)\]|(?:\.parent\b)+)")
"""A path made from the module's own file by going up: `.parent.parent`, `.parents[2]`."""
OUTSIDE_KNOWN = {
    "sandbox/devtools/oracle.py": "the Godot project of the engine checks, in tools/ (a developer's tool)",
    "sandbox/devtools/export_goldens.py": "the engine's recorded drives, in tests/ (a developer's tool)",
    "sandbox/devtools/contact_oracle.py": "the Godot project of the wall checks, in tools/ (a developer's tool)",
}
"""The modules still reading a file of the clone, outside the package, and what; a module
that stops doing so leaves this list (the test says so)."""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel of this source, built offline with this Python's setuptools."""
    return build_wheel(tmp_path_factory.mktemp("wheel"), isolated=False)


def test_every_file_the_app_reads_is_in_the_wheel(wheel):
    assert missing_from(wheel) == []


def test_the_files_to_ship_are_the_presets_the_drives_the_tracks_and_the_templates_of_every_model():
    """The list the wheel is checked against holds what the app reads: each data folder,
    every preset, every built-in test drive and track, and every model's template for
    each Godot version."""
    files = shipped_files()
    for folder in FOLDERS:
        assert any(name.startswith(f"sandbox/files/{folder}/") for name in files), folder
    presets = [p for p, _, builtin, _ in list_presets() if builtin]
    assert len(presets) >= len(MODELS)
    assert {p.relative_to(ROOT).as_posix() for p in presets} <= set(files)
    drives = [p for p, builtin in list_traces() if builtin]
    assert sorted(p.stem for p in drives) == sorted(DRIVES)  # those tools/make_test_drives.py writes
    assert {p.relative_to(ROOT).as_posix() for p in drives} <= set(files)
    tracks = {f"sandbox/files/builtin_tracks/{name}.json" for name in builtin_track_names()}
    assert len(tracks) >= 6 and tracks <= set(files)
    for model in MODELS.values():
        assert has_script(model), model.NAME
        for godot in GODOT_VERSIONS:
            assert f"sandbox/files/godot_templates/godot{godot}/{model.NAME}.gd" in files


def test_the_built_in_folders_are_inside_the_package():
    for folder in (BUILTIN_DIR, BUILTIN_TRACES, BUILTIN_TRACKS, TEMPLATES):
        assert folder.is_dir() and PACKAGE in folder.resolve().parents, folder


def outside_reads(module: str, text: str) -> list[str]:
    """The paths `text` (the source of `module`, as sandbox/…/name.py) makes from its
    own file that lead above the package's folder."""
    below = len(Path(module).parts) - 2  # folders between the module and sandbox/
    found = []
    for match in FROM_THIS_FILE.finditer(text):
        up = int(match["k"]) if match["k"] is not None else match["up"].count(".parent") - 1
        if up > below:
            found.append(match[0])
    return found


def test_no_code_reads_a_file_outside_the_package():
    reaching = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        module = path.relative_to(PACKAGE.parent).as_posix()
        found = outside_reads(module, path.read_text(encoding="utf-8"))
        if found:
            reaching[module] = found
    unexpected = {m: f for m, f in reaching.items() if m not in OUTSIDE_KNOWN}
    assert not unexpected, f"code reading files outside the package (ship them as package data): {unexpected}"
    fixed = set(OUTSIDE_KNOWN) - set(reaching)
    assert not fixed, f"no longer reading outside the package, take them off OUTSIDE_KNOWN: {fixed}"


def test_the_check_finds_a_path_above_the_package():
    """The check can fail: the built-in presets as they were found before they shipped."""
    before = 'BUILTIN_DIR = Path(__file__).resolve().parents[2] / "presets"'
    assert outside_reads("sandbox/files/presets.py", before) == ["Path(__file__).resolve().parents[2]"]
    assert outside_reads("sandbox/files/presets.py", "Path(__file__).parent.parent.parent / 'x'")
    assert not outside_reads("sandbox/physics/kernel_cache.py", "Path(__file__).resolve().parent.parent")
    assert not outside_reads("sandbox/cli.py", "Path(__file__).parent / 'x'")
