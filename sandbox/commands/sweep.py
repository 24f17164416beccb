"""`sweep`: a grid of one or two parameters simulated as one batch, every metric written
as CSV, the range of one metric printed."""

from __future__ import annotations

import sys

import numpy as np

from ..errors import UserError, printable
from .progress import Progress

LONG_SWEEP_S = 30 * 60
"""s: a sweep estimated to take longer is only run with --allow-long."""
SAY_ESTIMATE_AFTER_S = 10
"""s: a sweep estimated to take longer says so before it starts."""


def _duration(seconds: float) -> str:
    """A rough duration for an estimate: "40 s", "12 min", "2 h 5 min"."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    minutes = round(seconds / 60)
    return f"{minutes} min" if minutes < 90 else f"{minutes // 60} h {minutes % 60} min"


def lap_track(name: str | None):
    """The track named by --track (None without one), checked for a lap: a closed
    centre line and a start line (UserError otherwise)."""
    if name is None:
        return None
    from ..files.tracks import find_builtin_track, open_track
    from ..physics.lap_course import check_lap_track

    source = find_builtin_track(name)
    track = open_track(source)
    check_lap_track(track, printable(source))
    return track


def run(args) -> None:
    from ..analysis.lap_metrics import lap_note, metric_of
    from ..analysis.metrics import METRICS, format_value, missing_reason, unit_of
    from ..analysis.sweep import check_metric, csv_text, estimate_seconds, parse_axis, point_text, run
    from ..files.disk import write_text_atomic
    from ..files.presets import load_preset

    track = lap_track(args.track)
    metric = check_metric(args.metric, track)
    preset = load_preset(args.preset)
    axes = [parse_axis(text, preset.model, preset.tuning) for text in args.param]
    hz = args.hz or preset.hz
    seconds = estimate_seconds(preset.model, preset.tuning, axes, hz, track)
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
        grid, values = run(
            preset.model, preset.tuning, axes, hz, lambda done, total: progress(done / total), track=track
        )
    finally:
        progress.close(grid is not None)
    write_text_atomic(args.out, csv_text(axes, grid, values, track))
    column = values[metric]
    unit = unit_of(metric_of(metric).kind, preset.model)
    finite = np.flatnonzero(np.isfinite(column))
    if len(finite) == 0:
        if metric in METRICS:
            why = missing_reason(metric, float(column[0]), preset.model, values)
        else:
            why = lap_note(preset.model, values)
        print(f"{len(grid)} tunings of {preset.name}: no {metric} for any tuning ({why}); wrote {printable(args.out)}")
        return
    low, high = finite[np.argmin(column[finite])], finite[np.argmax(column[finite])]
    print(
        f"{len(grid)} tunings of {preset.name}: {metric} {format_value(column[low])} … "
        f"{format_value(column[high])} {unit}; wrote {printable(args.out)}"
    )
    print(f"  lowest  {format_value(column[low])} {unit} at {point_text(axes, grid[low])}")
    print(f"  highest {format_value(column[high])} {unit} at {point_text(axes, grid[high])}")
