"""A Godot scene of the car: the exported script on its body, the tuning's collision
shape (godot_shape.py), polygons drawing it, and a camera that follows it. Open the
scene in Godot, press Play, drive.

Written beside the script (car.tscn next to car.gd, which the scene names by a path
relative to itself), in the text scene format of Godot 3 (format=2) or 4 (format=3).
"""

from __future__ import annotations

import math
import os
import stat
from pathlib import Path

from ..errors import printable
from ..physics.car_shape import CarShape
from .disk import check_target, write_text_atomic, write_text_keeping_old
from .godot import DEFAULT_PX_PER_METRE, DIALECTS, GodotError, export_script
from .godot_link import export_link_node
from .godot_shape import GodotShape, to_godot
from .presets import Preset

BODY_COLOUR = (0.16, 0.47, 0.71)
"""The sandbox's car blue (its body is drawn in a deeper blue than its curves)."""
CABIN_COLOUR = (0.09, 0.27, 0.42)
WHEEL_COLOUR = (0.12, 0.12, 0.12)


def car_outline(preset: Preset, px_per_metre: float) -> dict[str, list[tuple[float, float]]]:
    """Polygons (px, +x forward, y down) of the body, the cabin (towards the front, so
    the heading shows) and the four wheels, from the model's drawing sizes."""
    size = preset.model.body(preset.tuning)
    scale = px_per_metre if preset.model.LENGTH_UNIT == "m" else 1.0
    length, width = size["length"] * scale, size["width"] * scale
    half_base, half_track = size["wheel_base"] * scale / 2, size["track"] * scale / 2
    wheel_length, wheel_width = 0.2 * length, 0.12 * width

    def box(cx: float, cy: float, along: float, across: float) -> list[tuple[float, float]]:
        return [
            (cx - along / 2, cy - across / 2),
            (cx + along / 2, cy - across / 2),
            (cx + along / 2, cy + across / 2),
            (cx - along / 2, cy + across / 2),
        ]

    shapes = {"Body": box(0, 0, length, width), "Cabin": box(0.12 * length, 0, 0.3 * length, 0.8 * width)}
    wheels = {
        "WheelFrontLeft": (half_base, -half_track),
        "WheelFrontRight": (half_base, half_track),
        "WheelRearLeft": (-half_base, -half_track),
        "WheelRearRight": (-half_base, half_track),
    }
    for name, (x, y) in wheels.items():
        shapes[name] = box(x, y, wheel_length, wheel_width)
    return shapes


def scene_shape(preset: Preset, godot: int, px_per_metre: float) -> GodotShape:
    """The tuning's collision shape as the scene's CollisionShape2D (px)."""
    scale = px_per_metre if preset.model.LENGTH_UNIT == "m" else 1.0
    return to_godot(CarShape.of(preset.tuning).scaled(scale), godot)


def _shape_lines(shape: GodotShape, godot: int) -> tuple[list[str], list[str]]:
    """(the shape resource's property lines, the CollisionShape2D's transform lines)."""
    resource = [
        f"{name} = {_vector(*value, godot) if isinstance(value, tuple) else _number(value)}"
        for name, value in shape.properties.items()
    ]
    node = [f"position = {_vector(*shape.position, godot)}"] if shape.position != (0.0, 0.0) else []
    if shape.rotation:  # to 9 digits: the round ends of a long capsule sit where the angle says
        turn = (
            f"rotation = {math.radians(shape.rotation):.9g}"
            if godot == 4
            else f"rotation_degrees = {shape.rotation:.9g}"
        )
        node.append(turn)
    return resource, node


def _number(value: float) -> str:
    return f"{value:.6g}"


def _vector(x: float, y: float, godot: int) -> str:
    return f"Vector2({_number(x)}, {_number(y)})" if godot == 4 else f"Vector2( {_number(x)}, {_number(y)} )"


def _colour(rgb: tuple[float, float, float], godot: int) -> str:
    inner = ", ".join(_number(c) for c in (*rgb, 1.0))
    return f"Color({inner})" if godot == 4 else f"Color( {inner} )"


def _points(points: list[tuple[float, float]], godot: int) -> str:
    inner = ", ".join(f"{_number(x)}, {_number(y)}" for x, y in points)
    return f"PackedVector2Array({inner})" if godot == 4 else f"PoolVector2Array( {inner} )"


def _string(text: str) -> str:
    """`text` as the inside of a quoted string of a Godot resource file: backslashes,
    quotes and control characters escaped, so a file name cannot end the string (and
    add sections of its own)."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return "".join(ch if ch.isprintable() or ch == " " else f"\\u{ord(ch):04x}" for ch in escaped)


def export_scene(
    preset: Preset,
    godot: int,
    script_name: str = "car.gd",
    px_per_metre: float = DEFAULT_PX_PER_METRE,
    link_name: str | None = None,
) -> str:
    """The scene's text; `script_name` is the script's file name beside it, and
    `link_name`, when given, the link node's (godot_link.py), a child of the car."""
    if godot not in DIALECTS:
        raise GodotError(f"Godot version {godot!r} is not one of {tuple(sorted(DIALECTS))}")
    shapes = car_outline(preset, px_per_metre)
    collision = scene_shape(preset, godot, px_per_metre)
    shape_properties, shape_transform = _shape_lines(collision, godot)
    body_type = DIALECTS[godot]["BODY"]
    steps = 3 if link_name is None else 4
    if godot == 4:
        script, shape = 'ExtResource("1_script")', f'SubResource("{collision.type}_body")'
        head = [
            f"[gd_scene load_steps={steps} format=3]",
            "",
            f'[ext_resource type="Script" path="{_string(script_name)}" id="1_script"]',
            *([] if link_name is None else [f'[ext_resource type="Script" path="{_string(link_name)}" id="2_link"]']),
            "",
            f'[sub_resource type="{collision.type}" id="{collision.type}_body"]',
            *shape_properties,
            "",
        ]
        # no motion_mode here: the script makes the body float (top-down) wherever it is attached
        root = [f'[node name="Car" type="{body_type}"]', f"script = {script}", ""]
        camera = ['[node name="Camera2D" type="Camera2D" parent="."]', ""]
        link = 'ExtResource("2_link")'
    else:
        script, shape = "ExtResource( 1 )", "SubResource( 1 )"
        head = [
            f"[gd_scene load_steps={steps} format=2]",
            "",
            f'[ext_resource path="{_string(script_name)}" type="Script" id=1]',
            *([] if link_name is None else [f'[ext_resource path="{_string(link_name)}" type="Script" id=2]']),
            "",
            f'[sub_resource type="{collision.type}" id=1]',
            *shape_properties,
            "",
        ]
        root = [f'[node name="Car" type="{body_type}"]', f"script = {script}", ""]
        camera = ['[node name="Camera2D" type="Camera2D" parent="."]', "current = true", ""]
        link = "ExtResource( 2 )"
    nodes = [
        '[node name="CollisionShape2D" type="CollisionShape2D" parent="."]',
        *shape_transform,
        f"shape = {shape}",
        "",
    ]
    for name, points in shapes.items():
        colour = BODY_COLOUR if name == "Body" else CABIN_COLOUR if name == "Cabin" else WHEEL_COLOUR
        nodes += [
            f'[node name="{name}" type="Polygon2D" parent="."]',
            f"color = {_colour(colour, godot)}",
            f"polygon = {_points(points, godot)}",
            "",
        ]
    if link_name is not None:  # the link node: the car is its parent, its car_path's default
        camera += ['[node name="SandboxLink" type="Node" parent="."]', f"script = {link}", ""]
    return "\n".join(head + root + nodes + camera)


def link_path(scene: Path) -> Path:
    """Where a scene's link node is written: beside it, `<scene name>_link.gd`."""
    return scene.with_name(scene.stem + "_link.gd")


def scene_scripts(
    preset: Preset,
    path: str | os.PathLike,
    godot: int,
    px_per_metre: float = DEFAULT_PX_PER_METRE,
    with_link: bool = False,
) -> dict[Path, str]:
    """The scripts a scene at `path` is written with, beside it, and their texts: its
    car script (the scene's name, .gd) and with `with_link` the link node (`link_path`)."""
    scene = Path(path)
    scripts = {scene.with_suffix(".gd"): export_script(preset, godot, px_per_metre)}
    if with_link:
        scripts[link_path(scene)] = export_link_node(preset.model, godot, tuning=preset.tuning)
    return scripts


def scripts_in_the_way(scripts: dict[Path, str]) -> list[Path]:
    """Those of `scripts` already there with other text (your own car.gd, or one exported
    before and edited since): replaced only when asked to. Whether the sandbox wrote it
    once does not matter: its code may have been changed since. GodotError for one that
    cannot be read, or is not a plain file (a link: a name the export derives is never
    followed)."""
    different = []
    for script, text in scripts.items():
        try:
            info = script.lstat()
            if stat.S_ISLNK(info.st_mode) or not stat.S_ISREG(info.st_mode):
                kind = "a symbolic link" if stat.S_ISLNK(info.st_mode) else "not a plain file"
                raise GodotError(
                    f"{printable(script)}: is {kind}, where the scene's script goes beside it; it is left as "
                    "it is, and nothing was written (remove it, or export the scene under another name)"
                )
            if script.read_bytes() != text.encode("utf-8"):
                different.append(script)
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise GodotError(
                f"{printable(script)}: cannot read the script already there ({exc.strerror or exc}); "
                "nothing was written"
            ) from None
    return different


def save_scene(
    preset: Preset,
    path: str | os.PathLike,
    godot: int,
    px_per_metre: float = DEFAULT_PX_PER_METRE,
    with_link: bool = False,
    replace: bool = False,
    backups: dict[Path, Path] | None = None,
) -> tuple[Path, ...]:
    """Write the scene at `path` (a .tscn) and its script beside it (the same name,
    .gd), and with `with_link` the link node as a child of the car (its script
    `<name>_link.gd` beside them); returns the paths written, the scene first. The
    scripts first, so a scene never names a missing one. A different script already
    there (your own car.gd, say) is refused (ScriptsInTheWay, nothing written) unless
    `replace`; then it is kept as a new backup (`car.gd.bak`, or the next free of
    `.bak2`, `.bak3`, …: an earlier backup is never replaced), noted in `backups`
    (script: its backup) when given."""
    scene = Path(path)
    scripts = scene_scripts(preset, scene, godot, px_per_metre, with_link)
    for target in (*scripts, scene):  # all writable before any is written: never a script alone
        check_target(target, (), GodotError)
    different = scripts_in_the_way(scripts)
    if different and not replace:
        raise ScriptsInTheWay(different)
    script = scene.with_suffix(".gd")
    scene_text = export_scene(preset, godot, script.name, px_per_metre, link_path(scene).name if with_link else None)
    for target, text in scripts.items():
        if target in different:
            kept = write_text_keeping_old(target, text, GodotError, f"{target}.bak")
            if backups is not None and kept is not None:
                backups[target] = kept
        else:
            write_text_atomic(target, text, GodotError)
    write_text_atomic(scene, scene_text, GodotError)
    return (scene, *scripts)


class ScriptsInTheWay(GodotError):
    """A scene export stopped at `scripts` already there beside it with other text."""

    def __init__(self, scripts: list[Path]):
        self.scripts = scripts
        names = " and ".join(printable(script) for script in scripts)
        left = "it is left as it is" if len(scripts) == 1 else "they are left as they are"
        super().__init__(
            f"{names}: already there beside the scene, with other text than the export writes (your own "
            f"script, or one edited since it was exported); {left}, and nothing was written"
        )
