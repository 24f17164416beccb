"""`export-godot`: a preset's car written as a Godot script or scene, or its values
written into the user's own script (`--into`)."""

from __future__ import annotations

import sys

from ..errors import UserError, printable, shown


def run(args) -> None:
    from ..files.godot import DEFAULT_PX_PER_METRE, save_script
    from ..files.godot_scene import save_scene
    from ..files.presets import load_preset

    into_only = [
        flag
        for flag, given in (("--no-backup", args.no_backup), ("--diff", args.diff), ("--dry-run", args.dry_run))
        if given
    ]
    if args.into is not None:
        return _export_into(args)
    if into_only:
        raise UserError(f"{', '.join(into_only)}: only with --into (writing into your own script)")
    args.godot = args.godot or 4
    preset = load_preset(args.preset)
    scale = DEFAULT_PX_PER_METRE if args.pixels_per_metre is None else args.pixels_per_metre
    if args.pixels_per_metre is not None and preset.model.LENGTH_UNIT != "m":
        raise UserError(f"--pixels-per-metre: the {preset.model.TITLE} model works in pixels already")
    if args.scene:
        if args.out.suffix.lower() != ".tscn":
            raise UserError(f"--out {shown(str(args.out))}: a scene's file name ends in .tscn")
        scene, script = save_scene(preset, args.out, args.godot, scale)
        print(f"wrote {printable(scene)} and its script {printable(script)} (Godot {args.godot}, {preset.model.TITLE})")
        return
    save_script(preset, args.out, args.godot, scale)
    print(f"wrote {printable(args.out)} (Godot {args.godot}, {preset.model.TITLE})")


def _export_into(args) -> None:
    """export-godot --into: the preset's values written into the user's own script."""
    from ..files.godot_into import backup_path, read_update, write_into
    from ..files.presets import load_preset

    ignored = [
        flag
        for flag, given in (
            ("--scene", args.scene),
            ("--godot", args.godot is not None),
            ("--pixels-per-metre", args.pixels_per_metre is not None),
        )
        if given
    ]
    if ignored:
        raise UserError(
            f"{', '.join(ignored)}: --into writes the values into your script as it is, so these do not apply"
        )
    preset = load_preset(args.preset)
    if args.dry_run:
        _, update = read_update(args.into, preset)
    else:
        update = write_into(args.into, preset, backup=not args.no_backup)
    if not update.changed:
        print(f"{printable(args.into)} already holds the values of preset {preset.name!r}: nothing was written")
    else:
        if args.dry_run:
            done = "would change (nothing was written, --dry-run)"
        else:
            kept = "" if args.no_backup else f"; the old file is kept as {printable(backup_path(args.into))}"
            done = f"updated with the values of preset {preset.name!r}{kept}"
        print(f"{printable(args.into)}: {done}:")
        for change in update.changed:
            print(f"  {change}")
    if update.missing:
        print("not in the script (not added): " + ", ".join(update.missing))
    for note in update.notes:
        print(f"note: {note}", file=sys.stderr)
    if args.diff and update.diff:
        print(update.diff)
