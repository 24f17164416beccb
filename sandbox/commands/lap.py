"""`lap`: a driver laps a closed track with a preset's car, from the track's spawn; the
lap and sector times, the cones knocked and whether each lap counts. Exit 1 when the
car cannot finish the laps (with how far it got and when), 2 for a track a lap cannot
be driven on."""

from __future__ import annotations

import json
import math
import sys

from ..errors import printable

UNFINISHED = 1
"""The exit code of a drive that did not finish its laps."""


def run(args) -> int:
    from ..analysis.driven_laps import drive_timed_laps
    from ..files.presets import load_preset
    from ..files.recorded_track import track_ref
    from ..files.targets import check_target
    from ..files.traces import save_trace
    from ..files.tracks import find_builtin_track, open_track
    from ..physics.lap_course import check_lap_track

    preset = load_preset(args.preset)
    source = find_builtin_track(args.track)
    if args.out is not None:  # a track given by name is a file read too: never written over
        check_target(args.out, [source])
    track = open_track(source)
    check_lap_track(track, printable(source))
    model, tuning = preset.model, preset.tuning
    hz = args.hz or preset.hz
    driven = drive_timed_laps(model, tuning, track, args.laps, hz)
    driven.book.retime(args.cone_penalty)
    result, laps, book = driven.drive, driven.laps[: args.laps], driven.book
    if args.out is not None:
        save_trace(args.out, result.controls, track_ref(source))
    unit = model.LENGTH_UNIT
    sectors = 1 + len(track.sectors)
    if args.json:
        report = {
            **_as_json(preset, track, hz, laps, book, result, unit, args.laps),
            "cone_penalty": args.cone_penalty,
            "lateral_asked": {
                "most": _number(driven.plan.lateral),
                "grip": _number(driven.plan.limits.lateral),
                "unit": f"{unit}/s²",
            },
        }
        print(json.dumps(report, indent=2))
    else:
        print(f"{preset.name} ({model.TITLE}) on {track.name} at {hz} Hz")
        print(_table(laps, book, sectors))
        if driven.plan.lateral < driven.plan.limits.lateral:
            print(
                f"the driver practised: a drive at the car's whole grip ({_figure(driven.plan.limits.lateral)} "
                f"{unit}/s²) did not count, so it drove again asking for less, at most "
                f"{_figure(driven.plan.lateral)} {unit}/s² round the bends"
            )
    if args.out is not None and not args.json:
        print(f"wrote {printable(args.out)}")
    if len(laps) < args.laps:
        print(f"car-sandbox: {_unfinished(result, laps, args.laps, driven.first, unit)}", file=sys.stderr)
        return UNFINISHED
    return 0


def _figure(value: float) -> str:
    """A figure in words: whole above 100 (1384, not 1.38e+03), else three digits."""
    return f"{value:.0f}" if abs(value) >= 100 else f"{value:.3g}"


def _number(value: float) -> float | None:
    """A figure for JSON: None for one not measured (NaN, infinite)."""
    return value if math.isfinite(value) else None


def _best(laps) -> object:
    valid = [lap for lap in laps if lap.valid]
    return min(valid, key=lambda lap: lap.time) if valid else None


def _table(laps, book, sectors: int) -> str:
    head = f"{'lap':>4s} {'time s':>9s}" + "".join(f" {f'S{k + 1}':>8s}" for k in range(sectors))
    lines = [head + f" {'cones':>5s}  valid"]
    for lap in laps:
        splits = "".join(f" {t:8.3f}" for t in lap.sectors)
        said = "yes" if lap.valid else "no: " + ", ".join(lap.marks)
        lines.append(f"{lap.number:4d} {lap.time:9.3f}{splits} {lap.cones:5d}  {said}")
    if not laps:
        lines.append("  (no lap finished)")
    best = _best(laps)
    if best is not None:
        lines.append(f"best lap: {best.time:.3f} s (lap {best.number})")
        if sectors > 1:
            lines.append(f"optimal lap (the best sectors): {book.optimal:.3f} s")
    return "\n".join(lines)


def _unfinished(result, laps, wanted: int, first: float, unit: str) -> str:
    """What a drive that did not finish reached, in words."""
    from ..analysis.lap_driver import FINISHED, SLACK, SLACK_S, STALL_S, STALLED

    if result.ended == STALLED:
        why = f"it made no headway for {STALL_S:g} s"
    elif result.ended == FINISHED:
        why = "it never crossed the start line the way a lap does"
    else:
        why = (
            f"the time allowed for the laps ran out ({SLACK:g} times the laps at the speed driven, and {SLACK_S:g} s "
            "more)"
        )
    where = "before the start line"
    if result.distance > first:
        into = max(0.0, result.distance - first - len(laps) * result.lap_length)
        where = f"{into:.1f} {unit} into lap {len(laps) + 1}"
    return (
        f"the car did not finish lap {len(laps) + 1} of {wanted}: {why}. It reached {result.distance:.1f} {unit} "
        f"along the track from its start ({where}) in {result.time:.1f} s."
    )


def _as_json(preset, track, hz, laps, book, result, unit: str, wanted: int) -> dict:
    best = _best(laps)
    optimal = book.optimal if best is not None else None
    return {
        "preset": preset.name,
        "model": preset.model.NAME,
        "track": track.name,
        "hz": hz,
        "laps": [
            {
                "lap": lap.number,
                "time": lap.time,
                "sectors": list(lap.sectors),
                "cones": lap.cones,
                "penalty": lap.penalty,
                "valid": lap.valid,
                "marks": list(lap.marks),
            }
            for lap in laps
        ],
        "best_lap": None if best is None else {"lap": best.number, "time": best.time},
        "optimal_lap": optimal,
        "finished": len(laps) >= wanted,
        "reached": {"distance": result.distance, "unit": unit, "time": result.time},
    }


def laps_count(text: str) -> int:
    """`--laps`: a whole number of laps, 1 … 100."""
    from .arguments import number_in

    return int(number_in(text, "laps", 1, 100, whole=True))


def cone_penalty(text: str) -> float:
    """`--cone-penalty`: s added to a lap's time per cone knocked, 0 … CONE_PENALTY_MAX_S."""
    from ..physics.lap_timer import CONE_PENALTY_MAX_S
    from .arguments import number_in

    return number_in(text, "cone penalty", 0.0, CONE_PENALTY_MAX_S, " s")


def declare(sub) -> None:
    """The `lap` command's options."""
    from .arguments import output_path
    from .shared_options import TRACK_HELP, shared

    p = sub.add_parser(
        "lap", help="a driver laps a track with a preset's car: lap and sector times, cones hit, valid laps"
    )
    shared(p, "--preset")
    p.add_argument("--track", required=True, help=f"a closed track with a start line: {TRACK_HELP}")
    p.add_argument("--laps", type=laps_count, default=1, help="laps to time after the start line (default 1)")
    p.add_argument(
        "--cone-penalty",
        type=cone_penalty,
        default=2.0,  # physics/lap_timer.CONE_PENALTY_S (not imported before a command runs: it compiles)
        metavar="S",
        help="s added to a lap's time for each cone knocked (0 … 60, default 2; such a lap never counts)",
    )
    p.add_argument(
        "--trace",
        dest="out",
        type=output_path,
        metavar="OUT.csv",
        help="also write the drive as a control trace (it names the track: `simulate --controls` replays it)",
    )
    shared(p, "--hz")
    shared(p, "--json", help="as JSON")
