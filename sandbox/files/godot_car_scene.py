"""Reading a car scene (`car.tscn`, Godot 3 `format=2` or Godot 4 `format=3`): the
script on its root body, read as godot_import.py reads a script, and the body's
CollisionShape2D, its transform on the body applied, as the tuning's collision shape.

Only what the car needs is read: the sections of the text scene, the root node's
script, the root's direct CollisionShape2D children (Godot uses only direct children
of a body) and the sub-resources they name. Nothing in the file is run. What is not
a car's shape (a polygon, a segment, a shape in another file, a disabled one) is said
in the import's notes, never dropped silently.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from ..errors import printable, shown
from ..physics.car_shape import CarShape
from .disk import read_text
from .gdscript_declarations import declarations
from .godot import DEFAULT_PX_PER_METRE, SCALE_VARIABLE, SCRIPT_LIMIT, GodotError
from .godot_engine_of import scene_engine
from .godot_import import ImportResult, parse_script
from .godot_shape import KINDS, GodotShape, from_godot

SCENE_LIMIT = 4 * 1024 * 1024
"""bytes: a car scene is a few kilobytes (its polygons, a sprite's settings)."""
_HEADER = re.compile(r"^\[(\w+)((?:\s+\w+=(?:\"(?:[^\"\\]|\\.)*\"|[^\s\]]+))*)\s*\]\s*$")
_ATTRIBUTE = re.compile(r"(\w+)=(\"(?:[^\"\\]|\\.)*\"|[^\s\]]+)")
_PROPERTY = re.compile(r"^([\w/:]+)\s*=\s*(.*)$")
_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_VECTOR = re.compile(rf"^Vector2\(\s*({_NUMBER})\s*,\s*({_NUMBER})\s*\)$")
_REFERENCE = re.compile(r"^(Sub|Ext)Resource\(\s*\"?([^\")\s]+)\"?\s*\)$")


@dataclass
class Section:
    """One `[kind attributes…]` section of a text scene and its `key = value` lines."""

    kind: str
    attributes: dict[str, str]
    properties: dict[str, str] = field(default_factory=dict)
    line: int = 0


def sections(text: str) -> list[Section]:
    """The sections of a Godot text scene or resource, in order. A value running over
    several lines (an array, a dictionary, a string with line breaks) is kept by its
    first line only: the car's shape needs none of them."""
    found: list[Section] = []
    in_string = False
    for number, line in enumerate(text.split("\n"), start=1):
        line = line.rstrip("\r")
        if not in_string:
            head = _HEADER.match(line)
            if head:
                attributes = {k: _unquoted(v) for k, v in _ATTRIBUTE.findall(head.group(2))}
                found.append(Section(head.group(1), attributes, line=number))
                continue
            prop = _PROPERTY.match(line)
            if prop and found:
                found[-1].properties.setdefault(prop.group(1), prop.group(2).strip())
        in_string ^= len(re.findall(r'(?<!\\)"', line.replace("\\\\", ""))) % 2 == 1
    return found


def _unquoted(value: str) -> str:
    return value[1:-1].replace('\\"', '"').replace("\\\\", "\\") if value.startswith('"') else value


def value(text: str) -> float | tuple[float, float] | bool | tuple[str, str] | str:
    """A property's value: a number, a Vector2 (x, y), true/false, a resource reference
    ("Sub" or "Ext", id), else its text."""
    if re.fullmatch(_NUMBER, text):
        return float(text)
    if text in ("true", "false"):
        return text == "true"
    vector = _VECTOR.match(text)
    if vector:
        return float(vector.group(1)), float(vector.group(2))
    reference = _REFERENCE.match(text)
    if reference:
        return reference.group(1), reference.group(2)
    return text


def scene_version(parsed: list[Section], source: str) -> int:
    """The Godot version a text scene is written for: 3 (format=2) or 4 (format=3)."""
    if not parsed or parsed[0].kind != "gd_scene":
        raise GodotError(f"{source}: not a Godot text scene (it does not start with [gd_scene …])")
    version = {"2": 3, "3": 4}.get(parsed[0].attributes.get("format", ""))
    if version is None:
        raise GodotError(
            f"{source}: scene format {shown(parsed[0].attributes.get('format', '?'))} is not one this sandbox reads "
            "(format=2: Godot 3; format=3: Godot 4)"
        )
    return version


def car_shape(parsed: list[Section], godot: int, notes: list[str]) -> CarShape | None:
    """The shape (px, in the root body's frame) of the first enabled CollisionShape2D
    directly under the scene's root, or None (said in `notes`)."""
    resources = {
        (s.kind[:3], s.attributes.get("id", "")): s for s in parsed if s.kind in ("sub_resource", "ext_resource")
    }
    nodes = [s for s in parsed if s.kind == "node"]
    shapes: list[CarShape] = []
    for node in nodes:
        kind, parent, name = node.attributes.get("type"), node.attributes.get("parent"), node.attributes.get("name")
        if kind == "CollisionPolygon2D" and parent == ".":
            notes.append(
                f"{name}: a CollisionPolygon2D is not one of the car's shapes (rectangle, capsule, circle): not read"
            )
        if kind != "CollisionShape2D":
            continue
        if parent != ".":
            notes.append(f"{name}: not a direct child of the car's body (Godot does not use it there): not read")
            continue
        props = {k: value(v) for k, v in node.properties.items()}
        if props.get("disabled") is True:
            notes.append(f"{name}: disabled: not read")
            continue
        reference = props.get("shape")
        resource = resources.get((reference[0].lower(), reference[1])) if isinstance(reference, tuple) else None
        if resource is None or resource.kind != "sub_resource":
            where = f"in another file ({resource.attributes.get('path', '?')})" if resource is not None else "missing"
            notes.append(f"{name}: its shape is {where}: not read")
            continue
        kind = resource.attributes.get("type", "?")
        if kind not in KINDS:
            notes.append(f"{name}: a {kind} is not one of the car's shapes (rectangle, capsule, circle): not read")
            continue
        try:
            found = GodotShape(
                kind,
                {k: value(v) for k, v in resource.properties.items()},
                _pair(props, "position", (0.0, 0.0)),
                _rotation(props, godot),
                _pair(props, "scale", (1.0, 1.0)),
            )
            shapes.append(from_godot(found, godot))
        except ValueError as exc:
            raise GodotError(f"line {node.line}: {name}: {exc}") from None
        notes += [f"{name}: {note}" for note in found.notes]
        if props.get("skew", 0.0) != 0.0:
            notes.append(f"{name}: its skew is not read (the shape is read unskewed)")
    if len(shapes) > 1:
        notes.append(f"the car has {len(shapes)} collision shapes: the first is read (the sandbox's car has one)")
    if not shapes:
        notes.append("no collision shape of the car's kinds on its body: its shape is left as it is")
    return shapes[0] if shapes else None


def _pair(props: dict, name: str, default: tuple[float, float]) -> tuple[float, float]:
    found = props.get(name, default)
    if not (isinstance(found, tuple) and isinstance(found[0], float) and all(map(math.isfinite, found))):
        raise ValueError(f"its {name} {shown(str(found))} is not a Vector2 of finite numbers")
    return found


def _rotation(props: dict, godot: int) -> float:
    """The node's rotation in degrees: Godot 3 stores `rotation_degrees`, Godot 4 `rotation` (radians)."""
    if "rotation_degrees" in props:
        turn = props["rotation_degrees"]
    else:
        turn = props.get("rotation", 0.0)
        turn = math.degrees(turn) if isinstance(turn, float) else turn
    if not (isinstance(turn, float) and math.isfinite(turn)):
        raise ValueError(f"its rotation {shown(str(turn))} is not a finite number")
    return turn


def _root(parsed: list[Section]) -> Section | None:
    """The scene's root node (the car's body): the node without a parent."""
    return next((s for s in parsed if s.kind == "node" and "parent" not in s.attributes), None)


def _script_path(parsed: list[Section], scene: Path) -> Path | None:
    """The file of the script on the scene's root node, or None when it has none."""
    root = _root(parsed)
    reference = value(root.properties.get("script", "")) if root is not None else None
    if not isinstance(reference, tuple) or reference[0] != "Ext":
        return None
    resource = next((s for s in parsed if s.kind == "ext_resource" and s.attributes.get("id") == reference[1]), None)
    if resource is None:
        return None
    path = resource.attributes.get("path", "")
    if path.startswith("res://"):
        project = next(
            (d for d in (scene.parent, *scene.parent.parents) if (d / "project.godot").is_file()), scene.parent
        )
        return project / path[len("res://") :]
    return scene.parent / path


def _scale(script_text: str | None) -> float:
    """px/m the car script declares (`pixels_per_metre`), else the export's default."""
    for declaration in declarations(script_text or ""):
        if declaration.name == SCALE_VARIABLE and declaration.value:
            try:
                number = float(declaration.value)
            except ValueError:
                break
            if math.isfinite(number) and number > 0:
                return number
    return DEFAULT_PX_PER_METRE


def load_car_scene(
    path: str | os.PathLike, model: ModuleType | None, fallback: ModuleType | None = None
) -> ImportResult:
    """The tuning a car scene gives: its script's values (parse_script) and its shape."""
    scene = Path(path)
    source = printable(scene)
    parsed = sections(read_text(scene, SCENE_LIMIT, GodotError))
    godot = scene_version(parsed, source)
    root = _root(parsed)
    inherited = root is not None and "instance" in root.attributes
    script = _script_path(parsed, scene)
    script_text = read_text(script, SCRIPT_LIMIT, GodotError) if script is not None else None
    if script_text is not None:
        result = parse_script(script_text, model, printable(script), fallback)
    else:
        chosen = model or fallback
        if chosen is None:
            raise GodotError(f"{source}: the car's body has no script, and no model is given to read it for")
        why = (
            "the car is an instance of another scene: its script and shape there are not read (import that scene)"
            if inherited
            else "the car's body has no script: only its collision shape is read"
        )
        result = ImportResult({}, chosen, [why])
    notes: list[str] = []
    try:
        shape = car_shape(parsed, godot, notes)
    except GodotError as exc:
        raise GodotError(f"{source}: nothing was imported: {exc}") from None
    result.warnings += notes
    result.godot = godot  # the scene's version, as for the engine option below
    result.warnings = scene_engine(result.model, godot, result.values, result.warnings)
    if shape is not None:
        unit = result.model.LENGTH_UNIT
        px_per_metre = _scale(script_text)
        if unit == "m":
            shape = shape.scaled(1 / px_per_metre)
            result.warnings.append(f"the collision shape is read at {px_per_metre:g} px per metre")
        params = {p.name: p for p in result.model.PARAMS}
        errors = []
        for name, number in shape.values().items():
            try:
                result.values[name] = params[name].check(number)
            except ValueError as exc:
                errors.append(f"{name}: {exc}")
        if errors:
            raise GodotError(f"{source}: nothing was imported: the collision shape does not fit: " + "; ".join(errors))
    return result


def load_car(path: str | os.PathLike, model: ModuleType | None, fallback: ModuleType | None = None) -> ImportResult:
    """A car scene (.tscn: its script and its shape) or a car script, read into values."""
    if Path(path).suffix.lower() == ".tscn":
        return load_car_scene(path, model, fallback)
    from .godot_import import load_script

    return load_script(path, model, fallback)
