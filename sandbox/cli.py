"""`car-sandbox` command line: the window, and headless commands on the same code.

The options several commands share are declared once (commands/shared_options.py) and added to each
command from there; each command's work is in its own module of sandbox/commands,
which imports what it needs (the physics, Qt) only when it runs: `--help` and a
command that needs no Qt start fast."""

from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path

from . import __version__
from .commands import (
    fit,
    force_curve_file,
    godot_export,
    godot_import,
    lap,
    link,
    metrics,
    params,
    rates,
    reports,
    screenshot,
    sensitivity,
    simulate,
    sweep,
    track,
    tune,
    window,
)
from .commands.arguments import (
    ZOOMS,
    output_path,
    param_names,
    px_per_metre,
    seconds,
    seed_number,
    start_pose,
    whole_minutes,
    zoom,
)
from .commands.command_files import check_outputs, find_presets, find_traces
from .commands.game_options import declare_fit, declare_link
from .commands.metrics_help import METRICS_EPILOG, TUNE_EPILOG, MetricsHelp, metrics_help
from .commands.params import params_table_markdown
from .commands.progress import Progress, Watchdog
from .commands.shared_options import LAP_TRACK_HELP, PRESET_HELP, TRACK_HELP, shared
from .commands.sweep import LONG_SWEEP_S, SAY_ESTIMATE_AFTER_S
from .commands.terminal import Stopped, TerminalSafe, say_stopped, stop_on
from .errors import UserError, printable_lines

__all__ = [  # also read by tests and tools from here
    "LONG_SWEEP_S",
    "SAY_ESTIMATE_AFTER_S",
    "ZOOMS",
    "Progress",
    "Watchdog",
    "build_parser",
    "find_presets",
    "find_traces",
    "main",
    "metrics_help",
    "params_table_markdown",
]

COMMANDS = {
    "simulate": simulate.run,
    "curves": force_curve_file.run,
    "params": params.run,
    "screenshot": screenshot.run,
    "bench": reports.bench,
    "rates": rates.run,
    "export-godot": godot_export.run,
    "import-godot": godot_import.run,
    "tune": tune.run,
    "fit": fit.run,
    "sensitivity": sensitivity.run,
    "metrics": metrics.run,
    "sweep": sweep.run,
    "soak": reports.soak,
    "link": link.run,
    "track": track.run,
    "lap": lap.run,
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="car-sandbox", description="Tune 2D top-down car physics. With no command, opens the window."
    )
    shared(
        parser,
        "--preset",
        required=False,
        help="preset file, or a built-in preset's name, to open (default: the last one used)",
    )
    parser.add_argument("--track", help=f"the track to open the window on: {TRACK_HELP} (default: the last one used)")
    parser.add_argument("--version", action="version", version=f"car-sandbox {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    hz_else_60 = "physics tick rate in Hz (default: the preset's, else 60)"

    p = sub.add_parser("simulate", help="replay a control trace and write the trajectory CSV")
    shared(p, "--preset")
    p.add_argument(
        "--controls",
        type=Path,
        required=True,
        help="CSV with header steer,throttle,brake, one row per tick, or a built-in test drive's name "
        "(slalom, hairpin, …)",
    )
    shared(p, "--out", help="trajectory CSV to write")
    shared(p, "--hz", help=hz_else_60)
    p.add_argument("--track", help="drive on this track, from its spawn: " + TRACK_HELP)
    p.add_argument(
        "--start",
        type=start_pose,
        metavar="X,Y,HEADING",
        help="start here instead (the track's unit, else the model's; heading in degrees, 0 along +x)",
    )
    p.add_argument(
        "--channels",
        metavar="A,B,C|all",
        help="also write these channels of the model (speed, yaw_rate, accel_lat, rpm, …; all: every one), "
        "each column named with its unit; a wrong name lists the channels",
    )

    p = sub.add_parser("curves", help="write the force-vs-speed plot as PNG, SVG or CSV")
    shared(p, "--preset")
    shared(p, "--out", help="output file: .png, .svg or .csv")
    shared(p, "--hz", help=hz_else_60)

    p = sub.add_parser("params", help="list every parameter declaration of every model")
    fmt = p.add_mutually_exclusive_group()
    shared(fmt, "--json")
    fmt.add_argument("--markdown", action="store_true", help="as the Markdown table of docs/models.md")

    p = sub.add_parser(
        "export-godot",
        help="write a preset's car as a Godot script (car.gd), or a scene with it, "
        "or write its values into your own script, or write the link node for your game",
    )
    shared(
        p,
        "--preset",
        required=False,
        help=f"{PRESET_HELP} (any model); not needed for --link --for-script",
    )
    where = p.add_mutually_exclusive_group(required=True)
    shared(
        where,
        "--out",
        required=False,
        help="car.gd to write; with --scene, car.tscn (its script car.gd is written beside it); "
        "with --link, the link node's .gd",
    )
    where.add_argument(
        "--into",
        type=output_path,
        metavar="SCRIPT",
        help="your own car script: only the values of its parameter declarations change, the rest "
        "stays as it is, byte for byte (the old file is kept as SCRIPT.bak, or when that is taken "
        "the next free of SCRIPT.bak2, .bak3, …: no backup is ever replaced)",
    )
    p.add_argument("--no-backup", action="store_true", help="with --into: keep no .bak copy of the old script")
    p.add_argument("--diff", action="store_true", help="with --into: also print the change as a unified diff")
    p.add_argument("--dry-run", action="store_true", help="with --into: show what would change, write nothing")
    p.add_argument("--godot", type=int, choices=(3, 4), help="4: CharacterBody2D (default); 3: KinematicBody2D")
    p.add_argument(
        "--scene",
        action="store_true",
        help="write a scene: the body with the script, a collision shape, the car drawn, a camera",
    )
    p.add_argument(
        "--pixels-per-metre",
        type=px_per_metre,
        default=None,
        metavar="PX",
        help="px/m of the exported pixels_per_metre (models in metres; default 25)",
    )
    p.add_argument(
        "--link",
        action="store_true",
        help="write the link node: add it to your game as a child of the car, and the sandbox can "
        "show and tune the car while the game runs (`car-sandbox link`); made for the preset's "
        "exported script, or with --for-script for your own",
    )
    p.add_argument(
        "--for-script",
        type=Path,
        metavar="SCRIPT",
        help="with --link: your own car script, read as import-godot reads it (nothing in it is run); "
        "the node sets the parameters it declares, under its variables' names",
    )
    p.add_argument(
        "--with-link",
        action="store_true",
        help="with --scene: the link node too, a child of the car (written beside the scene as NAME_link.gd)",
    )
    p.add_argument(
        "--replace",
        action="store_true",
        help="with --scene: replace a script already beside the scene with other text (your own car.gd, "
        "say); without it the export stops there. The old one is kept as a backup",
    )

    p = sub.add_parser(
        "import-godot",
        help="read a Godot car script (exported by the sandbox, or your own recipe car.gd), or a car scene "
        "(its script and its collision shape), back into a preset",
    )
    p.add_argument(
        "script",
        type=Path,
        help="the car.gd or car.tscn to read (nothing in it is run); a script that does not name "
        "its model is read as the recipe's car (the arcade); a scene gives its CollisionShape2D as the car's shape",
    )
    shared(p, "--out", help="preset JSON file to write")
    shared(
        p,
        "--preset",
        required=False,
        help="preset whose values a script without every parameter keeps (and whose model a "
        "script that does not name its model is read as)",
    )

    p = sub.add_parser(
        "tune",
        help="find the tuning nearest a preset whose metrics hit target values",
        epilog=TUNE_EPILOG,
        formatter_class=MetricsHelp,
    )
    shared(p, "--preset", help=f"{PRESET_HELP}: the start, and the values kept")
    p.add_argument(
        "--target",
        action="append",
        required=True,
        metavar="NAME=VALUE[±TOL]",
        help="a metric's wanted value in the model's units, e.g. top_speed=600±5 (repeat for each; "
        "the tolerance defaults to 2 %%)",
    )
    moved = p.add_mutually_exclusive_group()
    moved.add_argument("--free", type=param_names, help="only these parameters move (comma-separated)")
    moved.add_argument("--lock", type=param_names, help="every slider moves but these (comma-separated)")
    p.add_argument(
        "--range",
        action="append",
        default=[],
        metavar="NAME=LO:HI",
        help="search a parameter within LO … HI only (default: its slider's range)",
    )
    p.add_argument(
        "--seed", type=seed_number, default=1, help="the search's random seed: the same seed, the same result"
    )
    shared(p, "--hz")
    p.add_argument("--track", help=LAP_TRACK_HELP + "; a target may then be lap_time")
    shared(p, "--out", required=False, help="preset JSON file to write the tuning found to")
    p.add_argument("--name", help="the written preset's name (default: the start's, with \"(tuned)\")")
    shared(p, "--json")

    declare_fit(sub)

    p = sub.add_parser("sensitivity", help="how much each metric moves for a step and 10 %% of each slider")
    shared(p, "--preset")
    shared(p, "--hz")
    p.add_argument("--track", help=LAP_TRACK_HELP)
    shared(p, "--json", help="as JSON (every parameter against every metric)")

    p = sub.add_parser("rates", help="top speed, coast-down and braking distance at each tick rate, both modes")
    shared(p, "--preset")
    p.add_argument("--markdown", action="store_true", help="as a Markdown table")

    p = sub.add_parser("metrics", help="top speed, acceleration, braking, turning… by standard manoeuvres")
    shared(p, "--preset")
    shared(p, "--hz")
    shared(p, "--json")
    p.add_argument(
        "--track",
        help="drive the manoeuvres on this track, from its spawn (a figure whose run meets a wall is "
        "given as none, with when): " + TRACK_HELP,
    )

    p = sub.add_parser(
        "sweep",
        help="simulate a grid of one or two parameters as one batch; CSV of every metric",
        epilog=METRICS_EPILOG,
        formatter_class=MetricsHelp,
    )
    shared(p, "--preset", help=f"{PRESET_HELP} (the values not swept)")
    p.add_argument(
        "--param",
        action="append",
        required=True,
        metavar="NAME=LO:HI:N",
        help="a swept parameter from LO to HI in N values, rounded to the parameter's step's decimals; give one or two",
    )
    p.add_argument("--metric", required=True, help="the metric to summarise (all are written): a name listed below")
    p.add_argument("--track", help=LAP_TRACK_HELP)
    shared(p, "--out", help="CSV to write: swept values, then every metric")
    shared(p, "--hz")
    p.add_argument(
        "--allow-long",
        action="store_true",
        help=f"run a sweep estimated to take more than {LONG_SWEEP_S // 60} minutes (refused without it)",
    )

    p = sub.add_parser("bench", help="measure model throughput and window frame cost, and print the figures")
    shared(p, "--json", help="print the figures as JSON")
    shared(
        p,
        "--out",
        required=False,
        help="JSON file the figures are written to (default: bench.json in the user cache folder)",
    )
    p.add_argument("--quick", action="store_true", help="shorter runs (rougher figures)")

    p = sub.add_parser(
        "soak",
        help="long offscreen run of the window: scripted driving, a slider move every "
        "second, a preset switch every minute; memory and frame times per minute",
    )
    p.add_argument("--minutes", type=whole_minutes, default=30.0, help="simulated minutes (default 30)")
    shared(p, "--out", required=False, help="JSON file for the figures (default: soak.json in the user cache folder)")

    declare_link(sub)

    declare_track(sub)

    lap.declare(sub)

    p = sub.add_parser("screenshot", help="render the window offscreen after a scripted drive")
    shared(p, "--preset")
    shared(p, "--out", help="PNG file to write")
    p.add_argument(
        "--drive",
        type=seconds,
        default=6.0,
        help="seconds of scripted driving first (default 6); with --recording, the replay's time shown",
    )
    p.add_argument("--size", default="1400x860", help="window size WIDTHxHEIGHT in pixels (default 1400x860)")
    p.add_argument(
        "--ghost",
        type=Path,
        action="append",
        default=[],
        help="a preset to drive beside the car as a compare ghost (up to 4 times)",
    )
    p.add_argument("--zoom", type=zoom, default=1.0, help="view zoom, 0.01 … 8 (default 1)")
    p.add_argument(
        "--track",
        help=f"the track under the car (the car starts at its spawn): {TRACK_HELP}; with --zoom-to-track, "
        "the whole track in view",
    )
    p.add_argument("--zoom-to-track", action="store_true", help="zoom out to the whole track (with --track)")
    p.add_argument(
        "--channels",
        metavar="A,B",
        help="the channels the third plot shows (up to 4 of 2 units; default: the model's first preset)",
    )
    p.add_argument(
        "--driver",
        action="store_true",
        help="the lap driver at the wheel for the --drive seconds (with --track), its racing line drawn",
    )
    p.add_argument(
        "--tab",
        choices=("tuning", "metrics", "sweep", "tune", "link", "sensitivity", "laps", "tyres", "gg"),
        default="tuning",
        help="the side panel's tab to show: tuning (default), metrics (computed for the tuning and "
        "the ghosts), sweep (a 2-parameter sweep of the first two parameters, run first), tune "
        "(an auto-tune of the first metric to 10 %% more, run first), link (not listening), sensitivity "
        "(the What changes what table below the car), laps (the driver's two laps of --track, the "
        "second overlaid on the first with its delta), tyres (the force curves below the car, the wheels' "
        "operating points on them), gg (the g-g diagram with the grip envelope, each "
        "tyre's grip used and the loads)",
    )
    p.add_argument(
        "--section",
        metavar="NAME",
        help="with the tuning tab: the section of the tuning panel opened and scrolled into view, by "
        'its header ("Steering feel")',
    )
    p.add_argument(
        "--dialog",
        choices=("godot-script", "godot-scene", "update-script", "fit"),
        help="picture a dialog instead of the window: the Godot export (as a script or a scene), or "
        "Update my script (with --script); fit: the Fit dialog beside the window (the picture is the "
        "dialog's width wider), run to its end on the --recording with its default choices, the fitted "
        "tuning driving as a ghost",
    )
    p.add_argument(
        "--recording",
        type=Path,
        metavar="FILE",
        help="a game recording opened as File → Open game recording… opens it: its path in the view, "
        "the Recording tab with its divergence, replayed to --drive seconds",
    )
    p.add_argument(
        "--script",
        type=Path,
        metavar="CAR_GD",
        help="with --dialog update-script: the car script the tuning is written into (it is not changed)",
    )
    return parser


def declare_track(sub) -> None:
    p = sub.add_parser("track", help="describe, draw, check or convert a track (walls, cones, timing lines)")
    actions = p.add_subparsers(dest="track_command", metavar="ACTION", required=True)
    a = actions.add_parser("info", help="what the track holds: its unit, walls, cones, timing lines, lap length")
    a.add_argument("track", help=TRACK_HELP)
    a.add_argument(
        "--png", dest="out", type=output_path, metavar="OUT.png", help="also draw the whole track to this PNG"
    )
    a = actions.add_parser("check", help="check a track: exit 0 when it is good, else 2 with the problem")
    a.add_argument("track", help=TRACK_HELP)
    a = actions.add_parser("convert", help="write a circuit CSV, a Godot level or a track file as a track file")
    a.add_argument("track", metavar="IN", help=TRACK_HELP)
    a.add_argument("out", type=output_path, metavar="OUT.json", help="the track file to write")


def main(argv: list[str] | None = None) -> int:
    streams = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = TerminalSafe(sys.stdout), TerminalSafe(sys.stderr)
    try:
        return _stopped_or_main(argv)
    finally:
        sys.stdout, sys.stderr = streams


def _stopped_or_main(argv: list[str] | None) -> int:
    try:
        return _main(argv)
    except KeyboardInterrupt as exc:  # Ctrl+C, or told to stop: no traceback, nothing half written
        return say_stopped(exc.args[0] if isinstance(exc, Stopped) else signal.SIGINT)
    except BrokenPipeError:  # stdout closed early (`| head`): stop quietly, as other tools do
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # Python's exit flush would raise it again
        return 1


def _main(argv: list[str] | None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command is None:
            find_presets(args)
            return window.run(args)
        for name in ("SIGTERM", "SIGHUP"):  # the commands only: the window asks first (no SIGHUP on Windows)
            if hasattr(signal, name):
                signal.signal(getattr(signal, name), stop_on)
        if args.command in ("bench", "soak") and args.out is None:
            args.out = reports.report_path(f"{args.command}.json")
        find_presets(args)
        find_traces(args)
        check_outputs(args)
        if args.command in ("bench", "soak", "link"):  # they print their own progress
            code = COMMANDS[args.command](args)
        else:
            with Watchdog(args.command):
                code = COMMANDS[args.command](args)
    except UserError as exc:
        print(f"car-sandbox: error: {printable_lines(str(exc))}", file=sys.stderr)
        return 2
    return int(code or 0)  # a command that can end short of its goal says so (tune: 1)
