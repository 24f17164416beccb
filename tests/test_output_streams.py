"""A command's output reaches the streams it writes to, whatever compiles meanwhile.

numba colours its compile errors through colorama when that is installed (pyqtgraph
brings it), and colorama then swaps sys.stdout and sys.stderr of the whole process
from the compiling thread, restoring the streams it first saw. Seen: a window's
background compile, still running, sent a later command's results to stale streams.
The sandbox turns numba's colouring off before numba is imported."""

import subprocess
import sys


def test_numba_never_swaps_the_process_streams():
    code = (
        "import importlib.util, sys\n"
        "import sandbox.physics.sim\n"
        "from numba.core import errors\n"
        "print(importlib.util.find_spec('colorama') is not None, type(errors.termcolor()).__name__)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    colorama_installed, scheme = result.stdout.split()
    assert colorama_installed == "True"  # else this test proves nothing: pyqtgraph requires colorama
    assert scheme == "NOPColorScheme"  # plain messages: colorama's init/deinit never run
