"""Writing a tuning into the user's own car script: only the value literals of its
parameter declarations change; every other byte (types, export hints, comments, the
rest of the code, line ends, a byte-order mark, trailing spaces) stays as it was.

A script whose formula is not the tuning's (the other recipe, on/off pedals against
analog ones, an option the script has no switch for) is refused: its numbers would
mean something else there.
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from ..errors import printable
from ..physics.params import effective_params, script_params
from ..physics.steer_feel import FEEL_GROUP, feel_is_neutral
from .disk import backup_names, read_text, write_text_atomic, write_text_keeping_old
from .gdscript_reader import Statement, statements
from .godot import SCRIPT_LIMIT, GodotError, gdscript_float, gdscript_literal, off_step, precision_of
from .godot_import import Declaration, check_model_of_code, honoured, read_parameters, script_formula, script_model
from .presets import Preset

SWITCH_WORDS = {
    "recipe_2020": (
        "follows the 2020 recipe",
        "follows the Godot 4 recipe",
        "its numbers would mean something else there",
    ),
    "analog_pedals": (
        "reads the pedals as analog strengths",
        "reads the pedals on/off",
        "the same numbers would drive another car there",
    ),
}
"""What a script does with each of the arcade's formula switches on and off, and what
writing a tuning of the other setting would do, for a message."""
WAY_OUT = "set the switch in the tuning as the script has it, or export a new script"


@dataclass(frozen=True)
class Change:
    """One value written: parameter `name`, declared as `variable` with its value on `line`."""

    name: str
    variable: str
    line: int
    old: str
    new: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.variable} {self.old} → {self.new}"


@dataclass
class Update:
    """A script with a tuning written into it: the new `text`, the `diff` from the old
    one, the values `changed`, the parameters already holding the tuning's value
    (`kept`) and those the script does not declare (`missing`: listed, not added);
    `notes` on where the script computes otherwise than the sandbox in ways its numbers
    do not show (e.g. steering keys read pressed or not); once written, `backup`: where
    the old file was kept; `rounded`: the values off their step's grid (from a fit,
    say), each written to its step's precision, said as "name value as literal"."""

    text: str
    diff: str
    model: ModuleType
    changed: list[Change] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    backup: Path | None = None
    rounded: list[str] = field(default_factory=list)


def update_text(text: str, preset: Preset, source: str = "car.gd") -> Update:
    """`text` (a car script, byte-order mark and line ends as read) with `preset`'s
    values written over its parameters' literals; GodotError naming the reason, and
    nothing written, for a script of another model, one with no parameter, one whose
    formula is not the tuning's, or a value its declaration cannot hold."""
    model = preset.model
    named = script_model(text, source)
    if named is not None and named[1] is not model:
        raise GodotError(
            f"{source}: line {named[0]}: this is a script of the {named[1].TITLE} model, and the "
            f"tuning is of the {model.TITLE} model: nothing was written"
        )
    parsed = statements(text)
    check_model_of_code(model, named is not None, parsed, source, "nothing was written")
    found, errors, _ = read_parameters(text, model, parsed)
    if not found and not errors:
        raise GodotError(
            f"{source}: no parameter of the {model.TITLE} model in it (looked for lines like "
            f"'var {model.PARAMS[0].name} = {gdscript_literal(model.PARAMS[0].default)}'); "
            "nothing was written"
        )
    differences, notes = _formula_differences(text, preset, found, parsed)
    errors += differences
    update = Update(text, "", model, notes=notes)
    for p in effective_params(script_params(model.PARAMS), preset.tuning):  # the step each value is written to: its own
        if p.name not in found:
            # a switch it lacks is what its code computes (checked above); a script without
            # the steering feel steers as the feel's defaults do
            if not p.is_bool and not (p.group == FEEL_GROUP and feel_is_neutral(preset.tuning)):
                update.missing.append(p.name)
            continue
        declaration, old = found[p.name]
        value, precision = preset.tuning[p.name], precision_of(preset, p)
        written = value if p.is_bool else float(gdscript_literal(float(value), p.step, precision))
        if old is None or old == written:  # unreadable (refused above), or already the tuning's
            update.kept.append(p.name)
        elif _holds_an_int(declaration) and not float(written).is_integer():
            inferred = (
                " (`:=` with a whole number makes it one; write it as a float, e.g. "
                f"`:= {declaration.value}.0`, to take fractions)"
                if not declaration.integer
                else ""
            )
            errors.append(
                f"line {declaration.value_line}: {declaration.name} is an int{inferred}, and the "
                f"tuning's value {gdscript_literal(value, p.step, precision)} is not a whole number"
            )
        else:
            update.changed.append(
                Change(
                    p.name,
                    declaration.name,
                    declaration.value_line,
                    declaration.value,
                    literal_like(declaration, value, p.step, precision),
                )
            )
    if errors:
        raise GodotError(f"{source}: nothing was written:\n" + "\n".join(errors))
    spans = sorted((found[change.name][0].start, found[change.name][0].end, change.new) for change in update.changed)
    pieces, position = [], 0
    for start, end, new in spans:
        pieces += [text[position:start], new]
        position = end
    update.text = "".join(pieces) + text[position:]
    update.changed.sort(key=lambda change: change.line)
    update.rounded = [line for name, line in off_step(preset).items() if name in {c.name for c in update.changed}]
    update.diff = _diff(text, update.text, source)
    return update


def _holds_an_int(declaration: Declaration) -> bool:
    """Whether the variable is an int: declared so, or its type inferred (`:=`) from a
    whole-number literal."""
    plain = declaration.value is not None and not any(ch in declaration.value for ch in ".eE")
    return declaration.integer or (declaration.type == ":=" and plain)


def literal_like(declaration: Declaration, value: float | bool, step: float, precision: float | None = None) -> str:
    """`value` as a GDScript literal (to the precision of its parameter's `step`, or
    its own `precision` where a fit found one: `gdscript_literal`) in
    the style of the one it replaces: an int literal stays one where the value is
    whole, a float literal (70.0, 1e3) stays a float."""
    if isinstance(value, bool):
        return "true" if value else "false"
    old = declaration.value or ""
    float_style = any(ch in old for ch in ".eE") and not declaration.integer
    return (gdscript_float if float_style else gdscript_literal)(float(value), step, precision)


def _formula_differences(
    text: str, preset: Preset, found: dict, parsed: tuple[Statement, ...]
) -> tuple[list[str], list[str]]:
    """Why the tuning's numbers would mean something else in the script: a switch its
    code does not read (undeclared, or declared and never used) whose value differs
    from what the code computes (the arcade's recipe and pedals, read from the code;
    any other switch, its default). A switch the code reads is written like a value.
    Also the formula's notes (what differs that the numbers do not show)."""
    model = preset.model
    read = honoured(found, parsed)
    try:
        formula = script_formula(model, text, read, parsed)
    except GodotError as exc:
        return [str(exc)], []
    computes = {p.name: p.default for p in model.PARAMS if p.is_bool and p.applies(preset.tuning)}
    if formula is not None:
        computes.update({name: value for name, value in formula.switches.items() if name in computes})
    differences = []
    for name, value in computes.items():
        wanted = bool(preset.tuning[name])
        if name in read or wanted == bool(value):
            continue
        if name in SWITCH_WORDS:
            on, off, why = SWITCH_WORDS[name]
            differences.append(
                f"the script {on if value else off}, but the tuning has {name} "
                f"{'on' if wanted else 'off'}: {why} ({WAY_OUT})"
            )
        else:
            differences.append(
                f"the tuning has {name} {'on' if wanted else 'off'}, but the script has no such "
                f"switch (its code computes as with {name} {'on' if value else 'off'}; {WAY_OUT})"
            )
    return differences, list(formula.notes) if formula is not None else []


def _diff(old: str, new: str, source: str) -> str:
    """A unified diff of the two texts (line ends and a byte-order mark left out)."""

    def lines(text: str) -> list[str]:
        return [line.rstrip("\r") for line in text.lstrip("\ufeff").split("\n")]

    name = Path(source).name
    return "\n".join(difflib.unified_diff(lines(old), lines(new), f"a/{name}", f"b/{name}", lineterm=""))


def backup_path(path: str | os.PathLike) -> Path:
    """Where the old script is kept: my_car.gd.bak beside my_car.gd, or when that name
    is taken (an earlier backup, never replaced) the next of my_car.gd.bak2, .bak3, …"""
    return next(name for name in backup_names(Path(f"{path}.bak")) if not os.path.lexists(name))


def read_update(path: str | os.PathLike, preset: Preset) -> tuple[str, Update]:
    """(the script at `path` as it is, the update `preset` makes to it)."""
    text = read_text(path, SCRIPT_LIMIT, GodotError, keep_bom=True)
    return text, update_text(text, preset, printable(path))


def write_update(path: str | os.PathLike, old: str, update: Update, backup: bool = True) -> None:
    """Write `update` over the script at `path` (atomically), keeping the old file as a
    new backup (`backup_path`: an earlier one is never replaced, a link there never
    followed) unless `backup` is False; `update.backup` says where. Refused when the
    file is no longer `old` (the text the update was made from): what was shown is
    what is written."""
    if read_text(path, SCRIPT_LIMIT, GodotError, keep_bom=True) != old:
        raise GodotError(f"{path}: changed on disk since it was read; nothing was written (read it again)")
    if backup:
        update.backup = write_text_keeping_old(path, update.text, GodotError, f"{path}.bak")
    else:
        write_text_atomic(path, update.text, GodotError)


def write_into(path: str | os.PathLike, preset: Preset, backup: bool = True) -> Update:
    """Write `preset`'s values into the script at `path`, keeping the old file as a new
    backup (`backup_path`) unless `backup` is False; nothing is written when no value
    changes, or when the script is refused (GodotError)."""
    text, update = read_update(path, preset)
    if update.changed:
        write_update(path, text, update, backup)
    return update
