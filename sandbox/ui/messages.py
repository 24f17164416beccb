"""How a helper of the window speaks to the user without holding the window: a dialog
that names a problem, and a line in the status bar."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Messages:
    """`show_error(message, title)` opens a dialog naming the problem; `say(text, ms)`
    shows a line in the status bar for `ms` milliseconds."""

    show_error: Callable[..., None]
    say: Callable[[str, int], None]

    @classmethod
    def of(cls, window) -> Messages:
        """The messages of `window` (a MainWindow), looked up at each message."""
        return cls(
            lambda *message: window.show_error(*message), lambda text, ms: window.statusBar().showMessage(text, ms)
        )
