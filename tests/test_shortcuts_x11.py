"""Menu shortcuts under a real X server while a value is typed: X11's key bindings give
a text box keys the offscreen platform does not (Ctrl+E: the end of the line), and
only real key events show which reach the menus. Every shortcut with Ctrl, Alt or Meta
runs its command in every model, but for a text box's own editing keys."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sandbox.physics.models import MODELS

DRIVE = Path(__file__).parent / "x11" / "shortcuts_while_typing.py"
TOOLS = ("xvfb-run", "xdotool")


@pytest.fixture(scope="module")
def seen() -> dict:
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"needs {' and '.join(missing)} (apt-get install xvfb xdotool)")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    env.pop("QT_QPA_PLATFORM", None)
    run = subprocess.run(
        ["xvfb-run", "-a", "-s", "-screen 0 1600x1000x24", sys.executable, str(DRIVE)],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )
    lines = [line for line in run.stdout.splitlines() if line.startswith("{")]
    assert run.returncode == 0 and lines, run.stdout + run.stderr
    return json.loads(lines[-1])


@pytest.mark.parametrize("model", list(MODELS))
def test_every_shortcut_runs_while_a_number_box_is_typed_in(seen, model):
    assert seen[model]["model"] == model
    assert seen[model]["missed"] == []
    assert "Ctrl+E" in seen[model]["ran"] and len(seen[model]["ran"]) > 15  # the files, edits, views, links and presets
