"""`curves`: the force-vs-speed plot of a preset's car as PNG, SVG (drawn by the
window's plot, offscreen) or CSV."""

from __future__ import annotations

import os

from ..errors import UserError


def run(args) -> None:
    from ..analysis.force_curves import curve_csv, force_curve
    from ..files.disk import write_text_atomic
    from ..files.presets import load_preset

    suffix = args.out.suffix.lower()
    if suffix not in (".png", ".svg", ".csv"):
        raise UserError(f"{args.out}: unknown output type {suffix or '(none)'!r}; use .png, .svg or .csv")
    preset = load_preset(args.preset)
    hz = args.hz or preset.hz
    if suffix == ".csv":
        write_text_atomic(args.out, curve_csv(force_curve(preset.model, preset.tuning, hz)))
        return
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from ..ui.force_curve_plot import ForceCurvePlot
    from ..ui.qt import application, dispose

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
