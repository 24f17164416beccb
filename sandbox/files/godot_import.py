"""Reading a car script's tuning back: every class-level declaration of a model's
parameter, in any shape Godot 3 or 4 allows (typed or not, with export hints and
annotations, comments, CRLF…). Everything else in the file is passed by, and nothing
in it is ever run: only number literals (and true/false) are taken. The declarations
and their literals are read in gdscript_declarations.py.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from types import ModuleType

from ..errors import printable, shown
from ..physics.params import Param, dependents, effective_params, script_params
from ..physics.steer_feel import FEEL_GROUP, FEEL_SINCE
from .disk import read_text
from .gdscript_declarations import Declaration, declarations, literal, not_a_literal, parameter_names
from .gdscript_reader import Statement, code_names, statements
from .godot import SCALE_VARIABLE, SCRIPT_LIMIT, GodotError, gdscript_literal, variable_name
from .godot_engine_of import engine_values, script_godot

_MODEL_LINE = re.compile(r'^const\s+SANDBOX_MODEL\s*(?::\s*\w+\s*)?:?=\s*"(\w*)"')
_FORMAT_LINE = re.compile(r"^const\s+SANDBOX_FORMAT\s*(?::\s*\w+\s*)?:?=\s*(\w+)\s*(?:#.*)?$")
FORMAT_DIGITS = 6
"""A SANDBOX_FORMAT of more digits is no format of ours (and too long to read as one)."""


@dataclass
class ImportResult:
    """A script's tuning: `values` by parameter name; `model` the script's model (from its
    SANDBOX_MODEL line, else the one asked for); `warnings` on what was left as it was;
    `formula` which of its source's formulas the script follows, where a model has two;
    `godot` the Godot version (3 or 4) the file is written for, None when it does not tell."""

    values: dict[str, float | bool]
    model: ModuleType
    warnings: list[str] = field(default_factory=list)
    formula: object = None
    godot: int | None = None


def params_under(model: ModuleType, values: dict) -> dict[str, Param]:
    """Each of `model`'s parameters as it applies under the switch values in `values`
    (a formula's switch can change another parameter's range and unit)."""
    return {p.name: p for p in effective_params(model.PARAMS, values)}


def script_model(text: str, source: str = "<script>") -> tuple[int, ModuleType] | None:
    """(line number, model) of a script's `const SANDBOX_MODEL = "name"` line, or None
    for a script without one (the recipe's own car.gd, or an export of an early version)."""
    from ..physics.models import MODELS

    lines = [
        (number, found)
        for number, line in enumerate(text.split("\n"), start=1)
        if (found := _MODEL_LINE.match(line.lstrip("\ufeff")))
    ]
    if len(lines) > 1:
        raise GodotError(
            f"{source}: lines {lines[0][0]} and {lines[1][0]}: SANDBOX_MODEL is declared twice "
            "(which model is meant?); keep one"
        )
    for number, found in lines:
        if found.group(1) not in MODELS:
            raise GodotError(
                f"{source}: line {number}: SANDBOX_MODEL {shown(found.group(1))} is not a model of this "
                f"sandbox (known: {', '.join(sorted(MODELS))})"
            )
        return number, MODELS[found.group(1)]
    return None


def script_format(text: str) -> int | None:
    """The SANDBOX_FORMAT an exported script declares, or None; GodotError naming the
    line when it is not a whole number of at most FORMAT_DIGITS digits 0-9."""
    for number, line in enumerate(text.split("\n"), start=1):
        found = _FORMAT_LINE.match(line.lstrip("\ufeff").rstrip("\r"))
        if found:
            value = found.group(1)
            if not (value.isascii() and value.isdigit() and len(value) <= FORMAT_DIGITS):
                raise GodotError(
                    f"line {number}: SANDBOX_FORMAT {shown(value)} is not a format number of this "
                    "sandbox's scripts (a whole number written with 0-9)"
                )
            return int(value)
    return None


def resolve_model(
    text: str, model: ModuleType | None, source: str, fallback: ModuleType | None = None
) -> tuple[ModuleType, bool]:
    """(the model a script is read for, whether the script names it): its SANDBOX_MODEL,
    which must be `model` when that is given, else `model`, else `fallback`."""
    named = script_model(text, source)
    if named is not None:
        line, own = named
        if model is not None and own is not model:
            raise GodotError(
                f"{source}: line {line}: this is a script of the {own.TITLE} model; it cannot be "
                f"read into a tuning of the {model.TITLE} model"
            )
        return own, True
    model = model or fallback
    if model is None:
        raise GodotError(
            f"{source}: no SANDBOX_MODEL line says which model the script is for: read it into "
            "a preset of the model you choose (import-godot --preset, or File → Import in the window)"
        )
    return model, False


def read_parameters(
    text: str, model: ModuleType, parsed: tuple[Statement, ...]
) -> tuple[dict[str, tuple[Declaration, object]], list[str], list[str]]:
    """({parameter name: (its declaration, its literal value)}, errors, warnings) of a
    script (`parsed`: its statements): a parameter declared twice, or as anything but
    a literal, is an error naming its line."""
    accepted = parameter_names(model)
    found: dict[str, tuple[Declaration, object]] = {}
    errors: list[str] = []
    warnings: list[str] = []
    for declaration in declarations(text, parsed):
        p = accepted.get(declaration.name)
        if p is None:
            if declaration.exported and declaration.name != SCALE_VARIABLE:
                warnings.append(
                    f"line {declaration.line}: {declaration.name} is not a tuning parameter of {model.NAME} (ignored)"
                )
            continue
        if p.name in found:
            first = found[p.name][0]
            also = "" if first.name == declaration.name else f", as {first.name}"
            errors.append(
                f"line {declaration.line}: {declaration.name} is declared a second time "
                f"(first on line {first.line}{also})"
            )
            continue
        value = literal(declaration, p)
        found[p.name] = (declaration, value)
        if value is None:
            errors.append(not_a_literal(declaration, p))
    return found, errors, warnings


def check_model_of_code(
    model: ModuleType, named: bool, parsed: tuple[Statement, ...], source: str, outcome: str
) -> None:
    """GodotError (ending with `outcome`) when a script that names no model computes
    as the recipe's car and `model` is another: its numbers are the arcade's."""
    from .godot_formula import has_recipe_code

    if not named and model.NAME != "arcade" and has_recipe_code(parsed):
        raise GodotError(
            f"{source}: this script computes as the Godot recipe's car (the Arcade model): its numbers "
            f"mean something else in the {model.TITLE} model; {outcome}"
        )


def honoured(found: dict, parsed: tuple[Statement, ...]) -> dict[str, object]:
    """The values of the parameters `found` (name -> (declaration, value)) whose variable
    the script's code reads: a switch declared but never read says nothing of what the
    code computes."""
    read = code_names(parsed)
    return {
        name: value for name, (declaration, value) in found.items() if value is not None and declaration.name in read
    }


def script_formula(model: ModuleType, text: str, declared: dict[str, object], parsed: tuple[Statement, ...]):
    """The formula the script follows (`declared`: its parameters' values; `parsed`:
    its statements), for a model whose source has more than one (the arcade's two
    recipes), else None; GodotError when it cannot be told."""
    from .godot_formula import FORMULA_SWITCHES, recognise

    if model.NAME != "arcade":
        return None
    switches = {name: value for name, value in declared.items() if name in FORMULA_SWITCHES}
    return recognise(text, switches, parsed)


def parse_script(
    text: str, model: ModuleType | None, source: str = "<script>", fallback: ModuleType | None = None
) -> ImportResult:
    """Values of a car script's parameters, from their class-level declarations.

    A script exported by the sandbox names its model (SANDBOX_MODEL); `model`, when
    given, must be that one. Every parameter of the script's format must be declared
    once, as a plain literal within its slider's range; one that is not (an expression,
    a value out of range, a second declaration, a missing parameter) is an error naming
    its line, and nothing is read. A parameter newer than the script's format takes its
    declared default. A script without the SANDBOX_MODEL line (the recipe's own car.gd)
    is read for `model` (else `fallback`), and the parameters it lacks are listed in
    `warnings`.

    For the arcade, the script's code says which recipe's formula its numbers are for
    (godot_formula.recognise): the formula's switches are set from it, and the ranges
    checked are those under that formula. Nothing in the file is run.
    """
    model, named = resolve_model(text, model, source, fallback)
    parsed = statements(text)
    check_model_of_code(model, named, parsed, source, "nothing was imported")
    found, errors, warnings = read_parameters(text, model, parsed)
    result = ImportResult({}, model, warnings)
    if not found and not errors:
        raise GodotError(
            f"{source}: no parameter of the {model.NAME} model found "
            f"(looked for lines like 'var {model.PARAMS[0].name} = {model.PARAMS[0].default:g}')"
        )
    raw = {name: value for name, (_, value) in found.items() if value is not None}
    read = honoured(found, parsed)
    try:
        formula = script_formula(model, text, read, parsed)
    except GodotError as exc:
        formula = None
        errors.append(str(exc))
    told = set()  # switches the code stands for and never reads: the code is their formula
    if formula is not None:
        result.formula = formula
        result.warnings += formula.notes
        for name, value in formula.switches.items():
            if name in raw and name not in read and bool(raw[name]) != bool(value):
                result.warnings.append(
                    f"{variable_name(name)} is declared {gdscript_literal(bool(raw[name]))} but "
                    f"the code never reads it: it computes as with {name} "
                    f"{'on' if value else 'off'}, and that is what is imported"
                )
                raw[name] = value
        given = {
            name: value
            for name, value in formula.switches.items()
            if name in {p.name for p in model.PARAMS} and name not in raw
        }
        in_code = code_names(parsed)
        told = {name for name in given if variable_name(name) not in in_code}
        raw.update(given)
    params = params_under(model, raw)
    for name, value in raw.items():
        try:
            result.values[name] = params[name].check(value)
        except ValueError as exc:
            declaration = found[name][0] if name in found else None
            where = f"line {declaration.line}: {declaration.name}" if declaration else name
            errors.append(f"{where}: {exc}")
    try:
        version = script_format(text)
    except GodotError as exc:
        raise GodotError(f"{source}: nothing was imported: {exc}") from None
    declared = script_params(model.PARAMS)
    missing = [
        p for p in declared if p.name not in found and p.name not in told and (version is None or p.since <= version)
    ]
    if named and missing:
        errors.append(
            "missing: "
            + ", ".join(f"var {variable_name(p.name)}" for p in missing)
            + f" (a {model.NAME} script declares every parameter)"
        )
    if errors:
        shown_errors = errors[:10] + ([f"… and {len(errors) - 10} more"] if len(errors) > 10 else [])
        raise GodotError(f"{source}: nothing was imported:\n" + "\n".join(shown_errors))
    feel = [p for p in declared if p.group == FEEL_GROUP]
    # a script without the steering feel steers as the input says (the feel's defaults):
    # nothing of it to read, and nothing to say of it but, for the sandbox's own scripts
    # from before it, once that its defaults are used
    no_feel = bool(feel) and not any(p.name in result.values for p in feel)
    if no_feel and version is not None and FEEL_SINCE > version:
        result.values.update({p.name: p.default for p in feel})
        result.warnings.append("the script is older than the steering feel: its defaults are used (none)")
    for p in declared:
        if p.name not in result.values and version is not None and p.since > version:
            older = p.older_value() if p.legacy is not None else params[p.name].default
            result.values[p.name] = params[p.name].check(older)
            result.warnings.append(
                f"{variable_name(p.name)} is newer than the script: "
                f"{gdscript_literal(older)} is used, as before it existed"
            )
    result.godot = script_godot(parsed)
    engine, notes = engine_values(model, result.godot, "script")
    result.values.update(engine)
    result.warnings += notes
    left = [p.name for p in declared if p.name not in result.values and not (no_feel and p.group == FEEL_GROUP)]
    switched = {d.name: switch for switch in result.values for d in dependents(model.PARAMS, switch) if d.name in left}
    plain = [name for name in left if name not in switched]
    if not named and plain:
        result.warnings.append("not in the script (left as they are): " + ", ".join(plain))
    for switch in dict.fromkeys(switched.values()):
        names = [name for name, by in switched.items() if by == switch]
        label = next(p.label for p in model.PARAMS if p.name == switch)
        result.warnings.append(
            f"not in the script: {', '.join(names)}; they take their defaults under "
            f"{label} {'on' if result.values[switch] else 'off'} where that switch changes, "
            "else they are left as they are"
        )
    return result


def load_script(path: str | os.PathLike, model: ModuleType | None, fallback: ModuleType | None = None) -> ImportResult:
    return parse_script(read_text(path, SCRIPT_LIMIT, GodotError), model, printable(path), fallback)
