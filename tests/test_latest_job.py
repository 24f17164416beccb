"""The window's recompute worker: the newest request wins, every newer result is
delivered, and a request that raises never stalls the ones after it."""

from sandbox.ui.latest_job import LatestJob


def test_results_arrive_in_order_and_a_failure_does_not_stall_the_next(qtbot):
    job = LatestJob()
    got, failures = [], []
    job.finished.connect(lambda result, seconds: got.append(result))
    job.failed.connect(failures.append)
    job.request(lambda: 1 / 0)
    job.settle()
    assert failures and "ZeroDivisionError" in failures[0] and got == []
    job.request(lambda: "second")
    job.settle()
    assert got == ["second"]


def test_requests_waiting_behind_a_running_one_are_coalesced_to_the_newest(qtbot):
    import threading

    job = LatestJob()
    got = []
    job.finished.connect(lambda result, seconds: got.append(result))
    gate = threading.Event()
    job.request(lambda: gate.wait(5) and "first")
    for i in range(5):  # all arrive while the first computes: only the last of them runs
        job.request(lambda i=i: f"waiting {i}")
    gate.set()
    job.settle()
    assert got == ["first", "waiting 4"] and job.shown == job.generation
