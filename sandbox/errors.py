"""Errors that describe a user mistake (a bad file, a bad value).

The CLI prints them as one line and exits with code 2; the window shows them in a
dialog. Anything else is a bug and keeps its traceback.
"""

import os
import re
import unicodedata


class UserError(Exception):
    """A problem with something the user gave us; the message names it."""


class PresetError(UserError):
    """A preset file that cannot be loaded or saved."""


class TraceError(UserError):
    """A control trace that cannot be read."""


def printable(value: object) -> str:
    """A path or name as safe text for a message or a terminal: a byte of a file name
    that is not UTF-8 shows as \\xNN, and a control character (an escape sequence, a
    line break, a right-to-left override) as \\xNN or \\uNNNN, so no name can colour,
    move or rewrite what the terminal shows, or fail to print. Plain text is unchanged,
    and printing it again changes nothing."""
    text = os.fspath(value) if isinstance(value, os.PathLike) else str(value)
    if text.isprintable():
        return text
    return "".join(
        ch if ch.isprintable() or unicodedata.category(ch) == "Zs" else _escaped(ord(ch)) for ch in text
    )  # spaces of any width are kept: they print as spaces


def _escaped(code: int) -> str:
    if 0xDC80 <= code <= 0xDCFF:  # how Python holds a file name's byte that is not UTF-8
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def printable_lines(text: str) -> str:
    """`printable` for each line of a message of several lines (its line breaks kept)."""
    return "\n".join(printable(line) for line in str(text).split("\n"))


SHOWN_CHARS = 80
"""A value quoted in a message is cut to about this many characters."""


def shown(value: object) -> str:
    """A value for a message, as the user gave it: the text it was read from when known
    (`given`), a float's shortest exact form (9.999999, never rounded to 10), cut to
    SHOWN_CHARS with its full length said."""
    text = getattr(value, "given", None)
    if text is None:
        text = repr(value) if isinstance(value, float) else str(value)
    text = re.sub(r"[\r\n\t]+", " ", text)  # a value over several lines is quoted on one
    if len(text) > SHOWN_CHARS:
        text = f"{text[: SHOWN_CHARS - 20]}… ({len(text):,d} characters)"
    return printable(text)
