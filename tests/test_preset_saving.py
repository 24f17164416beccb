"""Saving a preset never loses a file: a save that fails (a full disk, no permission,
any error of the system) leaves the preset and its .bak byte for byte as they were,
says which file and why, and leaves no temporary file; saves racing each other never
leave a half-written preset or .bak."""

import errno
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from sandbox.errors import PresetError
from sandbox.files import disk
from sandbox.files.presets import Preset, backup_path, save_preset
from sandbox.physics.models import arcade
from sandbox.physics.params import Tuning


def preset(drag: float, name: str = "Mine") -> Preset:
    return Preset(arcade, Tuning(arcade.PARAMS, {"drag": drag}), name)


def saved_twice(folder: Path) -> Path:
    """mine.json and mine.json.bak, each a different whole preset."""
    path = folder / "mine.json"
    save_preset(preset(-0.1, "First"), path)
    save_preset(preset(-0.2, "Second"), path)
    assert backup_path(path).is_file()
    return path


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


class FullAfter:
    """`open` for the disk module whose files hit a full disk after `budget` bytes in
    all: the write that crosses it writes what fits, then fails with ENOSPC."""

    def __init__(self, budget: int):
        self.budget = budget

    def __call__(self, name, mode="r", *args, **kwargs):
        f = open(name, mode, *args, **kwargs)
        if "w" not in mode and "+" not in mode and "a" not in mode:
            return f
        outer, real_write = self, f.write

        class Limited:
            def __init__(self):
                self.f = f

            def write(self, data):
                room = max(outer.budget, 0)
                if len(data) > room:
                    real_write(data[:room])
                    self.f.flush()
                    outer.budget = 0
                    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), name)
                outer.budget -= len(data)
                return real_write(data)

            def __getattr__(self, attr):
                return getattr(self.f, attr)

            def __enter__(self):
                return self

            def __exit__(self, *exc):
                self.f.close()

        return Limited()


@pytest.mark.parametrize("budget", [0, 1, 100, 700, 1200, 1700, 2500])
def test_a_disk_that_fills_during_a_save_changes_neither_the_preset_nor_its_backup(tmp_path, monkeypatch, budget):
    """Simulated (monkeypatch): the disk fills after `budget` bytes of this save."""
    path = saved_twice(tmp_path)
    before = snapshot(tmp_path)
    monkeypatch.setattr(disk, "open", FullAfter(budget), raising=False)
    try:
        save_preset(preset(-0.3, "Third"), path)
    except PresetError as exc:
        message = str(exc)
        assert str(path) in message and "disk is full" in message and "unchanged" in message
        assert snapshot(tmp_path) == before  # byte for byte, and no temporary file
    else:  # there was room for all of it
        assert json.loads(path.read_text())["name"] == "Third"
        assert json.loads(backup_path(path).read_text())["name"] == "Second"
        assert sorted(snapshot(tmp_path)) == sorted(before)


@pytest.mark.parametrize("fails", ["backup", "preset"])
def test_a_rename_that_fails_leaves_both_files_as_they_were(tmp_path, monkeypatch, fails):
    path = saved_twice(tmp_path)
    before = snapshot(tmp_path)
    real_replace = os.replace

    def replace(source, target):
        if Path(target).name == (backup_path(path).name if fails == "backup" else path.name):
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        real_replace(source, target)

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(PresetError, match="Input/output error") as err:
        save_preset(preset(-0.3, "Third"), path)
    assert str(path) in str(err.value)
    assert snapshot(tmp_path) == before


def test_no_permission_to_write_says_so_and_changes_nothing(tmp_path, monkeypatch):
    """Simulated: the test may run as root, for whom permission bits stop nothing."""
    path = saved_twice(tmp_path)
    before = snapshot(tmp_path)

    def refused(*args, **kwargs):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))

    monkeypatch.setattr(disk.tempfile, "mkstemp", refused)
    with pytest.raises(PresetError) as err:
        save_preset(preset(-0.3), path)
    assert str(err.value) == f"{path}: no permission to write in {tmp_path}; the old file is unchanged"
    assert snapshot(tmp_path) == before


def test_a_folder_under_a_file_is_named_as_the_problem(tmp_path):
    """A real failure even for root: the presets folder's parent is a file."""
    (tmp_path / "data").write_text("not a folder")
    with pytest.raises(PresetError) as err:
        save_preset(preset(-0.3), tmp_path / "data" / "presets" / "mine.json")
    assert "does not exist" not in str(err.value)
    assert f"{tmp_path / 'data'} is a file, not a folder" in str(err.value)
    with pytest.raises(PresetError, match="the folder .*missing does not exist"):
        save_preset(preset(-0.3), tmp_path / "missing" / "mine.json")


def test_saves_racing_each_other_never_leave_a_torn_preset_or_backup(tmp_path):
    """Four threads save the same preset over and over while another reads it and its
    .bak: every read is a whole preset."""
    path = saved_twice(tmp_path)
    stop = threading.Event()
    torn: list[str] = []
    failures: list[BaseException] = []

    def save(k: int) -> None:
        try:
            for i in range(150):
                save_preset(preset(-0.01 * (i % 50 + 1), f"saver {k}"), path)
        except BaseException as exc:  # noqa: BLE001 (reported by the test)
            failures.append(exc)

    def read() -> None:
        while not stop.is_set():
            for name in (path, backup_path(path)):
                text = name.read_bytes()
                try:
                    json.loads(text)
                except ValueError:
                    torn.append(f"{name.name}: {len(text)} bytes")

    reader = threading.Thread(target=read)
    reader.start()
    savers = [threading.Thread(target=save, args=(k,)) for k in range(4)]
    for saver in savers:
        saver.start()
    for saver in savers:
        saver.join()
    stop.set()
    reader.join()
    assert not failures and not torn, (failures[:3], torn[:5], len(torn))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.json", "mine.json.bak"]


SAVER = """
import sys
from sandbox.files.presets import Preset, save_preset
from sandbox.physics.models import arcade
from sandbox.physics.params import Tuning
for i in range(int(sys.argv[2])):
    save_preset(Preset(arcade, Tuning(arcade.PARAMS, {"drag": -0.01 * (i % 50 + 1)}), "process"), sys.argv[1])
"""


def test_processes_saving_the_same_preset_never_leave_a_torn_preset_or_backup(tmp_path):
    """Three processes (truly at once, not taking turns like threads) save the same
    preset while this one reads it and its .bak."""
    path = saved_twice(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    savers = [
        subprocess.Popen([sys.executable, "-c", SAVER, str(path), "200"], env=env, stderr=subprocess.PIPE)
        for _ in range(3)
    ]
    torn, reads = [], 0
    while any(saver.poll() is None for saver in savers):
        for name in (path, backup_path(path)):
            text = name.read_bytes()
            reads += 1
            try:
                json.loads(text)
            except ValueError:
                torn.append(f"{name.name}: {len(text)} bytes")
    errors = [saver.stderr.read().decode() for saver in savers]
    assert [saver.returncode for saver in savers] == [0, 0, 0], errors
    assert not torn, (torn[:5], len(torn), reads)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.json", "mine.json.bak"]


def _tiny_disk(folder: Path) -> bool:
    if os.geteuid() != 0:
        return False
    folder.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)], capture_output=True)
    return done.returncode == 0


@pytest.mark.parametrize("pages_left", [0, 1])
def test_a_real_full_disk_changes_neither_the_preset_nor_its_backup(tmp_path, pages_left):
    """A real full disk: a 64 KiB tmpfs (needs root; skipped where it cannot be mounted)."""
    folder = tmp_path / "disk"
    if not _tiny_disk(folder):
        pytest.skip("a tmpfs cannot be mounted here (needs root)")
    try:
        path = saved_twice(folder)
        filler = folder / "filler"
        fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
        try:
            while os.write(fd, b"\0" * 4096):
                pass
        except OSError:
            pass
        finally:
            os.close(fd)
        for _ in range(pages_left):  # leave room for one small file, not for two
            with open(filler, "r+b") as f:
                f.truncate(max(filler.stat().st_size - 4096, 0))
        before = snapshot(folder)
        with pytest.raises(PresetError, match="disk is full") as err:
            save_preset(preset(-0.3, "Third"), path)
        assert str(path) in str(err.value)
        assert snapshot(folder) == before
    finally:
        subprocess.run(["umount", str(folder)], check=True)
