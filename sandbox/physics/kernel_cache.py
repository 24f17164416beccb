"""Where compiled kernels are cached, so later starts skip compiling.

numba's own cache sits beside the source (unwritable in a read-only install) and
checks only the timestamp of the file a function is in, so it can serve a stale
kernel after a function it calls, in another file, changed. Here the cache is a
folder in the user's cache directory (platformdirs) named after a hash of every
source file that holds compiled code, of where the package is and of the numba
version: any change to them starts a fresh folder, and folders no version has used
for a week are removed. Where the package is counts because numba files each kernel
under its source file's path while what says a model's kernels are ready
(kernel_prep's markers, `is_warm`) is the folder's alone: an install elsewhere (a
wheel beside a checkout) sharing the folder would take the other's kernels as ready
and compile its own on a worker of the window.
What numba reads and writes there is checked (`kernel_cache_guard`): no state of
the folder stops a run.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent
COMPILED_SOURCES = ("physics", "analysis")
"""Folders of the package whose .py files may hold compiled code."""
ENV = "NUMBA_CACHE_DIR"
STALE_SECONDS = 7 * 24 * 3600


def source_hash() -> str:
    """Hash of the compiled sources, where the package is, numba's version and the
    Python version."""
    from importlib.metadata import version

    digest = hashlib.sha256(f"{version('numba')} {sys.version_info[:2]} {PACKAGE}".encode())
    for folder in COMPILED_SOURCES:
        for path in sorted((PACKAGE / folder).rglob("*.py")):
            digest.update(path.relative_to(PACKAGE).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_root() -> Path:
    """The folder holding one sub-folder per source hash: CAR_SANDBOX_KERNEL_CACHE if
    set, else the user cache directory's `kernels`."""
    override = os.environ.get("CAR_SANDBOX_KERNEL_CACHE")
    if override:
        return Path(override)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("car-sandbox", appauthor=False)) / "kernels"


DAMAGED = "the compiled-kernel cache was damaged: its damaged kernels are removed and compiled again"
_said: set[str] = set()


def say_once(kind: str, text: str) -> None:
    """One line on stderr, once a run for each kind of problem with the cache."""
    if kind not in _said:
        _said.add(kind)
        try:
            print(f"car-sandbox: {text}", file=sys.stderr, flush=True)
        except (OSError, ValueError, AttributeError):  # no stderr (closed, or none under pythonw): the run goes on
            pass


def _usable(folder: Path) -> bool:
    try:
        if os.path.lexists(folder) and not folder.is_dir():  # a file, FIFO or stray link where ours goes
            os.unlink(folder)
            say_once("damaged", DAMAGED)
        folder.mkdir(parents=True, exist_ok=True)
        return os.access(folder, os.W_OK | os.X_OK)
    except OSError:
        return False


def use_kernel_cache() -> Path:
    """Set numba's cache folder for this process (before numba is imported) and return
    it: the user cache folder, or where that cannot be written (a user without a home)
    a folder of this user's in the temporary directory; where neither can, the user
    cache folder, read but not written."""
    if "numba" in sys.modules and os.environ.get(ENV):
        return Path(os.environ[ENV])
    digest = source_hash()
    root = cache_root()
    if not _usable(root / digest):
        fallback = Path(tempfile.gettempdir()) / f"car-sandbox-kernels-{os.getuid() if hasattr(os, 'getuid') else 0}"
        if _usable(fallback / digest):
            root = fallback
        # else neither can be written: kernels cached there still load, none is written (kernel_cache_guard)
    folder = root / digest
    try:
        now = time.time()
        for old in root.iterdir():
            # another version's kernels, unused for a week (two versions in use keep theirs)
            if old != folder and old.is_dir() and now - old.stat().st_mtime > STALE_SECONDS:
                shutil.rmtree(old, ignore_errors=True)
        os.utime(folder)
    except OSError:
        pass  # tidying only
    os.environ[ENV] = str(folder)
    if "numba" in sys.modules:  # loaded first (a tool importing numba itself): re-read its settings
        from numba.core import config

        config.reload_config()
    return folder


def is_warm() -> bool:
    """Whether compiled drivers are in the cache already (not a first start)."""
    folder = os.environ.get(ENV)
    return bool(folder) and any(Path(folder).rglob("kernels.run_held-*.nbi"))
