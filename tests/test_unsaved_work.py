"""An unsaved tuning is never thrown away without asking: a model switch (which
starts a new undo history), Quit, the window's close button and Ctrl+C in the
terminal ask Save / Discard / Cancel first."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from dialogs import answer
from sandbox.files.presets import load_preset
from sandbox.ui.terminal_signals import follow_terminal_signals

Button = QMessageBox.StandardButton


def edit(window) -> None:
    """Move a slider as a user would (one undo step): the tuning is now unsaved."""
    name = next(iter(window.tuning))
    p = window.tuning.param(name)
    window.panel.set_values({name: p.max if window.tuning[name] != p.max else p.min}, "test edit")
    assert window.modified()


def test_cancel_keeps_the_model_the_values_and_undo(window):
    edit(window)
    values, model, steps = dict(window.tuning), window.model, window.undo.count()
    asked = []
    answer(Button.Cancel, asked)
    assert window.switch_model("monster") is False
    assert asked and "not saved" in asked[0]
    assert window.model is model and dict(window.tuning) == values and window.undo.count() == steps
    checked = [a.data() for a in window.model_actions.actions() if a.isChecked()]
    assert checked == [model.NAME]  # the Model menu shows the model still driven
    window.undo.undo()  # and the edit can still be undone
    assert not window.modified()


def test_discard_switches_without_keeping_the_edit(window):
    edit(window)
    asked = []
    answer(Button.Discard, asked)
    assert window.switch_model("monster") is not False
    assert asked and window.model.NAME == "monster"


def test_save_writes_the_tuning_before_switching(window, tmp_path, monkeypatch):
    edit(window)
    values = dict(window.tuning)
    target = tmp_path / "mine.json"
    monkeypatch.setattr(window.files, "save_as_dialog", lambda: window.files.save_preset_to(target, name="mine"))
    asked = []
    answer(Button.Save, asked)
    window.switch_model("monster")
    assert window.model.NAME == "monster"
    assert dict(load_preset(target).tuning) == values  # the edit is on disk


def test_an_unchanged_tuning_switches_without_a_question(window):
    asked = []
    answer(Button.Cancel, asked, tries=0)  # would keep the model, were anything asked now
    window.switch_model("monster")
    assert window.model.NAME == "monster" and not asked


def test_quit_asks_and_cancel_keeps_the_window_open(window, qtbot):
    edit(window)
    asked = []
    answer(Button.Cancel, asked)
    window.quit_asking()
    assert asked and window.isVisible()
    answer(Button.Discard, asked)
    window.quit_asking()
    assert len(asked) == 2 and not window.isVisible()


def test_ctrl_c_in_the_terminal_asks_like_quit(window, qtbot):
    edit(window)
    before = follow_terminal_signals(window)
    try:
        asked = []
        answer(Button.Cancel, asked)
        os.kill(os.getpid(), signal.SIGINT)
        qtbot.waitUntil(lambda: bool(asked), timeout=60_000)
        assert window.isVisible()  # cancelled: still running, no KeyboardInterrupt
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)


def _caught(pid: int, number: int) -> bool:
    """The process has a handler for signal `number` (Linux: /proc/PID/status)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigCgt:"):
            return bool(int(line.split()[1], 16) >> (number - 1) & 1)
    return False


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc to see the window is up")
def test_the_window_started_from_a_terminal_quits_on_ctrl_c_without_a_traceback(tmp_path):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": str(tmp_path)}  # kernels: the cache
    app = subprocess.Popen(
        [sys.executable, "-m", "sandbox"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + 240
        while not _caught(app.pid, signal.SIGHUP):  # the window's handlers are set: it is up
            assert app.poll() is None and time.monotonic() < deadline, app.communicate()
            time.sleep(0.2)
        app.send_signal(signal.SIGINT)
        out, err = app.communicate(timeout=60)
    finally:
        app.kill()
    assert app.returncode == 0, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
