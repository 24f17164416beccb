"""The first start: a splash from the first moment that says what is being compiled
and counts the steps, the event loop turning while a step runs, and the window's
start doing nothing slow in the window's thread."""

import threading

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from sandbox.ui import warm_up
from sandbox.ui.warm_up import FIRST_START, run_steps, show_splash

WAIT_S = 60
"""Bound on waiting for the event loop to turn (a hang fails instead of blocking)."""


def test_the_splash_says_each_step_before_it_runs_and_the_event_loop_turns_meanwhile(qtbot):
    splash = show_splash("Starting…")
    qtbot.addWidget(splash)
    assert splash.isVisible() and splash.message() == "Starting…"
    seen = []  # in order: what the splash said, and which step ran
    splash.messageChanged.connect(lambda text: seen.append(("says", text)))
    turned = threading.Event()
    timer = QTimer()  # fires only if the window's event loop turns while a step runs
    timer.setInterval(0)
    timer.timeout.connect(turned.set)

    def step(number):
        def run():
            seen.append(("runs", number))
            turned.clear()
            assert turned.wait(WAIT_S), "the event loop stood still during a step"
            sum(i * i for i in range(20_000))  # real, cheap work

        return run

    timer.start()
    run_steps(splash, [(f"part {n}", step(n)) for n in (1, 2, 3)])
    timer.stop()
    assert seen == [item for n in (1, 2, 3) for item in (("says", f"{FIRST_START}\npart {n}, {n} of 3 …"), ("runs", n))]
    assert splash.isVisible()


def test_a_step_that_fails_raises_its_error_and_later_steps_do_not_run(qtbot):
    splash = show_splash()
    qtbot.addWidget(splash)
    ran = []

    def broken():
        raise RuntimeError("no compiler today")

    with pytest.raises(RuntimeError, match="no compiler today"):
        run_steps(splash, [("first", lambda: ran.append(1)), ("second", broken), ("third", lambda: ran.append(3))])
    assert ran == [1]


def test_the_first_start_shows_the_splash_before_compiling_and_closes_it_when_the_window_shows(qtbot, monkeypatch):
    """The real start-up (cli's window command) with a cold kernel cache, its compile
    steps swapped for cheap real ones."""
    from sandbox import cli
    from sandbox.ui.app import MainWindow

    shown = []
    real_show_splash = warm_up.show_splash

    def recording_show_splash(*args):
        shown.append(real_show_splash(*args))
        return shown[-1]

    log = []

    def windows():
        return [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and not w.isHidden()]

    def cheap_steps(model):
        def record(number):
            return lambda: log.append((number, shown[0].isVisible(), shown[0].message(), len(windows())))

        return [("one", record(1)), ("two", record(2))]

    def exec_():  # the window is up: look, then leave at once
        qtbot.waitUntil(lambda: not shown[0].isVisible(), timeout=60_000)  # closed once the window has painted
        log.append(("exec", shown[0].isVisible(), len(windows())))
        for w in windows():
            w.close()
        return 0

    monkeypatch.setattr(warm_up, "show_splash", recording_show_splash)
    monkeypatch.setattr("sandbox.physics.kernel_cache.is_warm", lambda: False)
    monkeypatch.setattr(warm_up, "first_frame_steps", cheap_steps)
    monkeypatch.setattr(QApplication.instance(), "exec", exec_)
    assert cli.main([]) == 0
    assert log[:2] == [(1, True, f"{FIRST_START}\none, 1 of 2 …", 0), (2, True, f"{FIRST_START}\ntwo, 2 of 2 …", 0)]
    assert log[2] == ("exec", False, 1)  # the splash closed once the window showed


def test_the_tune_tab_is_not_opened_by_the_first_show(qtbot):
    """Showing the Tune tab asks for the metrics of the tuning now: on a first start
    its targets would wait for them to be compiled."""
    from sandbox.ui.app import MainWindow

    window = MainWindow(remember=False)
    qtbot.addWidget(window)
    opened = []
    for dock in window.panels.docks():
        name = dock.objectName()
        dock.visibilityChanged.connect(lambda visible, name=name: visible and opened.append(name))
    with qtbot.waitExposed(window):
        window.show()
    assert "tune_dock" not in opened and window.panels.panel_dock.isVisible()


def test_the_first_start_compiles_the_model_the_window_will_open_on(monkeypatch):
    from sandbox.files.presets import BUILTIN_DIR, dump_preset, load_preset
    from sandbox.physics.models import MODELS
    from sandbox.ui.warm_up import first_frame_steps, start_model
    from sandbox.ui.window_memory import settings

    assert start_model() is MODELS["arcade"]  # nothing saved: the recipe's defaults
    corvette = load_preset(BUILTIN_DIR / "monster_corvette_c5.json")
    settings().setValue("preset/tuning", dump_preset(corvette))  # the last session's autosave
    assert start_model() is MODELS["monster"]
    assert start_model(load_preset(BUILTIN_DIR / "ackermann_van.json")) is MODELS["ackermann"]  # --preset
    steps = first_frame_steps(MODELS["monster"])
    assert [what for what, _ in steps] == [
        "Dynamic car (Monster, 2003), the car's tick",
        "Dynamic car (Monster, 2003), its force-vs-speed curve",
    ]
