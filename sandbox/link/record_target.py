"""Where a recording of the game's drive may be written: a new file, or over an older
recording, which is then kept as NAME.bak (as a preset written over is); never over
any other file (a preset, a trace of controls, anything the recording loader would not
take as a recording). Checked before a drive is recorded and again when it is written."""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import TraceError, UserError, printable
from ..files.presets import backup_path  # drive.csv.bak beside drive.csv, as a preset's
from .protocol import LinkError


def what_it_is(path: Path) -> str | None:
    """None when `path` holds a recording (of any length: a short drive is still one),
    else what it holds, as the loaders tell it."""
    from ..files.presets import load_preset
    from ..files.recordings import load_recording
    from ..files.traces import load_trace

    try:
        load_recording(path, shortest_s=0.0)
        return None
    except TraceError as exc:
        why = str(exc)
    try:
        load_recording(path, hz=60.0, shortest_s=0.0)  # one without t (its rate given when it is fitted)
        return None
    except TraceError:
        pass
    try:
        preset = load_preset(path)
        return f"a preset (“{printable(preset.name)}”)"
    except UserError:
        pass
    try:
        load_trace(path)
        return "a trace of controls only (no pose columns)"
    except UserError:
        pass
    return f"a file the recording loader refuses ({why})"


def replaced_recording(path: str | os.PathLike) -> Path | None:
    """Where the recording now at `path` will be kept (its .bak) when a new one is
    written there; None when there is no file there. LinkError, naming what the file
    is, when it is not a recording: then nothing may be written there."""
    path = Path(path)
    if not os.path.lexists(path):
        return None
    what = what_it_is(path)
    if what is not None:
        raise LinkError(
            f"{printable(path)} is {what}, not a recording: nothing was written (a recording of the game's "
            "drive replaces only an older recording, kept as .bak; choose another file)"
        )
    return backup_path(path)
