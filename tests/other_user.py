"""Running a command as another user, for permission tests."""

import os
import shutil
import subprocess
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path


def as_nobody():
    """Command prefix that runs as the unprivileged user `nobody` (root reads and writes
    every file whatever its permission bits, so a permission test needs another user),
    or None where that cannot work."""
    setpriv = shutil.which("setpriv")
    if os.geteuid() != 0 or setpriv is None:
        return None
    prefix = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]
    probe = subprocess.run(prefix + [sys.executable, "-c", "import sandbox"], capture_output=True, timeout=60)
    return prefix if probe.returncode == 0 else None


@contextmanager
def folder_nobody_may_write():
    """A fresh folder `nobody` may look in but not write in (outside pytest's tmp_path,
    which `nobody` cannot reach); removed afterwards."""
    folder = Path(tempfile.mkdtemp())
    try:
        folder.chmod(0o755)
        yield folder
    finally:
        shutil.rmtree(folder)
