"""A car script's functions read as steps: each statement of a body with the conditions
of the blocks around it, and the names that hold the tick (delta) in each function."""

from __future__ import annotations

from dataclasses import dataclass, field

from .gdscript_reader import Statement, Token, closing, leading_annotations, split_at

TICK_WORDS = frozenset({"delta", "dt", "delta_time", "get_physics_process_delta_time", "get_process_delta_time"})
"""Names that hold the tick length (with or without leading underscores)."""
TICK_FUNCTIONS = ("_physics_process", "_process")
"""Their first parameter is the tick, whatever it is called."""


@dataclass
class Function:
    """A `func` of the script: its name, its parameters' names, its body's statements."""

    name: str
    parameters: list[str]
    body: list[Statement] = field(default_factory=list)


@dataclass
class Step:
    """A statement of a function body (or the condition of a block header), with the
    conditions of the blocks around it."""

    tokens: list[Token]
    conditions: list[list[str]]
    header: bool = False

    @property
    def words(self) -> list[str]:
        return [t.text for t in self.tokens]


def script_functions(parsed: tuple[Statement, ...]) -> list[Function]:
    """The script's functions with their bodies (the indented statements after each
    `func` line)."""
    functions: list[Function] = []
    current = None
    for statement in parsed:
        if not statement.top_level:
            if current is not None:
                current.body.append(statement)
            continue
        words = statement.words
        i, _ = leading_annotations(words)
        current = None
        if i + 2 < len(words) and words[i] == "func" and words[i + 2] == "(":
            end = closing(words, i + 2)
            names = [words[a] for a, b in split_at(words, ",", i + 3, end) if a < b]
            current = Function(words[i + 1], names)
            functions.append(current)
    return functions


def function_steps(function: Function, switches: set[str]) -> list[Step]:
    """The function's statements in order with the conditions around each; those
    under a switch (`if rate_independent:`) are left out."""
    steps: list[Step] = []
    blocks: list[tuple[int, list[str], bool]] = []  # (indent, condition, under a switch)
    for statement in function.body:
        level = len(statement.indent)
        while blocks and blocks[-1][0] >= level:
            blocks.pop()
        skipped = any(under for _, _, under in blocks)
        conditions = [condition for _, condition, _ in blocks]
        tokens = statement.tokens
        words = statement.words
        if words[0] not in ("if", "elif", "else", "while", "for", "match"):
            if not skipped:
                steps.append(Step(tokens, conditions))
            continue
        colon = header_end(words)
        condition = words[1:colon] if words[0] != "else" else ["else"]
        under = skipped or (
            words[0] in ("if", "elif") and "not" not in condition and any(word in switches for word in condition)
        )
        if not under:
            steps.append(Step(tokens[1:colon], conditions, header=True))
        if colon + 1 < len(words):  # a one-line block: `if slow: friction_force *= 3`
            if not under:
                steps.append(Step(tokens[colon + 1 :], conditions + [condition]))
        else:
            blocks.append((level, condition, under))
    return steps


def header_end(words: list[str]) -> int:
    """Index of the ':' ending a block header's condition (outside brackets)."""
    parts = split_at(words, ":")
    return parts[0][1] if len(parts) > 1 else len(words)


def tick_names(functions: list[Function]) -> dict[str, set[str]]:
    """The names holding the tick in each function: its parameters called like it
    (delta, _delta, dt), the first one of _physics_process, and any parameter a tick is
    passed to (`apply_friction(delta)` → `func apply_friction(step)`)."""
    ticks = {f.name: {p for p in f.parameters if p.lstrip("_") in TICK_WORDS} for f in functions}
    by_name = {f.name: f for f in functions}
    for f in functions:
        if f.name in TICK_FUNCTIONS and f.parameters:
            ticks[f.name].add(f.parameters[0])
    for _ in range(2):  # a tick passed on twice: _physics_process → apply_friction → its helper
        for f in functions:
            for statement in f.body:
                words = statement.words
                for i, word in enumerate(words[:-1]):
                    callee = by_name.get(word)
                    if callee is None or words[i + 1] != "(" or (i and words[i - 1] == "func"):
                        continue
                    args = split_at(words, ",", i + 2, closing(words, i + 1))
                    for k, (a, b) in enumerate(args):
                        if b == a + 1 and k < len(callee.parameters) and is_tick(words[a], ticks[f.name]):
                            ticks[callee.name].add(callee.parameters[k])
    return ticks


def is_tick(name: str, ticks: set[str]) -> bool:
    return name in ticks or name.lstrip("_") in TICK_WORDS
