"""The command line's argument types: each reads one argument's text, or gives argparse
an error naming the argument, the value as given and the range it must be within."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..errors import shown

HZ_RANGE = (10, 1000)
ZOOMS = (0.01, 8.0)
"""The view's zoom range (the window's ZOOM_RANGE; the CLI does not load Qt to parse)."""


def number_in(text: str, kind: str, low: float, high: float, unit: str = "", whole: bool = False) -> float:
    """An argument's number, or argparse's error naming `kind`, the value as given and
    the range [low, high] (`whole`: a whole number)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{kind} {shown(repr(text))} is not a number") from None
    if not low <= value <= high or (whole and value != int(value)):
        plain = "a whole number " if whole else ""
        raise argparse.ArgumentTypeError(
            f"{kind} {shown(text.strip())}{unit} is not {plain}within {low:g} … {high:g}{unit}"
        )
    return value


def seed_number(text: str) -> int:
    return int(number_in(text, "seed", 0, 999_999, whole=True))


def tick_rate(text: str) -> int:
    return int(number_in(text, "tick rate", *HZ_RANGE, " Hz", whole=True))


def segment_ticks(text: str) -> int:
    return int(number_in(text, "segment", 1, 1_000_000, " ticks", whole=True))


def start_pose(text: str) -> tuple[float, float, float]:
    """`x,y,heading`: where a car starts (the track's unit; heading in degrees)."""
    parts = text.split(",")
    if len(parts) != 3:
        raise argparse.ArgumentTypeError(f"start {shown(repr(text))} is not x,y,heading (three numbers)")
    x, y = (number_in(part, name, -1e9, 1e9) for part, name in zip(parts[:2], ("start x", "start y")))
    return x, y, number_in(parts[2], "start heading", -3600.0, 3600.0, "°")


def heading_weight(text: str) -> float:
    return number_in(text, "heading weight", 1e-6, 1e6, " length units per radian")


def whole_minutes(text: str) -> float:
    return number_in(text, "duration", 1, 600, " minutes", whole=True)


def zoom(text: str) -> float:
    return number_in(text, "zoom", *ZOOMS)


def seconds(text: str) -> float:
    return number_in(text, "duration", 0, 600, " s")


def param_names(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:
        raise argparse.ArgumentTypeError("no parameter named (expected a comma-separated list)")
    return names


def px_per_metre(text: str) -> float:
    return number_in(text, "pixels per metre", 1, 1000, " px/m")


def output_path(text: str) -> Path:
    if not text.strip():
        raise argparse.ArgumentTypeError("no output file given (the name is empty)")
    return Path(text)
