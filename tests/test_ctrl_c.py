"""Ctrl+C at any point stops a command: while its modules load, and (for the suite's own
sake) when the suite runs in the background, where SIGINT comes ignored."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENV = dict(os.environ, PYTHONPATH=str(ROOT))

CTRL_C_WHILE_LOADING = """
import importlib.abc, runpy, sys

class CtrlC(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == "numpy":  # the command line loads it on the way (the physics, the fit)
            raise KeyboardInterrupt
        return None

sys.meta_path.insert(0, CtrlC())
sys.argv = ["car-sandbox", "params"]
runpy.run_module("sandbox", run_name="__main__")
"""


def test_ctrl_c_while_the_program_loads_stops_it_with_130_and_no_traceback():
    done = subprocess.run(
        [sys.executable, "-c", CTRL_C_WHILE_LOADING], capture_output=True, text=True, timeout=120, env=ENV
    )
    assert "Traceback" not in done.stderr and "KeyboardInterrupt" not in done.stderr, done.stderr
    assert done.returncode == 130 and "stopped (SIGINT)" in done.stderr
    assert done.stdout == ""


IN_THE_BACKGROUND = """
import signal, sys, pytest

signal.signal(signal.SIGINT, signal.SIG_IGN)  # as `pytest … &` in a script starts it
sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", sys.argv[1]]))
"""


def test_the_suite_run_in_the_background_still_stops_its_commands_with_ctrl_c():
    """The link command's Ctrl+C test, in a suite that inherited SIGINT ignored."""
    test = "tests/test_link_command.py::test_ctrl_c_ends_it_cleanly_while_waiting_for_the_game"
    done = subprocess.run(
        [sys.executable, "-c", IN_THE_BACKGROUND, test],
        capture_output=True, text=True, timeout=600, cwd=ROOT, env=ENV,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:]
    assert "1 passed" in done.stdout
