"""Window figures for `car-sandbox bench`: frame cost with ghosts, and start-up time.

The window runs offscreen; frames are driven by hand (one physics tick of wall time
each) through the same `run_for` the window's timer calls, so the count of ticks per
frame is exact and can be checked.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager

import numpy as np
from PySide6.QtCore import QCoreApplication, QEvent

from ..files.presets import BUILTIN_DIR, load_preset
from ..files.traces import demo_drive

GHOST_PRESETS = ("drift.json", "go_kart.json")


def scripted_trace(seconds: float, hz: int) -> np.ndarray:
    """`controls.demo_drive` repeated for `seconds` (it loops every 8 s): rows of
    steer, throttle, brake."""
    return np.array([demo_drive((i / hz) % 8.0) for i in range(round(seconds * hz))], dtype=np.float64)


def rss_mb() -> float:
    """Resident memory of this process (MB), from /proc (0 where there is none)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6
    except (OSError, ValueError, IndexError):
        return 0.0


@contextmanager
def offscreen_window(size: tuple[int, int] = (1400, 860)):
    """(app, window): the real window, offscreen and shown, its frame timer stopped so
    the caller drives the frames; disposed after."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtTest import QTest

    from ..ui.app import MainWindow
    from ..ui.qt import COLLECTOR_TURN_MS, application, dispose, freeze_long_lived, freeze_pending

    app = application()
    window = MainWindow(remember=False)
    try:
        window.resize(*size)
        window.show()
        window.timer.stop()
        # as the window does once its physics is loaded (ui/warm_up.py): without it,
        # a full collection of start-up's objects would take a frame ~95 ms
        freeze_long_lived()
        # until it has happened: a freeze left pending would be done later, by whatever
        # runs next in this process, freezing objects meant to be collected
        for _ in range(100):
            QTest.qWait(COLLECTOR_TURN_MS + 100)
            if not freeze_pending():
                break
        yield app, window
    finally:
        dispose(window)


def frame(app, window, hz: int) -> tuple[int, float]:
    """One frame as the running event loop makes it: one tick of wall time through
    `run_for`, the paint, then the deferred deletes (processEvents alone never deletes
    the widgets a model switch replaced). Returns (ticks run, milliseconds)."""
    start = time.perf_counter()
    ran = window.run_for(1.0 / hz)
    app.processEvents()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    return ran, (time.perf_counter() - start) * 1000


def frame_stats(costs: list[float]) -> dict:
    """Median, 99th percentile and largest of frame times (ms); NaN when there are none
    (every frame of a soak minute raised)."""
    costs = sorted(costs)
    if not costs:
        return dict.fromkeys(("median_ms", "p99_ms", "max_ms"), float("nan"))
    return {"median_ms": statistics.median(costs), "p99_ms": costs[int(0.99 * (len(costs) - 1))], "max_ms": costs[-1]}


def frame_costs(
    seconds: float = 60.0, size: tuple[int, int] = (1400, 860), ghosts: int = 2, tab: str = "", preset: str = ""
) -> dict:
    """Frame cost over `seconds` of scripted driving with every plot and `ghosts` ghosts;
    `tab`: the bottom tab in front instead of the Plots ("tyres", "gg"), `preset`: a built-in
    preset's file driven instead of the window's first.

    Each frame is `frame()`. Reports the median and 99th percentile frame time, how
    many frames ran zero or several ticks, and the growth of Python's allocated blocks
    (sys.getallocatedblocks, cheap enough to leave the timing alone) and of resident
    memory from the end of the first tenth to the end of the run.
    """
    with offscreen_window(size) as (app, window):
        if preset:
            window.apply_preset(load_preset(BUILTIN_DIR / preset))
        if tab:
            window.show_tab(tab)
        for name in GHOST_PRESETS[:ghosts]:
            window.set_ghost(load_preset(BUILTIN_DIR / name), name)
        hz = window.sim.hz
        window.replay.play_trace(scripted_trace(seconds, hz), "bench")
        app.processEvents()
        frames = round(seconds * hz)
        costs, odd_frames, marks = [], 0, {}
        for count in range(1, frames + 1):
            ran, cost = frame(app, window, hz)
            costs.append(cost)
            odd_frames += ran != 1
            if count in (frames // 10, frames):
                marks[count] = (sys.getallocatedblocks(), rss_mb())
        ticks = window.sim.ticks
    (py_early, rss_early), (py_late, rss_late) = marks[frames // 10], marks[frames]
    return {
        "seconds": seconds,
        "frames": frames,
        "physics_ticks": ticks,
        "frames_not_one_tick": odd_frames,
        "ghosts": ghosts,
        "window": f"{size[0]}x{size[1]}",
        "tab": tab or "plots",
        "preset": preset or "the first",
        **frame_stats(costs),
        "python_blocks_growth": py_late - py_early,
        "rss_growth_mb": rss_late - rss_early,
    }


def startup_seconds(runs: int = 3, cold: bool = False) -> float:
    """Shortest of `runs` launches of `python -m sandbox` (the `car-sandbox` command)
    until its window has painted its first frame: with CAR_SANDBOX_FIRST_FRAME set the
    window prints "first frame" then and quits; the time is taken when the line arrives.
    `cold`: each launch with an empty kernel cache (a first start after installing)."""
    env = dict(os.environ, CAR_SANDBOX_FIRST_FRAME="1")
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    best = float("inf")
    for _ in range(runs):
        if cold:
            env["CAR_SANDBOX_KERNEL_CACHE"] = tempfile.mkdtemp(prefix="car-sandbox-cold-")
        start = time.perf_counter()
        child = subprocess.Popen(
            [sys.executable, "-m", "sandbox"], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
        )
        try:
            for line in child.stdout:
                if line.startswith("first frame"):
                    best = min(best, time.perf_counter() - start)
                    break
            child.wait(timeout=60)
        finally:
            child.kill()
            if cold:
                shutil.rmtree(env["CAR_SANDBOX_KERNEL_CACHE"], ignore_errors=True)
    if best == float("inf"):
        raise RuntimeError("the window never reported its first frame")
    return best


def _drag_values(p, frames: int) -> list[float]:
    """A slider dragged back and forth over the middle half of its range, one value a
    frame, each a different position (every value a recompute)."""
    low, high = p.to_slider(p.default) * 0.5, min(1.0, p.to_slider(p.default) * 0.5 + 0.5)
    sweep = np.concatenate([np.linspace(low, high, 60), np.linspace(high, low, 60)])
    return [p.from_slider(float(sweep[i % len(sweep)])) for i in range(frames)]


def recompute_frames(
    model_name: str, seconds: float = 5.0, sweep_points: int = 100, size: tuple[int, int] = (1400, 860)
) -> dict:
    """Frames while the window recomputes, for the model's first built-in preset,
    each phase after half a second of driving (a user's window has been running when
    they start): a slider dragged for `seconds` (a new value every frame) with the
    Metrics tab showing, then a `sweep_points`-point sweep run from the Sweep tab while
    the car drives. Reports each phase's 99th percentile frame time and the longest gap
    between two frames (ms), and how many frames after the drag's last move the
    metrics table showed its figures. The model's compiled code is loaded first, as
    the window does in the background a few seconds after it starts (loading holds
    Python's lock: the first sweep of a model in a fresh process would measure that)."""
    from ..analysis.kernel_prep import load_everything
    from ..physics.models import MODELS
    from .bench import DEFAULT_PRESETS

    load_everything(MODELS[model_name])

    with offscreen_window(size) as (app, window):
        window.apply_preset(load_preset(BUILTIN_DIR / DEFAULT_PRESETS[model_name]))
        hz = window.sim.hz
        window.replay.play_trace(scripted_trace(seconds + 60.0, hz), "bench")
        window.panels.metrics_dock.raise_()
        app.processEvents()
        window.metrics.settle()

        def settle() -> None:
            for _ in range(hz // 2):
                frame(app, window, hz)

        settle()
        name = next(p.name for p in window.model.PARAMS if not p.is_bool)
        slider = window.panel.sliders[name]
        phases = {}

        def measure(step, done) -> dict:
            costs, gaps, last = [], [], time.perf_counter()
            while not done():
                step()
                _, cost = frame(app, window, hz)
                now = time.perf_counter()
                costs.append(cost)
                gaps.append((now - last) * 1000)
                last = now
            return {"frames": len(costs), "p99_ms": frame_stats(costs)["p99_ms"], "max_gap_ms": max(gaps, default=0.0)}

        values = iter(_drag_values(slider.param, round(seconds * hz)))
        slider.slider.setSliderDown(True)
        moved = {"left": round(seconds * hz)}

        def drag() -> None:
            slider.slider.setValue(slider.position(next(values)))
            moved["left"] -= 1

        phases["drag"] = measure(drag, lambda: moved["left"] <= 0)
        slider.slider.setSliderDown(False)
        job = window.metrics.job
        latency = 0
        while job.shown != job.generation and latency < 10 * hz:
            frame(app, window, hz)
            latency += 1
        window.panels.sweep_dock.raise_()
        window.sweep.use_second.setChecked(False)
        window.sweep.first.count.setValue(sweep_points)
        settle()
        window.sweep.run()
        phases["sweep"] = measure(lambda: None, lambda: window.sweep.run_button.isEnabled())
        window.sweep.settle()
    return {
        "phases": phases,
        "metrics_latency_frames": latency,
        "frame_p99_ms": max(p["p99_ms"] for p in phases.values()),
        "max_gap_ms": max(p["max_gap_ms"] for p in phases.values()),
    }
