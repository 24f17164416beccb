"""What a command prints passes through here: no escape sequence from a name can drive
the terminal; and SIGTERM or SIGHUP stop a command as Ctrl+C does."""

from __future__ import annotations

import re
import signal
import sys

from ..errors import printable


class TerminalSafe:
    """A stream that passes text on with printable() applied to each line: a preset's
    name or a file's name (escape sequences, bytes that are not UTF-8) can neither
    drive the terminal nor fail to print. Line breaks, tabs and carriage returns (the
    progress line) pass."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text: str) -> int:
        if not text.isprintable():
            text = re.sub(r"[^\n\r\t]+", lambda part: printable(part.group()), text)
        return self._stream.write(text)

    def __getattr__(self, name):
        return getattr(self._stream, name)


class Stopped(KeyboardInterrupt):
    """The command was told to stop (SIGTERM, SIGHUP): it unwinds like Ctrl+C, so its
    half-written output is removed on the way out."""


def stop_on(signum, _frame) -> None:
    raise Stopped(signum)


def say_stopped(signum: int = signal.SIGINT) -> int:
    """Say on stderr that the command stopped on `signum`; returns its exit code (128 + it)."""
    print(f"\ncar-sandbox: stopped ({signal.Signals(signum).name}); nothing half-written is left", file=sys.stderr)
    return 128 + int(signum)
