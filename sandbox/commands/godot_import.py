"""`import-godot`: a Godot car script, or a car scene (its script and its collision shape),
read back into a preset (nothing in it is run); the controller dead zones of the game's
project.godot, where a folder above the file holds one, are said after it."""

from __future__ import annotations

import sys

from ..errors import printable


def run(args) -> None:
    from dataclasses import replace

    from ..files.godot_car_scene import load_car
    from ..files.presets import declared_preset, load_preset, precision_kept, save_preset
    from ..physics.models import arcade
    from ..session.import_dead_zones import imported_zones

    base = load_preset(args.preset) if args.preset else None
    # a script that names no model is the recipe's own car.gd, or a port of it
    result = load_car(args.script, base.model if base else None, fallback=arcade)
    if base is None:  # the script named its model: the rest at that model's defaults
        base = declared_preset(result.model, f"{result.model.TITLE} defaults")
    tuning = base.tuning.copy()
    tuning.set_many(result.values)
    name = f"Imported from {printable(args.script.name)}"
    preset = replace(base, tuning=tuning, name=name, path=None, precision=precision_kept(base, tuning))
    save_preset(preset, args.out)
    project = imported_zones(args.script, result.godot)  # the game's project, where one holds the file
    for warning in result.warnings + list(project.notes if project else ()):
        print(f"note: {warning}", file=sys.stderr)
    follows = f"; the script follows {result.formula.describe()}" if result.formula else ""
    print(
        f"wrote {printable(args.out)}: {len(result.values)} values of the {result.model.TITLE} model from "
        f"{printable(args.script)}" + follows
    )
    if project is not None and project.said:
        print(project.said)
