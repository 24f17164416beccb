"""The first start after an install compiles the physics: say so while it happens.

The splash shows before anything slow (importing numba and the physics takes a
second or more on a busy machine), then says what is being done. On a first start
(no compiled kernels in the cache) what the first frame needs, the start model's tick
and its force-vs-speed curve, is compiled under it, one step after another on a
worker thread while the window's event loop keeps turning, so the splash repaints
and counts the steps. Everything else (the other models, the replay seek, batches,
metrics) is compiled by a separate process once the window is up, or when first used
(`analysis.kernel_prep`): never on the window's thread, nor on a thread of its process.
Later starts load all of it from the kernel cache in well under a second, after the
window's first paint.

Only Qt is imported here at module level: the splash must not wait for numba.
"""

from __future__ import annotations

import html
import json
from typing import Callable, Sequence

from PySide6.QtCore import QEventLoop, Qt, QThread, QTimer, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QLabel

from .qt import after_first_paint, freeze_long_lived
from .worker import Worker

REST_AFTER_MS = 3000
"""ms after start-up before the rest of the physics is loaded or compiled."""
FIRST_START = "Compiling the physics for this machine (first start only)"
SPLASH_SIZE = (560, 130)
"""Splash width and height in px."""
EXPOSE_WAIT_MS = 500
"""Longest wait for the window system to put the splash on screen before going on."""

Step = tuple[str, Callable[[], object]]
"""What a step does, said in the splash, and the call that does it."""


class Splash(QLabel):
    """The start-up splash: a line or two saying what is being done, in a frameless
    window centred on the screen. (Not a QSplashScreen: its show waits a whole second
    for the window system before painting anything.) A click does not close it; it
    closes once the window has painted."""

    messageChanged = Signal(str)

    def __init__(self, text: str):
        super().__init__()
        self.setObjectName("start_splash")
        self.setWindowFlags(
            Qt.WindowType.SplashScreen | Qt.WindowType.FramelessWindowHint | Qt.WindowType.WindowStaysOnTopHint
        )
        self.setFixedSize(*SPLASH_SIZE)
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setWordWrap(True)
        self.setStyleSheet("QLabel#start_splash { background: #263238; color: white; padding: 12px; }")
        area = QGuiApplication.primaryScreen().availableGeometry()
        self.move(area.center() - self.rect().center())
        self._message = ""
        self.say(text)

    def message(self) -> str:
        return self._message

    def say(self, text: str) -> None:
        """Show `text` and paint it now."""
        self._message = text
        lines = html.escape(text).replace("\n", "<br>")
        self.setText(f"<p style='font-size: 15pt'><b>car-sandbox</b></p><p>{lines}</p>")
        self.messageChanged.emit(text)
        if self.isVisible():
            self.repaint()
            QApplication.processEvents()

    def finish(self, window) -> None:
        """Close once `window` has painted (no moment with neither on screen)."""
        after_first_paint(window, self.close)


def show_splash(text: str = "Starting car-sandbox: loading the physics and the window…") -> Splash:
    """The splash, shown and painted: call this first, before any slow import."""
    splash = Splash(text)
    splash.show()
    # a window manager maps the window a moment later; paint once it is on screen, as
    # the imports that come next hold the event loop for a second or two
    waited = 0
    while not splash.windowHandle().isExposed() and waited < EXPOSE_WAIT_MS:
        QApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 10)
        QThread.msleep(10)
        waited += 10
    splash.repaint()
    QApplication.processEvents()
    return splash


def run_steps(splash: Splash, steps: Sequence[Step], heading: str = FIRST_START) -> None:
    """Run `steps` one after another on a worker thread, the splash saying which
    ("…\nArcade (Godot recipe), the car's tick, 1 of 2 …") before each starts; the event loop turns
    meanwhile, so the splash stays painted. A step's error is raised here."""
    # at the window's priority: nothing else runs yet, and the user waits for these
    job = Worker(splash, "compile physics", below_window=False)
    loop = QEventLoop()
    job.finished.connect(loop.quit)
    job.failed.connect(loop.quit)
    for number, (what, call) in enumerate(steps, 1):
        splash.say(f"{heading}\n{what}, {number} of {len(steps)} …")
        job.request(lambda _task, call=call: call())
        loop.exec()  # until the step's end arrives (queued: never before this turns)
        if job.error is not None:
            raise job.error


def start_model(preset=None):
    """The model the window will open on: `preset`'s, else the last session's (as
    its autosave says), else the recipe's. Only decides what to compile first: if it
    guesses wrong the window's model compiles when the window first drives it."""
    from ..physics.models import MODELS
    from .window_memory import default_preset, settings

    if preset is not None:
        return preset.model
    try:
        saved = json.loads(str(settings().value("preset/tuning", "") or "{}"))
        return MODELS[saved["model"]]
    except (ValueError, KeyError, TypeError):
        return default_preset().model


def first_frame_steps(model) -> list[Step]:
    """What the window's first frame needs compiled: the car's tick, its force curve."""
    from ..analysis.force_curves import force_curve
    from ..physics.sim import DEFAULT_HZ, warm_up

    tuning = {p.name: p.default for p in model.PARAMS}
    return [
        (f"{model.TITLE}, the car's tick", lambda: warm_up(model)),
        (f"{model.TITLE}, its force-vs-speed curve", lambda: force_curve(model, tuning, DEFAULT_HZ)),
    ]


def compile_first_start(splash: Splash, preset=None) -> None:
    """On a first start (nothing in the kernel cache), compile what the first frame
    needs under the splash; otherwise nothing (later starts load after the first paint)."""
    from ..physics.kernel_cache import is_warm

    if not is_warm():
        run_steps(splash, first_frame_steps(start_model(preset)))


def prepare_physics(app, window) -> None:
    """Load what the first frame of the window's model needs (warm cache: after the
    car view has painted, so the window shows at once with the car at rest, the
    loading taking about half a second, most of it numba setting itself up); then the
    rest in the background: what is not in the kernel cache yet is compiled by a
    separate process (`analysis.kernel_prep`), never by the window's, and loaded here
    once it is there. From here on a switch to a model not compiled yet keeps the car
    driven now until the new one is ready."""
    from ..analysis.kernel_prep import after_load
    from ..physics.kernel_cache import is_warm
    from ..physics.sim import warm_up

    model = window.model
    # a model's kernels loaded add thousands of long-lived objects: exempt from full
    # collections, which would otherwise take 100-360 ms on the window's thread
    after_load(freeze_long_lived)
    freeze_long_lived()  # what a first start compiled under the splash, and the window itself
    window.switcher.prepare_first = True
    if is_warm():
        window.drive_view.timer.stop()

        def load_then_drive() -> None:
            warm_up(model)
            window.drive_view.start_frames()

        after_first_paint(window.track, load_then_drive)
    # after the window is up: loading holds Python's lock, and the first frames would wait on it
    rest = Worker(window, "compile physics")
    rest.failed.connect(lambda why: window.statusBar().showMessage(f"Could not prepare the physics ({why})", 10000))
    QTimer.singleShot(REST_AFTER_MS, lambda: rest.request(lambda task: _warm_the_rest(model, task)))


def _warm_the_rest(first, task) -> None:
    from ..analysis.kernel_prep import prepare_all
    from ..physics.models import MODELS

    # the window's model's metrics first (the panels wait for them), then all the rest
    others = [(m, "everything") for m in MODELS.values() if m is not first]
    prepare_all([(first, "metrics"), (first, "everything")] + others, stop=task.stop)
    freeze_long_lived()  # what start-up made lives as long as the window
