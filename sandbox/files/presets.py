"""Preset files: a model name and one value per parameter, as versioned JSON.

    {"format": 2, "model": "arcade", "name": "...", "description": "...", "hz": 60,
     "params": {"wheel_base": 70, ..., "rate_independent": false}}

Format history (a file of an older format loads with the newer fields' defaults):
  1  first release: format, model, name, description, params.
  2  "hz", the physics tick rate the tuning was made at (default 60, the recipe's);
     arcade parameter `rate_independent` (default false).
  3  rigid body parameters `grip_load` (default false) and `mu` (default 1.0); dynamic
     car parameters `four_wheel_brakes` (default false), `brake_total`, `brake_bias`
     and `abs` (default false).
  4  arcade parameters `recipe_2020` (default false: the recipe's Godot 4 formula) and
     `analog_pedals` (default false, the recipe's on/off pedals; files of an older
     format load with true, the analog pedals they drove with).
     Optional "precision": {parameter: ±}, the uncertainty a fit found for a value, in
     the parameter's unit (a Godot export writes that value to it); written only when
     there is one, so a file without it is as before (and loads as before: each value
     to its slider's step).
  5  every model's collision shape (physics/car_shape.py): `shape_kind` (written by
     name: "rectangle", "capsule" or "circle"), `shape_length`, `shape_width`,
     `shape_offset_x`, `shape_offset_y`, `shape_rotation`; files of an older format
     load with the model's declared shape.
  6  the kinematic models' (arcade, bicycle, Ackermann) `godot_engine`, the engine whose
     move_and_slide their walls follow (written by name: "Godot 4" or "Godot 3"); files
     of an older format load with "Godot 4" (physics/car_shape.py, `engine_param`).
  7  every model's steering feel (physics/steer_feel.py): `steer_time`, `return_time`,
     the speed curve (`speed_point_1..3`, `lock_at_1..3`, `rate_at_1..3`) and, in the
     models with slip angles, the assists (`countersteer_help`, `countersteer_slip`,
     `drift_hold`, `drift_hold_angle`); files of an older format load with the
     defaults, which leave the steering as it was.
A parameter declares the format that introduced it (`Param.since`), so presets written
before a model gained a parameter keep loading.
"""

from __future__ import annotations

import functools
import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Mapping

from ..errors import PresetError, printable, shown
from ..physics.models import DEFAULT_MODEL, get_model
from ..physics.params import Tuning
from ..physics.sim import TICK_RATES
from . import json_text
from .disk import read_text, write_text_atomic
from .package_data import find_builtin, package_folder

FORMAT = 7
DEFAULT_HZ = 60
PRESET_LIMIT = 1024 * 1024
"""bytes: a preset is a few hundred bytes; anything above a mebibyte is not one."""
TOP_LEVEL_KEYS = ("format", "model", "name", "description", "hz", "params", "precision")
BUILTIN_DIR = package_folder("builtin_presets")
"""The built-in presets, shipped inside the package (files/package_data.py)."""
DEFAULT_PRESET = BUILTIN_DIR / "recipe_defaults.json"
REFERENCE_PRESETS = {
    "arcade": "recipe_defaults",
    "bicycle": "bicycle_blog",
    "ackermann": "ackermann_van",
    "rigid_body": "rigid_body_seed",
    "monster": "monster_corvette_c5",
}
"""Each model's reference preset (a built-in file's stem): its source's own numbers, where
a fit of the model starts when it is given no tuning (`car-sandbox fit`, the Fit dialog)."""


@dataclass
class Preset:
    model: ModuleType
    tuning: Tuning
    name: str = "Untitled"
    description: str = ""
    hz: int = DEFAULT_HZ
    path: Path | None = field(default=None, compare=False)
    precision: dict[str, float] = field(default_factory=dict)
    """{parameter: ± in its unit} of the values a fit found (`fitted_precision`); a value
    without one is as precise as its slider's step."""


def fitted_precision(uncertainty: Mapping[str, float]) -> dict[str, float]:
    """A fit's uncertainties as a preset's precision: those finite and positive (a ±
    of 0, infinite or unknown says nothing of the value's precision: the step rule)."""
    return {name: float(u) for name, u in uncertainty.items() if _is_precision(u)}


def precision_kept(preset: Preset, tuning: Mapping[str, object]) -> dict[str, float]:
    """`preset`'s precision of the values `tuning` still holds as it does (one changed
    is another number: its slider's step is its precision)."""
    return {name: u for name, u in preset.precision.items() if tuning[name] == preset.tuning[name]}


def values_and_precision(preset: Preset) -> dict[str, tuple[float, float]]:
    """{parameter: (its value, the ± a fit found for it)} of `preset`'s fitted values."""
    return {name: (preset.tuning[name], u) for name, u in preset.precision.items()}


def _is_precision(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and value > 0


def user_dir() -> Path:
    """Folder for the user's own presets (platform user data folder).

    `CAR_SANDBOX_HOME` overrides the data folder (tests, portable installs).
    """
    home = os.environ.get("CAR_SANDBOX_HOME")
    if home:
        base = Path(home)
    else:
        import platformdirs

        base = Path(platformdirs.user_data_dir("car-sandbox", appauthor=False))
    return base / "presets"


def declared_preset(model: ModuleType, name: str) -> Preset:
    """A preset of `model` with every parameter at its declared default."""
    return Preset(model, Tuning(model.PARAMS), name)


def default_preset() -> Preset:
    """The recipe's defaults, from the built-in file or, failing that, the declaration."""
    try:
        return load_preset(DEFAULT_PRESET)
    except PresetError:
        return declared_preset(get_model(DEFAULT_MODEL), "Recipe defaults")


def reference_preset(model: ModuleType) -> Preset:
    """The model's reference preset (REFERENCE_PRESETS); PresetError if its file is damaged."""
    return load_preset(BUILTIN_DIR / f"{REFERENCE_PRESETS[model.NAME]}.json")


def parse_preset(text: str, source: str = "<preset>", fixes: list[str] | None = None) -> Preset:
    """Validate preset JSON text; PresetError names the source, field and allowed range.

    With `fixes` (a list), a bad tick rate or parameter value is replaced by its
    default instead, and a line saying so is added to `fixes` (for the autosave: one
    damaged value must not lose the whole tuning)."""

    def fail(what: str) -> PresetError:
        return PresetError(f"{source}: {what}")

    def replaced(what: str, default=None):
        """`default` in place of a bad value (None: left out), noted in `fixes`; without
        `fixes`, refused."""
        if fixes is None:
            raise fail(what)
        fixes.append(f"{what}; " + ("left out" if default is None else f"using {shown(default)}"))
        return default

    try:
        data = json_text.loads(text)
    except json.JSONDecodeError as exc:
        raise fail(f"not valid JSON (line {exc.lineno} column {exc.colno}: {exc.msg})") from None
    except json_text.DuplicateKey as exc:
        raise fail(f"field {shown(exc.args[0])!r} is written twice (which one is meant?)") from None
    except RecursionError:
        raise fail("not a preset (JSON nested too deeply)") from None
    if not isinstance(data, dict):
        raise fail("not a preset (expected a JSON object with format, model and params)")
    for key in data:
        if key not in TOP_LEVEL_KEYS:
            raise fail(f"field {key!r} is not part of a preset (allowed: {', '.join(TOP_LEVEL_KEYS)})")

    version = data.get("format")
    if isinstance(version, bool) or not isinstance(version, int):
        raise fail(f"field 'format' must be a whole number 1 … {FORMAT}, got {version!r}")
    if not 1 <= version <= FORMAT:
        raise fail(f"field 'format': version {version} is not one this sandbox reads (1 … {FORMAT})")

    model_name = data.get("model")
    if not isinstance(model_name, str):
        raise fail(f"field 'model' must be a model name, got {model_name!r}")
    try:
        model = get_model(model_name)
    except KeyError as exc:
        raise fail(f"field 'model': {exc.args[0]}") from None

    texts = {}
    for key, fallback in (("name", Path(source).stem), ("description", "")):
        value = data.get(key, fallback)
        if not isinstance(value, str):
            raise fail(f"field {key!r} must be text, got {type(value).__name__}")
        texts[key] = value

    hz = data.get("hz", DEFAULT_HZ)
    if isinstance(hz, bool) or not isinstance(hz, int) or hz not in TICK_RATES:
        rates = ", ".join(map(str, TICK_RATES))
        hz = replaced(f"field 'hz': {shown(repr(hz))} is not an offered tick rate ({rates} Hz)", DEFAULT_HZ)

    params = data.get("params")
    if not isinstance(params, dict):
        raise fail("field 'params' must be an object of parameter values")
    declared = {p.name: p for p in model.PARAMS}
    for name in params:
        if name not in declared:
            replaced(f"field 'params.{shown(name)}': unknown parameter of model {model_name!r}")
    values = {}
    # the switches first: they decide what the other numbers mean (Param.under)
    for p in sorted(model.PARAMS, key=lambda p: not p.is_bool):
        applying = p.under(values)
        if p.name not in params:
            if p.since <= version:
                values[p.name] = replaced(
                    f"field 'params.{p.name}' is missing (allowed {applying.range_text()})", applying.default
                )
            else:
                values[p.name] = p.older_value()  # added after this file's format
            continue
        try:
            values[p.name] = applying.check(params[p.name])
        except ValueError as exc:
            values[p.name] = replaced(f"field 'params.{p.name}': {exc}", applying.default)
    precision = _precision(data.get("precision", {}), declared, replaced)
    return Preset(model, Tuning(model.PARAMS, values), texts["name"], texts["description"], hz, precision=precision)


def _precision(given: object, declared: dict, replaced) -> dict[str, float]:
    """The "precision" field: {a numeric parameter: a positive finite ± in its unit};
    a bad entry is refused (or, `replaced`, left out)."""
    if not isinstance(given, dict):
        replaced("field 'precision' must be an object of parameters and their ± (a fit's)")
        return {}
    precision = {}
    for name, value in given.items():
        p = declared.get(name)
        if p is None or not p.is_number:
            replaced(f"field 'precision.{shown(name)}': not a numeric parameter of this model")
        elif not _is_precision(value):
            replaced(f"field 'precision.{name}': {shown(repr(value))} is not a positive number (the ± a fit found)")
        else:
            precision[name] = float(value)
    return precision


def load_preset(path: str | os.PathLike) -> Preset:
    preset = parse_preset(read_text(path, PRESET_LIMIT, PresetError), printable(path))
    preset.path = Path(path)
    return preset


def find_preset(given: str | os.PathLike) -> Path:
    """The preset file `given` names: that file when it exists, else the built-in preset
    whose name or file stem it is, whatever the case ("drift", "Corvette C5 (road test)",
    "monster_corvette_c5.json"); PresetError listing the close names when there is none."""
    return find_builtin(given, _builtin_names(), "preset", PresetError)


def _builtin_names() -> dict[str, Path]:
    """{a built-in preset's file stem or name, in lower case: its file}."""
    names: dict[str, Path] = {}
    for path in sorted(BUILTIN_DIR.glob("*.json")):
        names[path.stem.lower()] = path
        try:
            name = json.loads(path.read_text(encoding="utf-8")).get("name")
        except (OSError, ValueError, AttributeError):  # a damaged file is still found by its stem
            continue
        if isinstance(name, str):
            names.setdefault(name.strip().lower(), path)
    return names


def dump_preset(preset: Preset) -> str:
    data = {
        "format": FORMAT,
        "model": preset.model.NAME,
        "name": preset.name,
        "description": preset.description,
        "hz": preset.hz,
        "params": {p.name: p.written(preset.tuning[p.name]) for p in preset.model.PARAMS},
    }
    if preset.precision:
        data["precision"] = dict(preset.precision)
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def backup_path(path: Path) -> Path:
    return path.with_name(path.name + ".bak")


def save_preset(preset: Preset, path: str | os.PathLike) -> None:
    """Write atomically (temporary file, then rename). A file already there is kept as
    `<name>.json.bak` first, atomically too, so the previous version survives one save;
    a save that fails leaves both files as they were."""
    path = Path(path)
    write_text_atomic(path, dump_preset(preset), PresetError, backup=backup_path(path))
    preset.path = path


def list_presets() -> list[tuple[Path, str, bool, str | None]]:
    """(path, display name, is_builtin, model name) of built-in then user presets.

    A file that does not load is listed with its file name, a warning sign and no
    model, so the user can open it and read the message. The built-in presets are
    read once per process (package data, unchanged while running); the user's folder
    is read each time, so a file saved or edited meanwhile is listed as it is now.
    """
    return [*_builtin_presets(), *_listed(user_dir(), builtin=False)]


@functools.cache
def _builtin_presets() -> tuple[tuple[Path, str, bool, str | None], ...]:
    return tuple(_listed(BUILTIN_DIR, builtin=True))


def _listed(folder: Path, builtin: bool) -> list[tuple[Path, str, bool, str | None]]:
    if not folder.is_dir():
        return []
    found = []
    for path in sorted(folder.glob("*.json"), key=lambda p: (p != DEFAULT_PRESET, p.name)):
        try:
            preset = load_preset(path)
            name, model = preset.name, preset.model.NAME
        except PresetError:
            name, model = f"{path.stem} ⚠", None
        found.append((path, name, builtin, model))
    return found
