"""Godot scripts out: export a tuning as the recipe's car.gd (Godot 3 or 4); reading
a car.gd back into a tuning is in godot_import.py.
"""

from __future__ import annotations

import math
import os
import re
import textwrap
from decimal import ROUND_HALF_EVEN, Decimal
from importlib import metadata
from pathlib import Path
from types import ModuleType
from typing import Mapping

from ..errors import UserError
from ..physics.params import effective_params, groups, script_params
from ..physics.steer_feel import ASSIST_MIN_SPEED
from .disk import write_text_atomic
from .godot_engine_of import export_note
from .package_data import package_folder
from .presets import Preset

TEMPLATES = package_folder("godot_templates")
"""The GDScript templates (package data, files/package_data.py): a folder per Godot
version (godot4/, godot3/), each with one template per model (`<model name>.gd`) and
the pieces several templates share (`_<name>.gd`). A template is its version's script
as written; its placeholders stand only for what is made from the preset (HEADER,
CONSTANTS, PARAMS, SCALE) and for the shared pieces (SNIPPETS)."""
DIALECTS = {
    4: {"BODY": "CharacterBody2D", "RATE_SETTING": "Physics Ticks Per Second"},
    3: {"BODY": "KinematicBody2D", "RATE_SETTING": "Physics Fps"},
}
"""What the generated parts of a script name differently in each Godot version: the
body the script extends, and the project setting of the tick rate."""
GODOT_VERSIONS = tuple(sorted(DIALECTS))
ACTION_KEYS = {
    "accelerate": ("W", "UP"),
    "brake": ("S", "DOWN"),
    "steer_left": ("A", "LEFT"),
    "steer_right": ("D", "RIGHT"),
    "handbrake": ("SPACE",),
    "shift_up": ("E",),
    "shift_down": ("Q",),
}
"""The input actions (the recipe's four, then the dynamic car's) and the sandbox's keys
for them (ui/input.py), added to a project's Input Map by the exported script where an
action is missing. A script declares the actions its template reads."""
SNIPPETS = {
    "ADD_ACTIONS": "actions",
    "IMPULSE": "impulse",
    "METRES": "metres",
    "METRES_STATE": "metres_state",
    "SPEED_CONTROL": "speed_control",
    "STEER_FEEL": "steer_feel",
    "STEER_ASSIST": "steer_assist",
}
"""Placeholders filled with a piece shared by several templates of a version
(godot_templates/godot<N>/_<name>.gd)."""
GDSCRIPT_NAMES = {"abs": "anti_lock_brakes", "shift_up": "shift_up_rpm", "shift_down": "shift_down_rpm"}
"""Parameters whose name GDScript reserves (a built-in function) or an input action
of the script shares, and the name of their exported variable."""
_PLACEHOLDER = re.compile(r"\{\{([A-Z_]+)\}\}")
"""A template's placeholder, {{NAME}}."""
TEMPLATE_SWITCHES = {"recipe_2020": "_2020"}
"""Switches that pick another formula's template (`<model><ending>.gd`, e.g. the arcade's
2020 recipe) rather than export as a variable: the script's code is that formula."""
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


def gdscript_literal(value: float | bool, step: float | None = None, precision: float | None = None) -> str:
    """A GDScript literal for a parameter value: true/false, 70, -0.06; the one every
    writer of a number into a script uses. With `step` (the parameter's slider step),
    the shortest decimal within half a step of `value`, or within `precision` (± in
    the value's unit: a fit's uncertainty) where that is finite, positive and smaller,
    when one is shorter than `value` written exactly: a value on the step grid (a
    preset's, a slider's) prints exactly and short, one off it (from a fit) rounded to
    its precision (`rounded` tells). Without, the shortest that reads back as exactly
    `value`. Never an exponent (1e-07 is 0.0000001)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    exact = Decimal(repr(float(value)))  # the shortest decimal that reads back as the float
    text = _plain(exact)
    if step is not None:
        half = min([Decimal(repr(float(step))) / 2, *_finite_positive(precision)])
        for places in range(min(-exact.adjusted(), 0), -exact.as_tuple().exponent):  # fewest digits first
            shorter = exact.quantize(Decimal(1).scaleb(-places), ROUND_HALF_EVEN)
            if abs(shorter - exact) <= half:
                return min(text, _plain(shorter), key=len)  # a tie: the exact value
    return text


def _finite_positive(precision: float | None) -> list[Decimal]:
    """`precision` as a Decimal when it is a finite positive number; none otherwise (no
    precision of its own: the step rule)."""
    ok = precision is not None and math.isfinite(precision) and precision > 0
    return [Decimal(repr(float(precision)))] if ok else []


def _plain(number: Decimal) -> str:
    """`number` in positional notation, without trailing zeros after the point; 0 for -0."""
    text = format(number.normalize(), "f")
    return "0" if text == "-0" else text


def gdscript_float(value: float, step: float | None = None, precision: float | None = None) -> str:
    """`gdscript_literal` as a float literal: 70.0, not 70 (GDScript types a variable
    declared with an int literal as an int)."""
    text = gdscript_literal(float(value), step, precision)
    return text if "." in text else text + ".0"


def rounded(value: float, step: float, precision: float | None = None) -> bool:
    """Whether `gdscript_literal(value, step, precision)` reads back as another number than `value`."""
    return float(gdscript_literal(float(value), step, precision)) != float(value)


ROUNDED_NOTE = (
    "values off their slider's steps are written to their precision (the fit's ± of a fitted value, else half "
    "a step), each within it of the sandbox's"
)
"""What a list of `off_step` values means, for the output."""


def precision_of(preset: Preset, p) -> float | None:
    """The ± (in `p`'s unit) a fit found for `preset`'s value of `p`, written with it
    where finite, positive and below half a step (`gdscript_literal`); None: the step rule."""
    return preset.precision.get(p.name)


def off_step(preset: Preset) -> dict[str, str]:
    """The tuning's values that a script holds rounded (`rounded`), by name: "wheel_base
    74.9747302957341 as 75 (step 1)", "friction -47.30021 as -47.3 (± 0.0004, the fit's)"."""
    found = {}
    for p in effective_params(script_params(preset.model.PARAMS), preset.tuning):
        value, precision = preset.tuning[p.name], precision_of(preset, p)
        if p.is_bool or not p.applies(preset.tuning) or not rounded(value, p.step, precision):
            continue
        fits = bool(_finite_positive(precision)) and precision < p.step / 2
        to = f"± {precision:.2g}, the fit's" if fits else f"step {p.step:g}"
        found[p.name] = f"{p.name} {float(value)!r} as {gdscript_literal(float(value), p.step, precision)} ({to})"
    return found


def variable_name(name: str) -> str:
    """The exported variable of parameter `name` (GDSCRIPT_NAMES, else the same name)."""
    return GDSCRIPT_NAMES.get(name, name)


NOT_UNITS = ("on/off", "coeff.", "fraction", "ratio", "×", "/SR", "per tick")
"""Units of the parameters that name a kind of number, not a unit: no suffix after
the value in Godot 4's Inspector."""


def _comment(text: str, mark: str = "#") -> list[str]:
    return textwrap.wrap(text, width=LINE_WIDTH, initial_indent=f"{mark} ", subsequent_indent=f"{mark} ")


def _exported(
    name: str,
    value: float | bool,
    godot: int,
    bounds: tuple[float, float, float] | None,
    hints: tuple[str, ...] = (),
    exact: bool = False,
    precision: float | None = None,
) -> str:
    """`name` as an exported variable of Godot `godot` with `value` as its default:
    a switch without `bounds`, else a float slider with the range hint (min, max, step)
    and, in Godot 4, the `hints` after it ("exp", "suffix:px"). The value is written
    to its step's precision or its own (`gdscript_literal`), or `exact`ly."""
    if bounds is None:
        switch = gdscript_literal(bool(value))
        return f"@export var {name}: bool = {switch}" if godot == 4 else f"export(bool) var {name} = {switch}"
    low, high, step = (gdscript_literal(float(v)) for v in bounds)
    literal = gdscript_float(float(value), None if exact else bounds[2], precision)
    if godot == 3:
        return f"export(float, {low}, {high}, {step}) var {name} = {literal}"
    extra = "".join(f', "{hint}"' for hint in hints)
    return f"@export_range({low}, {high}, {step}{extra}) var {name}: float = {literal}"


def declaration(p, value: float | bool, godot: int, precision: float | None = None) -> str:
    """One tuning parameter as an exported variable: its label, unit and help above it
    (Godot 4: a doc comment, which the Inspector shows as the tooltip; wrapped within
    gdlint's LINE_WIDTH), then the declaration with the slider's range as the export
    hint and the tuned value as the default (a float literal for a slider, so Godot
    types it as a float). Godot 4's hint adds the unit as the value's suffix and the
    logarithmic sliders' "exp". The value is written to `precision` where a fit found it."""
    bounds = None if p.is_bool else (p.min, p.max, p.step)
    if godot == 3:
        unit = f" [{p.unit}]" if p.unit and not p.is_bool else ""
        return "\n".join(
            _comment(f"{p.label}{unit}: {p.help}")
            + [_exported(variable_name(p.name), value, 3, bounds, precision=precision)]
        )
    measured = bool(p.unit) and p.unit not in NOT_UNITS
    unit = "" if p.is_bool or not p.unit else f", in {p.unit}" if measured else f" ({p.unit})"
    hints = (("exp",) if p.log else ()) + ((f"suffix:{p.unit}",) if measured else ())
    return "\n".join(
        _comment(f"{p.label}{unit}: {p.help}", "##")
        + [_exported(variable_name(p.name), value, 4, bounds, hints, precision=precision)]
    )


def _declarations(preset: Preset, godot: int) -> str:
    """Every tuning parameter of the preset's model as an exported variable, in the
    groups of the sandbox's tuning panel and in its order (Godot 4: each group an
    @export_group of the Inspector), each with the range and unit it has under the
    tuning's switches. A switch that picks the template (TEMPLATE_SWITCHES) is not one:
    the script's code is that formula; nor is an option that does nothing under the
    tuning's switches (Param.applies: the 2020 recipe has no rate-independent form)."""
    blocks = []
    exported = [
        p
        for p in effective_params(script_params(preset.model.PARAMS), preset.tuning)
        if p.name not in TEMPLATE_SWITCHES and p.applies(preset.tuning)
    ]
    for group, params in groups(exported).items():
        heading = [f'@export_group("{group}")'] if godot == 4 else []
        blocks.append(
            "\n".join(heading + [declaration(p, preset.tuning[p.name], godot, precision_of(preset, p)) for p in params])
        )
    return ("\n\n" if godot == 4 else "\n").join(blocks)


def sandbox_version() -> str:
    """The installed car-sandbox's version, for an exported script's header."""
    try:
        return metadata.version("car-sandbox")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "(source)"


def _template_path(model: ModuleType, godot: int, tuning: Mapping[str, object] | None = None) -> Path:
    """The template of `model`, or of the formula a switch of `tuning` picks."""
    suffix = "".join(
        end for switch, end in TEMPLATE_SWITCHES.items() if tuning is not None and tuning.get(switch, False)
    )
    return TEMPLATES / f"godot{godot}" / f"{model.NAME}{suffix}.gd"


def has_script(model: ModuleType) -> bool:
    """Whether `model` exports as a Godot script (a template of its name exists for
    every version)."""
    return all(_template_path(model, godot).is_file() for godot in GODOT_VERSIONS)


def template(model: ModuleType, godot: int, tuning: Mapping[str, object] | None = None) -> str:
    if not has_script(model):
        raise GodotError(f"the {model.TITLE} model has no Godot script")
    return _template_path(model, godot, tuning).read_text(encoding="utf-8")


def script_actions(text: str) -> dict[str, tuple[str, ...]]:
    """The input actions (of ACTION_KEYS) a template reads, with their keys."""
    return {name: keys for name, keys in ACTION_KEYS.items() if f'"{name}"' in text}


def _header(preset: Preset, godot: int, actions: dict[str, tuple[str, ...]]) -> list[str]:
    """The comment lines above `extends`: the model, preset and version, the tick rate,
    the units, and the input actions with their keys."""
    rate = next((p for p in preset.model.PARAMS if p.name == "rate_independent"), None)
    rate_note = (
        ""
        if not (rate and preset.tuning[rate.name] and rate.applies(preset.tuning))
        else " (rate_independent is on: any rate drives alike)"
    )
    action_list = ", ".join(f"{name} ({' or '.join(key.title() for key in keys)})" for name, keys in actions.items())
    header = _comment(
        f"Exported by car-sandbox {sandbox_version()}: preset {preset.name!r}, model {preset.model.TITLE}."
    ) + [
        f"# Tuned at {preset.hz} physics ticks per second: set Project Settings > Physics > Common >",
        f"# {DIALECTS[godot]['RATE_SETTING']} to {preset.hz}{rate_note}.",
    ]
    if preset.model.LENGTH_UNIT == "m":
        header.append("# Lengths in metres, as in the sandbox; the node moves pixels_per_metre pixels a metre.")
    if preset.tuning.get("analog_pedals", True):
        reading = "read as analog strengths (a gamepad's triggers and stick work)"
    else:
        keys = "keys and pedals" if preset.tuning.get("recipe_2020") else "pedals"
        reading = (
            f"the {keys} read as the recipe reads them, pressed or not (turn on analog_pedals for a gamepad's triggers)"
        )
    header += _comment(f"Input actions, {reading}: {action_list}.")
    engine = export_note(preset.model, preset.tuning, godot)
    if engine:
        header += _comment(engine[0].upper() + engine[1:] + ".")
    if godot == 4:  # physical_keycode: a key by its place on the keyboard
        return header + [
            "# Actions missing from the project's Input Map are added when the car is ready, with",
            "# these keys where they sit on a QWERTY keyboard (on AZERTY, W A S D are Z Q S D).",
        ]
    return header + ["# Actions missing from the project's Input Map are added with these keys when the car is ready."]


def _constants(preset: Preset, godot: int, actions: dict[str, tuple[str, ...]]) -> list[str]:
    """The model and format an import reads, and the actions with their keys (typed in Godot 4)."""
    from .presets import FORMAT

    string, number, table = (": String", ": int", ": Dictionary") if godot == 4 else ("", "", "")
    rows = "".join(f'\t"{name}": [{", ".join(f"KEY_{key}" for key in keys)}],\n' for name, keys in actions.items())
    return [
        f'const SANDBOX_MODEL{string} = "{preset.model.NAME}"',
        f"const SANDBOX_FORMAT{number} = {FORMAT}",
        f"const ACTIONS{table} = {{\n{rows}}}",
    ]


def _scale(godot: int, px_per_metre: float) -> str:
    """A metric model's exported pixels_per_metre, with what it means above it."""
    about = "the model computes in metres; the node moves this many pixels for each."
    if godot == 4:
        return "\n".join(
            _comment(f"Pixels per metre, in px/m: {about}", "##")
            + [_exported(SCALE_VARIABLE, px_per_metre, 4, PX_PER_METRE_RANGE, ("suffix:px/m",), exact=True)]
        )
    return "\n".join(
        _comment(f"Pixels per metre [px/m]: {about}")
        + [_exported(SCALE_VARIABLE, px_per_metre, 3, PX_PER_METRE_RANGE, exact=True)]
    )


def _fills(preset: Preset, godot: int, text: str, px_per_metre: float) -> dict[str, str]:
    """What the placeholders of a model's template stand for."""
    actions = script_actions(text)
    return {
        "HEADER": "\n".join(_header(preset, godot, actions)),
        "CONSTANTS": "\n".join(_constants(preset, godot, actions)),
        "PARAMS": _declarations(preset, godot),
        "SCALE": _scale(godot, px_per_metre) if preset.model.LENGTH_UNIT == "m" else "",
        "ASSIST_MIN_SPEED": repr(ASSIST_MIN_SPEED[preset.model.LENGTH_UNIT]),
        **{key: _snippet(name, godot) for key, name in SNIPPETS.items() if "{{" + key + "}}" in text},
    }


def _snippet(name: str, godot: int) -> str:
    """A piece shared by several templates of Godot `godot` (godot_templates/godot<N>/_<name>.gd),
    without the comment at its top that says what it is (up to its first blank line)."""
    text = (TEMPLATES / f"godot{godot}" / f"_{name}.gd").read_text(encoding="utf-8")
    return text.split("\n\n", 1)[1].rstrip("\n")


def export_script(preset: Preset, godot: int, px_per_metre: float = DEFAULT_PX_PER_METRE) -> str:
    """`preset`'s model as a Godot 3 (KinematicBody2D) or 4 (CharacterBody2D) script,
    with its values as the exported variables' defaults."""
    if godot not in GODOT_VERSIONS:
        raise GodotError(f"Godot version {godot!r} is not one of {GODOT_VERSIONS}")
    low, high, _ = PX_PER_METRE_RANGE
    if not low <= px_per_metre <= high:
        raise GodotError(f"pixels per metre must be {low:g} … {high:g}, got {px_per_metre:g}")
    text = template(preset.model, godot, preset.tuning)
    fills = _fills(preset, godot, text, px_per_metre)
    # one pass: what a field holds (a preset's name in the header, say) is never read
    # again for placeholders, so no text of the user's can become code
    return _PLACEHOLDER.sub(lambda found: fills[found.group(1)], text)


def save_script(
    preset: Preset, path: str | os.PathLike, godot: int, px_per_metre: float = DEFAULT_PX_PER_METRE
) -> None:
    write_text_atomic(path, export_script(preset, godot, px_per_metre), GodotError)
