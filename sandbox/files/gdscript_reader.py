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
from functools import lru_cache
from typing import NamedTuple

_TOKEN = re.compile(r"""
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
""", re.VERBOSE | re.DOTALL)

OPENING, CLOSING = "([{", ")]}"
PREFIX_WORDS = frozenset({"export", "onready", "static", "remote", "master", "puppet", "remotesync",
                          "mastersync", "puppetsync", "sync", "slave"})
"""Godot 3 keywords that may stand before `var` or `func` (and Godot 4's `static`)."""


class Token(NamedTuple):
    kind: str  # name, number, string or op
    text: str
    start: int  # offsets in the text: text[start:end] is the token
    end: int
    line: int  # 1-based, lines split at line feeds only (as Godot does)
    line_start: int  # offset of the start of that line


@dataclass
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


def tokens(text: str) -> list[Token]:
    """Every token of `text` but spaces, comments and line continuations; a line
    feed outside brackets is an op token "\\n". A byte-order mark at the start is
    skipped."""
    found: list[Token] = []
    position = 1 if text.startswith("\ufeff") else 0
    line, line_start, depth = 1, 0, 0
    match = _TOKEN.match
    while position < len(text):
        token = match(text, position)
        kind, value = token.lastgroup, token.group()
        if kind in ("string", "number", "name", "op"):
            if value in OPENING:
                depth += 1
            elif value in CLOSING:
                depth = max(depth - 1, 0)
            found.append(Token(kind, value, position, token.end(), line, line_start))
        elif kind == "newline" and depth == 0:
            found.append(Token("op", "\n", position, token.end(), line, line_start))
        if kind in ("newline", "continuation", "string"):  # the tokens that can hold a line feed
            breaks = value.count("\n")
            if breaks:
                line += breaks
                line_start = position + value.rfind("\n") + 1
        position = token.end()
    return found


@lru_cache(maxsize=4)  # import reads a script twice: its declarations, then its formula
def statements(text: str) -> tuple[Statement, ...]:
    """The logical lines of `text` in order; a ';' outside brackets also ends one
    (the next keeps its indent). Shared between callers: never changed."""
    result: list[Statement] = []
    current: list[Token] = []
    indent, depth, previous_end = "", 0, 0
    for token in tokens(text):
        first_on_line, previous_end = previous_end <= token.line_start, token.end
        if token.text == "\n" or (token.text == ";" and depth == 0):
            if current:
                result.append(Statement(current, current[0].line, indent))
                current = []
            continue
        if not current and first_on_line:
            indent = text[token.line_start:token.start].lstrip("\ufeff")
        depth += token.text in OPENING
        depth = max(depth - (token.text in CLOSING), 0)
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
