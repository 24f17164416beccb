"""What the window tests share: a paused window, the speed plot, key events, the rate box,
the menus' shortcut actions, a drive run under an X server."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QMenu

X11_TOOLS = ("xvfb-run", "xdotool")


def paused(w):
    """Stop the frame timer and reset, so a test counts exactly the ticks it runs."""
    w.drive_view.timer.stop()
    w.drive_view.reset_car()
    return w


def speed_trace(w):
    return w.plots.speed_curve.getData()[1]


def key_event(kind, key, repeat=False):
    return QKeyEvent(kind, key, Qt.KeyboardModifier.NoModifier, "", repeat)


def pick_rate(window, hz):
    """Choose `hz` in the panel's tick-rate box as a user does (activated signal)."""
    box = window.panel.rate
    box.setCurrentIndex(box.findData(hz))
    box.activated.emit(box.currentIndex())


def shortcut_actions(owner) -> list:
    """Every action with a shortcut under `owner` (a menu bar or menu), read from the
    menus themselves (submenus as child widgets, as the window's own list reads them)."""
    submenus = {m.menuAction(): m for m in owner.findChildren(QMenu, options=Qt.FindChildOption.FindDirectChildrenOnly)}
    found = []
    for action in owner.actions():
        if action in submenus:
            found += shortcut_actions(submenus[action])
        elif action.shortcuts():
            found.append(action)
    return found


def run_under_x11(script: Path, timeout: float) -> dict:
    """Run `script` in an X server of its own (xvfb-run, real key events from xdotool)
    and return the last JSON line it prints; skips the test where the tools are missing."""
    import pytest

    missing = [tool for tool in X11_TOOLS if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"needs {' and '.join(missing)} (apt-get install xvfb xdotool)")
    tests = Path(__file__).resolve().parent
    env = {**os.environ, "PYTHONPATH": os.pathsep.join((str(tests.parent), str(tests)))}
    env.pop("QT_QPA_PLATFORM", None)
    run = subprocess.run(
        ["xvfb-run", "-a", "-s", "-screen 0 1600x1000x24", sys.executable, str(script)],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )
    lines = [line for line in run.stdout.splitlines() if line.startswith("{")]
    assert run.returncode == 0 and lines, run.stdout + run.stderr
    return json.loads(lines[-1])
