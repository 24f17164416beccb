"""A car script's class-level declarations (`var`, `const`, with their types, export
hints and annotations) and the number literals they hold: only literals are ever
taken, nothing in a script is run."""

from __future__ import annotations

import re
from dataclasses import dataclass
from types import ModuleType

from ..errors import shown
from ..physics.params import Param, script_params
from .gdscript_reader import Statement, Token, leading_annotations, statements
from .godot import gdscript_literal, variable_name
from .json_text import GivenNumber

_NUMBER = re.compile(r"^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$", re.ASCII)  # Godot's digits: 0-9 only


STANDALONE_ANNOTATIONS = ("@export_group", "@export_subgroup", "@export_category", "@tool", "@icon", "@static_unload")
"""Annotations on a line of their own that belong to no variable."""
GDSCRIPT_RESERVED = frozenset(
    """
if elif else for while match when break continue pass return class class_name extends is in as self super
tool signal func static const enum var onready export setget breakpoint preload await yield assert void
and or not true false null PI TAU INF NAN remote master puppet remotesync mastersync puppetsync sync
abs absf absi acos acosh asin asinh atan atan2 atanh bezier_derivative bezier_interpolate bytes_to_var
bytes2var cartesian2polar ceil ceilf ceili char clamp clampf clampi convert cos cosh cubic_interpolate
db_to_linear db2linear decimals dectime deg_to_rad deg2rad dict2inst inst_to_dict ease error_string exp
floor floorf floori fmod fposmod funcref get_stack hash instance_from_id inverse_lerp is_equal_approx
is_finite is_inf is_instance_id_valid is_instance_of is_instance_valid is_nan is_same is_zero_approx len
lerp lerp_angle lerpf linear_to_db linear2db load log max maxf maxi min minf mini move_toward nearest_po2
ord parse_json polar2cartesian posmod pow print print_debug print_rich print_stack printerr printraw prints
printt push_error push_warning rad_to_deg rad2deg rand_range rand_seed randf randf_range randfn randi
randi_range randomize range range_lerp remap round roundf roundi seed sign signf signi sin sinh
smoothstep snapped snappedf snappedi sqrt step_decimals stepify str str_to_var str2var tan tanh to_json
type_exists typeof validate_json var_to_bytes var2bytes var_to_str var2str weakref wrap wrapf wrapi
""".split()
)
"""GDScript's keywords and built-in functions: a parameter of one of these names is
only ever declared under its exported name (GDSCRIPT_NAMES)."""


@dataclass(frozen=True)
class Declaration:
    """A class-level `var` or `const`: `value` is its value's text (None when it has
    none) at text[start:end]; `type` the declared type ('' untyped, ':=' inferred)."""

    name: str
    line: int
    type: str
    exported: bool
    value: str | None
    start: int = 0
    end: int = 0
    integer: bool = False  # declared an int: `: int`, Godot 3's export(int…)
    value_line: int = 0  # the line the value starts on


def declarations(text: str, parsed: tuple[Statement, ...] | None = None) -> list[Declaration]:
    """Every class-level `var` and `const` of a script (`parsed`: its statements, when
    already read), in order. Indented lines (function bodies, inner classes) are passed
    by; annotations on a line of their own belong to the declaration after them."""
    found: list[Declaration] = []
    carried: list[str] = []
    for statement in statements(text) if parsed is None else parsed:
        if not statement.top_level:
            continue
        words = statement.words
        first, annotations = leading_annotations(words)
        if first >= len(words):
            carried += [a for a in annotations if not a.startswith(STANDALONE_ANNOTATIONS)]
            continue
        annotations, carried = carried + annotations, []
        if words[first] in ("var", "const") and first + 1 < len(words) and statement.tokens[first + 1].kind == "name":
            found.append(_declaration(text, statement, first, annotations))
    return found


def _declaration(text: str, statement: Statement, first: int, annotations: list[str]) -> Declaration:
    words, tokens = statement.words, statement.tokens
    exported = any(
        a == "export" or (a.startswith("@export") and not a.startswith(STANDALONE_ANNOTATIONS)) for a in annotations
    )
    godot3_int = any(words[i : i + 3] == ["export", "(", "int"] for i in range(first))
    name, i, line = words[first + 1], first + 2, tokens[first].line
    kind = ""
    if i < len(words) and words[i] == ":":  # a type, up to '=' (or ':' opening a property's get/set)
        end = _depth_zero(words, i + 1, ("=", ":", "setget"))
        kind = "".join(words[i + 1 : end])
        i = end
    elif i < len(words) and words[i] == ":=":
        kind = ":="
    integer = kind == "int" or godot3_int
    if i >= len(words) or words[i] not in ("=", ":="):
        return Declaration(name, line, kind, exported, None, integer=integer)
    end = _depth_zero(words, i + 1, (":", "setget"))  # a property's get/set, Godot 3's setget
    value: list[Token] = tokens[i + 1 : end]
    if not value:
        return Declaration(name, line, kind, exported, "", integer=integer)
    start, stop = value[0].start, value[-1].end
    return Declaration(name, line, kind, exported, text[start:stop], start, stop, integer, value[0].line)


def _depth_zero(words: list[str], start: int, stops: tuple[str, ...]) -> int:
    """Index of the first of `stops` outside brackets from `start`, or len(words)."""
    depth = 0
    for i in range(start, len(words)):
        word = words[i]
        if word in "([{":
            depth += 1
        elif word in ")]}":
            depth -= 1
        elif depth <= 0 and word in stops:
            return i
    return len(words)


def parameter_names(model: ModuleType) -> dict[str, Param]:
    """The variable names a script may declare `model`'s parameters under: each one's
    exported name (variable_name), and its own name where that differs and GDScript
    does not reserve it."""
    names = {variable_name(p.name): p for p in script_params(model.PARAMS)}
    for p in script_params(model.PARAMS):
        if p.name not in names and p.name not in GDSCRIPT_RESERVED:
            names[p.name] = p
    return names


def literal(declaration: Declaration, p: Param) -> GivenNumber | bool | None:
    """The value a declaration of `p` gives: a plain number (a switch: true or false),
    or None when it is anything else."""
    text = declaration.value
    if text is None:
        return None
    if p.is_bool:
        return {"true": True, "false": False}.get(text)
    return _number(text)


def not_a_literal(declaration: Declaration, p: Param) -> str:
    """Why a declaration of `p` gives no value, for a message."""
    expected = "true or false" if p.is_bool else "number"
    if declaration.value and not p.is_bool and _foreign_digits(declaration.value):
        return (
            f"line {declaration.line}: {declaration.name} = {shown(declaration.value)} is written with digits "
            "Godot does not read as a number (only 0-9)"
        )
    if declaration.value is None:
        return (
            f"line {declaration.line}: {declaration.name} has no value (expected a plain {expected}: "
            f"var {declaration.name} = {gdscript_literal(p.default)})"
        )
    return (
        f"line {declaration.line}: {declaration.name} = {shown(declaration.value)} is not a plain {expected} "
        "(nothing in the file is run)"
    )


_DIGITS = frozenset("0123456789")


def _foreign_digits(text: str) -> bool:
    """Whether `text` has digits other than 0-9 (Arabic-Indic, fullwidth…): Python reads
    them as numbers, Godot does not."""
    return any(ch.isdigit() and not ch.isascii() for ch in text)


def _number(literal: str) -> GivenNumber | None:
    """A GDScript number literal (underscores between digits allowed: 1_000), or None."""
    if "_" in literal:
        if any(
            not (literal[i - 1 : i] in _DIGITS and literal[i + 1 : i + 2] in _DIGITS)
            for i, ch in enumerate(literal)
            if ch == "_"
        ):
            return None
        plain = literal.replace("_", "")
    else:
        plain = literal
    if not _NUMBER.match(plain):
        return None
    number = GivenNumber(plain)
    number.given = literal
    return number
