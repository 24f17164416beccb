"""Errors that describe a user mistake (a bad file, a bad value).

The CLI prints them as one line and exits with code 2; the window shows them in a
dialog. Anything else is a bug and keeps its traceback.
"""


class UserError(Exception):
    """A problem with something the user gave us; the message names it."""


class PresetError(UserError):
    """A preset file that cannot be loaded or saved."""


class TraceError(UserError):
    """A control trace that cannot be read."""


SHOWN_CHARS = 80
"""A value quoted in a message is cut to about this many characters."""


def shown(value: object) -> str:
    """A value for a message, as the user gave it: the text it was read from when known
    (`given`), a float's shortest exact form (9.999999, never rounded to 10), cut to
    SHOWN_CHARS with its full length said."""
    text = getattr(value, "given", None)
    if text is None:
        text = repr(value) if isinstance(value, float) else str(value)
    if len(text) > SHOWN_CHARS:
        text = f"{text[:SHOWN_CHARS - 20]}… ({len(text):,d} characters)"
    return text
