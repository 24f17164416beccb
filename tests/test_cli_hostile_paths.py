"""Hostile file names and folders given to the commands: one line naming the problem
and exit 2 (never a traceback), nothing written, and names printed safely."""

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from other_user import as_nobody, folder_nobody_may_write
from sandbox.files.presets import BUILTIN_DIR

DRIFT = BUILTIN_DIR / "drift.json"
GO_KART = BUILTIN_DIR / "go_kart.json"
ESCAPE = "\x1b"


def run(*args, cwd=None, prefix=()):
    """The command as a user runs it, its arguments as bytes (a name need not be UTF-8),
    under a strict UTF-8 output encoding (what a UTF-8 terminal's locale gives)."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "QT_QPA_PLATFORM": "offscreen"}
    argv = [
        *prefix,
        sys.executable,
        "-m",
        "sandbox",
        *(a if isinstance(a, bytes) else os.fsencode(str(a)) for a in args),
    ]
    return subprocess.run(argv, capture_output=True, env=env, timeout=300, cwd=cwd)


def refused(result, *expected: str) -> str:
    """The one line of error, checked: exit 2, no traceback, each of `expected` in it."""
    err = result.stderr.decode("utf-8")
    assert result.returncode == 2, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    for text in expected:
        assert text in err, err
    assert ESCAPE.encode() not in result.stderr + result.stdout
    return err


def export_script(tmp_path) -> Path:
    script = tmp_path / "car.gd"
    subprocess.run(
        [sys.executable, "-m", "sandbox", "export-godot", "--preset", str(DRIFT), "--out", str(script)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    return script


def export_script_text(preset: Path) -> str:
    from sandbox.files.godot import export_script as exported
    from sandbox.files.presets import load_preset

    return exported(load_preset(preset), 4)


def test_output_names_that_are_not_utf8_are_refused_before_anything_is_written(tmp_path):
    script = export_script(tmp_path)
    folder = os.fsencode(tmp_path)
    bad = b"\xff\x1b[31m"
    cases = [
        ("curves", "--preset", DRIFT, "--out", folder + b"/curve" + bad + b".png"),
        ("tune", "--preset", DRIFT, "--target", "top_speed=500", "--out", folder + b"/t" + bad + b".json"),
        ("import-godot", script, "--out", folder + b"/i" + bad + b".json"),
        ("export-godot", "--preset", DRIFT, "--scene", "--out", folder + b"/s" + bad + b".tscn"),
    ]
    for args in cases:
        refused(run(*args), "\\xff\\x1b[31m", "not UTF-8")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["car.gd"]  # no scene's script, no hidden temporary file


def test_names_are_printed_escaped_never_raw(tmp_path):
    script = export_script(tmp_path)
    odd = tmp_path / os.fsdecode(b"in\xff\x1b[1m.gd")
    shutil.copy(script, odd)
    result = run("import-godot", odd, "--out", tmp_path / "p.json")
    assert result.returncode == 0, result.stderr
    assert "in\\xff\\x1b[1m.gd" in result.stdout.decode("utf-8") and ESCAPE.encode() not in result.stdout
    assert json.loads((tmp_path / "p.json").read_text())["name"] == "Imported from in\\xff\\x1b[1m.gd"
    refused(run("metrics", "--preset", os.fsencode(tmp_path) + b"/gone\xff\x1b[2J.json"), "gone\\xff\\x1b[2J.json")
    named = json.loads(DRIFT.read_text()) | {"name": "\x1b[31mRed\x1b]0;title\x07"}
    (tmp_path / "red.json").write_text(json.dumps(named))
    result = run("metrics", "--preset", tmp_path / "red.json")
    assert result.returncode == 0 and ESCAPE.encode() not in result.stdout and b"\x07" not in result.stdout
    assert result.stdout.decode().startswith("\\x1b[31mRed\\x1b]0;title\\x07 (")


def test_names_and_paths_longer_than_the_system_allows_are_refused(tmp_path):
    long_name = tmp_path / ("a" * 300 + ".csv")
    refused(run("curves", "--preset", DRIFT, "--out", long_name), "is 304 bytes long; the file system allows 255")
    long_path = tmp_path.joinpath(*["d" * 200] * 25, "x.csv")
    refused(run("curves", "--preset", DRIFT, "--out", long_path), "bytes long; the system allows 4095")
    refused(
        run("export-godot", "--preset", DRIFT, "--scene", "--out", tmp_path / ("s" * 260 + ".tscn")),
        "the file system allows 255",
    )
    assert list(tmp_path.iterdir()) == []


def test_every_file_a_command_writes_is_checked_against_every_file_it_reads(tmp_path):
    start = tmp_path / "start.json.bak"  # the .bak a save of start.json would make
    shutil.copy(DRIFT, start)
    refused(
        run("tune", "--preset", start, "--target", "top_speed=500", "--out", tmp_path / "start.json"),
        "is also an input",
    )
    script = export_script(tmp_path)
    kept = tmp_path / "car.gd.bak"  # a backup --into kept before: never written over, read or not
    shutil.copy(GO_KART, kept)
    assert run("export-godot", "--preset", kept, "--into", script).returncode == 0
    assert (tmp_path / "car.gd.bak2").read_text() == export_script_text(DRIFT)
    scene_script = tmp_path / "scene.gd"  # the scene's script, beside it
    shutil.copy(DRIFT, scene_script)
    refused(
        run("export-godot", "--preset", scene_script, "--scene", "--out", tmp_path / "scene.tscn"), "is also an input"
    )
    assert (
        start.read_bytes() == DRIFT.read_bytes() == scene_script.read_bytes()
        and kept.read_bytes() == GO_KART.read_bytes()
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "car.gd",
        "car.gd.bak",
        "car.gd.bak2",
        "scene.gd",
        "start.json.bak",
    ]


def test_an_unwritable_folder_is_refused_before_the_work_starts(tmp_path):
    prefix = as_nobody()
    if prefix is None:
        pytest.skip("needs root and setpriv to run as another user (root may write in any folder)")
    with folder_nobody_may_write() as folder:
        preset = folder / "p.json"
        shutil.copy(DRIFT, preset)
        preset.chmod(0o644)
        broken = folder / "broken.json"  # the sweep is refused before its preset is even read
        broken.write_text("not a preset")
        broken.chmod(0o644)
        result = run(
            "sweep",
            "--preset",
            broken,
            "--param",
            "max_speed_reverse=100:300:3",
            "--metric",
            "top_speed",
            "--out",
            folder / "sweep.csv",
            prefix=prefix,
            cwd=folder,
        )
        refused(result, f"{folder / 'sweep.csv'}: no permission to write in {folder}")
        result = run(
            "tune",
            "--preset",
            preset,
            "--target",
            "top_speed=500",
            "--out",
            folder / "t.json",
            prefix=prefix,
            cwd=folder,
        )
        refused(result, "no permission to write in")
        assert sorted(p.name for p in folder.iterdir()) == ["broken.json", "p.json"]


def test_temporary_files_left_by_a_killed_command_are_swept_from_the_folder_written_to(tmp_path):
    """The rule: hidden files named .*.car-sandbox-tmp* (our temporary files' names),
    untouched for 10 minutes, in the folder a command writes to; any target's."""
    killed = tmp_path / ".trajectory.k2j3h4.car-sandbox-tmp.csv"  # a simulate killed by SIGKILL
    killed_png = tmp_path / ".plot.a1b2c3.car-sandbox-tmp.png"
    running = tmp_path / ".other.x9y8z7.car-sandbox-tmp.csv"  # another command still writing
    yours = tmp_path / ".trajectory.old.csv"  # a hidden file of the user's
    for path in (killed, killed_png, running, yours):
        path.write_text("half")
    old = time.time() - 11 * 60
    for path in (killed, killed_png, yours):
        os.utime(path, (old, old))
    result = run("curves", "--preset", DRIFT, "--out", tmp_path / "curve.csv")
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([running.name, yours.name, "curve.csv"])


def test_a_scene_is_written_with_its_script_or_not_at_all(tmp_path):
    """The window saves a scene without the command's checks: a scene's name one byte
    too long (its script's two bytes shorter) is refused before the script is written."""
    from sandbox.files.godot import GodotError
    from sandbox.files.godot_scene import save_scene
    from sandbox.files.presets import load_preset

    scene = tmp_path / ("s" * 251 + ".tscn")  # 256 bytes; its script s….gd 254
    with pytest.raises(GodotError, match="the file system allows 255"):
        save_scene(load_preset(DRIFT), scene, 4)
    assert list(tmp_path.iterdir()) == []


def test_a_scenes_old_script_kept_as_bak_is_never_written_over(tmp_path):
    """A different car.gd beside the scene, replaced, is kept under a new name: an
    earlier car.gd.bak (here the very preset read) is never written over."""
    (tmp_path / "car.gd").write_text("extends Node\n")
    kept = tmp_path / "car.gd.bak"
    shutil.copy(DRIFT, kept)
    refused(run("export-godot", "--preset", kept, "--scene", "--out", tmp_path / "car.tscn"), "--replace")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["car.gd", "car.gd.bak"]
    assert run("export-godot", "--preset", kept, "--scene", "--out", tmp_path / "car.tscn", "--replace").returncode == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["car.gd", "car.gd.bak", "car.gd.bak2", "car.tscn"]
    assert kept.read_bytes() == DRIFT.read_bytes() and (tmp_path / "car.gd.bak2").read_text() == "extends Node\n"


def test_printable_escapes_what_could_drive_a_terminal_and_keeps_the_rest():
    from sandbox.errors import printable

    assert printable("Drift\u00a02 é 漢字 (road test).json") == "Drift\u00a02 é 漢字 (road test).json"
    hostile = os.fsdecode(b"a\xff\x1b[2J\x07") + "\u202egnp.exe\nb\x9b"  # \x9b: the one-byte CSI
    assert printable(hostile) == "a\\xff\\x1b[2J\\x07\\u202egnp.exe\\x0ab\\x9b"
    assert printable(printable(hostile)) == printable(hostile)  # printing it again changes nothing
    assert printable(Path(hostile)) == printable(hostile)
