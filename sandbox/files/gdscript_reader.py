"""GDScript read as statements, never run: tokens with their places in the text,
grouped into the statements Godot would see (a bracket or a backslash continues a
line; a comment or a string hides what it holds), each with its line and indent.

Import, the formula recogniser and the writing of values into a user's script all
read a script through this one reader. It runs in time linear in the text: every
pattern below matches at a fixed place and never retries the same characters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterator, NamedTuple

_TOKEN = re.compile(
    r"""
 (?P<space>[ \t\f\r]+)
|(?P<continuation>\\\r?\n)
|(?P<newline>\n)
|(?P<comment>\#[^\n]*)
|(?P<string>[rR]?(?:
    \"\"\"(?:[^"\\]|\\.|"(?!""))*\"\"\" | '''(?:[^'\\]|\\.|'(?!''))*'''
  | "(?:[^"\\\n]|\\.)*" | '(?:[^'\\\n]|\\.)*'))
|(?P<number>(?:0[xXbB][0-9a-fA-F_]+|(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][+-]?[\d_]+)?)\w*)
|(?P<name>[^\W\d]\w*)
|(?P<op>:=|==|!=|<=|>=|->|\*\*=?|<<=?|>>=?|&&|\|\||[-+*/%&|^]=|.)
""",
    re.VERBOSE | re.DOTALL,
)

OPENING, CLOSING = "([{", ")]}"
PREFIX_WORDS = frozenset(
    {
        "export",
        "onready",
        "static",
        "remote",
        "master",
        "puppet",
        "remotesync",
        "mastersync",
        "puppetsync",
        "sync",
        "slave",
    }
)
"""Godot 3 keywords that may stand before `var` or `func` (and Godot 4's `static`)."""


class Token(NamedTuple):
    kind: str  # name, number, string or op
    text: str
    start: int  # offsets in the text: text[start:end] is the token
    end: int
    line: int  # 1-based, lines split at line feeds only (as Godot does)
    line_start: int  # offset of the start of that line


@dataclass(slots=True)
class Statement:
    """One logical line: its tokens (comments and line breaks left out), the line it
    starts on and its indent (the whitespace before it; '' at class level)."""

    tokens: list[Token]
    line: int
    indent: str
    words: list[str] = field(init=False)

    def __post_init__(self) -> None:
        self.words = [t.text for t in self.tokens]

    @property
    def top_level(self) -> bool:
        return self.indent == ""


def tokens(text: str) -> Iterator[Token]:
    """Every token of `text` but spaces, comments and line continuations; a line
    feed outside brackets is an op token "\\n". A byte-order mark at the start is
    skipped."""
    line, line_start, depth = 1, 0, 0
    for token in _TOKEN.finditer(text, 1 if text.startswith("\ufeff") else 0):  # every character matches
        kind = token.lastgroup
        if kind == "space" or kind == "comment":
            continue
        value, start = token.group(), token.start()
        if kind == "newline":
            if depth == 0:
                yield Token("op", "\n", start, start + 1, line, line_start)
            line, line_start = line + 1, start + 1
            continue
        if kind == "continuation" or kind == "string":  # the others hold no line feed
            breaks = value.count("\n")
            if kind == "string":
                yield Token(kind, value, start, token.end(), line, line_start)
            if breaks:
                line += breaks
                line_start = start + value.rfind("\n") + 1
            continue
        if value in OPENING:
            depth += 1
        elif value in CLOSING and depth:
            depth -= 1
        yield Token(kind, value, start, token.end(), line, line_start)


def statements(text: str) -> tuple[Statement, ...]:
    """The logical lines of `text` in order; a ';' outside brackets also ends one
    (the next keeps its indent)."""
    result: list[Statement] = []
    current: list[Token] = []
    indent, depth, previous_end = "", 0, 0
    for token in tokens(text):
        first_on_line, previous_end = previous_end <= token.line_start, token.end
        word = token.text
        if word == "\n" or (word == ";" and depth == 0):
            if current:
                result.append(Statement(current, current[0].line, indent))
                current = []
            continue
        if not current and first_on_line:
            indent = text[token.line_start : token.start].lstrip("\ufeff")
        if word in OPENING:
            depth += 1
        elif word in CLOSING and depth:
            depth -= 1
        current.append(token)
    if current:
        result.append(Statement(current, current[0].line, indent))
    return tuple(result)


def split_at(words: list[str], separator: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """(start, end) index ranges of `words[start:end]` split at `separator` outside
    brackets (the arguments of a call, the parts of a condition)."""
    end = len(words) if end is None else end
    parts, depth, first = [], 0, start
    for i in range(start, end):
        word = words[i]
        if word in OPENING:
            depth += 1
        elif word in CLOSING:
            depth -= 1
        elif word == separator and depth == 0:
            parts.append((first, i))
            first = i + 1
    parts.append((first, end))
    return parts


def closing(words: list[str], opening: int) -> int:
    """Index of the bracket closing the one at `opening`, or len(words) if none."""
    depth = 0
    for i in range(opening, len(words)):
        if words[i] in OPENING:
            depth += 1
        elif words[i] in CLOSING:
            depth -= 1
            if depth == 0:
                return i
    return len(words)


def leading_annotations(words: list[str]) -> tuple[int, list[str]]:
    """(index of the first word after them, the annotations and keywords a statement
    starts with: @export_range(…), export(float, …), onready, static…)."""
    i, found = 0, []
    while i < len(words):
        if words[i] == "@" and i + 1 < len(words):
            name, after = "@" + words[i + 1], i + 2
        elif words[i] in PREFIX_WORDS:
            name, after = words[i], i + 1
        else:
            break
        if after < len(words) and words[after] == "(":
            after = closing(words, after) + 1
        found.append(name)
        i = after
    return i, found


def code_names(parsed: tuple[Statement, ...]) -> set[str]:
    """The words of a script's code: its indented statements (function bodies)."""
    return {word for statement in parsed if not statement.top_level for word in statement.words}
