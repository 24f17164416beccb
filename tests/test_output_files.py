"""Every file the sandbox writes: whole or not at all, never over a device or an input,
through links, with the old file's permissions; and the messages for bad outputs."""

import os
import shutil
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sandbox.errors import UserError
from sandbox.files.disk import write_text_atomic
from sandbox.files.presets import BUILTIN_DIR

PRESET = str(BUILTIN_DIR / "recipe_defaults.json")


def cli(*args, **kwargs):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run([sys.executable, "-m", "sandbox", *args], capture_output=True, text=True, env=env, **kwargs)


def tmpfs_available() -> str | None:
    """Why a private small tmpfs cannot be mounted here, or None if it can."""
    if os.geteuid() != 0:
        return "needs root for a private mount namespace"
    if not shutil.which("unshare"):
        return "needs unshare(1)"
    probe = subprocess.run(
        ["unshare", "--mount", "--propagation", "private", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"],
        capture_output=True,
    )
    return None if probe.returncode == 0 else "cannot mount a tmpfs here"


@pytest.mark.parametrize(
    "command",
    [
        ["curves", "--preset", PRESET, "--out", "{d}/out.png"],
        ["curves", "--preset", PRESET, "--out", "{d}/out.svg"],
        ["screenshot", "--preset", PRESET, "--drive", "0", "--out", "{d}/out.png"],
        ["curves", "--preset", PRESET, "--out", "{d}/out.csv"],
    ],
)
def test_a_full_disk_keeps_the_old_file_and_exits_2(tmp_path, command):
    """A 200 KiB tmpfs in a private mount namespace, filled up; the old output survives."""
    why = tmpfs_available()
    if why:
        pytest.skip(why)
    old = b"old contents, must survive\n"
    name = Path(command[-1]).name
    script = f"""
set -e
mount -t tmpfs -o size=200k tmpfs "$D"
printf '%s' '{old.decode()}' > "$D/{name}"
dd if=/dev/zero of="$D/fill" bs=4k 2>/dev/null || true
set +e
"$@"
echo "exit=$?"
cat "$D/{name}" | od -c | head -3
ls -a "$D"
"""
    d = tmp_path / "disk"
    d.mkdir()
    args = [a.replace("{d}", str(d)) for a in command]
    result = subprocess.run(
        [
            "unshare",
            "--mount",
            "--propagation",
            "private",
            "sh",
            "-c",
            script,
            "sh",
            sys.executable,
            "-m",
            "sandbox",
            *args,
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "D": str(d), "QT_QPA_PLATFORM": "offscreen"},
    )
    assert "exit=2" in result.stdout, result.stdout + result.stderr
    assert "old contents" in result.stdout.replace("   ", "").replace(" ", "") or "o   l   d" in result.stdout
    assert "the old file is unchanged" in result.stderr and "Traceback" not in result.stderr
    assert ".tmp" not in result.stdout  # no temporary file left behind


def test_a_device_is_never_replaced(tmp_path):
    device = Path("/dev/null")
    if os.geteuid() == 0:
        device = tmp_path / "null"
        os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    result = cli("curves", "--preset", PRESET, "--out", str(device))
    assert result.returncode == 2 and "not a regular file" in result.stderr
    assert stat.S_ISCHR(device.stat().st_mode)


def test_writing_over_a_symlink_writes_its_file(tmp_path):
    real = tmp_path / "real.csv"
    real.write_text("old")
    link = tmp_path / "link.csv"
    link.symlink_to(real)
    assert cli("curves", "--preset", PRESET, "--out", str(link)).returncode == 0
    assert link.is_symlink() and real.read_text().startswith("speed,")


def test_writing_over_a_hard_link_keeps_both_names_on_one_file(tmp_path):
    first, second = tmp_path / "a.csv", tmp_path / "b.csv"
    first.write_text("old")
    os.link(first, second)
    assert cli("curves", "--preset", PRESET, "--out", str(first)).returncode == 0
    assert second.read_text().startswith("speed,") and os.path.samefile(first, second)


def test_the_old_files_permissions_are_kept(tmp_path):
    out = tmp_path / "private.csv"
    out.write_text("old")
    out.chmod(0o600)
    assert cli("curves", "--preset", PRESET, "--out", str(out)).returncode == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o600 and out.read_text().startswith("speed,")


def test_an_output_that_is_an_input_is_refused_and_the_input_kept(tmp_path):
    preset = tmp_path / "p.json"
    shutil.copy(PRESET, preset)
    before = preset.read_bytes()
    result = cli("curves", "--preset", str(preset), "--out", str(preset).replace("p.json", "./p.json"))
    assert result.returncode == 2 and "is also an input" in result.stderr
    trace = tmp_path / "t.csv"
    trace.write_text("steer,throttle,brake\n0,1,0\n")
    result = cli("simulate", "--preset", PRESET, "--controls", str(trace), "--out", str(trace))
    assert result.returncode == 2 and "is also an input" in result.stderr
    assert preset.read_bytes() == before and trace.read_text() == "steer,throttle,brake\n0,1,0\n"


@pytest.mark.parametrize(
    "out, message",
    [
        ("", "no output file given"),
        ("{d}/missing/x.csv", "does not exist"),
        ("{d}/file/x.csv", "is a file, not a folder"),
        ("{d}", "is a folder"),
    ],
)
def test_bad_output_names_get_a_message_that_names_the_problem(tmp_path, out, message):
    (tmp_path / "file").write_text("")
    result = cli("curves", "--preset", PRESET, "--out", out.replace("{d}", str(tmp_path)))
    assert result.returncode == 2 and message in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "missing").exists()  # no folder made behind the user's back


def test_stale_temporary_files_of_a_killed_save_are_cleaned_up(tmp_path):
    target = tmp_path / "p.json"
    stale, fresh = tmp_path / ".p.abc123.car-sandbox-tmp.json", tmp_path / ".p.def456.car-sandbox-tmp.json"
    yours = tmp_path / ".p.old.json"  # a hidden file of the user's: never touched
    stale.write_text("half")
    fresh.write_text("another save in progress")
    yours.write_text("mine")
    old = time.time() - 3600
    for path in (stale, yours):
        os.utime(path, (old, old))
    write_text_atomic(target, "{}")
    assert target.read_text() == "{}" and not stale.exists() and fresh.exists() and yours.exists()


def test_a_writer_that_fails_leaves_the_old_file(tmp_path):
    from sandbox.files.disk import write_atomic

    target = tmp_path / "x.png"
    target.write_text("keep")
    with pytest.raises(UserError, match="the old file is unchanged"):
        write_atomic(target, lambda name: False)
    with pytest.raises(UserError, match="incomplete"):
        write_atomic(
            target,
            lambda name: Path(name).write_bytes(b"\x89PNG\r\n\x1a\n half"),
            check=lambda data: data.endswith(b"IEND\xaeB`\x82"),
        )
    assert target.read_text() == "keep" and sorted(p.name for p in tmp_path.iterdir()) == ["x.png"]


def test_zoom_and_size_out_of_range_are_refused():
    result = cli("screenshot", "--preset", PRESET, "--out", "/tmp/never.png", "--zoom", "20")
    assert result.returncode == 2 and "zoom 20 is not within 0.01 … 8" in result.stderr
    result = cli("screenshot", "--preset", PRESET, "--out", "/tmp/never.png", "--size", "100000x100000")
    assert result.returncode == 2 and "each side must be 200 … 8000 px" in result.stderr
    assert "QPainter" not in result.stderr


def test_the_cli_zoom_range_is_the_windows():
    from sandbox.cli import ZOOMS
    from sandbox.ui.track_view import ZOOM_RANGE

    assert ZOOMS == ZOOM_RANGE


def test_stdout_closed_early_ends_quietly():
    process = subprocess.Popen(
        [sys.executable, "-m", "sandbox", "params", "--markdown"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    process.stdout.close()  # the reader is gone before the first line
    _, err = process.communicate(timeout=60)
    assert process.returncode == 1 and b"Traceback" not in err and b"BrokenPipe" not in err


def test_a_link_put_in_place_of_our_temporary_file_is_never_written_through(tmp_path, monkeypatch):
    """Whoever swaps our temporary file for a symlink meanwhile gets a refusal, not a
    write into the file it points at; the target keeps its old content."""
    from sandbox.files import disk

    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    target = tmp_path / "out.csv"
    target.write_text("old")
    made = disk.temp_beside

    def swapped(path, suffix, error=UserError):
        fd, name = made(path, suffix, error)
        os.unlink(name)
        os.symlink(victim, name)
        return fd, name

    monkeypatch.setattr(disk, "temp_beside", swapped)
    with pytest.raises(UserError, match="the old file is unchanged"):
        disk.write_text_atomic(target, "new")
    assert victim.read_text() == "precious" and target.read_text() == "old"


def test_a_presets_backup_name_that_is_a_symlink_is_refused_and_its_file_kept(tmp_path):
    """Saving over a preset keeps the old one as NAME.json.bak: a symlink there is named
    as not a plain file, never written through; nothing changes."""
    from sandbox.files.presets import PresetError, load_preset, save_preset

    preset = tmp_path / "mine.json"
    shutil.copy(PRESET, preset)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    (tmp_path / "mine.json.bak").symlink_to(victim)
    with pytest.raises(PresetError, match="mine.json.bak: that is not a plain file"):
        save_preset(load_preset(preset), preset)
    assert victim.read_text() == "precious" and preset.read_bytes() == Path(PRESET).read_bytes()


def test_a_read_only_output_is_refused_by_its_mode_and_left_as_it_is(tmp_path):
    """0444: refused naming why, root included (root may write any file, so the mode decides)."""
    out = tmp_path / "curve.csv"
    out.write_text("old")
    out.chmod(0o444)
    try:
        result = cli("curves", "--preset", PRESET, "--out", str(out))
        assert result.returncode == 2 and f"{out}: is read-only" in result.stderr, result.stderr
        assert out.read_text() == "old"
    finally:
        out.chmod(0o644)
