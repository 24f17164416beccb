"""The window and its terminal: Ctrl+C quits as the Quit menu does (asking about
unsaved work); SIGTERM and SIGHUP (logout, terminal closed) close it at once, with
the session autosaved so the next start brings the tuning back.

Python runs a signal handler only when the interpreter gets control, and Qt's event
loop waits in C++: a short timer hands control back to Python now and then."""

from __future__ import annotations

import signal

from PySide6.QtCore import QTimer

WAKE_MS = 200
"""ms between the timer's turns: the longest a signal waits for its handler."""


def follow_terminal_signals(window) -> dict:
    """Route SIGINT to `window.quit_asking` and SIGTERM/SIGHUP to `window.close`, from
    the event loop; returns the handlers they had (to put back)."""
    before = {}

    def later(slot):
        return lambda _signum, _frame: QTimer.singleShot(0, slot)

    wanted = {
        "SIGINT": later(window.quit_asking),
        "SIGTERM": later(window.close_now),
        "SIGHUP": later(window.close_now),
    }
    for name, handler in wanted.items():
        if hasattr(signal, name):  # no SIGHUP on Windows
            number = getattr(signal, name)
            before[number] = signal.signal(number, handler)
    waker = QTimer(window)
    waker.timeout.connect(lambda: None)
    waker.start(WAKE_MS)
    return before
