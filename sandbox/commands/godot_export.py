"""`export-godot`: a preset's car written as a Godot script or scene, or its values
written into the user's own script (`--into`)."""

from __future__ import annotations

import sys

from ..errors import UserError, printable, shown


def run(args) -> None:
    from ..files.godot import DEFAULT_PX_PER_METRE, ROUNDED_NOTE, off_step
    from ..files.godot_engine_of import export_note
    from ..files.presets import load_preset

    into_only = [
        flag
        for flag, given in (("--no-backup", args.no_backup), ("--diff", args.diff), ("--dry-run", args.dry_run))
        if given
    ]
    if args.link:
        return _export_link(args)
    if args.for_script is not None:
        raise UserError("--for-script: only with --link (the link node made for your own script)")
    if args.with_link and not args.scene:
        raise UserError("--with-link: only with --scene (the link node in the exported scene)")
    if args.replace and not args.scene:
        raise UserError("--replace: only with --scene (the scripts written beside the scene)")
    if args.preset is None:
        raise UserError("--preset: which preset's car to export (a preset file, or a built-in preset's name)")
    if args.into is not None:
        return _export_into(args)
    if into_only:
        raise UserError(f"{', '.join(into_only)}: only with --into (writing into your own script)")
    args.godot = args.godot or 4
    preset = load_preset(args.preset)
    scale = DEFAULT_PX_PER_METRE if args.pixels_per_metre is None else args.pixels_per_metre
    if args.pixels_per_metre is not None and preset.model.LENGTH_UNIT != "m":
        raise UserError(f"--pixels-per-metre: the {preset.model.TITLE} model works in pixels already")
    _export(args, preset, scale)
    engine = export_note(preset.model, preset.tuning, args.godot)
    if engine:
        print(f"note: {engine}")
    rounded = off_step(preset)
    if rounded:
        print(f"{ROUNDED_NOTE}: " + ", ".join(rounded.values()))


def _export(args, preset, scale: float) -> None:
    """export-godot --out: the script, or with --scene the scene and its scripts."""
    from ..files.godot import save_script
    from ..files.godot_scene import ScriptsInTheWay, save_scene

    if args.scene:
        if args.out.suffix.lower() != ".tscn":
            raise UserError(f"--out {shown(str(args.out))}: a scene's file name ends in .tscn")
        backups: dict = {}
        try:
            scene, script, *link = save_scene(
                preset, args.out, args.godot, scale, args.with_link, args.replace, backups
            )
        except ScriptsInTheWay as exc:
            them = "it" if len(exc.scripts) == 1 else "them"
            raise UserError(f"{exc} (--replace replaces {them}, keeping the old as a backup)") from None
        for old, kept in backups.items():
            print(f"replaced {printable(old)}: the old one is kept as {printable(kept)}")
        print(f"wrote {printable(scene)} and its script {printable(script)} (Godot {args.godot}, {preset.model.TITLE})")
        if link:
            print(f"wrote {printable(link[0])}, the link node, a child of the car in the scene: {LINK_TOKEN_NOTE}")
        return
    save_script(preset, args.out, args.godot, scale)
    print(f"wrote {printable(args.out)} (Godot {args.godot}, {preset.model.TITLE})")


LINK_TOKEN_NOTE = "set its token to the one the sandbox prints when it listens (car-sandbox link)"


def _export_link(args) -> None:
    """export-godot --link: the link node for the preset's exported script, or for the
    user's own (--for-script)."""
    from ..files.disk import read_text
    from ..files.godot import SCRIPT_LIMIT, GodotError
    from ..files.godot_link import export_link_node, link_table, save_link_node, script_label
    from ..files.presets import load_preset

    ignored = [
        flag
        for flag, given in (
            ("--into", args.into is not None),
            ("--scene", args.scene),
            ("--with-link", args.with_link),
            ("--pixels-per-metre", args.pixels_per_metre is not None),
            ("--no-backup", args.no_backup),
            ("--diff", args.diff),
            ("--dry-run", args.dry_run),
        )
        if given
    ]
    if ignored:
        also = " (a scene with the node: --scene --with-link)" if args.scene or args.with_link else ""
        raise UserError(f"{', '.join(ignored)}: not with --link, which writes the link node only{also}")
    if args.preset is None and args.for_script is None:
        raise UserError(
            "--link: which car is the node for? --preset (the car the sandbox exports of it) or "
            "--for-script (your own car script)"
        )
    godot = args.godot or 4
    preset = load_preset(args.preset) if args.preset is not None else None
    model = preset.model if preset else None
    if args.for_script is not None:
        text = read_text(args.for_script, SCRIPT_LIMIT, GodotError)
        source = printable(args.for_script)
        table = link_table(model, None, text, source)
        node = export_link_node(model, godot, text, script_label(args.for_script))
        made_for = f"your script {source}"
    else:
        table = link_table(model, preset.tuning)
        node = export_link_node(model, godot, tuning=preset.tuning)
        made_for = f"the exported script of preset {preset.name!r}"
    if args.out.suffix.lower() != ".gd":
        raise UserError(f"--out {shown(str(args.out))}: the link node is a script, its file name ends in .gd")
    save_link_node(args.out, node)
    print(f"wrote {printable(args.out)}, the link node for {made_for} (Godot {godot}, {table.model.TITLE})")
    print(f"add it to your game as a child of the car, and {LINK_TOKEN_NOTE}")
    if table.missing:
        print("not in the script, so the node leaves them out: " + ", ".join(table.missing))


def _export_into(args) -> None:
    """export-godot --into: the preset's values written into the user's own script."""
    from ..files.godot import ROUNDED_NOTE
    from ..files.godot_into import read_update, write_into
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
            kept = (
                ""
                if update.backup is None
                else f"; the old file is kept as {printable(update.backup)} (earlier backups are never replaced)"
            )
            done = f"updated with the values of preset {preset.name!r}{kept}"
        print(f"{printable(args.into)}: {done}:")
        for change in update.changed:
            print(f"  {change}")
    if update.rounded:
        print(f"{ROUNDED_NOTE}: " + ", ".join(update.rounded))
    if update.missing:
        print("not in the script (not added): " + ", ".join(update.missing))
    for note in update.notes:
        print(f"note: {note}", file=sys.stderr)
    if args.diff and update.diff:
        print(update.diff)
