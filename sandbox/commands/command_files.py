"""The files a command names, before any work: each preset and control trace argument
found (a file, or a built-in preset's or test drive's name), and every file it writes
checked against those it reads."""

from __future__ import annotations

import os
from pathlib import Path


def command_files(args) -> tuple[list[Path], list[Path]]:
    """(every file a command writes, every file it reads), from its arguments."""
    named = ("preset", "controls", "script", "trace", "track")
    reads = [getattr(args, name, None) for name in named] + list(getattr(args, "ghost", []))
    writes = [getattr(args, "out", None)]
    if writes[0] is not None and getattr(args, "scene", False):  # a scene's script beside it, the old one kept
        from ..files.godot_into import backup_path as script_backup

        script = Path(writes[0]).with_suffix(".gd")
        writes += [script] + ([script_backup(script)] if os.path.lexists(script) else [])
    if writes[0] is not None and args.command in ("import-godot", "tune", "fit", "link"):  # the old one kept as .bak
        from ..files.presets import backup_path

        writes.append(backup_path(Path(writes[0])))
    into = getattr(args, "into", None)
    if into is not None and not args.dry_run:
        from ..files.godot_into import backup_path

        writes += [into] + ([] if args.no_backup else [backup_path(into)])
    return [Path(w) for w in writes if w is not None], [Path(r) for r in reads if r is not None]


def find_presets(args) -> None:
    """Each preset argument as the file it names: a file, or a built-in preset's name
    or file stem (`--preset drift`); a miss is refused with the close names."""
    from ..files.presets import find_preset

    if getattr(args, "preset", None) is not None:
        args.preset = find_preset(args.preset)
    if getattr(args, "ghost", None):
        args.ghost = [find_preset(ghost) for ghost in args.ghost]


def find_traces(args) -> None:
    """The control trace argument as the file it names: a file, or a built-in test
    drive's name (`--controls slalom`); a miss is refused naming the built-in drives."""
    from ..files.traces import find_trace

    if getattr(args, "controls", None) is not None:
        args.controls = find_trace(args.controls)


def check_outputs(args) -> None:
    """Before any work: every file the command writes may be written, and is none of
    the files it reads (a refusal at the end of a long sweep would waste it)."""
    from ..files.disk import check_target, remove_stale

    writes, reads = command_files(args)
    for path in writes:
        check_target(path, reads)
    for folder in {path.parent for path in writes}:  # what a killed run of a command left there
        remove_stale(folder)
