"""What the window tests share: a paused window, the speed plot, key events, the rate box."""

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent


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
