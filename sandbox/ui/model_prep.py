"""Driving a model whose live tick is not compiled yet (its first use after an
install): the window goes on with what it drives now, the status bar says the model
is being prepared, and the change is made once a separate process has compiled it
(`analysis.kernel_prep`). The window never waits for a compile."""

from __future__ import annotations

from typing import Callable

from ..analysis.kernel_prep import is_prepared, prepare
from .worker import Worker


class ModelPreparer:
    """Runs a change that needs a model's live tick once the tick is ready. `enabled`
    turns the waiting on (the app does, `warm_up.prepare_physics`); off, the change is
    made at once, compiling if it must (scripts and tests that drive a window of their
    own)."""

    def __init__(self, window, name: str):
        self.window = window
        self.enabled = False
        self.waiting: tuple | None = None
        """(model, change) waiting for the model to be ready; None when none waits."""
        self._job = Worker(window, name)
        self._job.finished.connect(self._ready)
        self._job.failed.connect(self._failed)

    def when_ready(self, model, what: str, change: Callable[[], object]) -> bool:
        """`change()` now if `model`'s tick is ready (True), else once it is (False),
        the status bar saying "Preparing the <model> model <what>…" meanwhile. A
        newer call replaces a waiting one."""
        if not self.enabled or is_prepared(model):
            self.waiting = None
            change()
            return True
        self.waiting = (model, change)
        self.window.statusBar().showMessage(
            f"Preparing the {model.TITLE} model {what} (compiled once, the first time it is driven): "
            "your car drives on meanwhile…"
        )
        self._job.request(lambda _task: prepare(model))
        return False

    def give_up(self) -> None:
        """Forget the change waiting (a newer one made it moot)."""
        self.waiting = None

    def _ready(self, _result, _seconds: float) -> None:
        if self.waiting is not None and is_prepared(self.waiting[0]):
            _, change = self.waiting
            self.waiting = None
            change()

    def _failed(self, why: str) -> None:
        if self.waiting is not None:
            self.waiting = None
            self.window.show_error(f"Could not prepare the model ({why}); nothing was changed.")
