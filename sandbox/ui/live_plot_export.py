"""File → Export of the live plots (speed, slip angle, the model's channels, and each
ghost's and the linked game car's): the picture as PNG or SVG through pyqtgraph's exporters, the last
WINDOW_SECONDS of figures as CSV. Written whole or not at all (disk.write_atomic)."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np

from ..errors import UserError
from ..files.disk import write_text_atomic
from .force_curve_plot import EXPORT_SUFFIXES, export_image
from .telemetry import CHANNEL_COLUMNS, COLUMNS, LivePlots


def live_plots_csv(plots: LivePlots) -> str:
    """The plotted figures, one row per tick: time [s], then each curve shown, named
    with its unit; blank where a curve has no value at that tick."""
    unit = f"{plots.length_unit}/s"
    names = {"t": "time [s]", "speed": f"speed [{unit}]", "slip": "slip angle [deg]"}
    for channel, column in zip(plots.channels, CHANNEL_COLUMNS):
        names[column] = f"{channel.label} [{channel.unit}]" if channel.unit else channel.label
    for i, ghost in enumerate(plots.ghost_names):
        names[f"ghost{i}_speed"] = f"{ghost}: speed [{unit}]"
        names[f"ghost{i}_slip"] = f"{ghost}: slip angle [deg]"
    if plots.game_name:
        names["game_speed"] = f"game {plots.game_name}: speed [{unit}]"
        names["game_slip"] = f"game {plots.game_name}: slip angle [deg]"
    columns = [COLUMNS.index(name) for name in COLUMNS if name in names]
    data = plots.buffer.view()[columns].T  # the buffer keeps a row per column
    out = io.StringIO()
    out.write(",".join('"' + names[COLUMNS[c]].replace('"', '""') + '"' for c in columns) + "\n")
    for row in data:
        out.write(",".join("" if np.isnan(v) else repr(float(v)) for v in row) + "\n")
    return out.getvalue()


def export_live_plots(plots: LivePlots, path) -> None:
    """Write the live plots to `path`: .png, .svg (the picture) or .csv (the figures)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in EXPORT_SUFFIXES:
        raise UserError(f"{path}: unknown export type {suffix or '(none)'!r}; use .png, .svg or .csv")
    if suffix == ".csv":
        write_text_atomic(path, live_plots_csv(plots))
    else:
        export_image(plots.ci, path, max(800, plots.width()))
