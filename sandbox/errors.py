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
