"""Recomputes off the window's thread, the newest request winning.

A slider drag asks for a new result every frame. `LatestJob` runs one request at a
time on its own worker thread; a request made while one computes replaces any other
waiting one, and starts as soon as the running one ends. Every result that arrives
is newer than the one shown before it, so while a slider is dragged the window shows
figures as fast as they are computed, and the last value's soon after the drag ends.
The physics kernels release Python's lock, so the worker and the window's frames run
side by side.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Callable

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal
from PySide6.QtWidgets import QApplication

BACKGROUND_NICENESS = 10
"""Scheduling niceness of the worker threads (0 is the window's, 19 the lowest)."""


def background() -> None:
    """Lower the calling thread's scheduling priority to BACKGROUND_NICENESS, where
    the system allows it: on two cores the metrics, force-curve and sweep workers
    and the window's thread can all want a core at once, and then the window's
    thread should be the one that gets it. Threads the worker starts (a compiled
    sweep's own) inherit the priority."""
    if hasattr(os, "setpriority"):
        tid = threading.get_native_id()
        try:
            if os.getpriority(os.PRIO_PROCESS, tid) < BACKGROUND_NICENESS:
                os.setpriority(os.PRIO_PROCESS, tid, BACKGROUND_NICENESS)
        except OSError:  # not allowed here: the worker runs at the window's priority
            pass


class _Relay(QObject):
    done = Signal(int, object, float)  # generation, result, seconds


class _Run(QRunnable):
    def __init__(self, generation: int, work: Callable[[], object], relay: _Relay):
        super().__init__()
        self.generation, self.work, self.relay = generation, work, relay

    def run(self) -> None:
        background()
        start = time.perf_counter()
        try:
            result = self.work()
        except Exception as exc:  # noqa: BLE001 (reported, never lost in the thread: the next request still runs)
            result = _Failure(f"{type(exc).__name__}: {exc}")
        self.relay.done.emit(self.generation, result, time.perf_counter() - start)


class _Failure(str):
    """What a request that raised delivers instead of a result."""


class LatestJob(QObject):
    """Runs `work()` callables on one worker thread, the newest waiting one next;
    `finished(result, seconds)` for each that ran. `active` False holds requests until
    it is True again."""

    finished = Signal(object, float)
    failed = Signal(str)  # the newest request raised: what it said

    def __init__(self, parent=None):
        super().__init__(parent)
        self.generation = 0  # of the newest request
        self.shown = 0  # of the newest result delivered
        self.active = True
        self._pending: tuple[int, Callable[[], object]] | None = None
        self._busy = False
        self._relay = _Relay(self)
        self._relay.done.connect(self._done)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)

    def request(self, work: Callable[[], object]) -> None:
        self.generation += 1
        self._pending = (self.generation, work)
        self._start()

    def set_active(self, active: bool) -> None:
        self.active = active
        self._start()

    def _start(self) -> None:
        if self._pending is None or self._busy or not self.active:
            return
        generation, work = self._pending
        self._pending = None
        self._busy = True
        self._pool.start(_Run(generation, work, self._relay))

    def _done(self, generation: int, result, seconds: float) -> None:
        self._busy = False
        self._start()  # the newest request, if one came while this one computed
        if generation > self.shown:
            self.shown = generation
            if isinstance(result, _Failure):
                self.failed.emit(str(result))
            else:
                self.finished.emit(result, seconds)

    def settle(self) -> None:
        """Block until the newest request's result has been delivered (tests,
        screenshots); requests held while inactive are run."""
        was = self.active
        self.set_active(True)
        while self.shown != self.generation:
            self._pool.waitForDone()
            QApplication.processEvents()
        self.active = was

    def wait(self) -> None:
        """Block until the running request ends (shutdown)."""
        self._pool.waitForDone()
