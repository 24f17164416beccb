"""A damaged, unreadable or unwritable kernel cache never stops the product.

Each case is a fresh process (numba keeps what it loaded) running `simulate` on a
copy of one filled cache, damaged as a power cut, a bad disk or a stray link leaves
it: the command must finish, write the same trajectory, say at most one line about
the cache and never show a traceback.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PRESET = ROOT / "sandbox" / "files" / "builtin_presets" / "recipe_defaults.json"
CONTROLS = ROOT / "sandbox" / "files" / "builtin_traces" / "brake_test.csv"
LIMIT_BYTES = 3 * 2**30
"""Address space of each run: a cache file that is really an endless device fails
the run (MemoryError) instead of filling the machine's memory."""

RUNNER = """
import resource, runpy, sys
resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
{before}
sys.argv = ["car-sandbox", *sys.argv[1:]]
runpy.run_module("sandbox", run_name="__main__")
"""

FULL_DISK = """
import builtins, errno, os
_open = builtins.open
class _Full:
    def __init__(self, f): self._f = f
    def write(self, data): raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    def __enter__(self): return self
    def __exit__(self, *exc): self._f.close()
    def __getattr__(self, name): return getattr(self._f, name)
def _full_open(file, mode="r", *args, **kwargs):
    f = _open(file, mode, *args, **kwargs)
    if "w" in mode and str(file).startswith(os.environ["CAR_SANDBOX_KERNEL_CACHE"]):
        return _Full(f)
    return f
builtins.open = _full_open
"""
"""Every file written in the cache folder fails as on a full disk (stands in for a
tiny tmpfs where one cannot be mounted)."""


def simulate(cache: Path, out: Path, before: str = "", timeout: float = 240):
    env = dict(os.environ, CAR_SANDBOX_KERNEL_CACHE=str(cache), PYTHONPATH=str(ROOT))
    code = RUNNER.format(limit=LIMIT_BYTES, before=before)
    return subprocess.run(
        [
            sys.executable,
            "-c",
            code,
            "simulate",
            "--preset",
            str(PRESET),
            "--controls",
            str(CONTROLS),
            "--out",
            str(out),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.fixture(scope="module")
def filled(tmp_path_factory):
    """A cache filled by one run, and that run's trajectory."""
    folder = tmp_path_factory.mktemp("filled")
    result = simulate(folder / "cache", folder / "out.csv")
    assert result.returncode == 0, result.stderr
    assert list((folder / "cache").rglob("*.nbi")) and list((folder / "cache").rglob("*.nbc"))
    return folder / "cache", (folder / "out.csv").read_bytes()


def driver_files(cache: Path, pattern: str) -> list[Path]:
    """The cache files of the drivers' compiled entries (`kernels.call`): every run,
    `simulate` too, loads its drivers through them."""
    found = sorted(cache.rglob(f"kernels._bound.locals.bound-*{pattern}"))
    assert found, f"no {pattern} of the drivers' entries in {cache}"
    return found


def all_files(cache: Path, pattern: str) -> list[Path]:
    return sorted(cache.rglob(f"*{pattern}"))


def zero_length_indexes(cache):  # a power cut after the rename, before the data reached the disk
    for path in all_files(cache, ".nbi"):
        path.write_bytes(b"")


def truncated_indexes(cache):
    for path in all_files(cache, ".nbi"):
        path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def garbage_indexes(cache):
    for path in all_files(cache, ".nbi"):
        path.write_bytes(bytes(range(256)) * 4)


def bit_flipped_data(cache):  # one bit in every 4 KiB: the object code and bitcode are hit
    for path in all_files(cache, ".nbc"):
        data = bytearray(path.read_bytes())
        for i in range(2048, len(data), 4096):
            data[i] ^= 0x10
        path.write_bytes(bytes(data))


def folder_for_index(cache):
    for path in driver_files(cache, ".nbi"):
        path.unlink()
        (path / "inside").mkdir(parents=True)


def folder_for_data(cache):
    for path in driver_files(cache, ".nbc"):
        path.unlink()
        path.mkdir()


def fifo_for_index(cache):  # opening it for reading waits for a writer that never comes
    for path in driver_files(cache, ".nbi"):
        path.unlink()
        os.mkfifo(path)


def fifo_for_data(cache):
    for path in driver_files(cache, ".nbc"):
        path.unlink()
        os.mkfifo(path)


def dev_zero_for_data(cache):  # an endless file
    for path in driver_files(cache, ".nbc"):
        path.unlink()
        path.symlink_to("/dev/zero")


def dev_zero_for_index(cache):
    for path in driver_files(cache, ".nbi"):
        path.unlink()
        path.symlink_to("/dev/zero")


def file_for_folder(cache):  # the folder of the drivers' files is a file
    folder = driver_files(cache, ".nbi")[0].parent
    shutil.rmtree(folder)
    folder.write_bytes(b"not a folder")


def fifo_for_the_whole_cache(cache):  # this version's folder is a FIFO
    (folder,) = cache.iterdir()
    shutil.rmtree(folder)
    os.mkfifo(folder)


DAMAGE = [
    zero_length_indexes,
    truncated_indexes,
    garbage_indexes,
    bit_flipped_data,
    folder_for_index,
    folder_for_data,
    fifo_for_index,
    fifo_for_data,
    dev_zero_for_data,
    dev_zero_for_index,
    file_for_folder,
    fifo_for_the_whole_cache,
]


def cache_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "cache" in line.lower()]


def assert_ran_well(result, out: Path, expected: bytes):
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 0, result.stderr
    assert out.read_bytes() == expected
    assert len(cache_lines(result.stderr)) <= 1, result.stderr


@pytest.mark.parametrize("damage", DAMAGE, ids=[d.__name__ for d in DAMAGE])
def test_a_damaged_cache_is_rebuilt_and_said_once(filled, tmp_path, damage):
    cache, expected = filled
    copy = tmp_path / "cache"
    shutil.copytree(cache, copy, symlinks=True)
    damage(copy)
    before = kernels_beside_the_sources()
    result = simulate(copy, tmp_path / "out.csv", timeout=120)  # a hang fails here, not forever
    assert_ran_well(result, tmp_path / "out.csv", expected)
    assert kernels_beside_the_sources() == before, "kernels were cached beside the sources"
    assert len(cache_lines(result.stderr)) == 1, result.stderr
    assert "damaged" in result.stderr
    # rebuilt: the next run finds a sound cache and says nothing
    again = simulate(copy, tmp_path / "again.csv", timeout=120)
    assert_ran_well(again, tmp_path / "again.csv", expected)
    assert again.stderr == ""


def test_a_cache_that_cannot_be_written_on_a_full_disk_is_said_once(tmp_path):
    cache = tmp_path / "cache"
    result = simulate(cache, tmp_path / "out.csv", before=FULL_DISK)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 0, result.stderr
    lines = cache_lines(result.stderr)
    assert len(lines) == 1 and "No space left on device" in lines[0], result.stderr
    assert not list(cache.rglob("*.nbc")), "a half-written kernel was left"


def _mount(*args) -> bool:
    return subprocess.run(["mount", *map(str, args)], capture_output=True).returncode == 0


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="mounts a tmpfs")
def test_a_really_full_disk_is_said_once(tmp_path, filled):
    cache, expected = filled
    disk = tmp_path / "disk"
    disk.mkdir()
    if not _mount("-t", "tmpfs", "-o", "size=64k", "tmpfs", disk):
        pytest.skip("cannot mount a tmpfs here (not root); the full disk is simulated above")
    try:
        result = simulate(disk / "cache", tmp_path / "out.csv")
        assert_ran_well(result, tmp_path / "out.csv", expected)
        lines = cache_lines(result.stderr)
        assert len(lines) == 1 and "No space left on device" in lines[0], result.stderr
    finally:
        subprocess.run(["umount", str(disk)], check=True)


@contextlib.contextmanager
def read_only(folder: Path):
    """`folder` cannot be written, by root either: a read-only bind mount as root,
    else the folder's write permissions taken away."""
    if os.geteuid() != 0:
        for path in [folder, *folder.rglob("*")]:
            if path.is_dir():
                path.chmod(0o555)
        try:
            yield
        finally:
            for path in [folder, *folder.rglob("*")]:
                if path.is_dir():
                    path.chmod(0o755)
        return
    if not (_mount("--bind", folder, folder) and _mount("-o", "remount,ro,bind", folder)):
        pytest.skip("cannot make a read-only mount here")
    try:
        yield
    finally:
        subprocess.run(["umount", str(folder)], check=True)


def kernels_beside_the_sources() -> set[Path]:
    return {path for pattern in ("*.nbi", "*.nbc") for path in (ROOT / "sandbox").rglob(pattern)}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="POSIX permissions and mounts")
def test_a_read_only_damaged_cache_is_used_without_writing_anywhere(filled, tmp_path):
    cache, expected = filled
    copy = tmp_path / "cache"
    shutil.copytree(cache, copy)
    zero_length_indexes(copy)
    tmp = tmp_path / "tmp"  # the temporary folder (the fall-back) cannot be written either
    tmp.mkdir()
    before = kernels_beside_the_sources()
    with read_only(copy), read_only(tmp):
        result = simulate(copy, tmp_path / "out.csv", before=f"import tempfile; tempfile.tempdir = {str(tmp)!r}")
    assert_ran_well(result, tmp_path / "out.csv", expected)
    assert len(cache_lines(result.stderr)) == 1, result.stderr
    assert kernels_beside_the_sources() == before, "kernels were cached beside the sources"


def test_every_cached_kernel_reads_its_cache_checked():
    """The checks are in place before any module declares a cached kernel."""
    code = """
import sys
import sandbox.physics.kernels, sandbox.analysis.manoeuvres
from numba.core.caching import NullCache
from numba.core.dispatcher import Dispatcher
seen = 0
for name, module in list(sys.modules.items()):
    if name.startswith("sandbox."):
        for value in vars(module).values():
            cache = getattr(value, "_cache", None) if isinstance(value, Dispatcher) else None
            if cache is not None and not isinstance(cache, NullCache):
                seen += 1
                print(value.__name__, type(cache._cache_file).__name__, type(cache._impl.locator).__name__)
print("cached kernels", seen)
"""
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )
    assert result.returncode == 0, result.stderr
    *kernels, count = result.stdout.splitlines()
    assert int(count.split()[-1]) >= 10
    assert all(line.split()[1:] == ["CheckedCacheFile", "Locator"] for line in kernels), result.stdout


WINDOW_FRAMES = """
from PySide6.QtCore import Qt
from sandbox.ui.qt import application, dispose
from sandbox.ui.app import MainWindow
app = application()
window = MainWindow(remember=False)
window.timer.stop()  # the frames are run here, one by one, as the timer would
window.keys.held |= {Qt.Key.Key_W}
for _ in range(4):
    window.run_for(0.25)
    app.processEvents()
print(window.sim.ticks, float(window.sim.state.speed[0]) > 0)
window.curves.settle()
dispose(window)
"""


def test_the_window_drives_on_a_damaged_cache(filled, tmp_path):
    """The kernels the first frames load are read from a damaged cache: the car moves."""
    cache, _ = filled
    copy = tmp_path / "cache"
    shutil.copytree(cache, copy)
    zero_length_indexes(copy)
    env = dict(
        os.environ,
        CAR_SANDBOX_KERNEL_CACHE=str(copy),
        PYTHONPATH=str(ROOT),
        QT_QPA_PLATFORM="offscreen",
        CAR_SANDBOX_HOME=str(tmp_path / "home"),
    )
    result = subprocess.run([sys.executable, "-c", WINDOW_FRAMES], env=env, capture_output=True, text=True, timeout=300)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["60", "True"]
    assert len(cache_lines(result.stderr)) == 1, result.stderr


def test_a_data_file_written_under_another_key_is_a_miss_not_another_functions_code(tmp_path):
    """Two runs compiling at once can give two functions the same free data file name:
    the index ends up naming B's key, while the last data written there is A's. Loaded
    under B's key, A's code must be a miss (compiled again), never run as B."""
    from sandbox.physics.kernel_cache_guard import CheckedCacheFile

    run_a = CheckedCacheFile(cache_path=str(tmp_path), filename_base="f", source_stamp=("stamp", 1))
    run_b = CheckedCacheFile(cache_path=str(tmp_path), filename_base="f", source_stamp=("stamp", 1))
    key_a, key_b = (("int64",), "target", "a"), (("float64",), "target", "b")
    run_a.save(key_a, "A's code")  # A: index {A: f.1}, its data in f.1
    run_b._load_index = lambda: {}  # B read the index before A saved it: f.1 looked free to B too
    run_b.save(key_b, "B's code")  # B: index {B: f.1} (A's entry lost), its data in f.1
    run_a._save_data("f.1.nbc", _keyed(key_a, "A's code"))  # A's data write lands last
    del run_b._load_index
    assert run_b._load_index() == {key_b: "f.1.nbc"}
    assert run_b.load(key_b) is None  # A's code under B's key: a miss, compiled again
    assert run_a.load(key_a) is None  # A's key is no longer in the index: a miss too


def _keyed(key, data):
    from sandbox.physics.kernel_cache_guard import KEYED

    return (KEYED, key, data)


def _kernel_folder(package_parent: Path, cache: Path) -> str:
    """The kernel folder a run of the package under `package_parent` uses, cache root `cache`."""
    env = dict(os.environ, PYTHONPATH=str(package_parent), CAR_SANDBOX_KERNEL_CACHE=str(cache))
    env.pop("NUMBA_CACHE_DIR", None)
    code = "import os, sandbox.physics; print(os.environ['NUMBA_CACHE_DIR'])"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=package_parent)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_an_install_elsewhere_has_a_kernel_folder_of_its_own(tmp_path):
    """numba files each kernel under its source file's path, but what says a model's
    kernels are ready (kernel_prep's markers) is the folder's: two installs of the same
    version in different places (a wheel beside a checkout) sharing one folder would
    each take the other's kernels as ready and compile its own on the window's
    workers. Each place gets its own folder; the same place keeps its folder."""
    cache = tmp_path / "cache"
    places = []
    for name in ("first", "second"):
        shutil.copytree(ROOT / "sandbox", tmp_path / name / "sandbox", ignore=shutil.ignore_patterns("__pycache__"))
        places.append(tmp_path / name)
    first, second = (_kernel_folder(place, cache) for place in places)
    assert Path(first).parent == Path(second).parent == cache
    assert first != second
    assert _kernel_folder(places[0], cache) == first
