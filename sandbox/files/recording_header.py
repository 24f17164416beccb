"""A recording's comment lines: what the game said of its car's script, above the
columns' header (docs/link.md, "Recordings").

    # switches: analog_pedals=1 recipe_2020=0 rate_independent=0

Each on/off option the game's link node knows from the script's code, 1 on and 0 off.
Lines starting with `#` come only before the header; a trace loader skips them, so a
recording with them is taken wherever a trace is. A file without them (every recording
written before they existed) loads as before: nothing is known of the switches."""

from __future__ import annotations

from typing import Mapping

from ..errors import TraceError, shown
from ..physics.models import MODELS

COMMENT = "#"
SWITCHES_KEY = "switches"
SWITCH_NAMES = tuple(sorted({p.name for model in MODELS.values() for p in model.PARAMS if p.is_bool}))
"""Every model's on/off options: the names a recording's switches line may hold."""
VALUES = {"1": True, "0": False, "true": True, "false": False}
FORM = f"# {SWITCHES_KEY}: NAME=1|0 …"


def is_comment(line: str) -> bool:
    return line.lstrip().startswith(COMMENT)


def leading_comments(lines: list[str], source: str) -> tuple[dict[str, bool], int]:
    """(the switches the comment lines above the header state, the index of the header
    line in `lines`); TraceError names the line of a comment it cannot read."""
    switches: dict[str, bool] = {}
    k = 0
    while k < len(lines) and is_comment(lines[k]):
        switches.update(parse_comment(lines[k], source, k + 1, switches))
        k += 1
    return switches, k


def parse_comment(line: str, source: str, number: int, before: Mapping[str, bool] = {}) -> dict[str, bool]:
    """The switches of one comment line (line `number` of `source`); `before`: those of
    earlier lines (a name given twice is refused)."""
    text = line.strip()[len(COMMENT) :].strip()
    key, colon, rest = text.partition(":")
    where = f"{source} line {number}"
    if not colon or key.strip() != SWITCHES_KEY:
        raise TraceError(
            f"{where}: {shown(repr(line.strip()[:80]))} is no comment a recording holds: above its header a "
            f"recording has only `{FORM}` (the game's on/off options)"
        )
    found: dict[str, bool] = {}
    for item in rest.split():
        name, equals, value = item.partition("=")
        if not equals or value.strip().lower() not in VALUES:
            raise TraceError(f"{where}: {shown(repr(item[:80]))} is not NAME=1 or NAME=0 ({FORM})")
        if name not in SWITCH_NAMES:
            raise TraceError(
                f"{where}: {shown(repr(name[:80]))} is not an on/off option of any model "
                f"(known: {', '.join(SWITCH_NAMES)})"
            )
        if name in found or name in before:
            raise TraceError(f"{where}: switch {name} is given twice")
        found[name] = VALUES[value.strip().lower()]
    return found


def comment_lines(switches: Mapping[str, bool]) -> str:
    """The comment line stating `switches` (alphabetically), with its line end; "" for none."""
    if not switches:
        return ""
    return f"{COMMENT} {SWITCHES_KEY}: " + " ".join(f"{n}={int(bool(switches[n]))}" for n in sorted(switches)) + "\n"


def known_switches(given: object, model_name: str) -> tuple[dict[str, bool], int]:
    """(the on/off options of `given`, an object from the game, that `model_name`'s model
    declares with a true/false value; how many entries were left out as not such)."""
    if not isinstance(given, dict):
        return {}, 0 if given is None else 1
    model = MODELS.get(model_name) if isinstance(model_name, str) else None
    declared = {p.name for p in model.PARAMS if p.is_bool} if model is not None else set()
    kept = {name: value for name, value in given.items() if name in declared and isinstance(value, bool)}
    return kept, len(given) - len(kept)
