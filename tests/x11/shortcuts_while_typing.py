"""Run under an X server (xvfb-run): in each model, with a slider's number box clicked
into (being typed in), press every menu shortcut that has Ctrl, Alt or Meta with real
key events from xdotool; print which ran as JSON. X11's key bindings give a text box
more keys than the offscreen platform's (Ctrl+E: the end of the line).

Not a test itself: tests/test_shortcuts_x11.py runs it in its own X server."""

import json
import os
import subprocess
import sys

os.environ["QT_QPA_PLATFORM"] = "xcb"
from PySide6.QtCore import QPoint, QTimer  # noqa: E402
from PySide6.QtGui import QKeySequence  # noqa: E402
from PySide6.QtWidgets import QApplication, QDialog, QFileDialog, QMessageBox  # noqa: E402

app = QApplication(sys.argv)
from sandbox.physics.models import MODELS  # noqa: E402
from sandbox.ui.app import MainWindow  # noqa: E402
from sandbox.ui.input import SHORTCUT_MODIFIERS  # noqa: E402
from window_helpers import shortcut_actions  # noqa: E402  (tests/ is on the path: run_under_x11)

# every modal dialog a command opens answers at once: cancelled, nothing chosen
QDialog.exec = lambda self: QDialog.DialogCode.Rejected
QFileDialog.exec = lambda self: QDialog.DialogCode.Rejected
QMessageBox.exec = lambda self: QMessageBox.StandardButton.Cancel
QFileDialog.getSaveFileName = QFileDialog.getOpenFileName = staticmethod(lambda *a, **k: ("", ""))
QMessageBox.information = staticmethod(lambda *a, **k: QMessageBox.StandardButton.Ok)
XDOTOOL_KEYS = {"=": "equal", "-": "minus", "+": "plus"}
"""xdotool's names of the keys whose Qt name is a sign."""
EDITING = [getattr(QKeySequence.StandardKey, k) for k in ("Undo", "Redo", "Copy", "Cut", "Paste", "SelectAll")]
"""A text box's own editing keys: the box being typed in keeps them."""


def editing(keys: QKeySequence) -> bool:
    return any(keys in QKeySequence.keyBindings(standard) for standard in EDITING)


def xdotool_name(keys: QKeySequence) -> str:
    parts = keys.toString(QKeySequence.SequenceFormat.PortableText).split("+")
    *mods, key = [p for p in parts if p] if parts[-1] else [*parts[:-2], "+"]
    return "+".join([m.lower() for m in mods] + [XDOTOOL_KEYS.get(key, key.lower())])


window = None
results: dict = {}
models = list(MODELS)


def next_model() -> None:
    """A fresh window for each model (the last one's listening, recording and changes gone)."""
    global window
    if window is not None:
        window.close_now()
    if not models:
        print(json.dumps(results))
        app.quit()
        return
    name = models.pop(0)
    window = MainWindow(remember=False)
    window.resize(1400, 860)
    window.show()
    window.activateWindow()
    window.link_panel.port.setValue(0)  # Listen takes any free port
    window.switch_model(name)
    window.drive_view.timer.stop()
    QTimer.singleShot(1000, lambda: press_all(name))


def press_all(name: str) -> None:
    ran, missed = [], []
    quits = QKeySequence.keyBindings(QKeySequence.StandardKey.Quit)
    actions = sorted(shortcut_actions(window.menuBar()), key=lambda a: any(k in quits for k in a.shortcuts()))
    for action in actions:
        for keys in action.shortcuts():
            combination = keys[0]
            if not combination.keyboardModifiers() & SHORTCUT_MODIFIERS or editing(keys) or not action.isEnabled():
                continue
            box = next(iter(window.panel.sliders.values())).number
            at = box.mapToGlobal(QPoint(box.width() // 2, box.height() // 2))
            subprocess.run(["xdotool", "mousemove", str(at.x()), str(at.y()), "click", "1"], check=True)
            wait_for(lambda box=box: typing_in(box))
            fired = []
            action.triggered.connect(lambda *_, fired=fired: fired.append(True))
            subprocess.run(["xdotool", "key", xdotool_name(keys)], check=True)
            wait_for(lambda fired=fired: bool(fired))
            (ran if fired else missed).append(keys.toString())
    results[name] = {"model": window.model.NAME, "ran": ran, "missed": missed}
    QTimer.singleShot(0, next_model)


def typing_in(box) -> bool:
    """Whether the keyboard is in the number box `box` (or the line edit inside it)."""
    focus = QApplication.focusWidget()
    return focus is not None and (focus is box or box.isAncestorOf(focus))


def wait_for(done, seconds: float = 3.0) -> None:
    """Process events until `done()` or `seconds` have passed (then the caller reads the state)."""
    import time

    end = time.monotonic() + seconds
    while not done() and time.monotonic() < end:
        app.processEvents()
        time.sleep(0.01)


QTimer.singleShot(1500, next_model)
app.exec()
