"""Run under an X server (xvfb-run): hold A with real key events from xdotool while a
slider is dragged, and Tab for as long; print what the window saw as JSON.

Not a test itself: tests/test_held_keys_x11.py runs it in its own X server."""

import json
import os
import subprocess
import sys

os.environ["QT_QPA_PLATFORM"] = "xcb"
from PySide6.QtCore import QEvent, QObject, QPoint, Qt, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication, QSlider  # noqa: E402

app = QApplication(sys.argv)
from sandbox.ui.app import MainWindow  # noqa: E402

window = MainWindow(remember=False)
window.resize(1400, 860)
window.show()
window.activateWindow()
steer: list[float] = []
read = window.keys.controls_for_tick


def reading(tick: int) -> object:
    controls = read(tick)
    steer.append(float(controls.steer))
    return controls


window.keys.controls_for_tick = reading  # the drive session reads the keys through it
seen = {"a_releases": 0, "tab_toggles": 0}
window.keys.tab_pressed.connect(lambda: seen.__setitem__("tab_toggles", seen["tab_toggles"] + 1))


class Releases(QObject):
    """Counts releases of A delivered to the window's widgets (any kind)."""

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Type.KeyRelease and event.key() == Qt.Key.Key_A and obj is window.focusWidget():
            seen["a_releases"] += 1
        return False


spy = Releases()
app.installEventFilter(spy)


def drive() -> None:
    window.panel.complete()
    slider = [s for s in window.panel.findChildren(QSlider) if s.isVisible()][1]
    at = slider.mapToGlobal(QPoint(slider.width() // 2, slider.height() // 2))
    steps = ["xdotool keydown a", "sleep 0.6", f"xdotool mousemove {at.x()} {at.y()} mousedown 1"]
    for i in range(60):  # 1.8 s of dragging back and forth: plots and sliders redraw under the held key
        steps += [f"xdotool mousemove {at.x() + (i % 20) * 3 - 30} {at.y()}", "sleep 0.03"]
    steps += [
        "xdotool mouseup 1",
        "sleep 0.4",
        "xdotool keyup a",
        "sleep 0.3",
        "xdotool keydown Tab",
        "sleep 1.5",
        "xdotool keyup Tab",
        "sleep 0.3",
    ]
    done = subprocess.Popen(["sh", "-c", " && ".join(steps)])
    QTimer.singleShot(100, lambda: wait(done))


def wait(done) -> None:
    if done.poll() is None:
        QTimer.singleShot(100, lambda: wait(done))
        return
    held = [i for i, s in enumerate(steer) if s == -1.0]
    span = steer[held[0] : held[-1] + 1] if held else []
    print(
        json.dumps(
            {
                "xdotool": done.returncode,
                "held_ticks": len(span),
                "dropped_ticks": sum(1 for s in span if s != -1.0),
                **seen,
            }
        )
    )
    app.quit()


QTimer.singleShot(1500, drive)
app.exec()
