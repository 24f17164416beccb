"""The link node out: the GDScript node (Godot 3 or 4) that links the user's running
game to the sandbox (docs/link.md), with the car's parameters baked into it.

The node sets only the variables of its table (sandbox parameter -> the script's
variable, range, whether it is an on/off option); the table is made from the model's
declaration and, for the user's own script, from what the import parser reads in it.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Mapping

from ..physics.models import DEFAULT_MODEL, MODELS
from ..physics.params import effective_params, script_params
from ..physics.steer_feel import ASSIST_NAMES, FEEL_GROUP, NAMES
from .disk import write_text_atomic
from .gdscript_reader import code_names, statements
from .godot import (
    ACTION_KEYS,
    GODOT_VERSIONS,
    LINE_WIDTH,
    TEMPLATE_SWITCHES,
    TEMPLATES,
    GodotError,
    gdscript_float,
    gdscript_literal,
    sandbox_version,
    variable_name,
)
from .godot_import import parse_script, read_parameters

DEFAULT_PORT = 47620
"""The sandbox's UDP port the node talks to unless the user sets another (docs/link.md)."""
LINK_FILE = "sandbox_link.gd"
"""The node's file name where the user is not asked (a scene's link node, beside it)."""
_PLACEHOLDER = re.compile(r"\{\{([A-Z_]+)\}\}")
"""A template's placeholder, {{NAME}} (as in godot.py)."""
CONTROL_ACTIONS = ("steer_left", "steer_right", "accelerate", "brake", "handbrake", "shift_up", "shift_down")
"""The controls the node reads, by the input action of the exported scripts (ACTION_KEYS)."""


@dataclass
class LinkTable:
    """What a link node is made for: `rows` {sandbox parameter: (the script's variable,
    min, max, is an on/off option)}, the model's parameters the script lacks
    (`missing`), the model's state slots the node reports where the car has them, and
    `switches`: the model's on/off options the script's code fixes, with the value it
    computes as (those it reads from a variable are rows)."""

    model: ModuleType
    rows: dict[str, tuple[str, float, float, bool]]
    missing: list[str] = field(default_factory=list)
    state: tuple[str, ...] = ()
    source: str = ""
    switches: dict[str, bool] = field(default_factory=dict)


def _declared(model: ModuleType, values: Mapping[str, object]) -> list:
    """The parameters an exported script of `model` declares under the switches of
    `values`, with their ranges under them (as godot._declarations writes them)."""
    return [
        p
        for p in effective_params(script_params(model.PARAMS), values)
        if p.name not in TEMPLATE_SWITCHES and p.applies(values)
    ]


def _row(p, variable: str) -> tuple[str, float, float, bool]:
    return (variable, 0.0, 1.0, True) if p.is_bool else (variable, float(p.min), float(p.max), False)


def link_table(
    model: ModuleType | None,
    tuning: Mapping[str, object] | None = None,
    script_text: str | None = None,
    source: str = "<script>",
) -> LinkTable:
    """The table of a node for a script the sandbox exports of `model` (under the
    switches of `tuning`, default the model's defaults), or, with `script_text`, for
    that script as the import reads it (its SANDBOX_MODEL, else `model`, else the
    arcade, as import-godot reads the recipe's own car.gd): the
    parameters it declares under their variables, the rest `missing`."""
    if script_text is None:
        if model is None:
            raise GodotError("a link node is made for a model, or for a script")
        values = dict(tuning or {p.name: p.default for p in model.PARAMS})
        rows = {p.name: _row(p, variable_name(p.name)) for p in _declared(model, values)}
        # the switches that pick the template: its code is that formula
        baked = {name: bool(values[name]) for name in TEMPLATE_SWITCHES if name in values}
        return LinkTable(model, rows, [], model.STATE.declared_names, "the car script the sandbox exports", baked)
    result = parse_script(script_text, model, source, fallback=MODELS[DEFAULT_MODEL])
    parsed = statements(script_text)
    found, _, _ = read_parameters(script_text, result.model, parsed)
    read = code_names(parsed)
    switches = dict(result.formula.switches) if result.formula is not None else {}
    rows, missing = {}, []
    for p in _declared(result.model, result.values):
        if p.name in found and p.name in switches and found[p.name][0].name not in read:
            continue  # declared, never read: the code computes as `switches` says, whatever it holds
        if p.name in found:
            rows[p.name] = _row(p, found[p.name][0].name)
            switches.pop(p.name, None)  # the car's variable holds it: its value is in the hello's params
        elif p.group != FEEL_GROUP or any(name in found for name in NAMES + ASSIST_NAMES):
            missing.append(p.name)  # (a script without the steering feel steers as its defaults do)
    return LinkTable(result.model, rows, missing, result.model.STATE.declared_names, source, switches)


def script_label(path: str | os.PathLike) -> str:
    """How a link node's header names the user's script at `path`: its res:// path where a
    folder above it holds project.godot (the game's project), else its file name; never
    the absolute path, which would travel into version control with the node."""
    where = Path(os.path.abspath(path))
    for folder in where.parents:
        if (folder / "project.godot").is_file():
            return "res://" + where.relative_to(folder).as_posix()
    return where.name


def _string(text: str) -> str:
    """A GDScript string literal (JSON's escapes are GDScript's)."""
    return json.dumps(text, ensure_ascii=True)


def _tables(table: LinkTable, godot: int) -> str:
    """The constants the node's template leaves to the export: MODEL, PARAMS, MISSING,
    STATE, SWITCHES and ACTIONS, one entry a line (as gdformat writes a long literal)."""
    typed = {"dict": ": Dictionary", "array": ": Array"} if godot == 4 else {"dict": "", "array": ""}
    string = ": String" if godot == 4 else ""
    rows = [
        f"\t{_string(name)}: [{_string(var)}, {gdscript_float(low)}, {gdscript_float(high)}, "
        f"{gdscript_literal(option)}],"
        for name, (var, low, high, option) in table.rows.items()
    ]
    lines = [
        "# the model the node is made for (the hello's, where the car's script does not name one)",
        f"const MODEL{string} = {_string(table.model.NAME)}",
        "# the sandbox's parameter: [the car's variable, min, max, an on/off option]",
    ]
    lines += [f"const PARAMS{typed['dict']} = {{", *rows, "}"] if rows else [f"const PARAMS{typed['dict']} = {{}}"]
    lines += ["# the parameters the car's script does not declare", *_list("MISSING", table.missing, typed["array"])]
    lines += ["# the model's state, reported where the car has a variable of its name"]
    lines += _list("STATE", table.state, typed["array"])
    lines += ["# the model's on/off options the car's code fixes, as it computes (the hello's switches)"]
    lines += _literal(
        "SWITCHES", [f"{_string(k)}: {gdscript_literal(v)}" for k, v in table.switches.items()], typed["dict"], "{}"
    )
    lines += ["# the input actions the car reads, by the control they stand for"]
    lines += [f"const ACTIONS{typed['dict']} = {{"]
    lines += [f"\t{_string(control)}: {_string(control)}," for control in CONTROL_ACTIONS if control in ACTION_KEYS]
    lines += ["}"]
    return "\n".join(lines)


def _list(name: str, items, typed: str) -> list[str]:
    """`const NAME = [...]` of strings."""
    return _literal(name, [_string(item) for item in items], typed, "[]")


def _literal(name: str, entries: list[str], typed: str, brackets: str) -> list[str]:
    """`const NAME = [...]` (or `{...}`) of `entries` (their GDScript text) on one line
    where it fits, else one entry a line (as gdformat writes them)."""
    one = f"const {name}{typed} = {brackets[0]}{', '.join(entries)}{brackets[1]}"
    if len(one) <= LINE_WIDTH:
        return [one]
    return [f"const {name}{typed} = {brackets[0]}", *(f"\t{entry}," for entry in entries), brackets[1]]


def _header(table: LinkTable) -> str:
    lines = [
        f"# Made by car-sandbox {sandbox_version()} for {table.source}, a car of the {table.model.TITLE} model.",
        "# Set token to the token the sandbox prints when it listens.",
    ]
    # a file's name is shown, never made code: one comment line of printable characters
    shown = ("".join(ch if ch.isprintable() else "?" for ch in line) for line in lines)
    return "\n".join(line if len(line) <= LINE_WIDTH else line[: LINE_WIDTH - 1] + "…" for line in shown)


def export_link_node(
    model: ModuleType | None,
    godot: int,
    script_text: str | None = None,
    source: str = "<script>",
    tuning: Mapping[str, object] | None = None,
) -> str:
    """The link node's GDScript for Godot `godot` (3 or 4), made for the script the
    sandbox exports of `model` (its parameters under the switches of `tuning`), or with
    `script_text` for that script of the user's (`source`: its name, for messages)."""
    if godot not in GODOT_VERSIONS:
        raise GodotError(f"Godot version {godot!r} is not one of {GODOT_VERSIONS}")
    table = link_table(model, tuning, script_text, source)
    text = (TEMPLATES / f"godot{godot}" / "link.gd").read_text(encoding="utf-8")
    fills = {"HEADER": _header(table), "TABLES": _tables(table, godot)}
    # one pass: a script's name in the header is never read again for placeholders
    return _PLACEHOLDER.sub(lambda found: fills[found.group(1)], text)


def save_link_node(path: str | os.PathLike, text: str) -> None:
    write_text_atomic(path, text, GodotError)
