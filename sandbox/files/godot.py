"""Godot scripts in and out: export a tuning as the recipe's car.gd (Godot 3 or 4);
reading a car.gd back into a tuning is in godot_import.py (its names are importable
from here too).
"""

from __future__ import annotations

import os
import textwrap
from importlib import metadata
from pathlib import Path
from types import ModuleType

from ..errors import UserError
from .disk import write_text_atomic
from .presets import Preset

TEMPLATES = Path(__file__).resolve().parent / "godot_templates"
"""One GDScript template per model (`<model name>.gd`), for both Godot versions: the
placeholders below fill in what differs between the two languages."""
DIALECTS = {
    4: {"BODY": "CharacterBody2D", "RATE_SETTING": "Physics Ticks Per Second", "VELOCITY": "",
        "TURN": 'Input.get_axis("steer_left", "steer_right")', "DEG_TO_RAD": "deg_to_rad", "LERP": "lerp",
        "KEY_FIELD": "keycode",
        "MOVE": "\t\tmove_and_slide()",
        "MOVE_MEAN": "\t\tvar end_velocity = velocity\n\t\tvelocity = (start_velocity + end_velocity) / 2.0\n"
                     "\t\tmove_and_slide()\n\t\tif get_slide_collision_count() == 0:\n\t\t\tvelocity = end_velocity",
        "SLIDE": "\tvelocity = (target - position) / delta\n\tmove_and_slide()\n"
                 "\tvar collided = get_slide_collision_count() > 0"},
    # Godot 3: KinematicBody2D has no velocity property; move_and_slide takes and
    # returns it; Input.get_axis does not exist yet (the same difference of strengths)
    3: {"BODY": "KinematicBody2D", "RATE_SETTING": "Physics Fps", "VELOCITY": "var velocity = Vector2.ZERO\n",
        "TURN": 'Input.get_action_strength("steer_right") - Input.get_action_strength("steer_left")',
        "DEG_TO_RAD": "deg2rad", "LERP": "linear_interpolate", "KEY_FIELD": "scancode",
        "MOVE": "\t\tvelocity = move_and_slide(velocity)",
        "MOVE_MEAN": "\t\tvar slid = move_and_slide((start_velocity + velocity) / 2.0)\n"
                     "\t\tif get_slide_count() > 0:\n\t\t\tvelocity = slid",
        "SLIDE": "\tvelocity = move_and_slide((target - position) / delta)\n"
                 "\tvar collided = get_slide_count() > 0"},
}
GODOT_VERSIONS = tuple(sorted(DIALECTS))
ACTION_KEYS = {"accelerate": ("W", "UP"), "brake": ("S", "DOWN"), "steer_left": ("A", "LEFT"),
               "steer_right": ("D", "RIGHT"), "handbrake": ("SPACE",), "shift_up": ("E",), "shift_down": ("Q",)}
"""The input actions (the recipe's four, then the dynamic car's) and the sandbox's keys
for them (ui/input.py), added to a project's Input Map by the exported script where an
action is missing. A script declares the actions its template reads."""
SNIPPETS = {"ADD_ACTIONS": "actions", "METRES": "metres", "METRES_STATE": "metres_state",
            "SPEED_CONTROL": "speed_control"}
"""Placeholders filled with a piece shared by several templates (godot_templates/_<name>.gd),
filled in turn."""
GDSCRIPT_NAMES = {"abs": "anti_lock_brakes", "shift_up": "shift_up_rpm", "shift_down": "shift_down_rpm"}
"""Parameters exported under another name, and that name: GDScript reserves `abs`
(a built-in function); `shift_up` and `shift_down` are also input actions."""
SCALE_VARIABLE = "pixels_per_metre"
"""The exported variable of a metric model's scale: not a tuning parameter, so import
passes it by without a word."""
DEFAULT_PX_PER_METRE = 25.0
"""px/m of an exported metric model's `pixels_per_metre` (the window's default scale)."""
PX_PER_METRE_RANGE = (1.0, 1000.0, 0.5)
LINE_WIDTH = 100
"""Columns of an exported script's lines at most (gdlint's default)."""
SCRIPT_LIMIT = 1024 * 1024
"""bytes: a car script is a few kilobytes; larger files are refused unread."""



class GodotError(UserError):
    """A Godot script that cannot be read or written."""


def gdscript_literal(value: float | bool) -> str:
    """A GDScript literal for a parameter value: true/false, 70, -0.06."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if float(value).is_integer():
        return str(int(value))
    text = repr(float(value))
    return text if "e" not in text else f"{value:.12f}".rstrip("0")


def variable_name(name: str) -> str:
    """The exported variable of parameter `name` (GDSCRIPT_NAMES, else the same name)."""
    return GDSCRIPT_NAMES.get(name, name)


def _comment(text: str) -> list[str]:
    return textwrap.wrap(text, width=LINE_WIDTH, initial_indent="# ", subsequent_indent="# ")


def _exported(name: str, value: float | bool, godot: int, bounds: tuple[float, float, float] | None) -> str:
    """`name` as an exported variable of Godot `godot` with `value` as its default:
    a switch without `bounds`, else a float slider with the range hint (min, max, step)."""
    if bounds is None:
        return f"{'@export' if godot == 4 else 'export(bool)'} var {name} = {gdscript_literal(bool(value))}"
    low, high, step = (gdscript_literal(float(v)) for v in bounds)
    hint = f"@export_range({low}, {high}, {step})" if godot == 4 else f"export(float, {low}, {high}, {step})"
    literal = gdscript_literal(float(value))
    return f"{hint} var {name} = {literal}{'.0' if float(value).is_integer() else ''}"


def declaration(p, value: float | bool, godot: int) -> str:
    """One tuning parameter as an exported variable: its label, unit and help as
    comment lines (wrapped within gdlint's LINE_WIDTH), then the declaration with the
    slider's range as the export hint and the tuned value as the default (a float
    literal for a slider, so Godot types it as a float)."""
    unit = f" [{p.unit}]" if p.unit and not p.is_bool else ""
    bounds = None if p.is_bool else (p.min, p.max, p.step)
    return "\n".join(_comment(f"{p.label}{unit}: {p.help}") + [_exported(variable_name(p.name), value, godot, bounds)])


def sandbox_version() -> str:
    """The installed car-sandbox's version, for an exported script's header."""
    try:
        return metadata.version("car-sandbox")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "(source)"


def has_script(model: ModuleType) -> bool:
    """Whether `model` exports as a Godot script (a template of its name exists)."""
    return (TEMPLATES / f"{model.NAME}.gd").is_file()


def template(model: ModuleType) -> str:
    if not has_script(model):
        raise GodotError(f"the {model.TITLE} model has no Godot script")
    return (TEMPLATES / f"{model.NAME}.gd").read_text(encoding="utf-8")


def script_actions(text: str) -> dict[str, tuple[str, ...]]:
    """The input actions (of ACTION_KEYS) a template reads, with their keys."""
    return {name: keys for name, keys in ACTION_KEYS.items() if f'"{name}"' in text}


def _fills(preset: Preset, godot: int, text: str, px_per_metre: float) -> dict[str, str]:
    """What the placeholders of a model's template stand for."""
    from .presets import FORMAT

    dialect = DIALECTS[godot]
    actions = script_actions(text.replace("{{TURN}}", dialect["TURN"]))  # the steering actions are in TURN
    rate_note = "" if not preset.tuning.get("rate_independent") else " (rate_independent is on: any rate drives alike)"
    action_list = ", ".join(f"{name} ({' or '.join(key.title() for key in keys)})" for name, keys in actions.items())
    metric = preset.model.LENGTH_UNIT == "m"
    header = _comment(f"Exported by car-sandbox {sandbox_version()}: preset {preset.name!r}, "
                      f"model {preset.model.TITLE}.") + [
              f"# Tuned at {preset.hz} physics ticks per second: set Project Settings > Physics > Common >",
              f"# {dialect['RATE_SETTING']} to {preset.hz}{rate_note}."]
    if metric:
        header.append("# Lengths in metres, as in the sandbox; the node moves pixels_per_metre pixels a metre.")
    header += _comment(f"Input actions, read as analog strengths (a gamepad's triggers and stick work): "
                       f"{action_list}.")
    header.append("# Actions missing from the project's Input Map are added with these keys when the car is ready.")
    rows = "".join(f'\t"{name}": [{", ".join(f"KEY_{key}" for key in keys)}],\n' for name, keys in actions.items())
    constants = [f'const SANDBOX_MODEL = "{preset.model.NAME}"', f"const SANDBOX_FORMAT = {FORMAT}",
                 "const ACTIONS = {\n" + rows + "}"]
    scale = ""
    if metric:
        scale = "\n".join(_comment("Pixels per metre [px/m]: the model computes in metres; the node moves this "
                                    "many pixels for each.")
                           + [_exported(SCALE_VARIABLE, px_per_metre, godot, PX_PER_METRE_RANGE)])
    params = "\n".join(declaration(p, preset.tuning[p.name], godot) for p in preset.model.PARAMS)
    return {**dialect, "GODOT": str(godot), "HEADER": "\n".join(header), "CONSTANTS": "\n".join(constants),
            "PARAMS": params, "SCALE": scale, **{key: _snippet(name) for key, name in SNIPPETS.items()}}


def _snippet(name: str) -> str:
    """A piece shared by several templates (godot_templates/_<name>.gd), without the
    comment at its top that says what it is (up to its first blank line)."""
    text = (TEMPLATES / f"_{name}.gd").read_text(encoding="utf-8")
    return text.split("\n\n", 1)[1].rstrip("\n")


def export_script(preset: Preset, godot: int, px_per_metre: float = DEFAULT_PX_PER_METRE) -> str:
    """`preset`'s model as a Godot 3 (KinematicBody2D) or 4 (CharacterBody2D) script,
    with its values as the exported variables' defaults."""
    if godot not in GODOT_VERSIONS:
        raise GodotError(f"Godot version {godot!r} is not one of {GODOT_VERSIONS}")
    low, high, _ = PX_PER_METRE_RANGE
    if not low <= px_per_metre <= high:
        raise GodotError(f"pixels per metre must be {low:g} … {high:g}, got {px_per_metre:g}")
    text = template(preset.model)
    fills = _fills(preset, godot, text, px_per_metre)
    for key in SNIPPETS:  # the shared pieces first: they hold placeholders of their own
        text = text.replace("{{" + key + "}}", fills.pop(key))
    for key, value in fills.items():
        text = text.replace("{{" + key + "}}", value)
    return text


def save_script(preset: Preset, path: str | os.PathLike, godot: int,
                px_per_metre: float = DEFAULT_PX_PER_METRE) -> None:
    write_text_atomic(path, export_script(preset, godot, px_per_metre), GodotError)


IMPORT_NAMES = ("ImportResult", "load_script", "parse_script", "script_model")
"""The import half, in godot_import.py, still importable from here."""


def __getattr__(name: str):
    if name in IMPORT_NAMES:  # loaded on first use: godot_import needs this module first
        from . import godot_import

        return getattr(godot_import, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
