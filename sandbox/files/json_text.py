"""JSON as user files need it read: every number keeps the text it was written as (for
messages), a number too long for Python to convert is a number out of range instead
of an error, and a key written twice in one object is refused instead of the last one
silently winning."""

from __future__ import annotations

import json

INT_DIGITS = 18
"""Integers with more digits than this are read as floats (out of every range)."""


class GivenNumber(float):
    """A float that remembers the text it was read from (`given`)."""

    given: str

    def __new__(cls, text: str):
        number = super().__new__(cls, float(text))
        number.given = text
        return number


class DuplicateKey(ValueError):
    """A key appears twice in one JSON object."""


def _integer(text: str):
    return int(text) if len(text.lstrip("-")) <= INT_DIGITS else GivenNumber(text)


def _pairs(items: list) -> dict:
    seen: dict = {}
    for key, value in items:
        if key in seen:
            raise DuplicateKey(key)
        seen[key] = value
    return seen


def loads(text: str):
    """json.loads with the rules above. Raises json.JSONDecodeError, DuplicateKey or
    RecursionError."""
    return json.loads(
        text, parse_int=_integer, parse_float=GivenNumber, parse_constant=GivenNumber, object_pairs_hook=_pairs
    )
