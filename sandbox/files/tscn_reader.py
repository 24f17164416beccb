"""Godot's text scenes and resources (.tscn, .tres) read as sections of values, never run.

A file is a header (`[gd_scene …]` or `[gd_resource …]`) then sections: `[ext_resource …]`,
`[sub_resource …]`, `[node …]`, `[resource]`, `[connection …]`, `[editable …]`; a section's
properties follow it a line each (`key = value`; a value may run over several lines).
Godot 3 (`format=2`) and Godot 4 (`format=3`) write the same grammar with other spellings
(`Vector2( 1, 2 )` / `Vector2(1, 2)`, `PoolVector2Array` / `PackedVector2Array`,
`ExtResource( 1 )` / `ExtResource("1_abc")`).

Values: numbers (int or float; `inf`, `inf_neg`, `nan`), `true`/`false`, `null`, strings,
`&"StringName"` and `^"NodePath"` (as str), arrays (list), dictionaries (dict), and
constructors as `Call(name, args)`: `Vector2(1, 2)` is `Call("Vector2", (1, 2))`, a numeric
packed array holds its numbers flat (`Call("PackedVector2Array", (x0, y0, x1, y1, …))`), an
inline object (project.godot's input events) is `Call("Object", (class name, {property: value}))`.
GDScript's reader (gdscript_reader.py) reads a language, not this: strings here run over
lines, `;` starts a comment and keys hold `/` and `:` (`0:1/0/physics_layer_0/polygon_0`).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import NamedTuple

from ..errors import UserError, printable, shown


class SceneError(UserError):
    """A Godot scene or resource file that cannot be read."""


class _Unclosed(SceneError):
    """The file ends inside a value (said at the line the value starts on, when known)."""


class Call(NamedTuple):
    """A constructor in a value: `Vector2( 1, 2 )` is Call("Vector2", (1, 2))."""

    name: str
    args: tuple


SECTIONS = frozenset(
    {"gd_scene", "gd_resource", "ext_resource", "sub_resource", "node", "resource", "connection", "editable"}
)
"""Every section Godot 3 and 4 write in a text scene or resource."""


@dataclass
class Section:
    """One `[kind attr=value …]` section and the `key = value` properties under it (in
    the file's order; Godot sets them in that order)."""

    kind: str
    attrs: dict
    props: dict = field(default_factory=dict)
    line: int = 0


@dataclass
class SceneFile:
    """A parsed .tscn or .tres: its header, resources by id, nodes in file order, and the
    `[resource]` section of a .tres."""

    source: str
    header: Section
    ext: dict = field(default_factory=dict)
    sub: dict = field(default_factory=dict)
    nodes: list = field(default_factory=list)
    resource: Section | None = None

    @property
    def format(self) -> int:
        """2 for Godot 3, 3 for Godot 4 (Godot's own number, as the header says)."""
        return self.header.attrs.get("format", 2)


_SPACE = re.compile(r"(?:[ \t\r\n]+|;[^\n]*)*")
_TOKEN = re.compile(
    r"""(?:[ \t\r\n]+|;[^\n]*)*(?:
  (?P<num>[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)
| (?P<str>"(?:[^"\\]|\\.)*")
| (?P<name>[A-Za-z_][A-Za-z0-9_]*)
| (?P<op>[\[\](){},:=&^@-])
)""",
    re.VERBOSE | re.DOTALL,
)
_KEY = re.compile(r"([^=\[\n;][^=\n]*?)[ \t]*=")
_NUMBERS = re.compile(r"[^()\"]*\)")
_NUMBER = re.compile(r"-?inf(?:_neg)?|nan|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "b": "\b", "f": "\f", "a": "\a", "v": "\v"}
_WORDS = {
    "true": True,
    "false": False,
    "null": None,
    "nil": None,
    "inf": math.inf,
    "inf_neg": -math.inf,
    "nan": math.nan,
}
NUMERIC_ARRAYS = frozenset(
    """PoolVector2Array PackedVector2Array PoolRealArray PackedFloat32Array PackedFloat64Array PoolIntArray
    PackedInt32Array PackedInt64Array PackedByteArray PoolByteArray PoolColorArray PackedColorArray
    PoolVector3Array PackedVector3Array""".split()
)
"""Packed arrays of numbers only: read in one pass (a level's polygons are long)."""
DEPTH = 64
"""Arrays and dictionaries nested deeper than this are refused (no file of Godot's is)."""


class _Reader:
    def __init__(self, text: str, source: str):
        self.text, self.source = text, source

    def fail(self, pos: int, problem: str) -> SceneError:
        line = self.text.count("\n", 0, pos) + 1
        return SceneError(f"{self.source} line {line}: {problem}")

    def token(self, pos: int) -> tuple[str, str, int]:
        """(kind, text, end) of the token at `pos`, spaces and comments skipped."""
        m = _TOKEN.match(self.text, pos)
        if m is None:
            end = _SPACE.match(self.text, pos).end()
            if end >= len(self.text):
                raise _Unclosed(self.fail(end, "the file ends inside a value"))
            raise self.fail(end, f"unexpected {shown(self.text[end : end + 20])!r}")
        return m.lastgroup, m.group(m.lastgroup), m.end()

    def value(self, pos: int, depth: int = 0):
        """(value, end) of the value at `pos`."""
        if depth > DEPTH:
            raise self.fail(pos, f"values nested over {DEPTH} deep")
        kind, text, end = self.token(pos)
        if kind == "num":
            return (float(text) if any(c in text for c in ".eE") else int(text)), end
        if kind == "str":
            return _unquoted(text), end
        if kind == "name":
            return self.named(text, end, depth)
        if text in "&^@":  # StringName, NodePath (Godot 4)
            kind, inner, end = self.token(end)
            if kind != "str":
                raise self.fail(end, f"a string expected after {text}")
            return _unquoted(inner), end
        if text == "-":
            kind, word, end = self.token(end)
            if word not in ("inf", "nan"):
                raise self.fail(end, "a number expected after -")
            return -_WORDS[word], end
        if text == "[":
            return self.items(end, "]", depth)
        if text == "{":
            return self.mapping(end, depth)
        raise self.fail(end - 1, f"unexpected {text!r}")

    def named(self, name: str, end: int, depth: int):
        if name in _WORDS:
            return _WORDS[name], end
        m = _TOKEN.match(self.text, end)
        text, after = (m.group(m.lastgroup), m.end()) if m else ("", end)
        if text == "[":  # a typed array or dictionary (Godot 4): Array[int]([1, 2])
            after = self.skip_types(after)
            kind, text, after = self.token(after)
        if text != "(":
            raise self.fail(end, f"{shown(name)} is not a value Godot writes")
        if name == "Object":  # an object inline (project.godot's input events): Object(Class, "key":value, …)
            return self.inline_object(after, depth)
        if name in NUMERIC_ARRAYS:
            m = _NUMBERS.match(self.text, after)
            if m is not None:
                numbers = _NUMBER.findall(self.text, after, m.end() - 1)
                if len(numbers) == self.text.count(",", after, m.end() - 1) + (1 if numbers else 0):
                    return Call(name, tuple(_number(n) for n in numbers)), m.end()
        args, after = self.items(after, ")", depth)
        if name in ("Array", "Dictionary") and len(args) == 1:
            return args[0], after
        return Call(name, tuple(args)), after

    def inline_object(self, pos: int, depth: int) -> tuple[Call, int]:
        """Call("Object", (class name, {property: value})) of the `Object(` whose
        arguments start at `pos`, and where it ends."""
        kind, cls, pos = self.token(pos)
        if kind != "name":
            raise self.fail(pos, "a class name expected after Object(")
        props: dict = {}
        while True:
            kind, text, pos = self.token(pos)
            if text == ")":
                return Call("Object", (cls, props)), pos
            if text != ",":
                raise self.fail(pos - 1, f"',' or ')' expected in Object({cls}, …), not {shown(text)!r}")
            kind, key, pos = self.token(pos)
            _, colon, pos = self.token(pos)
            if kind != "str" or colon != ":":
                raise self.fail(pos - 1, f'"property": value expected in Object({cls}, …)')
            props[_unquoted(key)], pos = self.value(pos, depth + 1)

    def skip_types(self, pos: int) -> int:
        """Past the `]` closing a typed container's element types (names, an ExtResource)."""
        depth = 1
        while depth:
            _, text, pos = self.token(pos)
            depth += (text in "[(") - (text in "])")
        return pos

    def items(self, pos: int, close: str, depth: int) -> tuple[list, int]:
        result = []
        while True:
            kind, text, end = self.token(pos)
            if kind == "op" and text == close:
                return result, end
            item, pos = self.value(pos, depth + 1)
            result.append(item)
            kind, text, pos = self.token(pos)
            if text == close:
                return result, pos
            if text != ",":
                raise self.fail(pos - 1, f"',' or '{close}' expected, not {shown(text)!r}")

    def mapping(self, pos: int, depth: int) -> tuple[dict, int]:
        result = {}
        while True:
            kind, text, end = self.token(pos)
            if text == "}":
                return result, end
            key, pos = self.value(pos, depth + 1)
            kind, text, pos = self.token(pos)
            if text not in (":", "="):
                raise self.fail(pos - 1, f"':' expected after a dictionary key, not {shown(text)!r}")
            item, pos = self.value(pos, depth + 1)
            result[key if isinstance(key, (str, int, float, bool)) else repr(key)] = item
            kind, text, pos = self.token(pos)
            if text == "}":
                return result, pos
            if text != ",":
                raise self.fail(pos - 1, f"',' or '}}' expected, not {shown(text)!r}")

    def section(self, pos: int, line: int) -> tuple[Section, int]:
        """The section whose '[' is at `pos` (on `line`), and where its header ends."""
        kind, name, end = self.token(pos + 1)
        if kind != "name":
            raise self.fail(pos, "a section's name expected after '['")
        if name not in SECTIONS:
            raise self.fail(pos, f"unknown section [{shown(name)}] (a Godot scene has {', '.join(sorted(SECTIONS))})")
        attrs = {}
        while True:
            kind, text, end = self.token(end)
            if text == "]":
                return Section(name, attrs, line=line), end
            if kind != "name":
                raise self.fail(end - 1, f"[{name}]: an attribute name or ']' expected, not {shown(text)!r}")
            kind, eq, after = self.token(end)
            if eq != "=":
                raise self.fail(end, f"[{name}]: '=' expected after {text}")
            attrs[text], end = self.value(after)

    def sections(self) -> list[Section]:
        """Every section with its properties, line by line: a line of a common form is read
        on its own (_SIMPLE_HEADER, _simple), any other through the full reader."""
        text, result = self.text, []
        lines = text.split("\n")
        pos, i, count = 0, 0, len(lines)  # pos: where line i starts
        while i < count:
            raw = lines[i]
            line = raw.strip()
            if not line or line[0] == ";":
                pos, i = pos + len(raw) + 1, i + 1
                continue
            if line[0] == "[":
                simple = _SIMPLE_HEADER.fullmatch(line)
                if simple and simple.group(1) in SECTIONS:
                    attrs = {}
                    for a in _SIMPLE_ATTR.finditer(simple.group(2) + "]"):
                        value = a.group(2)
                        attrs[a.group(1)] = value[1:-1] if value[0] == '"' else _simple(value)
                    if _NOT_SIMPLE not in attrs.values():
                        result.append(Section(simple.group(1), attrs, line=i + 1))
                        pos, i = pos + len(raw) + 1, i + 1
                        continue
                section, end = self.section(pos + raw.index("["), i + 1)
                result.append(section)
            else:
                key, equals, value = line.partition(" = ")
                if equals and result and "=" not in key and key[0] != '"':
                    value = _simple(value)
                    if value is not _NOT_SIMPLE:
                        result[-1].props[key] = value
                        pos, i = pos + len(raw) + 1, i + 1
                        continue
                end = self.property(result, pos + len(raw) - len(raw.lstrip()))
            after = text.find("\n", end)
            rest = text[end : len(text) if after < 0 else after].strip()
            if rest and rest[0] != ";":
                raise self.fail(end, f"unexpected {shown(rest[:20])!r} after a value")
            while i < count and pos + len(lines[i]) < end:  # on to the line after the value's end
                pos, i = pos + len(lines[i]) + 1, i + 1
            pos, i = pos + len(lines[i]) + 1 if i < count else pos, i + 1
        return result

    def property(self, result: list[Section], pos: int) -> int:
        """Reads the `key = value` at `pos` into the last section; returns where it ends."""
        m = _KEY.match(self.text, pos)
        if m is None:
            raise self.fail(
                pos, f"a '[section]' or a 'key = value' line expected, not {shown(self.text[pos : pos + 40])!r}"
            )
        if not result:
            raise self.fail(pos, "a property before the file's first section")
        key = m.group(1).strip()
        try:
            result[-1].props[key], end = self.value(m.end())
        except _Unclosed:
            raise self.fail(pos, f"{shown(key)}: its value is not closed before the file ends") from None
        return end


def _unquoted(text: str) -> str:
    inner = text[1:-1]
    if "\\" not in inner:
        return inner
    return re.sub(r"\\(u[0-9a-fA-F]{4}|.)", _escape, inner, flags=re.DOTALL)


_SIMPLE_ATTR = re.compile(
    r'[ \t]+(\w+)=("[^"\\\n]*"|\w+\([^()"\n]*\)|\w+\([ \t]*"[^"\\\n]*"[ \t]*\)|[-+\w.]+)(?=[ \t\]])'
)
_SIMPLE_HEADER = re.compile(r"\[(\w+)((?:" + _SIMPLE_ATTR.pattern + r")*)\][ \t]*(?=\n|\Z)")
_NOT_SIMPLE = object()


def _simple(text: str):
    """The value of `text` when it has one of the forms most lines take (a level has tens
    of thousands): a number, a one-line string without escapes, true/false/null, or a call
    of numbers or of one string (`Vector2( 1, 2 )`, `ExtResource("1_abc")`); else
    _NOT_SIMPLE, for the full reader."""
    first = text[:1]
    if first == '"':
        return text[1:-1] if text.count('"') == 2 and text[-1] == '"' and "\\" not in text else _NOT_SIMPLE
    if first.isdigit() or first == "-":
        try:
            return int(text)
        except ValueError:
            try:
                return float(text)
            except ValueError:
                return _NOT_SIMPLE
    if text in ("true", "false", "null"):
        return _WORDS[text]
    open_at = text.find("(")
    if open_at < 1 or text[-1] != ")" or text.count("(") != 1 or text.count(")") != 1:
        return _NOT_SIMPLE
    name, inner = text[:open_at].rstrip(), text[open_at + 1 : -1].strip()
    if not name.isidentifier():
        return _NOT_SIMPLE
    if inner[:1] == '"':
        simple = inner.count('"') == 2 and inner[-1] == '"' and "\\" not in inner
        return Call(name, (inner[1:-1],)) if simple else _NOT_SIMPLE
    if '"' in inner or "[" in inner or "{" in inner:
        return _NOT_SIMPLE
    args = []
    for part in inner.split(",") if inner else ():
        try:
            args.append(int(part))
        except ValueError:
            try:
                args.append(float(part))  # also inf, nan
            except ValueError:
                if part.strip() != "inf_neg":
                    return _NOT_SIMPLE
                args.append(-math.inf)
    return Call(name, tuple(args))


def _escape(m: re.Match) -> str:
    code = m.group(1)
    return chr(int(code[1:], 16)) if len(code) == 5 else _ESCAPES.get(code, code)


def _number(text: str) -> float:
    if text in ("inf", "-inf", "inf_neg", "nan"):
        return {"inf": math.inf, "-inf": -math.inf, "inf_neg": -math.inf, "nan": math.nan}[text]
    return float(text)


def read_value(text: str, pos: int, source: str = "<text>") -> tuple[object, int]:
    """(value, end) of the one value at `pos` of `text` (spaces and comments before it
    skipped), in the grammar above; SceneError naming the line when it is malformed.
    For Godot's other text files written in it (project.godot's values)."""
    return _Reader(text, printable(source)).value(pos)


def parse_scene(text: str, source: str = "<scene>") -> SceneFile:
    """A .tscn or .tres text as sections; SceneError naming the line for anything
    malformed (an unknown section, an unclosed value, a property before any section)."""
    source = printable(source)
    reader = _Reader(text, source)
    sections = reader.sections()
    if not sections or sections[0].kind not in ("gd_scene", "gd_resource"):
        raise SceneError(
            f"{source}: not a Godot scene or resource (its first line is not [gd_scene …] or [gd_resource …])"
        )
    scene = SceneFile(source, sections[0])
    if scene.format not in (2, 3):
        raise SceneError(
            f"{source}: format={shown(scene.format)}; Godot 3 writes format=2 and Godot 4 format=3, the two read here"
        )
    for section in sections[1:]:
        if section.kind in ("ext_resource", "sub_resource"):
            table = scene.ext if section.kind == "ext_resource" else scene.sub
            key = section.attrs.get("id")
            if key is None:
                raise SceneError(f"{source} line {section.line}: [{section.kind}] without an id")
            if key in table:
                raise SceneError(f"{source} line {section.line}: a second [{section.kind}] with id {shown(key)}")
            table[key] = section
        elif section.kind == "node":
            scene.nodes.append(section)
        elif section.kind == "resource":
            scene.resource = section
        elif section.kind in ("gd_scene", "gd_resource"):
            raise SceneError(f"{source} line {section.line}: a second [{section.kind}] header")
    return scene
