"""Background work off the window's thread: one class for every job the window runs
(metrics, force curve, sensitivity, sweep, auto-tune, compiling the physics).

A `Worker` runs one request at a time on a thread of its own, below the window's
scheduling priority. A request made while one computes replaces any other waiting
one (the newest wins) and starts as soon as the running one ends; results arrive in
the window's thread, each newer than the one delivered before it. So while a slider
is dragged the window shows figures as fast as they are computed, and the last
value's soon after the drag ends. `cancel()` asks the running request to stop (it
reads `task.stop` between steps) and drops the waiting one. A request that raises is
reported by `failed`, never lost in the thread, and the next request still runs. The
physics kernels release Python's lock, so the worker and the window's frames run
side by side.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Callable

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QApplication

SHUT_S = 60.0
"""s: the longest a closing window waits for a worker's running request to end."""
IDLE_S = 30.0
"""s: a worker's thread ends after this long without a request (a new one starts with the next)."""
BACKGROUND_NICENESS = 10
"""Scheduling niceness of the worker threads (0 is the window's, 19 the lowest)."""


def background() -> None:
    """Lower the calling thread's scheduling priority to BACKGROUND_NICENESS, where
    the system allows it: on two cores the metrics, force-curve and sweep workers
    and the window's thread can all want a core at once, and then the window's
    thread should be the one that gets it (docs/speed.md). Threads the worker starts
    (a compiled sweep's own) inherit the priority."""
    if hasattr(os, "setpriority"):
        tid = threading.get_native_id()
        try:
            if os.getpriority(os.PRIO_PROCESS, tid) < BACKGROUND_NICENESS:
                os.setpriority(os.PRIO_PROCESS, tid, BACKGROUND_NICENESS)
        except OSError:  # not allowed here: the worker runs at the window's priority
            pass


class Task:
    """What a running request sees: `stop` (set by `Worker.cancel`) and `report`,
    which hands a progress value to the window's thread (`Worker.progress`)."""

    def __init__(self, generation: int, relay: _Relay):
        self.generation = generation
        self.stop = threading.Event()
        self._relay = relay

    def report(self, value) -> None:
        try:
            self._relay.progress.emit(self.generation, value)
        except RuntimeError:  # the worker was deleted with its window: no one sees it, so stop
            self.stop.set()


Work = Callable[[Task], object]
"""A request: called on the worker's thread with its Task; returns the result."""


class _Relay(QObject):
    """Carries a thread's news into the window's thread (queued signals)."""

    progress = Signal(int, object)  # generation, value
    done = Signal(int, object, float)  # generation, result or _Failure, seconds


class _Failure:
    """What a request that raised delivers instead of a result."""

    def __init__(self, error: BaseException):
        self.error = error


class Worker(QObject):
    """Runs `work(task)` requests on its own thread, the newest waiting one next;
    `finished(result, seconds)` for each that ran and is newer than the last
    delivered, `failed(text)` for one that raised (the exception in `error`),
    `progress(value)` for what the running request reports. `active` False holds
    requests until it is True again (a hidden panel computes nothing).
    `below_window` False keeps the window's priority (work the user waits for with
    nothing else running: the first start's compiling under the splash)."""

    finished = Signal(object, float)
    failed = Signal(str)
    progress = Signal(object)

    def __init__(self, parent=None, name: str = "worker", below_window: bool = True):
        super().__init__(parent)
        self.name, self.below_window = name, below_window
        self.generation = 0  # of the newest request
        self.shown = 0  # of the newest result delivered
        self.active = True
        self.error: BaseException | None = None  # what the last failed request raised
        self.task: Task | None = None  # the running request's
        self._pending: tuple[int, Work] | None = None
        self._relay = _Relay(self)
        self._relay.done.connect(self._done)
        self._relay.progress.connect(self._progress)
        self._line = _Line(self._relay, name, below_window)

    @property
    def busy(self) -> bool:
        """A request is running (its result not yet delivered)."""
        return self.task is not None

    def running(self) -> bool:
        """A request is running on the thread (its result not yet on its way)."""
        return not self._line.idle.is_set()

    def request(self, work: Work) -> None:
        self.generation += 1
        self._pending = (self.generation, work)
        self._start()

    def set_active(self, active: bool) -> None:
        self.active = active
        self._start()

    def cancel(self) -> None:
        """Drop the waiting request and ask the running one to stop."""
        self._pending = None
        if self.task is not None:
            self.task.stop.set()

    def _start(self) -> None:
        if self._pending is None or self.task is not None or not self.active:
            return
        generation, work = self._pending
        self._pending = None
        self.task = task = Task(generation, self._relay)
        self._line.hand(task, work)

    def _progress(self, generation: int, value) -> None:
        if self.task is not None and generation == self.task.generation:
            self.progress.emit(value)

    def _done(self, generation: int, result, seconds: float) -> None:
        self.task = None
        self._start()  # the newest request, if one came while this one computed
        if generation > self.shown:
            self.shown = generation
            if isinstance(result, _Failure):
                self.error = result.error
                self.failed.emit(f"{type(result.error).__name__}: {result.error}")
            else:
                self.finished.emit(result, seconds)

    def settle(self) -> None:
        """Block until the newest request's result has been delivered (tests,
        screenshots, the splash); requests held while inactive are run."""
        was = self.active
        self.set_active(True)
        while self.task is not None or self._pending is not None:
            self.wait()
            QApplication.processEvents()
        self.active = was

    def wait(self) -> None:
        """Block until the running request ends (shutdown); its result is then on its
        way to the window's thread."""
        self._line.idle.wait()

    def shut(self, timeout: float = SHUT_S) -> None:
        """Before the worker is deleted with its window: drop the waiting request, ask the
        running one to stop, and end the thread, so it never tells a deleted worker
        its result (from another thread that crashes the process, not an error).
        A later request starts a new thread."""
        self.cancel()
        self._line.close(timeout)


class _Line:
    """What a worker shares with its thread: plain Python, holding the worker's relay
    (a child of the worker) but never the worker itself. A thread that held the worker
    could drop its last reference (a worker nobody keeps, its thread ending after
    IDLE_S): the worker would be destroyed on that thread, and a QObject destroyed
    there waits for Python's lock while holding Qt's, which the window's thread,
    holding Python's lock, may be waiting for: both stop for good."""

    def __init__(self, relay: _Relay, name: str, below_window: bool):
        self.relay, self.name, self.below_window = relay, name, below_window
        self.handed: tuple[Task, Work] | None = None  # to the thread, under `wake`
        self.wake = threading.Condition()
        self.idle = threading.Event()  # no request on the thread
        self.idle.set()
        self.thread: threading.Thread | None = None
        self.closing = False  # `close` waits for the thread to end: it tells no one its result

    def close(self, timeout: float) -> None:
        """End the thread once its running request is done (at most `timeout` s)."""
        with self.wake:
            thread = self.thread
            if thread is None:
                return
            self.closing = True
            self.wake.notify()
        thread.join(timeout)
        with self.wake:
            self.closing = thread.is_alive()  # still running after `timeout`: it stays told

    def hand(self, task: Task, work: Work) -> None:
        """Give the thread its next request, starting the thread if there is none."""
        self.idle.clear()
        with self.wake:
            self.handed = (task, work)
            self.wake.notify()
            if self.thread is None:
                # one thread kept between requests: starting a thread waits until the
                # new thread runs, time the window's frame would lose. A daemon:
                # quitting never waits for a job nobody waits for (the window waits
                # for the ones it needs to, in its closeEvent)
                self.thread = threading.Thread(target=self.serve, name=self.name, daemon=True)
                self.thread.start()

    def serve(self) -> None:
        """The worker thread: run what is handed to it, until idle for IDLE_S."""
        if self.below_window:
            background()
        while True:
            with self.wake:
                if self.handed is None and not self.closing:
                    self.wake.wait(IDLE_S)
                if (
                    self.handed is None or self.closing
                ):  # idle for long, or closed: the next request starts a new thread
                    self.thread = None
                    return
                task, work = self.handed
                self.handed = None
            start = time.perf_counter()
            try:
                result = work(task)
            except BaseException as exc:  # noqa: BLE001 (reported in the window's thread; the next request still runs)
                result = _Failure(exc)
            with self.wake:
                if self.closing:  # its worker is being deleted: no one to tell
                    self.thread = None
                    self.idle.set()
                    return
            self.idle.set()
            try:
                self.relay.done.emit(task.generation, result, time.perf_counter() - start)
            except RuntimeError:  # the worker was deleted with its window meanwhile: no one to tell
                return
            del task, work, result  # nothing of a request outlives it while the thread waits
