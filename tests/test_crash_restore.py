"""No lost work: a sandbox killed with SIGKILL comes back with its tuning."""

import os
import signal
import subprocess
import sys
import time

from sandbox.files.presets import Preset, save_preset
from sandbox.physics.models import arcade
from sandbox.physics.params import Tuning


def test_a_killed_sandbox_restores_its_session(tmp_path, qtbot):
    from PySide6.QtCore import QSettings

    from sandbox.ui.app import MainWindow

    mine = tmp_path / "mine.json"
    save_preset(Preset(arcade, Tuning(arcade.PARAMS, {"engine_power": 1234}), "Mine"), mine)
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "PYQTGRAPH_QT_LIB": "PySide6",
        "CAR_SANDBOX_HOME": str(tmp_path / "home"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
    }
    ini = tmp_path / "config" / "car-sandbox" / "car-sandbox.ini"
    process = subprocess.Popen(
        [sys.executable, "-m", "sandbox", "--preset", str(mine)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 300  # a window started on a busy machine, its physics compiled
        # the autosave reached disk, and the window has been on screen (no longer opening its session)
        while not (ini.exists() and "1234" in (text := ini.read_text(errors="replace")) and "opening" not in text):
            assert process.poll() is None, "the sandbox exited on its own"
            assert time.monotonic() < deadline, "no autosave within 300 s"
            time.sleep(0.2)
    finally:
        os.kill(process.pid, signal.SIGKILL)  # no close event, no chance to save anything more
        process.wait()
    assert process.returncode == -signal.SIGKILL

    # meanwhile the preset file changed on disk; the session had 1234 and must get it back
    save_preset(Preset(arcade, Tuning(arcade.PARAMS, {"engine_power": 600}), "Mine"), mine)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "config"))
    window = MainWindow()
    qtbot.addWidget(window)
    assert window.preset.path == mine and window.preset.tuning["engine_power"] == 600
    assert window.tuning["engine_power"] == 1234
    assert "Restored your tuning from last session" in window.statusBar().currentMessage()


def test_a_session_the_window_died_opening_is_set_aside_and_never_locks_the_user_out(tmp_path, qtbot):
    """A sandbox that dies while opening its saved session (as a tuning that crashed the
    view did): the next start, even with --preset of a good file, opens on the
    defaults and keeps the session in a file; the start after that is normal."""
    from PySide6.QtCore import QSettings

    from sandbox.ui.app import MainWindow
    from sandbox.ui.window_memory import set_aside_dir

    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "PYQTGRAPH_QT_LIB": "PySide6",
        "CAR_SANDBOX_HOME": str(tmp_path / "home"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
    }
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "config"))
    from sandbox.ui.window_memory import settings

    store = settings()
    session = Preset(arcade, Tuning(arcade.PARAMS, {"engine_power": 777}), "Mine")
    from sandbox.files.presets import dump_preset

    store.setValue("preset/tuning", dump_preset(session))
    store.sync()
    ini = tmp_path / "config" / "car-sandbox" / "car-sandbox.ini"
    process = subprocess.Popen(
        [sys.executable, "-m", "sandbox"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 300
        while "opening" not in ini.read_text(errors="replace"):  # it is opening the session now
            assert process.poll() is None and time.monotonic() < deadline
            time.sleep(0.01)
    finally:
        os.kill(process.pid, signal.SIGKILL)  # dies before the session was on screen
        process.wait()

    good = tmp_path / "good.json"
    save_preset(Preset(arcade, Tuning(arcade.PARAMS, {"engine_power": 1500}), "Good"), good)
    settings().sync()
    window = MainWindow()
    qtbot.addWidget(window)
    assert window.tuning["engine_power"] == arcade.PARAMS[[p.name for p in arcade.PARAMS].index("engine_power")].default
    assert "could not be shown" in window.statusBar().currentMessage()
    kept = list(set_aside_dir().glob("session-*.json"))
    assert len(kept) == 1 and '"engine_power": 777' in kept[0].read_text()  # nothing lost
    window.apply_preset(__import__("sandbox.files.presets", fromlist=["load_preset"]).load_preset(good))
    assert window.tuning["engine_power"] == 1500
    window.close()  # a normal end: the next start is a normal one
    again = MainWindow()
    qtbot.addWidget(again)
    assert again.tuning["engine_power"] == 1500 and "could not be shown" not in again.statusBar().currentMessage()
