"""The options several `car-sandbox` commands share, each declared once (SHARED) and
added to each command from there (`shared`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from .arguments import output_path, tick_rate

PRESET_HELP = "preset JSON file or built-in preset name"
TRACK_HELP = (
    "a track file (.json; a racetrack-database circuit .csv; a Godot level .tscn) or a built-in track's "
    "name (open_field, skid_pad, slalom, drag_strip, parking_lot, club_circuit)"
)
LAP_TRACK_HELP = (
    "a closed track with a start line to lap: the driver's lap time and sector times are measured "
    "beside the metrics (lap_time, sector_1 …): " + TRACK_HELP
)
SHARED = {
    "--preset": {"type": Path, "required": True, "help": PRESET_HELP},
    "--hz": {"type": tick_rate, "help": "physics tick rate in Hz (default: the preset's)"},
    "--json": {"action": "store_true", "help": "as JSON"},
    "--out": {"type": output_path, "required": True},
}
"""The options several commands share, each declared once; a command changes only what
differs for it (its help, whether it is required)."""


def shared(parser, flag: str, **changes) -> argparse.Action:
    """Add the shared option `flag` to a command's parser, with `changes` to its declaration."""
    return parser.add_argument(flag, **{**SHARED[flag], **changes})
