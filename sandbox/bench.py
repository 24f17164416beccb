"""`car-sandbox bench`: figures for the model's throughput and the window's frame cost.

Timings vary with the machine and its load; nothing here asserts a target, it prints
what it measured (the test suite never times anything).
"""

from __future__ import annotations

import os
import platform
import statistics
import time

import numpy as np

from .controls import demo_drive
from .models import MODELS
from .models.state import Controls, State
from .params import Tuning


def model_throughput(model, cars: int, seconds: float = 1.0) -> float:
    """Car-ticks per second of `model.step` on a batch of `cars` (60 Hz ticks)."""
    params = Tuning(model.PARAMS)
    rng = np.random.default_rng(0)
    controls = Controls(rng.uniform(-1, 1, cars), np.ones(cars), np.zeros(cars))
    state = State.at_rest(cars)
    ticks, start = 0, time.perf_counter()
    while True:
        state = model.step(state, controls, params, 1 / 60)
        ticks += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds and ticks >= 3:
            return cars * ticks / elapsed


def frame_costs(frames: int = 600, size: tuple[int, int] = (1400, 860)) -> dict:
    """Cost of one window frame (one physics tick + redraw + paint), offscreen.

    Drives `controls.demo_drive` on the real window with every view shown.
    """
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from .ui.qt import application, dispose
    from .ui.app import MainWindow

    app = application()
    window = MainWindow(remember=False)
    try:
        window.resize(*size)
        window.show()
        window.timer.stop()
        app.processEvents()
        costs = []
        for _ in range(frames):
            start = time.perf_counter()
            window.sim.tick(Controls(*demo_drive(window.sim.time)))
            window._on_tick(window.sim.state)
            window._refresh_views()
            app.processEvents()
            costs.append((time.perf_counter() - start) * 1000)
        ticks = window.sim.ticks
    finally:
        dispose(window)
    costs.sort()
    return {"frames": frames, "physics_ticks": ticks, "window": f"{size[0]}x{size[1]}",
            "median_ms": statistics.median(costs), "p99_ms": costs[int(0.99 * (len(costs) - 1))],
            "max_ms": costs[-1]}


def run(quick: bool = False) -> dict:
    figures = {"machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
               "model_car_ticks_per_s": {}}
    for name, model in MODELS.items():
        figures["model_car_ticks_per_s"][name] = {
            str(cars): model_throughput(model, cars, 0.3 if quick else 1.0) for cars in (1, 1000, 100_000)}
    figures["frame"] = frame_costs(120 if quick else 600)
    return figures


def report(figures: dict) -> str:
    lines = [f"machine: {figures['machine']}"]
    for name, by_cars in figures["model_car_ticks_per_s"].items():
        for cars, rate in by_cars.items():
            lines.append(f"model {name:8s} {int(cars):>7,d} cars: {rate:14,.0f} car-ticks/s")
    f = figures["frame"]
    lines.append(f"window frame ({f['window']}, tick + redraw + paint, offscreen, {f['frames']} frames, "
                 f"{f['physics_ticks']} ticks): median {f['median_ms']:.1f} ms, p99 {f['p99_ms']:.1f} ms, "
                 f"max {f['max_ms']:.1f} ms")
    return "\n".join(lines)
