"""Qt start-up: pick the binding for pyqtgraph and make the QApplication."""

from __future__ import annotations

import gc
import os
import threading

# pyqtgraph prefers PyQt6 when both are installed; never mix bindings.
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

from PySide6.QtWidgets import QApplication  # noqa: E402

from ..errors import UserError  # noqa: E402
from .system_libraries import missing_x11_libraries  # noqa: E402

ORGANIZATION = "car-sandbox"
APPLICATION = "car-sandbox"
_collector = None
COLLECTOR_TURN_MS = 500
"""ms between the cycle collector's looks at Python's allocation counts."""


def application() -> QApplication:
    """The running QApplication, created on first use."""
    app = QApplication.instance()
    if app is None:
        missing = missing_x11_libraries()
        if missing:  # Qt would abort the process, blaming another library
            raise UserError(missing)
        app = QApplication([APPLICATION])
        app.setOrganizationName(ORGANIZATION)
        app.setApplicationName(APPLICATION)
    return app


def collect_in_window_thread() -> None:
    """Python's cycle collector runs only in the window's thread, on a timer
    (pyqtgraph's GarbageCollector). Left automatic, it runs in whichever thread
    allocates: a worker computing metrics could then destroy widgets left over from a
    model switch, and Qt's locks and Python's against each other hung the window (seen
    here once, during a sweep)."""
    global _collector
    if _collector is None:
        _collector = _collector_class()()


def freeze_long_lived() -> None:
    """Once the window is built and the physics loaded, and again each time a model's
    kernels are loaded (from any thread): at the collector's next turn, exempt every
    object alive then from later full collections (`gc.freeze`). A full collection of
    the window's 160 000 objects takes about 95 ms (with kernels loaded during a first
    use, 215 000 objects: 100-360 ms), a frame gap anyone sees; of what is made after,
    a few milliseconds. (Cycles that are garbage in the older generations then are
    never freed; the young ones are collected first.)"""
    if _collector is not None:
        _collector.freeze_wanted.set()


def freeze_pending() -> bool:
    """A freeze asked for by `freeze_long_lived` has not happened yet."""
    return _collector is not None and _collector.freeze_wanted.is_set()


def _collector_class():
    """pyqtgraph's timed collection, plus the one-off freeze of `freeze_long_lived`
    (pyqtgraph imported here, not at start-up: the splash shows before it loads)."""
    from pyqtgraph.util.garbage_collector import GarbageCollector

    class _Collector(GarbageCollector):
        def __init__(self):
            self.freeze_wanted = threading.Event()
            super().__init__(interval=COLLECTOR_TURN_MS / 1000)

        def check(self) -> None:
            if self.freeze_wanted.is_set():
                self.freeze_wanted.clear()
                gc.collect(1)  # the young garbage freed first (quick): only older cycles stay
                gc.freeze()
            else:
                super().check()

    return _Collector


def dispose(widget) -> None:
    """Close and delete `widget` now, while Python is still fully alive.

    Widgets left for interpreter shutdown can call back into pyqtgraph's Python
    event handlers after parts of Python are gone, which crashes the process.
    """
    from PySide6.QtCore import QCoreApplication, QEvent

    widget.close()
    widget.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def after_first_paint(widget, callback) -> None:
    """Call `callback()` once, just after `widget` has finished its first paint."""
    from PySide6.QtCore import QEvent, QObject, QTimer

    class FirstPaint(QObject):
        def eventFilter(self, obj, event) -> bool:
            if event.type() == QEvent.Type.Paint:
                obj.removeEventFilter(self)
                QTimer.singleShot(0, callback)  # after this paint has finished
            return False

    filters = widget.__dict__.setdefault("_first_paint_filters", [])  # kept alive with the widget
    filters.append(FirstPaint(widget))
    widget.installEventFilter(filters[-1])


def report_first_frame(widget) -> None:
    """Print "first frame" once `widget` has painted, then quit (the start-up benchmark
    reads the line; set by CAR_SANDBOX_FIRST_FRAME)."""

    def done() -> None:
        print("first frame", flush=True)
        QApplication.instance().quit()

    after_first_paint(widget, done)
