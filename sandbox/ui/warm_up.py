"""The first start after an install compiles the physics: say so while it happens.

Only what the first frame needs (the start model's step) is compiled before the
window shows, under a splash that names it; everything else (the other models, the
replay seek, batches, metrics) compiles on a background thread afterwards, or when
first used. Later starts load all of it from the kernel cache in well under a second, after
the window's first paint.
"""

from __future__ import annotations

import threading

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QColor, QPixmap
from PySide6.QtWidgets import QSplashScreen

from ..physics.kernel_cache import is_warm
from ..physics.models import MODELS
from ..physics.sim import warm_up
from .qt import after_first_paint, freeze_long_lived

REST_AFTER_MS = 3000
"""ms after start-up before the rest of the physics is loaded or compiled."""


def _splash(text: str) -> QSplashScreen:
    pixmap = QPixmap(520, 120)
    pixmap.fill(QColor("#263238"))
    splash = QSplashScreen(pixmap)
    splash.showMessage(text, Qt.AlignmentFlag.AlignCenter, QColor("white"))
    return splash


def prepare_physics(app, window) -> None:
    """Compile or load what the first frame of the window's model needs; a splash while
    compiling; then the rest in the background. With a warm cache the loading (about
    half a second, most of it numba setting itself up) and the frame timer wait until
    the car view has painted, so the window shows at once with the car at rest."""
    model = window.model
    if is_warm():
        window.timer.stop()

        def load_then_drive() -> None:
            warm_up(model)
            window.start_frames()

        after_first_paint(window.track, load_then_drive)
    else:
        splash = _splash(f"Compiling the physics (first start only)\n"
                         f"step 1 of 2: the {model.TITLE} car, a few seconds\n"
                         "step 2 of 2 (the other models, replays, metrics) runs in the background")
        splash.show()
        app.processEvents()
        warm_up(model)
        splash.close()
    # after the window is up: loading or compiling holds Python's lock, and the first
    # frames would wait on it
    QTimer.singleShot(REST_AFTER_MS, lambda: threading.Thread(
        target=_warm_the_rest, args=(model,), name="compile physics", daemon=True).start())


def _warm_the_rest(first) -> None:
    for model in [first] + [m for m in MODELS.values() if m is not first]:
        load_everything(model)
    freeze_long_lived()  # what start-up made lives as long as the window


def load_everything(model) -> None:
    """Compile or load every compiled driver of `model`: the live step, replay seek and
    batches (`sim.warm_up`), and the metrics of one tuning and of a sweep's batch."""
    import numpy as np

    from ..analysis.metrics import compute

    warm_up(model, everything=True)
    tuning = {p.name: p.default for p in model.PARAMS}
    compute(model, tuning, 60)
    compute(model, {name: np.full(2, value) for name, value in tuning.items()}, 60)
