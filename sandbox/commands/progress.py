"""Progress of a long command on stderr: a rewritten percentage line, or a line every
few seconds saying it is still working; nothing when stderr is not a terminal."""

from __future__ import annotations

import sys
import threading
import time


class Progress:
    """Progress on stderr for work that has run over SHOW_AFTER_S: one line, rewritten
    at most twice a second; nothing at all for quick work (stdout stays clean), and
    nothing when stderr is not a terminal: a script reading the command's errors gets
    only those, never a progress line before them."""

    SHOW_AFTER_S = 2.0
    active = False  # a command is reporting its own progress (the Watchdog keeps quiet)

    @staticmethod
    def wanted() -> bool:
        """Whether anyone watches stderr: a terminal."""
        return sys.stderr.isatty()

    def __init__(self, what: str):
        self.what, self.start, self.last, self.shown = what, time.perf_counter(), 0.0, False
        Progress.active = True

    def __call__(self, share: float) -> None:
        now = time.perf_counter()
        if now - self.start > self.SHOW_AFTER_S and now - self.last >= 0.5 and self.wanted():
            self.last, self.shown = now, True
            print(f"\r{self.what}: {100 * share:3.0f} %", end="", file=sys.stderr, flush=True)

    def close(self, finished: bool = True) -> None:
        Progress.active = False
        if self.shown:
            how = f"done in {time.perf_counter() - self.start:.1f} s" if finished else "stopped"
            print(f"\r{self.what}: {how}", file=sys.stderr, flush=True)


class Watchdog:
    """For any command without its own progress: past Progress.SHOW_AFTER_S, a line on
    stderr every few seconds saying it is still working (the first run after an
    install compiles the physics: up to a minute). Runs on a thread; the compiled
    physics lets it run while they do."""

    EVERY_S = 5.0

    def __init__(self, command: str):
        self.command, self.start = command, time.perf_counter()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="watchdog", daemon=True)

    def __enter__(self) -> "Watchdog":
        self._thread.start()
        return self

    def _watch(self) -> None:
        wait = Progress.SHOW_AFTER_S
        while not self._stop.wait(wait):
            wait = self.EVERY_S
            if not Progress.active and Progress.wanted():
                print(
                    f"car-sandbox {self.command}: still working, {time.perf_counter() - self.start:.0f} s",
                    file=sys.stderr,
                    flush=True,
                )

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
