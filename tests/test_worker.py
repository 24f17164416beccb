"""The window's background worker: the newest request wins, every newer result is
delivered, a request that raises never stalls the ones after it, a cancelled one
stops, and progress reaches the window's thread."""

from sandbox.ui.worker import Worker


def test_results_arrive_in_order_and_a_failure_does_not_stall_the_next(qtbot):
    job = Worker()
    got, failures = [], []
    job.finished.connect(lambda result, seconds: got.append(result))
    job.failed.connect(failures.append)
    job.request(lambda _task: 1 / 0)
    job.settle()
    assert failures and "ZeroDivisionError" in failures[0] and got == []
    job.request(lambda _task: "second")
    job.settle()
    assert got == ["second"]


def test_requests_waiting_behind_a_running_one_are_coalesced_to_the_newest(qtbot):
    import threading

    job = Worker()
    got = []
    job.finished.connect(lambda result, seconds: got.append(result))
    gate = threading.Event()
    job.request(lambda _task: gate.wait(5) and "first")
    for i in range(5):  # all arrive while the first computes: only the last of them runs
        job.request(lambda _task, i=i: f"waiting {i}")
    gate.set()
    job.settle()
    assert got == ["first", "waiting 4"] and job.shown == job.generation


def test_cancel_stops_the_running_request_and_drops_the_waiting_one(qtbot):
    import threading

    job = Worker()
    got, started = [], threading.Event()

    def loop(task):  # runs until told to stop, as a sweep between its batches
        started.set()
        steps = 0
        while not task.stop.wait(0.001):
            steps += 1
        return ("stopped", steps)

    job.finished.connect(lambda result, seconds: got.append(result))
    job.request(loop)
    assert started.wait(30)
    job.request(lambda _task: "never")  # waiting behind the running one
    job.cancel()
    job.settle()
    assert len(got) == 1 and got[0][0] == "stopped" and not job.busy


def test_progress_reaches_the_windows_thread_in_order(qtbot):
    import threading

    job = Worker()
    seen = []
    job.progress.connect(lambda value: seen.append((value, threading.current_thread() is threading.main_thread())))

    def count(task):
        for i in range(5):
            task.report(i)
        return "done"

    job.request(count)
    job.settle()
    assert seen == [(i, True) for i in range(5)]


def test_the_exception_a_request_raised_is_kept(qtbot):
    job = Worker()
    failures = []
    job.failed.connect(failures.append)

    def broken(_task):
        raise RuntimeError("no compiler today")

    job.request(broken)
    job.settle()
    assert failures == ["RuntimeError: no compiler today"]
    assert isinstance(job.error, RuntimeError)


def test_workers_run_below_the_windows_priority(qtbot):
    import os
    import sys

    import pytest

    from sandbox.ui.worker import BACKGROUND_NICENESS

    if not sys.platform.startswith("linux"):
        pytest.skip("per-thread priorities are a Linux feature")
    job = Worker()
    got = []
    job.finished.connect(lambda result, seconds: got.append(result))
    window_nice = os.getpriority(os.PRIO_PROCESS, 0)
    job.request(lambda _task: os.getpriority(os.PRIO_PROCESS, 0))  # 0: the calling thread, on Linux
    job.settle()
    assert got[0] >= max(window_nice, BACKGROUND_NICENESS)
    assert os.getpriority(os.PRIO_PROCESS, 0) == window_nice  # the window's thread is left alone


def test_the_cycle_collector_runs_in_the_windows_thread_only(window, qtbot):
    """Python's cycle collector never runs on a worker (it could destroy Qt objects
    there); a timer in the window's thread frees garbage cycles."""
    import gc
    import threading
    import weakref

    from PySide6.QtCore import QObject

    assert not gc.isenabled()
    threads = []

    def note(phase, info):
        if phase == "start":
            threads.append(threading.current_thread() is threading.main_thread())

    gc.callbacks.append(note)
    try:
        job = Worker()
        job.request(lambda _task: [[i] for i in range(200_000)] and None)  # enough to trigger many collections
        job.settle()
        collected_in = []

        class Cycle(QObject):
            def __init__(self):
                super().__init__()
                self.me = self

            def __del__(self):
                collected_in.append(threading.current_thread() is threading.main_thread())

        ref = weakref.ref(Cycle())
        keep = []

        def collected() -> bool:
            # allocations push the count over the collector's threshold; the window's
            # objects freed meanwhile (deleteLater of an earlier test's) lower it again
            keep.append([[] for _ in range(1_000)])
            return ref() is None

        qtbot.waitUntil(collected, timeout=60_000)
    finally:
        gc.callbacks.remove(note)
    assert keep and collected_in == [True]
    assert threads and all(threads)


def test_objects_alive_after_start_up_are_left_out_of_full_collections(window, qtbot):
    """The window's long-lived objects are frozen once: later full collections (each
    a frame's pause) no longer walk them."""
    import gc

    from sandbox.ui.qt import freeze_long_lived

    long_lived = window.panel.sliders  # a dict the window keeps for its lifetime

    def scanned() -> bool:
        return any(o is long_lived for o in gc.get_objects())

    gc.unfreeze()
    assert scanned()
    freeze_long_lived()
    qtbot.waitUntil(lambda: gc.get_freeze_count() > 0, timeout=60_000)
    assert not scanned()
    made_after = {"new": [1]}
    assert any(o is made_after for o in gc.get_objects())  # newer objects are still collected as usual


def test_a_request_that_ends_after_its_window_was_deleted_ends_quietly(qtbot, monkeypatch):
    """The physics compiled in the background can outlive the window (closed while it
    loads): its end is told to no one, with no error in the worker's thread."""
    import threading

    from PySide6.QtCore import QObject
    from shiboken6 import Shiboken

    errors = []
    monkeypatch.setattr(threading, "excepthook", errors.append)
    owner = QObject()
    job = Worker(owner)
    gate, ended = threading.Event(), threading.Event()

    def work(task):
        gate.wait(30)
        task.report("late progress")
        return "late result"

    job.request(work)
    thread = job._line.thread
    Shiboken.delete(owner)  # the window and its workers are gone
    gate.set()
    threading.Thread(target=lambda: (thread.join(60), ended.set())).start()
    assert ended.wait(90)
    assert errors == []


def test_the_thread_never_keeps_its_worker_alive(qtbot):
    """A worker nobody keeps is freed at once, on the thread that dropped it: its
    thread (waiting IDLE_S for the next request) holds nothing of it. A thread that
    held it would free it on the thread when it ends, and a QObject destroyed there
    can deadlock with the window's thread (seen: a window being built froze for good)."""
    import gc
    import weakref

    job = Worker()
    job.request(lambda _task: 1)
    job.settle()
    thread = job._line.thread
    assert thread is not None and thread.is_alive()  # waiting for the next request
    ref = weakref.ref(job)
    del job
    gc.collect()
    assert ref() is None
    assert thread.is_alive()


def test_a_closed_window_ends_its_workers_threads_before_they_are_deleted(window, qtbot):
    """A worker's thread that tells a deleted worker its result crashes the process
    (seen: the screenshot command, closing while the physics loaded in the background).
    Closing the window asks each running request to stop and waits for its thread to
    end, and no result is told."""
    import threading

    from PySide6.QtWidgets import QApplication

    started, saw_stop, told = threading.Event(), threading.Event(), []
    job = Worker(window, "test")
    job.finished.connect(lambda result, _s: told.append(result))

    def work(task):
        started.set()
        while not task.stop.wait(0.01):
            pass
        saw_stop.set()
        return "late"

    job.request(work)
    assert started.wait(60)
    thread = job._line.thread
    window.close()
    assert saw_stop.is_set() and not thread.is_alive()
    QApplication.processEvents()  # a result on its way would be delivered now
    assert told == []
