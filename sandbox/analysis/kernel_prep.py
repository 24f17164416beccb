"""Compiling a model's kernels without holding up the window: in a separate process.

numba holds Python's lock for long stretches while it compiles, so a compile on a
worker thread still starves the window's frames (gaps of 150 ms and more). Here a
model's kernels are compiled by a child process (`python -c …`; at background
priority unless someone waits for it) into the on-disk kernel cache the two processes
share; the calling thread waits for it without holding the lock, then loads the
compiled code from the cache (0.7 s for a model's live tick in a fresh process, most
of it numba setting itself up). A marker file in the cache folder says a model's
kernels of a level are there, so later runs skip the child process.

Levels: "drive", the live tick on the open field and among a track's walls, and the
live lap timer (what driving the car needs); "metrics", also the
metrics of one tuning (the Metrics and Tune panels); "everything", also the replay
seek, the batches, a sweep's metrics and the force curve (what every panel needs).
Beside them "curve", the force curve alone (its panel), which "everything" holds;
"laps", the lap figures on a closed track (the Metrics tab on such a track), and
"driver", the driver's plan and control law (the driver at the wheel), which no other
level holds.
`prepare` is thread-safe and blocks the calling thread: call it on a worker, never
on the window's thread. No Qt here.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import ModuleType
from typing import Callable

LEVELS = ("drive", "metrics", "everything")
"""Each level holds the ones before it."""
CURVE = "curve"
"""The force curve alone: held by "everything", not by the levels before it."""
BACKGROUND_NICENESS = 10
"""Scheduling niceness of a compiling process nobody waits for yet (0 is the window's,
19 the lowest). One someone waits for (a panel saying "preparing…", a switch) runs
at the window's: on a busy machine a process at 10 gets almost no processor, and the
window, one process, still has its share of the cores."""
LAPS = "laps"
"""The lap figures: held by no other level."""
DRIVER = "driver"
"""The driver's plan and control law: held by no other level."""
STEP = "step"
"""What the child process prints before each step ("step 2 of 5")."""

Report = Callable[[int, int], None]
"""Called with (step, steps) as a preparation goes on."""

_loaded: set[tuple[str, str]] = set()  # (model name, level) loaded in this process
_locks: dict[tuple[str, bool], threading.Lock] = {}  # (model, requested): one such preparation at a time
_waiting = 0
_count_lock = threading.Lock()
_children: set[subprocess.Popen] = set()
_stopping = threading.Event()
_after_load: list[Callable[[], None]] = []


class Stopped(Exception):
    """A preparation given up: the program is ending (`stop_children`)."""


def is_prepared(model: ModuleType, level: str = "drive") -> bool:
    """Whether `model`'s kernels of `level` are loaded in this process (a first call
    costs no compile and no cache load)."""
    if any((model.NAME, held) in _loaded for held in _holding(level)):
        return True
    if level == CURVE:
        return all(bool(f.signatures) for f in _curve_kernels(model))
    from ..physics import kernels
    from ..physics.sim import model_number
    from . import handling_runs, manoeuvres

    number = model_number(model)
    plain = ()  # compiled functions called as they are, not through `kernels.call`
    if level == LAPS:
        from .lap_batch import lap_rows

        drivers = (manoeuvres.metrics_rows, lap_rows)
    elif level == DRIVER:
        from ..physics.lap_timer import timer_ticks
        from .lap_driver import drive, driver_controls, driver_follow, driver_place, setup_row
        from .lap_plan import full_throttle_table
        from .speed_profile import forward_backward

        drivers = (manoeuvres.metrics_rows, full_throttle_table, drive)
        plain = (forward_backward, setup_row, timer_ticks, driver_place, driver_controls, driver_follow)
    else:
        drivers = {
            "drive": (kernels.run_one,),
            "metrics": (kernels.run_one, manoeuvres.metrics_rows, handling_runs.handling_rows),
            "everything": (
                kernels.run_one,
                manoeuvres.metrics_rows,
                manoeuvres.metrics_rows_parallel,
                handling_runs.handling_rows,
                handling_runs.handling_rows_parallel,
            ),
        }[level]
    return all(kernels.compiled(driver, number) for driver in drivers) and all(bool(f.signatures) for f in plain)


def _holding(level: str) -> tuple[str, ...]:
    """The levels whose kernels include those of `level`."""
    if level in (CURVE, LAPS, DRIVER):
        return (CURVE, "everything") if level == CURVE else (level,)
    return LEVELS[LEVELS.index(level) :]


def _curve_kernels(model: ModuleType) -> list:
    """The compiled functions the model's `force_curve` and `top_speed` call (none
    for a model whose curve is plain numpy)."""
    found = []
    for function in (model.force_curve, model.top_speed):
        names = function.__globals__
        found += [names[n] for n in function.__code__.co_names if hasattr(names.get(n), "signatures")]
    return found


def steps(model: ModuleType, level: str) -> list[Callable[[], object]]:
    """The calls that compile or load `model`'s kernels of `level`, one after another."""
    import numpy as np

    from ..physics.sim import DEFAULT_HZ, warm_up
    from .force_curves import force_curve
    from .metrics import compute

    tuning = {p.name: p.default for p in model.PARAMS}
    calls = {
        "drive": [lambda: warm_up(model), lambda: _among_walls(model)],
        "metrics": [lambda: warm_up(model), lambda: _among_walls(model), lambda: compute(model, tuning, DEFAULT_HZ)],
        CURVE: [lambda: force_curve(model, tuning, DEFAULT_HZ)],
        LAPS: [lambda: compute(model, tuning, DEFAULT_HZ), lambda: _lap_figures(model, tuning, DEFAULT_HZ)],
        DRIVER: [lambda: compute(model, tuning, DEFAULT_HZ), lambda: _driver(model, tuning, DEFAULT_HZ)],
        "everything": [
            lambda: warm_up(model, everything=True),
            lambda: _among_walls(model),
            lambda: compute(model, tuning, DEFAULT_HZ),
            lambda: compute(model, {name: np.full(2, value) for name, value in tuning.items()}, DEFAULT_HZ),
            lambda: force_curve(model, tuning, DEFAULT_HZ),
        ],
    }
    return calls[level]


def practice_ring():
    """A closed track built here (tracks are read above this layer): a ring of 60 m
    radius, 8 m of road each side of its centre line between two walls, its start line
    across the road. The lap kernels take any track's arrays alike, so they compile
    for every track on this one."""
    import math

    import numpy as np

    from ..physics.track import Circle, Line, Polyline, Pose, Track

    radius, half = 60.0, 8.0
    angle = np.linspace(0.0, 2 * math.pi, 360, endpoint=False)
    round_ = np.column_stack((np.cos(angle), np.sin(angle)))
    outside = (radius + half) * round_
    return Track(
        name="practice ring",
        polylines=(Polyline(np.vstack([outside, outside[:1]])),),
        circles=(Circle(0.0, 0.0, radius - half),),
        start=Line(radius - half, 0.0, radius + half, 0.0, (0.0, 1.0)),
        centre_line=Polyline(radius * round_, closed=True),
        spawn=Pose(radius * math.cos(-0.05), radius * math.sin(-0.05), math.pi / 2 - 0.05),
    )


def _among_walls(model: ModuleType) -> None:
    """Compile or load the live car's tick among a track's walls and the live lap timer
    (what driving on any track runs each frame) on `practice_ring`: compiled on the
    window's thread when a track is first opened, they froze the window for 20-45 s."""
    import numpy as np

    from ..physics import lap_timer as lt
    from ..physics.sim import DEFAULT_HZ, step
    from ..physics.state import Controls, State
    from ..physics.walls import walls_for
    from .lap_plan import timed_course

    unit = model.LENGTH_UNIT
    ring = practice_ring()
    here = ring.in_unit(unit)
    tuning = {p.name: p.default for p in model.PARAMS}
    car = State.at_rest(1, model.STATE)
    step(model, car, Controls(throttle=1.0), tuning, 1.0 / DEFAULT_HZ, walls=walls_for(here, unit))
    course = timed_course(ring, unit)[0]
    xs, ys = np.array([here.spawn.x, here.spawn.x]), np.array([here.spawn.y, here.spawn.y + 1.0])
    lap, distance = np.zeros(1), np.zeros(1)
    lt.timer_ticks(course, lt.new_timer(course, 2.0), xs, ys, 0.0, 1.0 / DEFAULT_HZ, np.zeros(1), lap, distance)


def _lap_figures(model: ModuleType, tuning: dict, hz: float) -> None:
    """Compile or load the lap figures (`lap_metrics`) on `practice_ring`."""
    from .lap_metrics import lap_figures

    lap_figures(model, tuning, hz, practice_ring())


def _driver(model: ModuleType, tuning: dict, hz: float) -> None:
    """Compile or load the driver's plan as its practice leaves it (`driven_laps`: the
    plan, a timed lap driven headless) and its control law tick by tick (`lap_driver`,
    as the driver at the wheel calls it) on `practice_ring`."""
    import numpy as np

    from ..physics.sim import at_rest
    from .driven_laps import practised_plan
    from .lap_driver import MEM_SLOTS, driver_controls, driver_follow, driver_path, driver_place, driver_setup

    plan = practised_plan(model, tuning, practice_ring(), hz)
    path, path_s, speeds = driver_path(plan.line.points, plan.speeds, plan.line.room)
    setup = driver_setup(model, tuning, speeds, hz, plan.limits.full_lock_radius)
    s, memory = at_rest(model, 1).data[0].copy(), np.zeros(MEM_SLOTS)
    driver_place(s, path, path_s, speeds, setup, memory)
    driver_controls(s, 1.0 / hz, path, path_s, speeds, setup, memory, np.zeros(5))
    driver_follow(s, 1.0 / hz, path, path_s, setup, memory)


def load_everything(model: ModuleType) -> None:
    """Compile or load, here, every compiled driver of `model` (tools that measure)."""
    for call in steps(model, "everything"):
        call()
    _loaded.add((model.NAME, "everything"))


def _marker(model: ModuleType, level: str) -> Path | None:
    folder = os.environ.get("NUMBA_CACHE_DIR")
    return Path(folder) / f"ready-{model.NAME}-{level}" if folder else None


def in_cache(model: ModuleType, level: str) -> bool:
    """Whether the kernel cache holds `model`'s kernels of `level` (compiled before)."""
    return any((m := _marker(model, held)) is not None and m.exists() for held in _holding(level))


def prepare(model: ModuleType, level: str = "drive", report: Report | None = None, first: bool = True) -> None:
    """Make `model`'s kernels of `level` ready in this process: compiled by a child
    process unless the cache holds them, then loaded here. Blocks; `report(step,
    steps)` as it goes. `first` False: a background preparation, which lets any
    request made meanwhile (`first` True, someone waits for it) go before it."""
    global _waiting
    if is_prepared(model, level):
        return
    if first:
        with _count_lock:
            _waiting += 1
    try:
        while not first and _waiting:  # someone waits for theirs: let them go first
            time.sleep(0.05)
        with _count_lock:  # a request never waits for a background preparation (at its low priority)
            lock = _locks.setdefault((model.NAME, first), threading.Lock())
        with lock:
            if is_prepared(model, level):
                return
            calls = steps(model, level)
            if not in_cache(model, level):
                _compile_apart(model, level, report, 0 if first else BACKGROUND_NICENESS)
            if _stopping.is_set():
                raise Stopped("the window is closing")
            for number, call in enumerate(calls, 1):
                if report is not None:
                    report(number, len(calls))
                call()  # loads from the cache (compiles here only if the child could not)
            _loaded.add((model.NAME, level))
            for callback in list(_after_load):
                callback()
            _mark(model, level)
    finally:
        if first:
            with _count_lock:
                _waiting -= 1


def after_load(callback: Callable[[], None]) -> None:
    """Have `callback()` called (on the preparing thread) each time a preparation has
    loaded kernels into this process; once however often it is registered."""
    if callback not in _after_load:
        _after_load.append(callback)


def prepare_all(wanted, stop: threading.Event | None = None) -> None:
    """`prepare` each (model, level) of `wanted` in turn, in the background: a request
    someone waits for starts first (its own model's preparation goes on beside this)."""
    for model, level in wanted:
        if stop is not None and stop.is_set():
            return
        prepare(model, level, first=False)


def _mark(model: ModuleType, level: str) -> None:
    marker = _marker(model, level)
    try:
        if marker is not None:
            marker.touch()
    except OSError:  # a read-only cache: the next run compiles again, nothing else
        pass


def _compile_apart(model: ModuleType, level: str, report: Report | None, niceness: int) -> None:
    """Run the child process that compiles `model`'s kernels of `level` into the
    cache; its step lines go to `report`. A child that fails leaves the compiling to
    the caller's thread (slower for the window, never wrong)."""
    code = f"import numba; from sandbox.analysis.kernel_prep import main; main({model.NAME!r}, {level!r}, {niceness})"
    try:
        child = subprocess.Popen(
            [sys.executable, "-c", code],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env=os.environ.copy(),
            # the folder this package was imported from: the child imports the same one
            cwd=os.path.dirname(os.path.abspath(sys.modules["sandbox"].__path__[0])),
        )
    except OSError:
        return
    _children.add(child)
    if _stopping.is_set():  # stop_children came while it started
        child.kill()
    try:
        for line in child.stdout:
            parts = line.split()
            if report is not None and len(parts) == 4 and parts[0] == STEP:
                report(int(parts[1]), int(parts[3]))
        child.wait()
    finally:
        _children.discard(child)


def stop_children() -> None:
    """End the compiling processes still running and start no other (the window
    closes: nobody waits for them, and the window waits for its workers)."""
    _stopping.set()
    for child in list(_children):
        child.kill()


def resume() -> None:
    """Let preparations run again after `stop_children` (a new window in this process)."""
    _stopping.clear()


def main(name: str, level: str, niceness: int = BACKGROUND_NICENESS) -> None:
    """The child process: compile `name`'s kernels of `level` into the cache."""
    from ..physics.models import MODELS

    if hasattr(os, "nice"):
        try:
            os.nice(niceness)
        except OSError:
            pass
    model = MODELS[name]
    calls = steps(model, level)
    for number, call in enumerate(calls, 1):
        print(f"{STEP} {number} of {len(calls)}", flush=True)
        call()
    _mark(model, level)
