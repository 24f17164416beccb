"""Where compiled kernels are cached, so later starts skip compiling.

numba's own cache sits beside the source (unwritable in a read-only install) and
checks only the timestamp of the file a function is in, so it can serve a stale
kernel after a function it calls, in another file, changed. Here the cache is a
folder in the user's cache directory (platformdirs) named after a hash of every
source file that holds compiled code and of the numba version: any change to them
starts a fresh folder, and older folders are removed.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent
COMPILED_SOURCES = ("physics", "analysis")
"""Folders of the package whose .py files may hold compiled code."""
ENV = "NUMBA_CACHE_DIR"


def source_hash() -> str:
    """Hash of the compiled sources, numba's version and the Python version."""
    from importlib.metadata import version

    digest = hashlib.sha256(f"{version('numba')} {sys.version_info[:2]}".encode())
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


def use_kernel_cache() -> Path | None:
    """Set numba's cache folder for this process (before numba is imported); returns
    it, or None when no folder could be made (numba then compiles every run)."""
    if "numba" in sys.modules and os.environ.get(ENV):
        return Path(os.environ[ENV])
    root = cache_root()
    folder = root / source_hash()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    for old in root.iterdir():
        if old != folder and old.is_dir():
            shutil.rmtree(old, ignore_errors=True)  # another version's kernels
    os.environ[ENV] = str(folder)
    if "numba" in sys.modules:  # loaded first (a tool importing numba itself): re-read its settings
        from numba.core import config

        config.reload_config()
    return folder


def is_warm() -> bool:
    """Whether compiled drivers are in the cache already (not a first start)."""
    folder = os.environ.get(ENV)
    return bool(folder) and any(Path(folder).glob("kernels.run_held-*.nbi"))
