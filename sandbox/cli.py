"""`car-sandbox` command line: the window, and headless commands on the same code."""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import signal
import sys
import threading
import time
from pathlib import Path

import numpy as np

from . import __version__
from .errors import TraceError, UserError, printable, printable_lines, shown

HZ_RANGE = (10, 1000)

LONG_SWEEP_S = 30 * 60
"""s: a sweep estimated to take longer is only run with --allow-long."""
SAY_ESTIMATE_AFTER_S = 10
"""s: a sweep estimated to take longer says so before it starts."""


SCREENSHOT_SIZES = (200, 8000)
"""px: the smallest and largest side of a screenshot (larger ones exhaust the painter)."""
ZOOMS = (0.1, 8.0)
"""The view's zoom range (the window's ZOOM_RANGE; the CLI does not load Qt to parse)."""


def _number_in(text: str, kind: str, low: float, high: float, unit: str = "", whole: bool = False) -> float:
    """An argument's number, or argparse's error naming `kind`, the value as given and
    the range [low, high] (`whole`: a whole number)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{kind} {shown(repr(text))} is not a number") from None
    if not low <= value <= high or (whole and value != int(value)):
        plain = "a whole number " if whole else ""
        raise argparse.ArgumentTypeError(
            f"{kind} {shown(text.strip())}{unit} is not {plain}within {low:g} … {high:g}{unit}"
        )
    return value


MAX_SCREENSHOT_GHOSTS = 4
"""The window's compare ghosts at most (its plots have a colour for each)."""


def _seed(text: str) -> int:
    return int(_number_in(text, "seed", 0, 999_999, whole=True))


def _hz(text: str) -> int:
    return int(_number_in(text, "tick rate", *HZ_RANGE, " Hz", whole=True))


def _positive_minutes(text: str) -> float:
    return _number_in(text, "duration", 1, 600, " minutes", whole=True)


def _zoom(text: str) -> float:
    return _number_in(text, "zoom", *ZOOMS)


def _seconds(text: str) -> float:
    return _number_in(text, "duration", 0, 600, " s")


def _names(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:
        raise argparse.ArgumentTypeError("no parameter named (expected a comma-separated list)")
    return names


def _px_per_metre(text: str) -> float:
    return _number_in(text, "pixels per metre", 1, 1000, " px/m")


def _output_path(text: str) -> Path:
    if not text.strip():
        raise argparse.ArgumentTypeError("no output file given (the name is empty)")
    return Path(text)


class _SweepHelp(argparse.RawDescriptionHelpFormatter):
    """`sweep --help` with the list of metrics, built from the metrics' declarations
    only when the help is shown (loading them loads the physics: too slow for every
    start of the command)."""

    def add_text(self, text):
        if text == _METRICS_EPILOG:
            text = metrics_help()
        elif text == _TUNE_EPILOG:  # tune has no --metric and no CSV: its targets name the metrics
            text = metrics_help(["metrics (--target NAME=VALUE[±TOL]; in the model's units;"])
        super().add_text(text)


_METRICS_EPILOG = "(the metrics)"
_TUNE_EPILOG = "(the metrics a target names)"


def metrics_help(intro: list[str] | None = None) -> str:
    """The metrics `--metric` (or `intro`'s option) takes, one a line: name and what it is."""
    from .analysis.metrics import METRICS

    width = max(len(name) for name in METRICS)
    lines = (intro or ["metrics (--metric NAME; every one is written to the CSV;"]) + [
        '"100" is 100 px/s, or 100 km/h for models in metres):'
    ]
    lines += [f"  {name:{width}s}  {metric.label}" for name, metric in METRICS.items()]
    return "\n".join(lines)


def report_path(name: str) -> Path:
    """Default place of a developer report (`bench.json`, `soak.json`): the user cache
    folder (platformdirs), created if needed; the current folder if it cannot be."""
    import platformdirs

    folder = Path(platformdirs.user_cache_dir("car-sandbox", appauthor=False))
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return Path(name)
    return folder / name


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="car-sandbox", description="Tune 2D top-down car physics. With no command, opens the window."
    )
    parser.add_argument(
        "--preset", type=Path, help="preset file, or a built-in preset's name, to open (default: the last one used)"
    )
    parser.add_argument("--version", action="version", version=f"car-sandbox {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("simulate", help="replay a control trace and write the trajectory CSV")
    p.add_argument("--preset", type=Path, required=True, help="preset JSON file or built-in preset name")
    p.add_argument(
        "--controls", type=Path, required=True, help="CSV with header steer,throttle,brake; one row per tick"
    )
    p.add_argument("--out", type=_output_path, required=True, help="trajectory CSV to write")
    p.add_argument("--hz", type=_hz, help="physics tick rate in Hz (default: the preset's, else 60)")

    p = sub.add_parser("curves", help="write the force-vs-speed plot as PNG, SVG or CSV")
    p.add_argument("--preset", type=Path, required=True, help="preset JSON file or built-in preset name")
    p.add_argument("--out", type=_output_path, required=True, help="output file: .png, .svg or .csv")
    p.add_argument("--hz", type=_hz, help="physics tick rate in Hz (default: the preset's, else 60)")

    p = sub.add_parser("params", help="list every parameter declaration of every model")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="as JSON")
    fmt.add_argument("--markdown", action="store_true", help="as the Markdown table of docs/models.md")

    p = sub.add_parser(
        "export-godot",
        help="write a preset's car as a Godot script (car.gd), or a scene with it, "
        "or write its values into your own script",
    )
    p.add_argument("--preset", type=Path, required=True, help="preset JSON file or built-in preset name (any model)")
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument(
        "--out",
        type=_output_path,
        help="car.gd to write; with --scene, car.tscn (its script car.gd is written beside it)",
    )
    where.add_argument(
        "--into",
        type=_output_path,
        metavar="SCRIPT",
        help="your own car script: only the values of its parameter declarations change, the rest "
        "stays as it is, byte for byte (the old file is kept as SCRIPT.bak)",
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
        type=_px_per_metre,
        default=None,
        metavar="PX",
        help="px/m of the exported pixels_per_metre (models in metres; default 25)",
    )

    p = sub.add_parser(
        "import-godot",
        help="read a Godot car script (exported by the sandbox, or your own recipe car.gd) back into a preset",
    )
    p.add_argument(
        "script",
        type=Path,
        help="the car.gd to read (nothing in it is run); one that does not name "
        "its model is read as the recipe's car (the arcade)",
    )
    p.add_argument("--out", type=_output_path, required=True, help="preset JSON file to write")
    p.add_argument(
        "--preset",
        type=Path,
        help="preset whose values a script without every parameter keeps (and whose model a "
        "script that does not name its model is read as)",
    )

    p = sub.add_parser(
        "tune",
        help="find the tuning nearest a preset whose metrics hit target values",
        epilog=_TUNE_EPILOG,
        formatter_class=_SweepHelp,
    )
    p.add_argument(
        "--preset",
        type=Path,
        required=True,
        help="preset JSON file or built-in preset name: the start, and the values kept",
    )
    p.add_argument(
        "--target",
        action="append",
        required=True,
        metavar="NAME=VALUE[±TOL]",
        help="a metric's wanted value in the model's units, e.g. top_speed=600±5 (repeat for each; "
        "the tolerance defaults to 2 %%)",
    )
    moved = p.add_mutually_exclusive_group()
    moved.add_argument("--free", type=_names, help="only these parameters move (comma-separated)")
    moved.add_argument("--lock", type=_names, help="every slider moves but these (comma-separated)")
    p.add_argument(
        "--range",
        action="append",
        default=[],
        metavar="NAME=LO:HI",
        help="search a parameter within LO … HI only (default: its slider's range)",
    )
    p.add_argument("--seed", type=_seed, default=1, help="the search's random seed: the same seed, the same result")
    p.add_argument("--hz", type=_hz, help="physics tick rate in Hz (default: the preset's)")
    p.add_argument("--out", type=_output_path, help="preset JSON file to write the tuning found to")
    p.add_argument("--name", help="the written preset's name (default: the start's, with \"(tuned)\")")
    p.add_argument("--json", action="store_true", help="as JSON")

    p = sub.add_parser("sensitivity", help="how much each metric moves for a step and 10 %% of each slider")
    p.add_argument("--preset", type=Path, required=True, help="preset JSON file or built-in preset name")
    p.add_argument("--hz", type=_hz, help="physics tick rate in Hz (default: the preset's)")
    p.add_argument("--json", action="store_true", help="as JSON (every parameter against every metric)")

    p = sub.add_parser("rates", help="top speed, coast-down and braking distance at each tick rate, both modes")
    p.add_argument("--preset", type=Path, required=True, help="preset JSON file or built-in preset name")
    p.add_argument("--markdown", action="store_true", help="as a Markdown table")

    p = sub.add_parser("metrics", help="top speed, acceleration, braking, turning… by standard manoeuvres")
    p.add_argument("--preset", type=Path, required=True, help="preset JSON file or built-in preset name")
    p.add_argument("--hz", type=_hz, help="physics tick rate in Hz (default: the preset's)")
    p.add_argument("--json", action="store_true", help="as JSON")

    p = sub.add_parser(
        "sweep",
        help="simulate a grid of one or two parameters as one batch; CSV of every metric",
        epilog=_METRICS_EPILOG,
        formatter_class=_SweepHelp,
    )
    p.add_argument(
        "--preset", type=Path, required=True, help="preset JSON file or built-in preset name (the values not swept)"
    )
    p.add_argument(
        "--param",
        action="append",
        required=True,
        metavar="NAME=LO:HI:N",
        help="a swept parameter from LO to HI in N values, rounded to the parameter's step's decimals; give one or two",
    )
    p.add_argument("--metric", required=True, help="the metric to summarise (all are written): a name listed below")
    p.add_argument("--out", type=_output_path, required=True, help="CSV to write: swept values, then every metric")
    p.add_argument("--hz", type=_hz, help="physics tick rate in Hz (default: the preset's)")
    p.add_argument(
        "--allow-long",
        action="store_true",
        help=f"run a sweep estimated to take more than {LONG_SWEEP_S // 60} minutes (refused without it)",
    )

    p = sub.add_parser("bench", help="measure model throughput and window frame cost, and print the figures")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument(
        "--out",
        type=_output_path,
        help="JSON file the figures are written to (default: bench.json in the user cache folder)",
    )
    p.add_argument("--quick", action="store_true", help="shorter runs (rougher figures)")

    p = sub.add_parser(
        "soak",
        help="long offscreen run of the window: scripted driving, a slider move every "
        "second, a preset switch every minute; memory and frame times per minute",
    )
    p.add_argument("--minutes", type=_positive_minutes, default=30.0, help="simulated minutes (default 30)")
    p.add_argument(
        "--out", type=_output_path, help="JSON file for the figures (default: soak.json in the user cache folder)"
    )

    p = sub.add_parser("screenshot", help="render the window offscreen after a scripted drive")
    p.add_argument("--preset", type=Path, required=True, help="preset JSON file or built-in preset name")
    p.add_argument("--out", type=_output_path, required=True, help="PNG file to write")
    p.add_argument("--drive", type=_seconds, default=6.0, help="seconds of scripted driving first (default 6)")
    p.add_argument("--size", default="1400x860", help="window size WIDTHxHEIGHT in pixels (default 1400x860)")
    p.add_argument(
        "--ghost",
        type=Path,
        action="append",
        default=[],
        help="a preset to drive beside the car as a compare ghost (up to 4 times)",
    )
    p.add_argument("--zoom", type=_zoom, default=1.0, help="view zoom, 0.1 … 8 (default 1)")
    p.add_argument(
        "--tab",
        choices=("tuning", "metrics", "sweep", "tune", "sensitivity"),
        default="tuning",
        help="the side panel's tab to show: tuning (default), metrics (computed for the tuning and "
        "the ghosts), sweep (a 2-parameter sweep of the first two parameters, run first), tune "
        "(an auto-tune of the first metric to 10 %% more, run first), sensitivity (the What "
        "changes what table below the car)",
    )
    p.add_argument(
        "--dialog",
        choices=("godot-script", "godot-scene", "update-script"),
        help="picture a dialog instead of the window: the Godot export (as a script or a scene), or "
        "Update my script (with --script)",
    )
    p.add_argument(
        "--script",
        type=Path,
        metavar="CAR_GD",
        help="with --dialog update-script: the car script the tuning is written into (it is not changed)",
    )
    return parser


class Progress:
    """Progress on stderr for work that has run over SHOW_AFTER_S: one line, rewritten
    at most twice a second; nothing at all for quick work (stdout stays clean), and
    nothing when stderr is not a terminal: a script reading the command's errors gets
    only those, never a progress line before them."""

    SHOW_AFTER_S = 2.0
    active = False  # a command is reporting its own progress (the Watchdog keeps quiet)

    @staticmethod
    def wanted() -> bool:
        """Whether anyone watches stderr: a terminal."""
        return sys.stderr.isatty()

    def __init__(self, what: str):
        self.what, self.start, self.last, self.shown = what, time.perf_counter(), 0.0, False
        Progress.active = True

    def __call__(self, share: float) -> None:
        now = time.perf_counter()
        if now - self.start > self.SHOW_AFTER_S and now - self.last >= 0.5 and self.wanted():
            self.last, self.shown = now, True
            print(f"\r{self.what}: {100 * share:3.0f} %", end="", file=sys.stderr, flush=True)

    def close(self, finished: bool = True) -> None:
        Progress.active = False
        if self.shown:
            how = f"done in {time.perf_counter() - self.start:.1f} s" if finished else "stopped"
            print(f"\r{self.what}: {how}", file=sys.stderr, flush=True)


class Watchdog:
    """For any command without its own progress: past Progress.SHOW_AFTER_S, a line on
    stderr every few seconds saying it is still working (the first run after an
    install compiles the physics: up to a minute). Runs on a thread; the compiled
    physics lets it run while they do."""

    EVERY_S = 5.0

    def __init__(self, command: str):
        self.command, self.start = command, time.perf_counter()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="watchdog", daemon=True)

    def __enter__(self) -> "Watchdog":
        self._thread.start()
        return self

    def _watch(self) -> None:
        wait = Progress.SHOW_AFTER_S
        while not self._stop.wait(wait):
            wait = self.EVERY_S
            if not Progress.active and Progress.wanted():
                print(
                    f"car-sandbox {self.command}: still working, {time.perf_counter() - self.start:.0f} s",
                    file=sys.stderr,
                    flush=True,
                )

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()


def cmd_simulate(args) -> None:
    from .csv_rows import format_rows
    from .files.disk import write_atomic
    from .files.presets import load_preset
    from .files.traces import TRAJECTORY_COLUMNS, trace_chunks
    from .physics.sim import trace_trajectory

    preset = load_preset(args.preset)
    progress = Progress("simulating")
    shares = []

    def chunks():
        for rows, share in trace_chunks(args.controls):
            shares.append(share)
            yield rows

    def write(name: str) -> None:
        """Header, then each chunk's rows as it is simulated: memory bounded by a chunk."""
        with open(name, "w", encoding="utf-8", newline="\n") as f:
            f.write(",".join(TRAJECTORY_COLUMNS) + "\n")
            for rows in trace_trajectory(preset.model, preset.tuning, chunks(), args.hz or preset.hz):
                f.write(format_rows((), rows)[1:])
                progress(shares[-1])

    finished = False
    try:
        write_atomic(args.out, write, TraceError)
        finished = True
    finally:
        progress.close(finished)


def cmd_curves(args) -> None:
    from .analysis.curves import curve_csv, force_curve
    from .files.disk import write_text_atomic
    from .files.presets import load_preset

    suffix = args.out.suffix.lower()
    if suffix not in (".png", ".svg", ".csv"):
        raise UserError(f"{args.out}: unknown output type {suffix or '(none)'!r}; use .png, .svg or .csv")
    preset = load_preset(args.preset)
    hz = args.hz or preset.hz
    if suffix == ".csv":
        write_text_atomic(args.out, curve_csv(force_curve(preset.model, preset.tuning, hz)))
        return
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from .ui.curves import ForceCurvePlot
    from .ui.qt import application, dispose

    app = application()  # the exporters need a QApplication
    plot = ForceCurvePlot()
    try:
        plot.resize(900, 560)
        plot.set_tuning(preset.model, preset.tuning, hz, title=preset.name)
        plot.show()  # lay out title and axes before rendering
        app.processEvents()
        plot.export(args.out)
    finally:
        dispose(plot)


def params_table_markdown() -> str:
    from .physics.models import MODELS

    lines = []
    for model in MODELS.values():
        lines += [
            f"**{model.TITLE}** (`{model.NAME}`)",
            "",
            "| name | label | unit | default | min | max | step | what it does |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for p in model.PARAMS:
            if p.is_bool:
                default = "true" if p.default else "false"
                lines.append(f"| `{p.name}` | {p.label} | {p.unit} | {default} | – | – | – | {p.help} |")
            else:
                lines.append(
                    f"| `{p.name}` | {p.label} | {p.unit} | {p.default:g} | {p.min:g} | {p.max:g} | "
                    f"{p.step:g} | {p.help} |"
                )
            if p.variant is not None:
                v = p.under({p.variant.when: True})
                lines.append(
                    f"| ↳ with `{p.variant.when}` | | {v.unit} | {v.default:g} | {v.min:g} | {v.max:g} | "
                    f"{v.step:g} | {v.help} |"
                )
        lines.append("")
    return "\n".join(lines)


def cmd_params(args) -> None:
    from .physics.models import MODELS

    if args.json:
        print(
            json.dumps(
                {name: [p.as_dict() for p in m.PARAMS] for name, m in MODELS.items()}, indent=2, ensure_ascii=False
            )
        )
    elif args.markdown:
        print(params_table_markdown(), end="")
    else:
        for name, model in MODELS.items():
            print(f"{name}: {model.TITLE}")
            for p in model.PARAMS:
                span = "[true or false]" if p.is_bool else f"[{p.min:g} … {p.max:g}, step {p.step:g}]"
                print(
                    f"  {p.name:18s} {str(p.default).lower() if p.is_bool else format(p.default, 'g'):>8s} "
                    f"{p.unit:9s} {span}  {p.help}"
                )
                if p.variant is not None:
                    v = p.under({p.variant.when: True})
                    print(
                        f"  {'  with ' + p.variant.when:18s} {format(v.default, 'g'):>8s} {v.unit:9s} "
                        f"[{v.min:g} … {v.max:g}, step {v.step:g}]  {v.help}"
                    )


def cmd_screenshot(args) -> None:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    try:
        width, height = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        raise UserError(f"--size {shown(repr(args.size))}: expected WIDTHxHEIGHT, e.g. 1400x860") from None
    if not (
        SCREENSHOT_SIZES[0] <= width <= SCREENSHOT_SIZES[1] and SCREENSHOT_SIZES[0] <= height <= SCREENSHOT_SIZES[1]
    ):
        raise UserError(
            f"--size {shown(args.size)}: each side must be {SCREENSHOT_SIZES[0]} … {SCREENSHOT_SIZES[1]} px"
        )
    if args.out.suffix.lower() != ".png":
        raise UserError(f"{args.out}: screenshots are PNG files; use a .png name")
    if (args.dialog == "update-script") != (args.script is not None):
        raise UserError(
            "--dialog update-script and --script CAR_GD go together: the dialog shows the change to that script"
        )
    from .files.presets import load_preset
    from .ui.app import MainWindow
    from .ui.qt import application, dispose

    preset = load_preset(args.preset)
    if len(args.ghost) > MAX_SCREENSHOT_GHOSTS:
        raise UserError(
            f"--ghost given {len(args.ghost)} times: the window drives {MAX_SCREENSHOT_GHOSTS} ghosts at most"
        )
    ghosts = [load_preset(path) for path in args.ghost]
    app = application()
    window = MainWindow(remember=False)
    try:
        window.resize(width, height)
        window.show()
        window.timer.stop()  # only the scripted drive moves the car
        window.apply_preset(preset)
        for ghost in ghosts:
            window.set_ghost(ghost, ghost.name)
        window.track.set_zoom(args.zoom)
        window.scripted_drive(args.drive)
        window.show_tab(args.tab)
        app.processEvents()
        if args.dialog == "update-script":
            from .files.godot_into import read_update

            read_update(args.script, window.current_preset())  # a refusal is the command's error
            dialog = window.update_script(args.script)
            dialog.show()
            app.processEvents()
            window.save_screenshot(args.out, dialog)
            dialog.close()
        elif args.dialog:
            dialog = window.godot_export_dialog()
            dialog.as_scene.setChecked(args.dialog == "godot-scene")
            dialog.show()
            app.processEvents()
            window.save_screenshot(args.out, dialog)
            dialog.close()
        else:
            window.save_screenshot(args.out)
    finally:
        dispose(window)


def cmd_export_godot(args) -> None:
    from .files.godot import DEFAULT_PX_PER_METRE, save_script
    from .files.godot_scene import save_scene
    from .files.presets import load_preset

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
    from .files.godot_into import backup_path, read_update, write_into
    from .files.presets import load_preset

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


def cmd_import_godot(args) -> None:
    from dataclasses import replace

    from .files.godot_import import load_script
    from .files.presets import declared_preset, load_preset, save_preset
    from .physics.models import arcade

    base = load_preset(args.preset) if args.preset else None
    # a script that names no model is the recipe's own car.gd, or a port of it
    result = load_script(args.script, base.model if base else None, fallback=arcade)
    if base is None:  # the script named its model: the rest at that model's defaults
        base = declared_preset(result.model, f"{result.model.TITLE} defaults")
    tuning = base.tuning.copy()
    tuning.set_many(result.values)
    preset = replace(base, tuning=tuning, name=f"Imported from {printable(args.script.name)}", path=None)
    save_preset(preset, args.out)
    for warning in result.warnings:
        print(f"note: {warning}", file=sys.stderr)
    follows = f"; the script follows {result.formula.describe()}" if result.formula else ""
    print(
        f"wrote {printable(args.out)}: {len(result.values)} values of the {result.model.TITLE} model from "
        f"{printable(args.script)}" + follows
    )


def cmd_tune(args) -> int:
    from dataclasses import replace

    from .analysis.metrics import METRICS, format_value, unit_of
    from .analysis.tune import conflicts, free_names, parse_range, parse_target, search
    from .files.presets import load_preset, save_preset

    if args.name is not None and args.out is None:
        raise UserError("--name names the tuned preset written by --out; give --out too (nothing else is saved)")
    preset = load_preset(args.preset)
    model = preset.model
    targets = [parse_target(text, model) for text in args.target]
    twice = sorted({t.metric for t in targets if sum(u.metric == t.metric for u in targets) > 1})
    if twice:
        raise UserError(f"--target {twice[0]} is given more than once: which value is meant?")
    names = free_names(model, args.free, args.lock)
    ranges = dict(parse_range(text, model, preset.tuning) for text in args.range)
    fixed = sorted(set(ranges) - set(names))
    if fixed:
        raise UserError(
            f"--range {fixed[0]}: it does not move in this search (not free, or locked); free it, or "
            "leave its range out"
        )
    hz = args.hz or preset.hz
    result = search(model, dict(preset.tuning), targets, names, hz, args.seed, ranges)
    pulls = [] if result.hit else conflicts(model, dict(preset.tuning), targets, names, hz, args.seed, ranges)
    if args.out:
        tuning = preset.tuning.copy()
        for name in names:
            tuning.set(name, result.tuning[name])
        targets_text = ", ".join(f"{t.metric} {t.value:g} ± {t.tolerance:g}" for t in targets)
        description = (
            f"Tuned from {preset.name!r} by car-sandbox tune (seed {args.seed}), moving "
            f"{', '.join(names)}, to {targets_text}"
            + ("." if result.hit else "; not every target met: the closest tuning found.")
        )
        save_preset(
            replace(
                preset, tuning=tuning, name=args.name or f"{preset.name} (tuned)", description=description, path=None
            ),
            args.out,
        )
    changed = {
        name: (float(preset.tuning[name]), result.tuning[name])
        for name in names
        if result.tuning[name] != preset.tuning[name]
    }
    if args.json:
        print(
            json.dumps(
                {
                    "preset": preset.name,
                    "model": model.NAME,
                    "hz": hz,
                    "seed": args.seed,
                    "hit": result.hit,
                    "evaluations": result.evaluations,
                    "targets": [
                        {
                            "metric": t.metric,
                            "target": t.value,
                            "tolerance": t.tolerance,
                            "achieved": (
                                result.achieved[t.metric]  # JSON has no NaN: null
                                if math.isfinite(result.achieved[t.metric])
                                else None
                            ),
                            "met": t.miss(result.achieved[t.metric]) == 0,
                        }
                        for t in targets
                    ],
                    "changed": {name: {"from": a, "to": b} for name, (a, b) in changed.items()},
                    "binding": result.binding + pulls,
                },
                indent=2,
            )
        )
    else:
        print(
            f"{preset.name} ({model.TITLE}) at {hz} Hz: {'every target met' if result.hit else 'NOT every target met'}"
            f" after {result.evaluations} tunings"
        )
        for t in targets:
            unit = unit_of(METRICS[t.metric].kind, model)
            achieved = result.achieved[t.metric]
            verdict = (
                "met"
                if t.miss(achieved) == 0
                else f"missed by {format_value(achieved - t.value)} {unit}"
                if math.isfinite(achieved)
                else "not measured: the manoeuvre never reaches its mark"
            )
            print(
                f"  {t.metric:20s} {format_value(achieved):>8s} {unit if math.isfinite(achieved) else '':6s} "
                f"target {format_value(t.value)} ± "
                f"{format_value(t.tolerance)}: {verdict}"
            )
        for name, (before, after) in changed.items():
            unit = preset.tuning.param(name).unit
            print(f"  {name:20s} {before:g} → {after:g} {unit}")
        for line in result.binding + pulls:
            print(f"  what binds: {line}")
        if args.out:
            print(f"wrote {printable(args.out)}{'' if result.hit else ' (the closest tuning found)'}")
    return 0 if result.hit else 1


def cmd_sensitivity(args) -> None:
    from .analysis.metrics import METRICS, format_value, formula_top_speed, unit_of
    from .analysis.sensitivity import SHARE, sensitivity
    from .files.presets import load_preset

    preset = load_preset(args.preset)
    model, hz = preset.model, args.hz or preset.hz
    result = sensitivity(model, dict(preset.tuning), hz)
    formula, how = formula_top_speed(model, dict(preset.tuning), hz)

    def clean(value: float) -> float | None:
        return float(value) if math.isfinite(value) else None

    if args.json:
        print(
            json.dumps(
                {
                    "preset": preset.name,
                    "model": model.NAME,
                    "hz": hz,
                    "metrics": {name: clean(v) for name, v in result.base.items()},
                    "top_speed_formula": {"value": clean(formula), "how": how},
                    "gear_top_speeds": (
                        {g: clean(v) for g, v in model.gear_top_speeds(dict(preset.tuning)).items()}
                        if hasattr(model, "gear_top_speeds")
                        else None
                    ),
                    "per_step": {p: {m: clean(result.change(p, m)) for m in result.metrics} for p in result.params},
                    "per_10pct": {
                        p: {m: clean(result.change(p, m, "share")) for m in result.metrics} for p in result.params
                    },
                },
                indent=2,
            )
        )
        return
    print(
        f"{preset.name} ({model.TITLE}) at {hz} Hz: each metric's change for one slider step up, and for "
        f"{SHARE:.0%} of the slider's range up (central differences)"
    )
    print(
        f"  top speed: simulated {format_value(result.base['top_speed'])}, from the parameters "
        f"{format_value(formula)} {unit_of('speed', model)} ({how})"
    )
    if hasattr(model, "gear_top_speeds"):
        gears = model.gear_top_speeds(dict(preset.tuning))
        print(
            "  top speed in each gear held: "
            + ", ".join(f"{gear}: {format_value(v)}" for gear, v in gears.items())
            + f" {unit_of('speed', model)}"
        )
    declared = {p.name: p for p in preset.tuning.effective()}
    for name in result.params:
        p = declared[name]
        moves = [
            (metric, result.change(name, metric), result.change(name, metric, "share")) for metric in result.metrics
        ]
        moves = [(m, a, b) for m, a, b in moves if math.isfinite(b) and b != 0]
        print(
            f"{name} ({p.step:g} {p.unit} a step, {SHARE * (p.max - p.min):g} {p.unit} for {SHARE:.0%}):"
            + ("" if moves else " moves no metric")
        )
        for metric, step, share in sorted(moves, key=lambda move: -abs(move[2]) / max(abs(result.base[move[0]]), 1e-9)):
            unit = unit_of(METRICS[metric].kind, model)
            print(f"  {metric:20s} {step:+10.4g} {unit:6s} a step   {share:+10.4g} {unit} for {SHARE:.0%}")


def _rate_figure(value: float, endless: str) -> str:
    """A figure of the rates table, or what it means when there is none (inf)."""
    return f"{value:.1f}" if math.isfinite(value) else endless


def cmd_rates(args) -> None:
    from .analysis.rates import rate_table
    from .files.presets import load_preset
    from .physics.sim import TICK_RATES

    preset = load_preset(args.preset)
    if "rate_independent" not in {p.name for p in preset.model.PARAMS}:
        raise UserError(
            f"{args.preset}: model {preset.model.NAME!r} has no rate_independent option; "
            "the tick-rate table is for the arcade model"
        )
    unit = preset.model.LENGTH_UNIT
    rows = rate_table(preset.model, preset.tuning, TICK_RATES)
    head = ("tick rate", "mode", f"top speed ({unit}/s)", f"coast-down ({unit})", f"braking from top ({unit})")
    cells = [
        (
            f"{r['hz']} Hz",
            r["mode"],
            _rate_figure(r["top_speed"], "never settles"),
            _rate_figure(r["coast_distance"], "never stops"),
            _rate_figure(r["braking_distance"], "never stops"),
        )
        for r in rows
    ]
    if args.markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for row in cells:
            print("| " + " | ".join(row) + " |")
    else:
        print(
            f"{preset.name}: straight-line drives from rest (top speed), then no pedals (coast-down) "
            "or full brake (braking) until the car stops"
        )
        for row in [head] + cells:
            print(f"{row[0]:>10s}  {row[1]:16s} {row[2]:>16s} {row[3]:>16s} {row[4]:>24s}")


def cmd_metrics(args) -> None:
    from .analysis.metrics import compute, format_value, formula_top_speed, table, unit_of
    from .files.presets import load_preset

    preset = load_preset(args.preset)
    hz = args.hz or preset.hz
    rows = table(preset.model, compute(preset.model, preset.tuning, hz))
    formula, how = formula_top_speed(preset.model, preset.tuning, hz)
    if args.json:
        clean = [{**r, "value": r["value"] if math.isfinite(r["value"]) else None} for r in rows]
        top = {"value": formula if math.isfinite(formula) else None, "unit": unit_of("speed", preset.model), "how": how}
        print(
            json.dumps(
                {
                    "preset": preset.name,
                    "model": preset.model.NAME,
                    "hz": hz,
                    "metrics": clean,
                    "top_speed_from_parameters": top,
                },
                indent=2,
            )
        )
        return
    print(f"{preset.name} ({preset.model.TITLE}) at {hz} Hz")
    for r in rows:
        point = f"   ({r['point']})" if r["point"] else ""
        unit = r["unit"] if math.isfinite(r["value"]) else ""  # "none", "—": no unit
        print(f"  {r['label']:42s} {format_value(r['value']):>8s} {unit:6s}{point}".rstrip())
        if r["name"] == "top_speed":
            beside = f"{format_value(formula):>8s} {r['unit']:6s}   ({how})" if math.isfinite(formula) else f"    {how}"
            print(f"  {'top speed from the parameters':42s} {beside}")


def _duration(seconds: float) -> str:
    """A rough duration for an estimate: "40 s", "12 min", "2 h 5 min"."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    minutes = round(seconds / 60)
    return f"{minutes} min" if minutes < 90 else f"{minutes // 60} h {minutes % 60} min"


def cmd_sweep(args) -> None:
    from .analysis.metrics import METRICS, format_value, missing_reason, unit_of
    from .analysis.sweep import check_metric, csv_text, estimate_seconds, parse_axis, point_text, run
    from .files.disk import write_text_atomic
    from .files.presets import load_preset

    metric = check_metric(args.metric)
    preset = load_preset(args.preset)
    axes = [parse_axis(text, preset.model, preset.tuning) for text in args.param]
    hz = args.hz or preset.hz
    seconds = estimate_seconds(preset.model, preset.tuning, axes, hz)
    count = int(np.prod([axis.count for axis in axes]))
    if seconds > LONG_SWEEP_S and not args.allow_long:
        raise UserError(
            f"this sweep of {count:,} tunings at {hz} Hz would take about {_duration(seconds)} (measured "
            f"on a few of them); one over {LONG_SWEEP_S // 60} min runs only with --allow-long (or sweep "
            "fewer values, or at a lower --hz)"
        )
    if seconds > SAY_ESTIMATE_AFTER_S:
        print(
            f"note: sweeping {count:,} tunings at {hz} Hz will take about {_duration(seconds)}",
            file=sys.stderr,
            flush=True,
        )
    progress = Progress("sweeping")
    grid, values = None, None
    try:
        grid, values = run(preset.model, preset.tuning, axes, hz, lambda done, total: progress(done / total))
    finally:
        progress.close(grid is not None)
    write_text_atomic(args.out, csv_text(axes, grid, values))
    column = values[metric]
    unit = unit_of(METRICS[metric].kind, preset.model)
    finite = np.flatnonzero(np.isfinite(column))
    if len(finite) == 0:
        why = missing_reason(metric, float(column[0]), preset.model, values)
        print(f"{len(grid)} tunings of {preset.name}: no {metric} for any tuning ({why}); wrote {printable(args.out)}")
        return
    low, high = finite[np.argmin(column[finite])], finite[np.argmax(column[finite])]
    print(
        f"{len(grid)} tunings of {preset.name}: {metric} {format_value(column[low])} … "
        f"{format_value(column[high])} {unit}; wrote {printable(args.out)}"
    )
    print(f"  lowest  {format_value(column[low])} {unit} at {point_text(axes, grid[low])}")
    print(f"  highest {format_value(column[high])} {unit} at {point_text(axes, grid[high])}")


def cmd_bench(args) -> None:
    from .devtools.bench import report, run
    from .files.disk import write_text_atomic

    figures = run(quick=args.quick)
    print(json.dumps(figures, indent=2) if args.json else report(figures))
    write_text_atomic(args.out, json.dumps(figures, indent=2) + "\n")
    print(f"wrote {printable(args.out)}", file=sys.stderr)


def cmd_soak(args) -> None:
    from .devtools.soak import HEADER, minute_line, report, run
    from .files.disk import write_text_atomic

    print(HEADER, flush=True)
    result = run(args.minutes, on_minute=lambda r: print(minute_line(r), flush=True))
    print(report(result))
    write_text_atomic(args.out, json.dumps(result, indent=2) + "\n")
    print(f"wrote {printable(args.out)}", file=sys.stderr)


def cmd_window(args) -> int:
    from .ui.qt import application, dispose
    from .ui.warm_up import show_splash

    app = application()
    splash = show_splash()  # first: importing the physics and the window takes seconds on a busy machine
    from .files.presets import load_preset
    from .ui.app import MainWindow
    from .ui.terminal_signals import follow_terminal_signals
    from .ui.warm_up import compile_first_start, prepare_physics

    try:
        preset = load_preset(args.preset) if args.preset else None
    except UserError:
        splash.close()
        raise
    compile_first_start(splash, preset)  # before the window exists: none of its work competes
    try:
        window = MainWindow()
    except Exception as exc:  # a saved session the window cannot show: never a crash loop
        import traceback

        from .ui.session import set_aside_session

        traceback.print_exc()  # a bug all the same: its traceback goes to stderr
        note = set_aside_session(f"{type(exc).__name__}: {shown(str(exc))}")
        window = MainWindow()
        window.show_error(note, "Last session set aside")
    if preset is not None:
        window.apply_preset(preset)
    follow_terminal_signals(window)
    prepare_physics(app, window)
    if os.environ.get("CAR_SANDBOX_FIRST_FRAME"):
        from .ui.qt import report_first_frame

        report_first_frame(window.track)
    window.show()
    splash.finish(window)
    code = app.exec()
    dispose(window)
    return code


COMMANDS = {
    "simulate": cmd_simulate,
    "curves": cmd_curves,
    "params": cmd_params,
    "screenshot": cmd_screenshot,
    "bench": cmd_bench,
    "rates": cmd_rates,
    "export-godot": cmd_export_godot,
    "import-godot": cmd_import_godot,
    "tune": cmd_tune,
    "sensitivity": cmd_sensitivity,
    "metrics": cmd_metrics,
    "sweep": cmd_sweep,
    "soak": cmd_soak,
}


class TerminalSafe:
    """A stream that passes text on with printable() applied to each line: a preset's
    name or a file's name (escape sequences, bytes that are not UTF-8) can neither
    drive the terminal nor fail to print. Line breaks, tabs and carriage returns (the
    progress line) pass."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text: str) -> int:
        if not text.isprintable():
            text = re.sub(r"[^\n\r\t]+", lambda part: printable(part.group()), text)
        return self._stream.write(text)

    def __getattr__(self, name):
        return getattr(self._stream, name)


class Stopped(KeyboardInterrupt):
    """The command was told to stop (SIGTERM, SIGHUP): it unwinds like Ctrl+C, so its
    half-written output is removed on the way out."""


def _stop_on(signum, _frame) -> None:
    raise Stopped(signum)


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
        signum = exc.args[0] if isinstance(exc, Stopped) else signal.SIGINT
        print(f"\ncar-sandbox: stopped ({signal.Signals(signum).name}); nothing half-written is left", file=sys.stderr)
        return 128 + int(signum)
    except BrokenPipeError:  # stdout closed early (`| head`): stop quietly, as other tools do
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # Python's exit flush would raise it again
        return 1


def command_files(args) -> tuple[list[Path], list[Path]]:
    """(every file a command writes, every file it reads), from its arguments."""
    reads = [getattr(args, name, None) for name in ("preset", "controls", "script")] + list(getattr(args, "ghost", []))
    writes = [getattr(args, "out", None)]
    if writes[0] is not None and getattr(args, "scene", False):  # a scene's script beside it, the old one kept
        script = Path(writes[0]).with_suffix(".gd")
        writes += [script] + ([script.with_name(script.name + ".bak")] if os.path.lexists(script) else [])
    if writes[0] is not None and args.command in ("import-godot", "tune"):  # a preset kept as .bak first
        from .files.presets import backup_path

        writes.append(backup_path(Path(writes[0])))
    into = getattr(args, "into", None)
    if into is not None and not args.dry_run:
        from .files.godot_into import backup_path

        writes += [into] + ([] if args.no_backup else [backup_path(into)])
    return [Path(w) for w in writes if w is not None], [Path(r) for r in reads if r is not None]


def find_presets(args) -> None:
    """Each preset argument as the file it names: a file, or a built-in preset's name
    or file stem (`--preset drift`); a miss is refused with the close names."""
    from .files.presets import find_preset

    if getattr(args, "preset", None) is not None:
        args.preset = find_preset(args.preset)
    if getattr(args, "ghost", None):
        args.ghost = [find_preset(ghost) for ghost in args.ghost]


def check_outputs(args) -> None:
    """Before any work: every file the command writes may be written, and is none of
    the files it reads (a refusal at the end of a long sweep would waste it)."""
    from .files.disk import check_target, remove_stale

    writes, reads = command_files(args)
    for path in writes:
        check_target(path, reads)
    for folder in {path.parent for path in writes}:  # what a killed run of a command left there
        remove_stale(folder)


def _main(argv: list[str] | None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command is None:
            find_presets(args)
            return cmd_window(args)
        for name in ("SIGTERM", "SIGHUP"):  # the commands only: the window asks first (no SIGHUP on Windows)
            if hasattr(signal, name):
                signal.signal(getattr(signal, name), _stop_on)
        if args.command in ("bench", "soak") and args.out is None:
            args.out = report_path(f"{args.command}.json")
        find_presets(args)
        check_outputs(args)
        if args.command in ("bench", "soak"):  # they print their own progress
            code = COMMANDS[args.command](args)
        else:
            with Watchdog(args.command):
                code = COMMANDS[args.command](args)
    except UserError as exc:
        print(f"car-sandbox: error: {printable_lines(str(exc))}", file=sys.stderr)
        return 2
    return int(code or 0)  # a command that can end short of its goal says so (tune: 1)
