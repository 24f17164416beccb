"""Godot scripts in and out: export a tuning as the recipe's car.gd (Godot 3 or 4),
and read the `var name = value` lines of a car.gd back into a tuning.

Import never runs anything: it matches number literals line by line.
"""

from __future__ import annotations

import os
import re
import textwrap
from importlib import metadata
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from ..errors import UserError, shown
from .json_text import GivenNumber
from .disk import read_text, write_text_atomic
from .presets import Preset

TEMPLATE = Path(__file__).resolve().parent / "godot_templates" / "car.gd"
DIALECTS = {
    4: {"BODY": "CharacterBody2D", "RATE_SETTING": "Physics Ticks Per Second", "VELOCITY": "",
        "TURN": 'Input.get_axis("steer_left", "steer_right")', "DEG_TO_RAD": "deg_to_rad", "LERP": "lerp",
        "KEY_FIELD": "keycode",
        "MOVE": "\t\tmove_and_slide()",
        "MOVE_MEAN": "\t\tvar end_velocity = velocity\n\t\tvelocity = (start_velocity + end_velocity) / 2.0\n"
                     "\t\tmove_and_slide()\n\t\tif get_slide_collision_count() == 0:\n\t\t\tvelocity = end_velocity"},
    # Godot 3: KinematicBody2D has no velocity property; move_and_slide takes and
    # returns it; Input.get_axis does not exist yet (the same difference of strengths)
    3: {"BODY": "KinematicBody2D", "RATE_SETTING": "Physics Fps", "VELOCITY": "var velocity = Vector2.ZERO\n",
        "TURN": 'Input.get_action_strength("steer_right") - Input.get_action_strength("steer_left")',
        "DEG_TO_RAD": "deg2rad", "LERP": "linear_interpolate", "KEY_FIELD": "scancode",
        "MOVE": "\t\tvelocity = move_and_slide(velocity)",
        "MOVE_MEAN": "\t\tvar slid = move_and_slide((start_velocity + velocity) / 2.0)\n"
                     "\t\tif get_slide_count() > 0:\n\t\t\tvelocity = slid"},
}
GODOT_VERSIONS = tuple(sorted(DIALECTS))
ACTION_KEYS = {"accelerate": ("W", "UP"), "brake": ("S", "DOWN"), "steer_left": ("A", "LEFT"),
               "steer_right": ("D", "RIGHT")}
"""The recipe's input actions and the sandbox's keys for them (ui/input.py), added to a
project's Input Map by the exported script where an action is missing."""
LINE_WIDTH = 100
"""Columns of an exported script's lines at most (gdlint's default)."""
SCRIPT_LIMIT = 1024 * 1024
"""bytes: a car script is a few kilobytes; larger files are refused unread."""

# class-level declarations only: they start the line (locals inside functions are
# indented). Every pattern here runs in time linear in the line: no two quantifiers
# that can match the same characters follow each other.
_NUMBER = re.compile(r"^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$")
_VAR_WORD = re.compile(r"^(?:@?export\w*(?:\([^)\n]*\))?\s+)?var\b")
_ANNOTATION = re.compile(r"^@?export\w*")


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


def declaration(p, value: float | bool, godot: int) -> str:
    """One tuning parameter as an exported variable: its label, unit and help as
    comment lines (wrapped within gdlint's LINE_WIDTH), then the declaration with the
    slider's range as the export hint and the tuned value as the default (a float
    literal for a slider, so Godot types it as a float)."""
    unit = f" [{p.unit}]" if p.unit and not p.is_bool else ""
    comment = textwrap.wrap(f"{p.label}{unit}: {p.help}", width=LINE_WIDTH, initial_indent="# ",
                            subsequent_indent="# ")
    if p.is_bool:
        hint, literal = ("@export" if godot == 4 else "export(bool)"), gdscript_literal(bool(value))
    else:
        low, high, step = (gdscript_literal(float(v)) for v in (p.min, p.max, p.step))
        hint = f"@export_range({low}, {high}, {step})" if godot == 4 else f"export(float, {low}, {high}, {step})"
        literal = gdscript_literal(float(value))
        literal += ".0" if float(value).is_integer() else ""
    return "\n".join(comment + [f"{hint} var {p.name} = {literal}"])


def sandbox_version() -> str:
    """The installed car-sandbox's version, for an exported script's header."""
    try:
        return metadata.version("car-sandbox")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "(source)"


def has_script(model: ModuleType) -> bool:
    """Whether `model` exports as a Godot script (the arcade, the recipe's own car)."""
    return model.NAME == "arcade"


def export_script(preset: Preset, godot: int) -> str:
    """The recipe's car script for Godot 3 (KinematicBody2D) or 4 (CharacterBody2D)
    with `preset`'s values as its `var` lines."""
    if godot not in GODOT_VERSIONS:
        raise GodotError(f"Godot version {godot!r} is not one of {GODOT_VERSIONS}")
    if not has_script(preset.model):
        raise GodotError(f"only the arcade model has a Godot script; {preset.model.NAME!r} has none yet")
    lines = [declaration(p, preset.tuning[p.name], godot) for p in preset.model.PARAMS]
    rate_note = "" if not preset.tuning.get("rate_independent") else " (rate_independent is on: any rate drives alike)"
    actions = "".join(f'\t"{name}": [{", ".join(f"KEY_{key}" for key in keys)}],\n'
                      for name, keys in ACTION_KEYS.items())
    action_list = ", ".join(f"{name} ({' or '.join(key.title() for key in keys)})"
                            for name, keys in ACTION_KEYS.items())
    fills = {**DIALECTS[godot], "GODOT": str(godot), "PARAMS": "\n".join(lines), "ORIGIN": f"preset {preset.name!r}",
             "HZ": str(preset.hz), "RATE_NOTE": rate_note, "VERSION": sandbox_version(),
             "ACTIONS": "{\n" + actions + "}", "ACTION_LIST": action_list}
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


def _declaration(code: str) -> tuple[str, str] | None:
    """(name, value text) of `[@export…] var name [: Type] = value` (comment already cut
    off), or None when the line is not that shape."""
    annotation = _ANNOTATION.match(code)
    if annotation:
        code = code[annotation.end():]
        if code.startswith("("):  # its arguments, e.g. @export_range(0, 100)
            close = code.find(")")
            if close < 0:
                return None
            code = code[close + 1:]
        code = code.lstrip()
    if not (code.startswith("var") and code[3:4].isspace()):
        return None
    left, equals, value = code[3:].partition("=")
    name = left.partition(":")[0].strip()
    if not equals or not name.isidentifier():
        return None
    return name, value.strip()


def _number(literal: str) -> GivenNumber | None:
    """A GDScript number literal (underscores between digits allowed: 1_000), or None."""
    if "_" in literal:
        if any(not (literal[i - 1:i].isdigit() and literal[i + 1:i + 2].isdigit())
               for i, ch in enumerate(literal) if ch == "_"):
            return None
        plain = literal.replace("_", "")
    else:
        plain = literal
    if not _NUMBER.match(plain):
        return None
    number = GivenNumber(plain)
    number.given = literal
    return number


def parse_script(text: str, model: ModuleType, source: str = "<script>") -> ImportResult:
    """Values of `model`'s parameters from `var name = <number>` lines.

    Lines are split where Godot splits them (line feeds; a U+2028 inside a comment
    stays in that comment); a comment runs from '#' to the end of the line. Lines that
    declare something else, or a parameter with a value that is not a plain literal
    inside its range, are listed in `warnings` and not used.
    """
    declared = {p.name: p for p in model.PARAMS}
    result = ImportResult({})
    unusable: list[tuple[int, str]] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if not _VAR_WORD.match(line):
            continue
        code = line.partition("#")[0].strip()
        found = _declaration(code)
        if found is None:
            result.warnings.append(f"line {number}: unreadable declaration: {shown(line.strip())}")
            unusable.append((number, result.warnings[-1]))
            continue
        name, literal = found
        if name not in declared:
            result.warnings.append(f"line {number}: {name} is not a tuning parameter of {model.NAME} (ignored)")
            continue
        p = declared[name]
        value: object = None
        if p.is_bool and literal in ("true", "false"):
            value = literal == "true"
        elif not p.is_bool:
            value = _number(literal)
        if value is None:
            result.warnings.append(f"line {number}: {name} = {shown(literal)} is not a plain "
                                   f"{'true/false' if p.is_bool else 'number'} (not used; nothing is run)")
            unusable.append((number, result.warnings[-1]))
            continue
        try:
            result.values[name] = p.check(value)
        except ValueError as exc:
            result.warnings.append(f"line {number}: {name}: {exc} (not used)")
            unusable.append((number, result.warnings[-1]))
    if not result.values:
        if unusable:
            lines = ", ".join(str(number) for number, _ in unusable[:10]) + (" …" if len(unusable) > 10 else "")
            raise GodotError(f"{source}: no usable parameter value: line{'s' if len(unusable) > 1 else ''} "
                             f"{lines} could not be used ({unusable[0][1]}{'; …' if len(unusable) > 1 else ''})")
        raise GodotError(f"{source}: no parameter of the {model.NAME} model found "
                         f"(looked for lines like 'var {model.PARAMS[0].name} = {model.PARAMS[0].default:g}')")
    return result


def load_script(path: str | os.PathLike, model: ModuleType) -> ImportResult:
    return parse_script(read_text(path, SCRIPT_LIMIT, GodotError), model, str(path))
