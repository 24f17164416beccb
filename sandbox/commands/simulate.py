"""`simulate`: replay a control trace through a preset's car and write the trajectory CSV
(on a track: from its spawn, or `--start`, with the tick's wall contacts and the cones
knocked so far as its last columns, the cones knocked printed at the end; a trace or
recording that names the track it was driven on is driven on it again unless `--track`
says otherwise); with `--channels`, the model's channels chosen (physics/channels.py)
after them, each column named with its unit."""

from __future__ import annotations

import sys

from ..errors import TraceError
from .progress import Progress

CONTACT_COLUMN = "wall_contacts"
"""The trajectory's column on a track: the walls the tick met (0: none); the state
value of that name, so a recording holding it reads as before."""
CONES_COLUMN = "cones_hit"
"""The trajectory's last column on a track: the cones the car has knocked so far."""


def _track_and_start(args):
    """(the track or None, the start pose in the model's unit or None) of the options."""
    import math
    from dataclasses import replace

    from ..errors import printable
    from ..files.recorded_track import named_track, open_recorded_track
    from ..files.tracks import find_builtin_track, open_track
    from ..physics.track import Pose

    pose = None if args.start is None else Pose(args.start[0], args.start[1], math.radians(args.start[2]))
    if args.track is None:
        named = named_track(args.controls)  # a drive saved on a track: driven on it again
        if named is None:
            return None, pose
        track = open_recorded_track(named, printable(args.controls))
    else:
        track = open_track(find_builtin_track(args.track))
    return (track if pose is None else replace(track, spawn=pose)), None


def chosen_channels(model, text: str | None) -> tuple:
    """The channels `--channels` names for `model` (comma-separated, or all); a UserError
    names a wrong one and lists the channels."""
    from ..errors import UserError
    from ..physics.channels import channels_of, find_channels

    if text is None:
        return ()
    try:
        return find_channels(text.split(","), channels_of(model))
    except ValueError as exc:
        raise UserError(f"--channels: {exc}") from None


def run(args) -> None:
    from ..csv_rows import format_rows
    from ..files.disk import write_atomic
    from ..files.presets import load_preset
    from ..files.traces import TRAJECTORY_COLUMNS, trace_chunks
    from ..physics.channels import column_name
    from ..physics.sim import trace_trajectory

    preset = load_preset(args.preset)
    channels = chosen_channels(preset.model, getattr(args, "channels", None))
    track, start = _track_and_start(args)
    if track is not None and not getattr(preset.model, "MEETS_WALLS", False):
        print(f"note: the {preset.model.TITLE} model does not meet walls yet; it drives through them", file=sys.stderr)
    columns = TRAJECTORY_COLUMNS + (CONTACT_COLUMN, CONES_COLUMN) if track is not None else TRAJECTORY_COLUMNS
    columns += tuple(column_name(c) for c in channels)
    progress = Progress("simulating")
    shares, knocked = [], []

    def chunks():
        for rows, share in trace_chunks(args.controls):
            shares.append(share)
            yield rows

    def write(name: str) -> None:
        """Header, then each chunk's rows as it is simulated: memory bounded by a chunk."""
        with open(name, "w", encoding="utf-8", newline="\n") as f:
            f.write(",".join(columns) + "\n")
            hz = args.hz or preset.hz
            drives = trace_trajectory(
                preset.model, preset.tuning, chunks(), hz, track, start, contacts=track is not None, channels=channels
            )
            for rows in drives:
                f.write(format_rows((), rows)[1:])
                progress(shares[-1])
                if track is not None and len(rows):
                    knocked[:] = [int(rows[-1, len(TRAJECTORY_COLUMNS) + 1])]

    finished = False
    try:
        write_atomic(args.out, write, TraceError)
        finished = True
    finally:
        progress.close(finished)
    if finished and track is not None and track.cones:
        print(f"cones knocked: {knocked[0] if knocked else 0} of {len(track.cones)}")
