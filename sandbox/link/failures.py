"""A bug met on the link's thread: it must not end the link, and it must not vanish into
a count either. Each is counted under "not handled" and each kind (where it happened,
the exception's type and the line that raised it) is logged once with its traceback
(the logger `sandbox.link`; without logging set up, Python prints it on stderr)."""

from __future__ import annotations

import logging
import sys
import threading
import traceback
from collections import Counter

log = logging.getLogger("sandbox.link")

NOT_HANDLED = "not handled"
"""The reason a datagram dropped by a bug is counted under."""


class Failures:
    """The link's count of bugs met, by kind; call `met` inside an `except` block."""

    def __init__(self):
        self._logged: set[tuple] = set()
        self._lock = threading.Lock()

    def met(self, where: str, counts: Counter) -> None:
        """Count the exception being handled in `counts` under NOT_HANDLED; log it with its
        traceback the first time its kind is met. `where`: what the link was doing."""
        exc = sys.exc_info()[1]
        frames = traceback.extract_tb(exc.__traceback__) if exc is not None else []
        line = (frames[-1].filename, frames[-1].lineno) if frames else None
        kind = (where, type(exc).__name__, line)
        counts[NOT_HANDLED] += 1
        with self._lock:
            first = kind not in self._logged
            self._logged.add(kind)
        if first:
            log.error(
                "the link to the game met an unexpected error %s (dropped and counted as %r; "
                "more of this kind are counted, not shown)", where, NOT_HANDLED, exc_info=True,
            )  # fmt: skip
