"""The first use after an install, for `car-sandbox bench`: with an empty kernel
cache, the window's longest frame gap while a slider is dragged and models are
switched, and how long until every panel shows its figures.

A child process (`python -c`, a fresh temporary kernel cache) starts the window as
the `car-sandbox` command does (the start model compiled under the splash first, not
timed here: that is the cold start-up figure), offscreen, and runs its real event
loop: every frame timer tick is timed for `seconds`, while a script drags a slider
for 2 s (a new position every 50 ms, one undo step a drag) and switches models (the
dynamic car first; the next switches once every panel shows the dynamic car's
figures). The run then goes on until every panel shows its figures. It prints one
line of JSON.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from .bench_lines import verdict

SWITCHES = ("monster", "arcade", "bicycle")
"""The models switched to, one after another (the dynamic car first, as a new user's second look)."""
DRAG_EVERY_MS = 50
DRAG_S = 2.0
LONGEST_S = 600.0
"""s: after the frames' `seconds`, the run goes on until every panel shows its figures, at most this long."""
SPLASH_S = 600.0
"""s: the longest the start model's compiling under the splash may take."""
STALL_MS = 80
"""ms: a frame this late has every thread's stack written to the stall file (`first_use(stalls=…)`)."""


def first_use(seconds: float = 60.0, stalls: str | None = None) -> dict:
    """The child's figures (see `measure`), with an empty kernel cache of its own.
    `stalls`: a file to which the child writes every thread's stack when the window's
    frame is STALL_MS late (what held it back; none when the watchdog's own thread
    got no processor either), then a line with that frame's figures (`late_frames`:
    the processor time the window's thread and the whole process had meanwhile)."""
    cache = tempfile.mkdtemp(prefix="car-sandbox-first-use-")
    home = tempfile.mkdtemp(prefix="car-sandbox-first-use-home-")
    env = dict(os.environ, CAR_SANDBOX_KERNEL_CACHE=cache, CAR_SANDBOX_HOME=home)
    env.pop("NUMBA_CACHE_DIR", None)
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    code = f"from sandbox.devtools.bench_first_use import measure; measure({seconds!r}, {stalls!r})"
    child = subprocess.Popen(
        [sys.executable, "-c", code],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its compiling processes end with it (killpg)
    )
    try:  # the splash's compiling, the frames' minute, then the panels' wait
        out, err = child.communicate(timeout=seconds + LONGEST_S + SPLASH_S)
    except subprocess.TimeoutExpired:  # the figures of the frames' minute were printed already
        os.killpg(child.pid, signal.SIGKILL)
        out, err = child.communicate()
    finally:
        shutil.rmtree(cache, ignore_errors=True)
        shutil.rmtree(home, ignore_errors=True)
    lines = [line for line in out.splitlines() if line.startswith("{")]
    if not lines:
        raise RuntimeError(f"the first-use run gave no figures: {err[-2000:]}")
    return json.loads(lines[-1])


def _panels_show(window) -> bool:
    """Every panel shows figures of the model driven: metrics, force curve, Tune's
    targets, sensitivity."""
    model = window.model
    tables = window.tune.tables
    targets = getattr(tables, "ready", True) and window.tune.model is model
    metrics = bool(window.metrics.rows) and not getattr(window.metrics, "preparing", False)
    curve = window.curves.curve is not None and window.curves.curve.unit.startswith(model.LENGTH_UNIT)
    return metrics and targets and curve and window.sensitivity.model is model


def measure(seconds: float, stalls: str | None = None) -> None:
    """In the child: the window, its event loop for `seconds`, one line of JSON."""
    import faulthandler

    from PySide6.QtCore import QSettings, QTimer

    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, os.environ["CAR_SANDBOX_HOME"])
    from ..ui.qt import application
    from ..ui.warm_up import compile_first_start, prepare_physics, show_splash

    app = application()
    splash = show_splash()
    from ..ui.app import MainWindow

    compile_first_start(splash, None)
    window = MainWindow(remember=False)
    prepare_physics(app, window)
    window.show()
    splash.finish(window)
    window.panels.tune_dock.raise_()  # the Tune tab in front, as a user trying the search would
    window.metrics.set_active(True)  # and the other panels computing as if shown
    window.sensitivity.set_active(True)
    window.sensitivity.request(window.model, window.tuning, window.sim.hz)
    start = time.perf_counter()
    gaps: list[float] = []
    last = [start]
    marks: dict = {}
    late: list[dict] = []  # each frame over STALL_MS late (see `frame`)
    # faulthandler's watchdog is a C thread that needs no Python lock: it sees who holds it
    dump = open(stalls, "w") if stalls else None  # noqa: SIM115 (open until the process ends)
    cpu = [time.thread_time(), time.process_time()]

    def frame() -> None:
        now = time.perf_counter()
        gaps.append((now - last[0]) * 1000)
        if dump is not None and now - start < seconds:
            window_cpu, process_cpu = time.thread_time(), time.process_time()
            if gaps[-1] > STALL_MS:  # the processor time the window's thread and the process had meanwhile
                late.append(
                    {
                        "at_s": round(last[0] - start, 3),
                        "ms": round(gaps[-1], 1),
                        "window_cpu_ms": round((window_cpu - cpu[0]) * 1000, 1),
                        "process_cpu_ms": round((process_cpu - cpu[1]) * 1000, 1),
                        "load": os.getloadavg()[0],
                    }
                )
                dump.write(f"-- late frame {json.dumps(late[-1])}\n")  # after the stacks dumped in it
                dump.flush()
            cpu[:] = [window_cpu, process_cpu]
            faulthandler.dump_traceback_later(STALL_MS / 1000, file=dump)
        last[0] = now
        elapsed = now - start
        if "panels_s" not in marks and _panels_show(window):
            marks["panels_s"] = elapsed
        if "switched_at" in marks and window.model.NAME == SWITCHES[0] and "switch_panels_s" not in marks:
            marks.setdefault("switch_s", elapsed - marks["switched_at"])
            if _panels_show(window):
                marks.setdefault("switch_panels_s", elapsed - marks["switched_at"])

    window.drive_view.timer.timeout.connect(frame)
    dragged: dict = {"left": 0}

    def drag_step() -> None:
        row = window.panel.sliders[next(p.name for p in window.model.PARAMS if not p.is_bool)]
        if dragged["left"] == 0:
            row.slider.setSliderDown(False)
            drag_timer.stop()
            return
        row.slider.setSliderDown(True)
        row.slider.setValue(row.slider.value() + (1 if dragged["left"] % 40 < 20 else -1))
        dragged["left"] -= 1

    drag_timer = QTimer()
    drag_timer.timeout.connect(drag_step)

    def drag() -> None:
        dragged["left"] = round(DRAG_S * 1000 / DRAG_EVERY_MS)
        drag_timer.start(DRAG_EVERY_MS)

    def switch(name: str) -> None:
        if name != SWITCHES[0] and "switch_panels_s" not in marks:
            return  # the first's panels not shown yet: a user waits for them too (and they are measured)
        marks.setdefault("switched_at", time.perf_counter() - start)
        window.switcher.drop_changes()
        window.switch_model(name)

    plan = [(2.0, drag)]
    for k, name in enumerate(SWITCHES):
        plan += [(8.0 + 16 * k, lambda name=name: switch(name)), (12.0 + 16 * k, drag)]
    for at, call in plan:
        if at < seconds:
            QTimer.singleShot(round(at * 1000), call)

    def done() -> bool:
        return "panels_s" in marks and "switch_panels_s" in marks

    def end() -> None:
        # what the gap list cannot see: a wait that outlasted the frames' minute
        marks["gaps"] = gaps + [(time.perf_counter() - last[0]) * 1000]
        if dump is not None:
            faulthandler.cancel_dump_traceback_later()
        print(json.dumps(figures(marks["gaps"])), flush=True)  # kept if the wait below is cut short
        waiting.timeout.connect(lambda: (done() or time.perf_counter() - start > seconds + LONGEST_S) and app.quit())
        waiting.start(100)

    def figures(gaps: list[float]) -> dict:
        return {
            "seconds": seconds,
            "max_frame_gap_ms": max(gaps),
            "frames": len(gaps),
            "gaps_over_100_ms": sum(g > 100 for g in gaps),
            "panels_ready_s": marks.get("panels_s"),
            "switch_s": marks.get("switch_s"),
            "switch_panels_s": marks.get("switch_panels_s"),
            **({"late_frames": late} if dump is not None else {}),
        }

    waiting = QTimer()
    QTimer.singleShot(round(seconds * 1000), end)
    app.exec()
    print(json.dumps(figures(marks.get("gaps", gaps))), flush=True)
    try:
        from ..analysis.kernel_prep import stop_children
    except ImportError:  # a version that compiles in this process (for the figures before)
        pass
    else:
        stop_children()
    os._exit(0)  # the workers are not waited for


def report(f: dict, target_ms: float) -> list[str]:
    """The first use's lines of `car-sandbox bench`."""

    def seconds(value) -> str:
        return f"{value:.1f} s" if value is not None else f"not within {f['seconds'] + LONGEST_S:.0f} s"

    return [
        f"first use, empty kernel cache, {f['seconds']:.0f} s of a slider dragged and models switched: "
        f"longest frame gap {f['max_frame_gap_ms']:.0f} ms  target ≤ {target_ms:g} ms: "
        f"{verdict(f['max_frame_gap_ms'] <= target_ms)} ({f['gaps_over_100_ms']} gaps over 100 ms in "
        f"{f['frames']} frames)",
        f"  until every panel shows its figures: {seconds(f['panels_ready_s'])} after the window showed; "
        f"the dynamic car driven {seconds(f['switch_s'])} after it was chosen, its panels' figures "
        f"{seconds(f['switch_panels_s'])}  reported",
    ]
