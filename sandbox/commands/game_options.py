"""The `fit` and `link` commands' options: the commands that work with the user's game
(a drive recorded there, the running game itself)."""

from __future__ import annotations

from pathlib import Path

from . import link
from .arguments import heading_weight, output_path, param_names, seed_number, segment_ticks
from .shared_options import PRESET_HELP, TRACK_HELP, shared


def declare_fit(sub) -> None:
    """`car-sandbox fit`: which tuning drives a recorded drive."""
    p = sub.add_parser(
        "fit",
        help="find the tuning of a model that drives a recorded drive (a trace with the car's pose per tick)",
    )
    p.add_argument(
        "--trace",
        type=Path,
        required=True,
        help="the recording: CSV with the controls, t, x, y, heading[, vx, vy, state columns] per tick",
    )
    p.add_argument(
        "--model",
        required=True,
        metavar="MODEL|all",
        help="the model fitted, or all: every model in the recording's units (the best is named)",
    )
    shared(
        p,
        "--preset",
        required=False,
        help=f"{PRESET_HELP}: the start, and the values kept (default: the model's reference preset)",
    )
    moved = p.add_mutually_exclusive_group()
    moved.add_argument("--free", type=param_names, help="only these parameters are fitted (comma-separated)")
    moved.add_argument("--lock", type=param_names, help="every slider is fitted but these (comma-separated)")
    shared(p, "--hz", help="the recording's tick rate in Hz (needed without a t column; checked against it)")
    p.add_argument(
        "--segment",
        type=segment_ticks,
        help="ticks between the moments the car is put back on the recording (default: one second's)",
    )
    p.add_argument(
        "--heading-weight",
        type=heading_weight,
        help="length units (px or m) a heading error of 1 rad weighs as (default: half the car's length)",
    )
    p.add_argument(
        "--units",
        choices=("px", "m"),
        help="the recording's length unit (default: m when the car never goes faster than 150 units/s, else px)",
    )
    p.add_argument(
        "--seed", type=seed_number, default=1, help="the search's random seed: the same seed, the same result"
    )
    p.add_argument(
        "--track",
        help="the track the drive was on, its walls met as the car drove (default: the track the recording "
        "names, else the open field): " + TRACK_HELP,
    )
    shared(p, "--out", required=False, help="preset JSON file to write the best fit to")
    shared(p, "--json")


def declare_link(sub) -> None:
    """`car-sandbox link`: the running game."""
    p = sub.add_parser(
        "link",
        help="listen for your running Godot game (its link node), send it values, record its drive",
    )
    p.add_argument(
        "--port", type=link.port_number, default=47620, help="UDP port to listen on (default 47620; 0: any free one)"
    )
    p.add_argument(
        "--host",
        type=link.link_host,
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1, this computer only; another one is reachable from "
        "other computers)",
    )
    p.add_argument("--token", type=link.link_token, help="the token the game's link node has (default: a new one)")
    p.add_argument(
        "--set",
        type=link.set_value,
        nargs="+",
        action="extend",
        metavar="NAME=VALUE",
        help="values to send to the game, checked against the model's ranges first (true/false for an option)",
    )
    p.add_argument(
        "--record",
        dest="out",
        type=output_path,
        metavar="OUT_CSV",
        help="record the game's drive for --seconds to this recording (CSV: controls and pose per tick)",
    )
    p.add_argument("--seconds", type=link.linked_seconds, help="how long to stay linked (and record, with --record)")
    p.add_argument(
        "--wait",
        type=link.wait_seconds,
        default=30.0,
        help="seconds to wait for the game's hello before giving up (default 30)",
    )
    shared(p, "--json", help="print everything as one JSON object (the address and token go to stderr)")
