"""The user's Godot level (a .tscn of Godot 3 or 4) as a track, in px: the static bodies'
collision shapes become walls, the first Path2D the centre line.

The scene is read as Godot builds it: instanced scenes (`instance=ExtResource(…)`) are
followed under the project (the folder holding `project.godot`, found upward from the
scene unless given; `res://` paths are resolved against it), nodes that override a node
of an instanced scene (editable children) change it, and every node's properties are set
in the file's order. A shape's place is the product of the transforms of its parents
(position, rotation in radians, `rotation_degrees`, scale, Godot 4's skew, or a whole
`transform`) up to the first parent that is not drawn on the canvas (a plain Node or a
CanvasLayer: the physics of a body under one starts from the origin again, as in Godot),
and the shape node's own.

Read: the CollisionShape2D and CollisionPolygon2D children of StaticBody2D (and Godot 4's
AnimatableBody2D, derived from it; a node of a type unknown here counts as static when its
script `extends StaticBody2D`) of the bodies the car meets (`meets_car`: the car is on
Godot's default layer 1 with mask 1), and Godot 4 TileMaps' collision
(godot_level_tiles.py). Named in the track's notes and left out: shapes of moving bodies
(RigidBody2D, KinematicBody2D, CharacterBody2D) and of Area2D, disabled shapes, bodies the
car does not meet, other tile maps, collision shapes under nodes that are not bodies;
one-way shapes are kept as walls from both sides, and named. Shapes:
godot_level_shapes.py.
"""

from __future__ import annotations

import math
import os
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import UserError, printable, shown
from ..physics.track import Circle, Polyline, Rect, Track
from .disk import read_text
from .godot import SCRIPT_LIMIT
from .godot_level_shapes import IDENTITY, ShapeRefused, compose, from_parts, parts
from .godot_level_tiles import tile_walls
from .godot_level_walls import node_walls, number, path_line, vector
from .tscn_reader import Call, SceneFile, parse_scene

SCENE_LIMIT = 32 * 1024 * 1024
"""Bytes: a level scene (or a scene it instances) larger than this is refused unread."""
NODE_LIMIT = 200_000
"""A level whose scenes, instanced, make more nodes than this is refused."""
CAR_MASK = 1
"""The car's collision mask: Godot's default (layer 1)."""
CAR_LAYER = 1
"""The car's collision layer: Godot's default (layer 1)."""
STATIC = frozenset({"StaticBody2D", "AnimatableBody2D"})
MOVING = frozenset({"RigidBody2D", "KinematicBody2D", "CharacterBody2D", "PhysicalBone2D", "RigidDynamicBody2D"})
AREAS = frozenset({"Area2D"})
TILE_MAPS = frozenset({"TileMap", "TileMapLayer"})
SHAPES = frozenset({"CollisionShape2D", "CollisionPolygon2D"})
OFF_CANVAS = frozenset({"Node", "CanvasLayer", "ParallaxBackground", "Viewport", "SubViewport", "Spatial", "Node3D"})
"""Nodes that are not drawn on the canvas: a Node2D under one starts from the origin."""
_EXTENDS = re.compile(r"^\s*extends\s+(\w+)", re.MULTILINE)


class LevelError(UserError):
    """A Godot level that cannot be read; the message names the file and the node."""


@dataclass(eq=False)
class Node:
    """A node of the built scene: its type, the scene file that made it, its properties
    (name -> value), the file of each property another scene set (an instance changed by
    the scene instancing it: its resources are looked up there) and its children by name."""

    name: str
    type: str | None
    file: SceneFile | None = None
    props: dict = field(default_factory=dict)
    files: dict = field(default_factory=dict)
    children: dict = field(default_factory=dict)

    def source(self, name: str):
        """(value, the file it was written in) of a property; (None, None) when unset."""
        if name not in self.props:
            return None, None
        return self.props[name], self.files.get(name, self.file)


def find_project(scene: Path) -> Path | None:
    """The nearest folder at or above the scene's that holds `project.godot`."""
    for folder in scene.resolve().parents:
        if (folder / "project.godot").is_file():
            return folder
    return None


class _Level:
    """The scenes of one level, each read once, and the notes gathered while walking it."""

    def __init__(self, project: Path | None):
        self.project = project
        self.files: dict[Path, SceneFile] = {}
        self.paths: dict[tuple, Path] = {}  # (id of a file read, ext_resource id) -> its file
        self.bases: dict[int, str | None] = {}  # id of a node of an unknown type -> its script's role
        self.nodes = 0
        self.notes: dict[str, dict[str, None]] = defaultdict(dict)  # what -> the nodes, in order, once each
        self.godot = 3
        self.root = ""  # the level's root node's name, which every node's path starts with

    def load(self, path: Path) -> SceneFile:
        if path not in self.files:
            shown_as = path.relative_to(self.project) if self.project and path.is_relative_to(self.project) else path
            self.files[path] = parse_scene(read_text(path, SCENE_LIMIT, LevelError), f"{shown_as}")
        return self.files[path]

    def resource_path(self, file: SceneFile, key, where: str) -> Path:
        """The file an `ExtResource(key)` of `file` names, checked to be in the project."""
        found = self.paths.get((id(file), key))
        if found is None:
            found = self.paths[(id(file), key)] = self._resource_path(file, key, where)
        return found

    def _resource_path(self, file: SceneFile, key, where: str) -> Path:
        section = file.ext.get(key)
        if section is None:
            raise LevelError(f"{where}: ExtResource({shown(key)}): {file.source} has no [ext_resource] with that id")
        raw = section.attrs.get("path")
        if not isinstance(raw, str):
            raise LevelError(f"{where}: ExtResource({shown(key)}) has no path (a uid alone cannot be followed)")
        if self.project is None:
            raise LevelError(
                f"{where}: {shown(raw)} cannot be found: no project.godot in the scene's folder or above it"
            )
        if raw.startswith("res://"):
            path = self.project / raw[len("res://") :]
        else:
            path = self.files_dir(file) / raw
        path = Path(os.path.realpath(path))
        if not path.is_relative_to(self.project):
            raise LevelError(f"{where}: {shown(raw)} is outside the project ({printable(self.project)})")
        if not path.is_file():
            raise LevelError(f"{where}: {shown(raw)} is missing (no file {printable(path)})")
        return path

    def files_dir(self, file: SceneFile) -> Path:
        return next(p for p, f in self.files.items() if f is file).parent

    def build(self, path: Path, chain: tuple[Path, ...], where: str | None) -> Node:
        """The node tree of the scene at `path`, its instances built in; `chain`: the
        scenes being built around it (one of them again is a loop); `where`: the path
        of the node instancing it (None for the level: its root's name)."""
        if path in chain:
            names = " → ".join(shown(p.name) for p in (*chain[chain.index(path) :], path))
            raise LevelError(f"{where}: instanced scenes form a loop ({names})")
        file = self.load(path)
        if where is None:
            where = shown(file.nodes[0].attrs.get("name", path.stem)) if file.nodes else path.stem
            self.root = where
            self.godot = 4 if file.format == 3 else 3
        root: Node | None = None
        placed: dict[str, Node] = {}  # this scene's nodes by their path from its root
        for section in file.nodes:
            node, holder = self.place(file, section, root, (*chain, path), where, placed)
            node.props.update(section.props)
            if node.file is not file:  # a node of another scene, changed by this one
                node.files.update(dict.fromkeys(section.props, file))
            if holder is None:
                root = node
            else:
                holder.children[node.name] = node
        if root is None:
            raise LevelError(f"{file.source}: a scene without nodes")
        return root

    def place(self, file: SceneFile, section, root: Node | None, chain: tuple[Path, ...], where: str, placed: dict):
        """(the node a [node] section makes or changes, its parent or None for the root)."""
        attrs = section.attrs
        name, parent = attrs.get("name"), attrs.get("parent")
        line = f"{file.source} line {section.line}"  # for the messages below
        if not isinstance(name, str) or not name:
            raise LevelError(f"{line}: a [node] without a name")
        if (parent is None) != (root is None):
            problem = "a second root (no parent=)" if parent is None else "comes before the root node"
            raise LevelError(f"{line}: node {shown(name)}: {problem}")
        at = name if parent in (None, ".") else f"{parent}/{name}"
        holder = None if parent is None else root if parent == "." else placed.get(parent) or _find(root, parent)
        if parent is not None and holder is None:
            raise LevelError(f"{line}: node {shown(at)}: its parent {shown(parent)} is not in the scene")
        node = None if holder is None else holder.children.get(name)
        if "instance" in attrs:
            instance = attrs["instance"]
            if not (isinstance(instance, Call) and instance.name == "ExtResource" and instance.args):
                raise LevelError(f"{line}: node {shown(at)}: instance= is not an ExtResource")
            inside = where if parent is None else f"{where}/{at}"
            node = self.build(self.resource_path(file, instance.args[0], inside), chain, inside)
            node.name = name
        elif node is None or "type" in attrs:  # else: a node of an instanced scene, changed
            node = Node(name, attrs.get("type"), file)
            self.nodes += 1
        if self.nodes > NODE_LIMIT:
            raise LevelError(f"{where}: more than {NODE_LIMIT:,d} nodes with its instanced scenes: too large a level")
        placed[at] = node
        return node, holder

    def script_base(self, node: Node, where: str) -> str | None:
        """The class a node's script extends, when it names one (`extends StaticBody2D`);
        None when it has no script, or one that cannot be read (its shapes are noted)."""
        value, file = node.source("script")
        if not isinstance(value, Call) or not value.args:
            return None
        try:
            if value.name == "SubResource":
                section = file.sub.get(value.args[0])
                text = section.props.get("script/source", "") if section else ""
            elif value.name == "ExtResource":
                text = read_text(self.resource_path(file, value.args[0], where), SCRIPT_LIMIT, LevelError)
            else:
                return None
        except UserError:
            return None
        found = _EXTENDS.search(text) if isinstance(text, str) else None
        return found.group(1) if found else None

    def note(self, what: str, where: str) -> None:
        self.notes[what][where] = None


def _find(root: Node, path: str) -> Node | None:
    node = root
    if path == ".":
        return node
    for name in path.split("/"):
        node = node.children.get(name)
        if node is None:
            return None
    return node


@dataclass
class _Walls:
    polylines: list = field(default_factory=list)
    rects: list = field(default_factory=list)
    circles: list = field(default_factory=list)
    centre_line: Polyline | None = None

    def add(self, walls) -> None:
        for wall in walls:
            kind = (
                self.rects if isinstance(wall, Rect) else self.circles if isinstance(wall, Circle) else self.polylines
            )
            kind.append(wall)


TRANSFORM_KEYS = frozenset({"position", "rotation", "rotation_degrees", "scale", "skew", "transform"})


def local_transform(node: Node, where: str, godot: int = 4):
    """A Node2D's transform from its properties, set in the file's order. A whole
    `transform` is kept as it is (Node2D's set_transform), until a later position, rotation
    or scale rebuilds it from its parts (rotation, scale, and in Godot 4 its skew)."""
    if not TRANSFORM_KEYS.intersection(node.props):
        return IDENTITY
    x = y = rotation = skew = 0.0
    sx = sy = 1.0
    whole = None
    for key, value in node.props.items():
        if key not in TRANSFORM_KEYS:
            continue
        if key == "transform":
            if not (isinstance(value, Call) and value.name == "Transform2D" and len(value.args) == 6):
                raise LevelError(f"{where}: transform: {shown(value)} is not a Transform2D of six numbers")
            whole = tuple(number(v, f"{where}: transform", LevelError) for v in value.args)
            x, y, rotation, sx, sy, skew = parts(whole)
            skew = skew if godot == 4 else 0.0
            continue
        whole = None
        if key == "position":
            x, y = vector(value, f"{where}: position", LevelError)
        elif key == "rotation":
            rotation = number(value, f"{where}: rotation", LevelError)
        elif key == "rotation_degrees":
            rotation = math.radians(number(value, f"{where}: rotation_degrees", LevelError))
        elif key == "scale":
            sx, sy = vector(value, f"{where}: scale", LevelError)
        else:
            skew = number(value, f"{where}: skew", LevelError)
    return whole if whole is not None else from_parts(x, y, rotation, sx, sy, skew)


def _kind(node_type: str | None) -> str | None:
    """A node type's physics role (static, moving, area, tiles), or None."""
    kind = node_type
    if kind in STATIC:
        return "static"
    return "moving" if kind in MOVING else "area" if kind in AREAS else "tiles" if kind in TILE_MAPS else None


def meets_car(godot: int, layer: int, mask: int, car_layer: int = CAR_LAYER, car_mask: int = CAR_MASK) -> bool:
    """Whether a body on `layer` with `mask` stops the car. Godot 3 tests both ways (3.x
    CollisionObject2DSW::test_collision_mask: the body's layer in the car's mask, or the
    car's layer in the body's mask); Godot 4's CharacterBody2D only the body's layer in
    the car's mask (4.x GodotCollisionObject2D::collides_with)."""
    return bool(layer & car_mask or (godot == 3 and mask & car_layer))


def _walk(level: _Level, walls: _Walls, node: Node, outer, where: str, parent_kind, car: tuple[int, int]) -> None:
    if node.type in OFF_CANVAS:
        here = IDENTITY
    elif node.props.get("top_level") is True:
        here = local_transform(node, where, level.godot)
    else:
        here = compose(outer, local_transform(node, where, level.godot))
    kind = _kind(node.type)
    if node.type in SHAPES:
        _shape(level, walls, node, here, where, parent_kind, car)
    elif kind == "tiles":
        walls.add(tile_walls(level, node, here, where, LevelError, lambda *bits: meets_car(level.godot, *bits, *car)))
    elif node.type == "Path2D":
        line = path_line(level, node, here, where, LevelError)
        if line is not None and walls.centre_line is None:
            walls.centre_line = line
        elif line is not None:
            level.note("more Path2D nodes: only the first is the centre line", where)
    below = (kind, node)
    for name, child in node.children.items():
        _walk(level, walls, child, IDENTITY if node.type in OFF_CANVAS else here, f"{where}/{name}", below, car)


def _shape(level: _Level, walls: _Walls, node: Node, here, where: str, parent, car: tuple[int, int]) -> None:
    kind, body = parent if parent else (None, None)
    if kind is None and body is not None:  # a type of an extension: its script may say what it is
        if id(body) not in level.bases:
            level.bases[id(body)] = _kind(level.script_base(body, where.rsplit("/", 1)[0]))
        kind = level.bases[id(body)]
    if kind == "moving":
        return level.note(f"shapes of moving bodies ({body.type}, not static): not walls", where)
    if kind == "area":
        return level.note("shapes of areas (Area2D): not walls", where)
    if kind != "static":
        return level.note("collision shapes whose parent is not a static body (unknown or not a body): not read", where)
    layer, mask = (body.props.get(name, 1) for name in ("collision_layer", "collision_mask"))
    if not (isinstance(layer, int) and isinstance(mask, int)):
        raise LevelError(f"{where}: the body's collision_layer and collision_mask must be whole numbers")
    if not meets_car(level.godot, layer, mask, *car):
        return level.note(
            f"shapes of bodies the car does not meet (on layer {car[0]}, mask {car[1]}): not walls", where
        )
    if node.props.get("disabled") is True:
        return level.note("disabled shapes: not walls", where)
    if node.props.get("one_way_collision") is True:
        level.note("one-way collision is not read: these are walls from both sides", where)
    try:
        found = node_walls(level, node, here, where, LevelError)
    except ShapeRefused as refused:
        return level.note(f"left out, {refused}", where)
    if found is None:
        return level.note("shape nodes without a shape", where)
    walls.add(found)


NOTE_PATHS = 5
"""A note names at most this many nodes, then says how many more."""


def _notes(notes: dict[str, dict[str, None]]) -> tuple[str, ...]:
    said = []
    for what, nodes in notes.items():
        paths = list(nodes)
        more = f" and {len(paths) - NOTE_PATHS} more" if len(paths) > NOTE_PATHS else ""
        said.append(f"{what}: {', '.join(paths[:NOTE_PATHS])}{more}")
    return tuple(said)


def read_level(
    path: str | os.PathLike, project: Path | None = None, *, layer: int = CAR_LAYER, mask: int = CAR_MASK
) -> Track:
    """The level scene at `path` as a track in px; `project`: the Godot project's folder
    (found upward from the scene when None); `layer`, `mask`: the car's collision layer
    and mask (see `meets_car`). LevelError (a UserError) names the file, the node
    (`Level/Walls/Wall3`) and the problem."""
    scene = Path(os.path.realpath(path))
    project = Path(os.path.realpath(project)) if project is not None else find_project(scene)
    if project is not None and not scene.is_relative_to(project):
        raise LevelError(f"{printable(path)}: not inside the project folder {printable(project)}")
    level, walls = _Level(project), _Walls()
    try:
        root = level.build(scene, (), None)
        _walk(level, walls, root, IDENTITY, root.name, None, (layer, mask))
    except LevelError as error:
        if level.root and str(error).startswith((f"{level.root}:", f"{level.root}/")):
            raise LevelError(f"{printable(scene.name)}: {error}") from None  # a node's path: the file first
        raise
    return Track(
        name=scene.stem,
        unit="px",
        polylines=tuple(walls.polylines),
        rects=tuple(walls.rects),
        circles=tuple(walls.circles),
        centre_line=walls.centre_line,
        notes=_notes(level.notes),
    )
