"""No lost work: a sandbox killed with SIGKILL comes back with its tuning."""

import os
import signal
import subprocess
import sys
import time

from sandbox.physics.models import arcade
from sandbox.physics.params import Tuning
from sandbox.files.presets import Preset, save_preset


def test_a_killed_sandbox_restores_its_session(tmp_path, qtbot):
    from PySide6.QtCore import QSettings

    from sandbox.ui.app import MainWindow

    mine = tmp_path / "mine.json"
    save_preset(Preset(arcade, Tuning(arcade.PARAMS, {"engine_power": 1234}), "Mine"), mine)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYQTGRAPH_QT_LIB": "PySide6",
           "CAR_SANDBOX_HOME": str(tmp_path / "home"), "XDG_CONFIG_HOME": str(tmp_path / "config")}
    ini = tmp_path / "config" / "car-sandbox" / "car-sandbox.ini"
    process = subprocess.Popen([sys.executable, "-m", "sandbox", "--preset", str(mine)], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while not (ini.exists() and "1234" in ini.read_text(errors="replace")):  # the autosave reached disk
            assert process.poll() is None, "the sandbox exited on its own"
            assert time.monotonic() < deadline, "no autosave within 30 s"
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
