"""The first use after an install: kernels not compiled yet never hold up the window.

The panels say they are preparing while a model's kernels are made ready and show
their figures after; a switch to a model not compiled yet keeps the car driven until
the new one is ready; and, with an empty kernel cache in a process of its own, no
kernel is compiled (or loaded) on the window's thread while a slider is dragged and
the model is switched.
"""

from __future__ import annotations

import threading

import numpy as np

from cold_runs import run_cold
from sandbox.analysis.metrics import compute, table

LONG_MS = 900_000
"""ms: the longest wait for a state that needs kernels compiled (minutes on a busy machine)."""


class HeldPreparation:
    """Stands in for `kernel_prep.prepare` (and `is_prepared`): reports a step, then
    waits until the test lets it finish, as a compile in a separate process would."""

    def __init__(self):
        self.done = threading.Event()
        self.threads: list[str] = []
        self.asked: list[tuple[str, str]] = []  # (model name, level) of each call

    def prepare(self, model, level="drive", report=None, first=True):
        self.threads.append(threading.current_thread().name)
        self.asked.append((model.NAME, level))
        if report is not None:
            report(1, 2)
        assert self.done.wait(120), "the test never let the preparation finish"

    def is_prepared(self, model, level="drive"):
        return self.done.is_set()


def drag(window, name: str, moves: list[int]) -> list[float]:
    """One drag of `name`'s slider through positions `moves` (one undo step); returns
    the values those positions stand for, by the parameter's own scale."""
    row = window.panel.sliders[name]
    row.slider.setSliderDown(True)
    for position in moves:
        row.slider.setValue(position)
    row.slider.setSliderDown(False)
    return [row.param.from_slider(position / row.positions) for position in moves]


def test_a_drag_while_the_metrics_are_prepared_says_so_then_shows_the_dragged_tuning(window, qtbot, monkeypatch):
    from sandbox.ui import metrics_panel

    held = HeldPreparation()
    monkeypatch.setattr(metrics_panel, "prepare", held.prepare)
    monkeypatch.setattr(metrics_panel, "is_prepared", held.is_prepared)
    window.panels.metrics_dock.raise_()
    qtbot.waitUntil(lambda: "step 1 of 2" in window.metrics.status.text(), timeout=LONG_MS)  # as the compiling goes on
    before = window.tuning["engine_power"]
    start = window.panel.sliders["engine_power"].slider.value()
    first = drag(window, "engine_power", [start + 3, start + 6, start + 9])
    second = drag(window, "engine_power", [start + 7, start + 2])
    assert window.metrics.preparing and "preparing the metrics" in window.metrics.status.text()
    # the drag is the user's, value by value, while nothing is computed
    assert window.tuning["engine_power"] == second[-1] and window.undo.count() == 2
    held.done.set()
    computed = window.metrics.job
    qtbot.waitUntil(lambda: not window.metrics.preparing and computed.shown == computed.generation, timeout=LONG_MS)
    expected = table(window.model, compute(window.model, dict(window.tuning), window.sim.hz))
    # NaN: a figure the tuning has none of (a step steer without overshoot has no peak time)
    np.testing.assert_array_equal([r["value"] for r in window.metrics.rows], [r["value"] for r in expected])
    assert "MainThread" not in held.threads
    window.undo.undo()
    assert window.tuning["engine_power"] == first[-1]
    window.undo.undo()
    assert window.tuning["engine_power"] == before and not window.undo.canUndo()


def test_on_a_lap_track_the_metrics_tab_prepares_the_lap_kernels_apart_then_shows_the_lap(window, qtbot, monkeypatch):
    """On a closed track the Metrics tab's figures include the lap's: its worker has the
    lap kernels prepared (compiled in a separate process on a first use) as well as the
    metrics', says so meanwhile, and shows the lap time after."""
    from sandbox.ui import metrics_panel

    held = HeldPreparation()
    monkeypatch.setattr(metrics_panel, "prepare", held.prepare)
    monkeypatch.setattr(metrics_panel, "is_prepared", held.is_prepared)
    window.world.open_builtin("club_circuit")
    window.panels.metrics_dock.raise_()
    qtbot.waitUntil(lambda: "step 1 of 2" in window.metrics.status.text(), timeout=LONG_MS)
    assert window.metrics.preparing
    held.done.set()
    qtbot.waitUntil(lambda: any(r["name"] == "lap_time" for r in window.metrics.rows), timeout=LONG_MS)
    assert ("arcade", "metrics") in held.asked and ("arcade", "laps") in held.asked
    assert "MainThread" not in held.threads


def test_the_drivers_plan_has_the_lap_kernels_prepared_apart_first(window, qtbot, monkeypatch):
    """F9: the plan is made on a worker once the lap kernels are prepared there (a first
    use compiles them in a separate process): neither the plan nor the driver's ticks on
    the window's thread compile."""
    from sandbox.session.lap_wheel import DriverSource
    from sandbox.ui import lap_wheel

    asked = []
    monkeypatch.setattr(
        lap_wheel, "prepare", lambda model, level: asked.append((model.NAME, level, threading.current_thread().name))
    )
    window.world.open_builtin("club_circuit")
    window.driver_action.trigger()
    qtbot.waitUntil(lambda: isinstance(window.drive.live, DriverSource), timeout=LONG_MS)
    assert [(name, level) for name, level, _ in asked] == [("arcade", "driver")]
    assert asked[0][2] != "MainThread"


def test_the_tune_targets_wait_for_the_metrics_and_run_waits_for_the_targets(window, qtbot, monkeypatch):
    from sandbox.ui import tune_panel

    held = HeldPreparation()
    monkeypatch.setattr(tune_panel, "prepare", held.prepare)
    monkeypatch.setattr(tune_panel, "is_prepared", held.is_prepared)
    window.tune.model = None  # as on a first start: the tables are made when the tab shows
    window.panels.tune_dock.raise_()
    qtbot.waitUntil(lambda: window.tune.model is window.model, timeout=LONG_MS)
    assert "Preparing the metrics" in window.tune.status.text()
    assert not window.tune.run_button.isEnabled() and not window.tune.tables.ready
    held.done.set()
    qtbot.waitUntil(lambda: window.tune.tables.ready, timeout=LONG_MS)
    now = compute(window.model, dict(window.tuning), window.sim.hz)
    _, target, _ = window.tune.target_rows["top_speed"]
    assert round(target.value(), target.decimals()) == round(float(now["top_speed"][0]), target.decimals())
    assert window.tune.run_button.isEnabled() and window.tune.status.text().startswith("Tick the metrics")


def test_a_switch_to_a_model_not_compiled_keeps_driving_the_car_until_it_is_ready(window, qtbot, monkeypatch):
    from sandbox.ui import model_prep

    held = HeldPreparation()
    monkeypatch.setattr(model_prep, "prepare", held.prepare)
    monkeypatch.setattr(model_prep, "is_prepared", held.is_prepared)
    window.switcher.prepare_first = True
    old = window.model
    assert window.switch_model("monster")
    qtbot.waitUntil(lambda: bool(held.threads), timeout=LONG_MS)
    assert window.model is old and window.switcher.preparing is not None
    assert "Preparing the Dynamic car" in window.statusBar().currentMessage()
    ticks = window.sim.ticks
    window.run_for(0.5)  # the car driven now goes on
    assert window.sim.ticks > ticks and window.model is old
    held.done.set()
    qtbot.waitUntil(lambda: window.model.NAME == "monster", timeout=LONG_MS)
    assert window.switcher.preparing is None and "MainThread" not in held.threads


def test_a_new_models_force_curve_says_it_is_prepared_then_draws_once_its_kernels_are_ready(window, qtbot, monkeypatch):
    from sandbox.analysis.kernel_prep import CURVE
    from sandbox.ui import force_curve_plot as curves

    held = HeldPreparation()
    monkeypatch.setattr(curves, "prepare", held.prepare)
    assert window.switch_model("monster")
    qtbot.waitUntil(lambda: ("monster", CURVE) in held.asked, timeout=LONG_MS)
    qtbot.waitUntil(lambda: "preparing the force curve" in window.curves.full_title, timeout=LONG_MS)
    assert window.curves.curve is None or not window.curves.curve.unit.startswith("m/")
    held.done.set()
    qtbot.waitUntil(lambda: window.curves.curve is not None and window.curves.curve.unit == "m/s²", timeout=LONG_MS)
    assert "preparing" not in window.curves.full_title and "MainThread" not in held.threads


def loaded_here(monkeypatch) -> None:
    """`kernel_prep` with nothing loaded yet, preparations not stopped (by a window
    closed before), every level in the cache: `prepare` runs its steps here, no
    separate process."""
    from sandbox.analysis import kernel_prep

    monkeypatch.setattr(kernel_prep, "_loaded", set())
    monkeypatch.setattr(kernel_prep, "_stopping", threading.Event())
    monkeypatch.setattr(
        kernel_prep, "is_prepared", lambda model, level="drive": (model.NAME, level) in kernel_prep._loaded
    )
    monkeypatch.setattr(kernel_prep, "in_cache", lambda model, level: True)


def test_each_load_of_kernels_is_announced_once_to_each_listener(monkeypatch):
    """The window exempts what a load adds from full collections (`freeze_long_lived`)."""
    from sandbox.analysis import kernel_prep
    from sandbox.physics.models import MODELS

    heard = []
    monkeypatch.setattr(kernel_prep, "_after_load", [])
    loaded_here(monkeypatch)
    listener = lambda: heard.append(sorted(kernel_prep._loaded))  # noqa: E731
    kernel_prep.after_load(listener)
    kernel_prep.after_load(listener)
    kernel_prep.prepare(MODELS["arcade"], "drive")
    kernel_prep.prepare(MODELS["arcade"], "drive")  # loaded already: nothing to announce
    assert heard == [[("arcade", "drive")]]


def test_a_window_closed_before_does_not_stop_the_next_windows_preparations(qtbot, monkeypatch):
    """Closing a window ends the compiling processes its workers wait for; a window
    opened after it in the same process still has its kernels prepared (its lap
    figures, say), not refused as if it were closing."""
    from sandbox.analysis import kernel_prep
    from sandbox.physics.models import MODELS
    from sandbox.ui.app import MainWindow

    ran = []
    loaded_here(monkeypatch)
    monkeypatch.setattr(kernel_prep, "steps", lambda model, level: [lambda: ran.append((model.NAME, level))])
    first = MainWindow(remember=False)
    qtbot.addWidget(first)
    first.switcher.prepare_first = True  # as the app's window: its workers may wait for a compiling process
    first.close()
    second = MainWindow(remember=False)
    qtbot.addWidget(second)
    kernel_prep.prepare(MODELS["arcade"], kernel_prep.LAPS)
    assert ("arcade", "laps") in ran


COLD_RUN = r"""
import json, os, sys, threading, time
from PySide6.QtCore import QSettings
QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, os.environ["CAR_SANDBOX_HOME"])
from sandbox.physics.kernel_cache import use_kernel_cache
use_kernel_cache()
from numba.core.dispatcher import Dispatcher
from sandbox.ui import warm_up
from sandbox.ui.qt import application
seen = []  # (thread, function) of every compile or cache load once the window exists
watching = threading.Event()
original = Dispatcher.compile
def compile(self, sig):
    if watching.is_set():
        seen.append((threading.current_thread().name, self.py_func.__qualname__))
    return original(self, sig)
Dispatcher.compile = compile
from sandbox.analysis import kernel_prep
apart = []  # (model, level) compiled by a separate process
compile_apart = kernel_prep._compile_apart
def record_apart(model, level, *args):
    apart.append((model.NAME, level))
    return compile_apart(model, level, *args)
kernel_prep._compile_apart = record_apart
warm_up.REST_AFTER_MS = 10**8  # only what this run uses is compiled (the rest would take minutes)
app = application()
splash = warm_up.show_splash()
from sandbox.ui.app import MainWindow
warm_up.compile_first_start(splash, None)  # under the splash, as the app does
watching.set()
window = MainWindow(remember=False)
warm_up.prepare_physics(app, window)
from sandbox.ui.qt import freeze_pending
frozen = freeze_pending()  # what the splash compiled, exempt from full collections at once
window.show()
splash.finish(window)
window.panels.metrics_dock.raise_()
def wait_for(what, condition):
    end = time.monotonic() + 1500
    while not condition():
        app.processEvents()
        time.sleep(0.01)
        if time.monotonic() > end:
            print(json.dumps({"timeout": what, "seen": seen}), flush=True)
            os._exit(1)
row = window.panel.sliders["engine_power"]
row.slider.setSliderDown(True)
start = row.slider.value()
for k in range(1, 6):
    row.slider.setValue(start + k)
    app.processEvents()
row.slider.setSliderDown(False)
preparing = getattr(window.metrics, "preparing", False)
wait_for("metrics", lambda: window.metrics.rows and not getattr(window.metrics, "preparing", False))
window.switcher.drop_changes()
window.switch_model("monster")
kept = window.model.NAME
wait_for("switch", lambda: window.model.NAME == "monster")
window.run_for(0.2)
wait_for("curve", lambda: window.curves.curve is not None and window.curves.curve.unit == "m/s²")
print(json.dumps({"seen": seen, "preparing": preparing, "kept": kept, "apart": apart, "frozen": frozen,
                  "undo": window.undo.count()}), flush=True)
os._exit(0)
"""


def test_with_an_empty_kernel_cache_nothing_compiles_on_the_windows_thread(tmp_path):
    """A process of its own (kernels compiled in this one would not compile again),
    with an empty kernel cache: the start model compiled under the splash, then a
    drag with the Metrics tab showing and a switch to the dynamic car, whose force
    curve is compiled by a separate process too."""
    result, done = run_cold(COLD_RUN, tmp_path, QT_QPA_PLATFORM="offscreen")
    assert "timeout" not in result, result
    on_window = [name for thread, name in result["seen"] if thread == "MainThread"]
    assert on_window == [], f"compiled or loaded on the window's thread: {sorted(set(on_window))[:20]}"
    assert result["preparing"] and result["kept"] == "arcade"
    assert ["monster", "curve"] in result["apart"], result["apart"]  # not compiled on a worker thread here
    assert result["frozen"]  # else a full collection of it takes 100 ms and more on the window's thread
    assert done.returncode == 0
