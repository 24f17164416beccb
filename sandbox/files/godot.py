"""Godot scripts in and out: export a tuning as the recipe's car.gd (Godot 3 or 4),
and read the `var name = value` lines of a car.gd back into a tuning.

Import never runs anything: it matches number literals line by line.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from ..errors import UserError
from .disk import read_text, write_text_atomic
from .presets import Preset

TEMPLATE = Path(__file__).resolve().parent / "godot_templates" / "car.gd"
DIALECTS = {
    4: {"BODY": "CharacterBody2D", "RATE_SETTING": "Physics Ticks Per Second", "VELOCITY": "",
        "TURN": 'Input.get_axis("steer_left", "steer_right")', "DEG_TO_RAD": "deg_to_rad", "LERP": "lerp",
        "MOVE": "\t\tmove_and_slide()",
        "MOVE_MEAN": "\t\tvar end_velocity = velocity\n\t\tvelocity = (start_velocity + end_velocity) / 2.0\n"
                     "\t\tmove_and_slide()\n\t\tif get_slide_collision_count() == 0:\n\t\t\tvelocity = end_velocity"},
    # Godot 3: KinematicBody2D has no velocity property; move_and_slide takes and
    # returns it; Input.get_axis does not exist yet (the same difference of strengths)
    3: {"BODY": "KinematicBody2D", "RATE_SETTING": "Physics Fps", "VELOCITY": "var velocity = Vector2.ZERO\n",
        "TURN": 'Input.get_action_strength("steer_right") - Input.get_action_strength("steer_left")',
        "DEG_TO_RAD": "deg2rad", "LERP": "linear_interpolate",
        "MOVE": "\t\tvelocity = move_and_slide(velocity)",
        "MOVE_MEAN": "\t\tvar slid = move_and_slide((start_velocity + velocity) / 2.0)\n"
                     "\t\tif get_slide_count() > 0:\n\t\t\tvelocity = slid"},
}
GODOT_VERSIONS = tuple(sorted(DIALECTS))
SCRIPT_LIMIT = 1024 * 1024
"""bytes: a car script is a few kilobytes; larger files are refused unread."""

# class-level declarations only: they start the line (locals inside functions are indented)
_VAR = re.compile(r"^(?:@export(?:_\w+)?(?:\([^)]*\))?\s+|export(?:\([^)]*\))?\s+)?var\s+(\w+)\s*(?::\s*\w*\s*)?=\s*(.*?)\s*(?:#.*)?$")
_NUMBER = re.compile(r"^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$")
_VAR_WORD = re.compile(r"^(?:@?export\S*\s+)?var\b")


class GodotError(UserError):
    """A Godot script that cannot be read or written."""


def gdscript_literal(value: float | bool) -> str:
    """A GDScript literal for a parameter value: true/false, 70, -0.06."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if float(value).is_integer():
        return str(int(value))
    text = repr(float(value))
    return text if "e" not in text else f"{value:.12f}".rstrip("0")


def export_script(preset: Preset, godot: int) -> str:
    """The recipe's car script for Godot 3 (KinematicBody2D) or 4 (CharacterBody2D)
    with `preset`'s values as its `var` lines."""
    if godot not in GODOT_VERSIONS:
        raise GodotError(f"Godot version {godot!r} is not one of {GODOT_VERSIONS}")
    if preset.model.NAME != "arcade":
        raise GodotError(f"only the arcade model has a Godot script; {preset.model.NAME!r} has none yet")
    lines = []
    for p in preset.model.PARAMS:
        lines.append(f"var {p.name} = {gdscript_literal(preset.tuning[p.name])}  # {p.unit}: {p.help}")
    rate_note = "" if not preset.tuning.get("rate_independent") else " (rate_independent is on: any rate drives alike)"
    fills = {**DIALECTS[godot], "GODOT": str(godot), "PARAMS": "\n".join(lines), "ORIGIN": f"preset {preset.name!r}",
             "HZ": str(preset.hz), "RATE_NOTE": rate_note}
    text = TEMPLATE.read_text(encoding="utf-8")
    for key, value in fills.items():
        text = text.replace("{{" + key + "}}", value)
    return text


def save_script(preset: Preset, path: str | os.PathLike, godot: int) -> None:
    write_text_atomic(path, export_script(preset, godot), GodotError)


@dataclass
class ImportResult:
    values: dict[str, float | bool]
    warnings: list[str] = field(default_factory=list)


def parse_script(text: str, model: ModuleType, source: str = "<script>") -> ImportResult:
    """Values of `model`'s parameters from `var name = <number>` lines.

    Lines that declare something else, or a parameter with a value that is not a
    plain literal inside its range, are listed in `warnings` and not used.
    """
    declared = {p.name: p for p in model.PARAMS}
    result = ImportResult({})
    for number, line in enumerate(text.splitlines(), start=1):
        if not _VAR_WORD.match(line):
            continue
        match = _VAR.match(line)
        if match is None:
            result.warnings.append(f"line {number}: unreadable declaration: {line.strip()[:80]}")
            continue
        name, literal = match.groups()
        if name not in declared:
            result.warnings.append(f"line {number}: {name} is not a tuning parameter of {model.NAME} (ignored)")
            continue
        p = declared[name]
        if p.is_bool and literal in ("true", "false"):
            value: object = literal == "true"
        elif not p.is_bool and _NUMBER.match(literal):
            value = float(literal)
        else:
            result.warnings.append(f"line {number}: {name} = {literal[:40]} is not a plain "
                                   f"{'true/false' if p.is_bool else 'number'} (not used; nothing is run)")
            continue
        try:
            result.values[name] = p.check(value)
        except ValueError as exc:
            result.warnings.append(f"line {number}: {name}: {exc} (not used)")
    if not result.values:
        raise GodotError(f"{source}: no parameter of the {model.NAME} model found "
                         f"(looked for lines like 'var {model.PARAMS[0].name} = {model.PARAMS[0].default:g}')")
    return result


def load_script(path: str | os.PathLike, model: ModuleType) -> ImportResult:
    return parse_script(read_text(path, SCRIPT_LIMIT, GodotError), model, str(path))
