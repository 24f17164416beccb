"""A model's Godot 3 and Godot 4 scripts in one form, to compare them statement by
statement. No Godot 4 binary can run here; where the Godot 4 script's statements are
the Godot 3 script's, the Godot 3 engine's verification holds for it too.

Both scripts are parsed by gdtoolkit. The form keeps every statement and expression
and drops only what cannot change a number: comments, type hints and return types
(a hint that would turn a literal into another number is refused: `typed_literals`),
annotations, `extends`, the exported tuning (generated from the same declarations
for both, and checked by the import tests), and the `_` that makes a Godot 4 member
private. The Godot 3 script's words are turned into Godot 4's by the tables below,
each entry an exact equivalence; nothing else is forgiven.
"""

from __future__ import annotations

import difflib
import re

from gdtoolkit.parser import parser
from lark import Token, Tree

GODOT3_CALLS = {
    # name: (Godot 4 name or None for the argument itself, the arguments in Godot 4's order)
    "_min": ("minf", (1, 0)),  # b if b < a else a: minf(x, y) is x < y ? x : y, so minf(b, a), ties and NaN alike
    "_max": ("maxf", (1, 0)),  # b if b > a else a: maxf(b, a)
    "_sign": ("signf", (0,)),  # the same for every number (only a NaN differs)
    "_tick_length": (None, (0,)),  # 1 / round(1 / delta): Godot 4's delta is already exactly 1 / rate
    "min": ("minf", (0, 1)),  # Godot 3's built-ins: the same operations, its min rounded to 32 bits
    "abs": ("absf", (0,)),
    "floor": ("floorf", (0,)),
    "deg2rad": ("deg_to_rad", (0,)),
}
"""Godot 3 calls and the Godot 4 call that gives the same number."""
GODOT3_CLAMP = ("_min", "_max", "clampf")
"""_min(_max(x, lo), hi) is clampf(x, lo, hi) whenever lo <= hi (ties, signed zeros and a
NaN x included), as in every clamp of the scripts (a bound and its negative, or 0 and a
weight)."""
GODOT3_NAMES = {
    "linear_interpolate": "lerp",
    "get_slide_count": "get_slide_collision_count",
    "scancode": "physical_keycode",
}
"""Godot 3 methods and properties renamed in Godot 4 (the key field: Godot 4 adds the
keys by their place on the keyboard)."""
GODOT3_ONLY = {"_min", "_max", "_sign", "_tick_length", "velocity"}
"""Godot 3 members Godot 4 does without: the helpers above, and the velocity variable
(Godot 4's body has its own)."""
GODOT4_ONLY = ("motion_mode = CharacterBody2D.MOTION_MODE_FLOATING",)
"""Godot 4 statements without a Godot 3 counterpart: Godot 3's move_and_slide, given no
up direction, takes every collision as a wall, as a floating CharacterBody2D does."""
SLIDES = (
    ("velocity = move_and_slide(velocity)", "move_and_slide()"),
    (
        "velocity = move_and_slide(moved / delta)\nvar collided = get_slide_count() > 0",
        "velocity = moved / delta\nmove_and_slide()\nvar collided := get_slide_collision_count() > 0",
    ),
    (
        "var slid = move_and_slide((start_velocity + velocity) / 2.0)\nif get_slide_count() > 0:\n\tvelocity = slid",
        "var end_velocity := velocity\nvelocity = (start_velocity + end_velocity) / 2.0\nmove_and_slide()\n"
        "if get_slide_collision_count() == 0:\n\tvelocity = end_velocity",
    ),
)
"""The engine's sliding call, in Godot 3 and in Godot 4: Godot 3's takes the velocity
and returns the slid one; Godot 4's slides the body's own `velocity` and leaves the
slid one in it."""
SHAPE_SIZES = (
    ("var e = shape.extents", "var e: Vector2 = shape.size / 2.0"),
    ("var h = shape.height / 2.0", "var h: float = shape.height / 2.0 - shape.radius"),
)
"""The car shape's sizes, read from its CollisionShape2D: a RectangleShape2D's half size
is Godot 3's `extents` and Godot 4's `size` / 2; half a CapsuleShape2D's straight part
is half Godot 3's `height` (the straight part) and half Godot 4's (tip to tip) less the
radius."""
WALL_SPEEDS = (
    (
        "return (velocity.x * cos(angle) + velocity.y * sin(angle)) / pixels_per_metre",
        "var moved := get_real_velocity()\nreturn (moved.x * cos(angle) + moved.y * sin(angle)) / pixels_per_metre",
    ),
)
"""The speed a metric car keeps after a wall: the share along its heading of Godot 3's
returned (slid) velocity, and of Godot 4's get_real_velocity() (Godot 4's floating
move_and_slide leaves `velocity` as it was set: what the body moved is what it did)."""
GODOT4_INTEGERS = {"mini": "minf", "maxi": "maxf"}
"""Godot 4's comparisons of integers: the same as those of floats on integers."""
RENAMED = {"_next_steer": "_steer"}
"""Godot 4 members named otherwise than in Godot 3: a Godot 4 script cannot give a
function the name of a variable (the bicycle's `_steer`)."""

_VALUE_FORMS = {
    "func_var_assigned",
    "func_var_inf",
    "func_var_typed_assgnd",
    "class_var_assigned",
    "class_var_inf",
    "class_var_typed_assgnd",
    "const_assigned",
    "const_inf",
    "const_typed_assigned",
    "func_var_typed",
    "class_var_typed",
    "func_arg_regular",
    "func_arg_inf",
    "func_arg_typed",
}
"""Declarations: their name, then a type hint or not, then the value or not."""


def _plain(node):
    """A parse tree as nested tuples (kind, children…) and strings, without the type
    hints and trailing commas: every declaration becomes (kind, name[, value])."""
    if isinstance(node, Token):
        return str(node)
    children = [_plain(child) for child in node.children if getattr(child, "data", "") != "trailing_comma"]
    if node.data in _VALUE_FORMS:
        kind = "arg" if node.data.startswith("func_arg") else "const" if node.data.startswith("const") else "var"
        value = [children[-1]] if len(children) > 1 and isinstance(node.children[-1], Tree) else []
        return (kind, children[0], *value)
    if node.data == "func_header":  # name and arguments, not the return type
        return (node.data, str(node.children[0]), *(_plain(c) for c in node.children[1:] if isinstance(c, Tree)))
    return (node.data, *children)


def _map(node, change):
    """`node` with every subtree replaced by change(subtree) (innermost first)."""
    if isinstance(node, tuple):
        node = (node[0], *(_map(child, change) for child in node[1:]))
    return change(node)


def _godot3(node):
    """A Godot 3 node in Godot 4's words (the tables above)."""
    return _map(_map(node, _clamp), _godot3_words)


def _clamp(node):
    low, high, clamp = GODOT3_CLAMP
    if isinstance(node, tuple) and node[:2] == ("standalone_call", low) and len(node) == 4:
        inner = node[2]
        if isinstance(inner, tuple) and inner[:2] == ("standalone_call", high) and len(inner) == 4:
            return ("standalone_call", clamp, inner[2], inner[3], node[3])
    return node


def _godot3_words(node):
    if isinstance(node, str):
        return GODOT3_NAMES.get(node, node)
    if node[0] == "standalone_call":
        name, args = node[1], list(node[2:])
        if name in GODOT3_CALLS:
            new, order = GODOT3_CALLS[name]
            return args[order[0]] if new is None else ("standalone_call", new, *(args[i] for i in order))
    if node[0] == "arith_expr" and len(node) == 4 and node[2] == "-" and all(_strength(side) for side in node[1::2]):
        return ("getattr_call", ("getattr", "Input", ".", "get_axis"), _strength(node[3]), _strength(node[1]))
    return node


def _strength(node):
    """The action of Input.get_action_strength(action), else None."""
    if (
        isinstance(node, tuple)
        and node[0] == "getattr_call"
        and node[1] == ("getattr", "Input", ".", "get_action_strength")
    ):
        return node[2]
    return None


def _statements(source: str, godot3: bool) -> list:
    """Statements given as source (indented with tabs), in the common form."""
    body = "".join(f"\t{line}\n" for line in source.split("\n"))
    func = _plain(parser.parse(f"func _f():\n{body}").children[0])
    return list(func[2:]) if not godot3 else [_godot3(s) for s in func[2:]]


def _replace_runs(statements: list, old: list, new: list) -> list:
    """`statements` (and the blocks inside them) with each run equal to `old` replaced by `new`."""
    out, i = [], 0
    while i < len(statements):
        if statements[i : i + len(old)] == old:
            out += new
            i += len(old)
            continue
        item = statements[i]
        if isinstance(item, tuple):
            item = (item[0], *_replace_runs(list(item[1:]), old, new))
        out.append(item)
        i += 1
    return out


def members(text: str, godot: int) -> dict[str, tuple]:
    """The script's constants, state variables and functions, by name, in its order, in
    the common form (Godot 3's in Godot 4's words; names as each script spells them)."""
    if godot == 3:  # gdtoolkit reads Godot 4's syntax: Godot 3's export lines are left out
        text = re.sub(r"(?m)^export\(.*$", "", text)
    found, exported = {}, False
    for node in parser.parse(text).children:
        if node.data == "annotation":
            exported = True
            continue
        item = _plain(node)
        if node.data == "func_def":
            name = item[1][1]
            body = list(item[2:])
            if godot == 3:
                body = [_godot3(s) for s in body]
                for old, new in SLIDES + SHAPE_SIZES + WALL_SPEEDS:
                    body = _replace_runs(body, _statements(old, True), _statements(new, False))
            found[name] = ("func", *item[1][2:], *body)
        elif node.data in ("const_stmt", "class_var_stmt") and not exported:
            declaration = item[1]
            found[declaration[1]] = _godot3(declaration) if godot == 3 else declaration
        exported = False
    return found


def common_form(godot3: str, godot4: str) -> tuple[dict, dict]:
    """The members of both scripts, named as in Godot 3, without the members and
    statements only one version has. Raises AssertionError where a Godot 4 name has
    no Godot 3 counterpart, or where Godot 4 still uses a name it renamed."""
    three, four = members(godot3, 3), members(godot4, 4)
    for name in GODOT3_ONLY:
        three.pop(name, None)
    names = {}
    for name in four:
        plain = RENAMED.get(name) or (name[1:] if name.startswith("_") and name[1:] in three else name)
        assert plain in three, f"{name}: no member of the Godot 3 script is its counterpart"
        names[name] = plain
    renamed = {plain for name, plain in names.items() if plain != name}
    only4 = [_statements(statement, False)[0] for statement in GODOT4_ONLY]

    def godot4_words(node):
        if isinstance(node, str):
            assert node not in renamed or node in names, f"{node}: the Godot 4 script names it {node!r} still"
            return names.get(node, GODOT4_INTEGERS.get(node, node))
        if node[0] in ("func", "func_def"):
            return (node[0], *(s for s in node[1:] if s not in only4))
        return node

    four = {names[name]: _map(item, godot4_words) for name, item in four.items()}
    return three, four


def differences(godot3: str, godot4: str) -> list[str]:
    """The members whose common forms differ (or that only one script has), each as
    a diff of its lines; empty when the scripts compute alike."""
    three, four = common_form(godot3, godot4)
    found = []
    for name in dict.fromkeys([*three, *four]):
        old, new = three.get(name, ("missing",)), four.get(name, ("missing",))
        if old != new:  # the forms themselves: their lines, below, are only for reading
            shown = (lines(old), lines(new)) if lines(old) != lines(new) else ([repr(old)], [repr(new)])
            found.append(
                "\n".join(difflib.unified_diff(*shown, f"Godot 3 {name}", f"Godot 4 {name}", lineterm="", n=1))
            )
    if list(three) != list(four) and not found:
        found.append(f"the members are in another order: {list(three)} / {list(four)}")
    return found


def typed_literals(godot4: str) -> list[str]:
    """Declarations whose type hint would turn their literal into another number (an int
    hint on a float literal, or a float hint on an integer one): the one way a hint,
    which the common form drops, could change a value unseen."""
    wrong = []
    for node in parser.parse(godot4).iter_subtrees():
        if node.data in ("class_var_typed_assgnd", "const_typed_assigned", "func_var_typed_assgnd"):
            name, hint, value = node.children
            literal = value.children[0] if isinstance(value, Tree) and len(value.children) == 1 else None
            if isinstance(literal, Token) and literal.type == "NUMBER" and str(hint) in ("int", "float"):
                if (str(hint) == "float") != bool(re.search(r"[.eE]", literal)):
                    wrong.append(f"{name}: {hint} = {literal}")
    return wrong


def lines(item, depth: int = 0) -> list[str]:
    """A member in the common form as readable lines (a statement each)."""
    if isinstance(item, tuple) and item[0] in _WRAPPERS and len(item) == 2:
        return lines(item[1], depth)
    if isinstance(item, str):
        return ["\t" * depth + item]
    blocks = [child for child in item[1:] if _is_block(child)]
    head = " ".join(_text(child) for child in item[1:] if not _is_block(child))
    out = ["\t" * depth + f"{item[0]} {head}".rstrip()]
    for block in blocks:
        out += lines(block, depth + 1)
    return out


_WRAPPERS = ("func_var_stmt", "expr_stmt", "expr")


def _is_block(node) -> bool:
    return isinstance(node, tuple) and node[0].endswith(("_stmt", "_branch"))


def _text(node) -> str:
    if isinstance(node, str):
        return node
    if node[0] in ("standalone_call", "getattr_call"):
        return f"{_text(node[1])}({', '.join(_text(arg) for arg in node[2:])})"
    if node[0] in _WRAPPERS or node[0] == "getattr":
        return "".join(_text(child) for child in node[1:]) if node[0] == "getattr" else _text(node[1])
    return "(" + " ".join(_text(child) for child in node[1:]) + ")"
