"""`rates`: top speed, coast-down and braking distance at each tick rate, in both of
the arcade's integration modes."""

from __future__ import annotations

import math

from ..errors import UserError


def _rate_figure(value: float, endless: str) -> str:
    """A figure of the rates table, or what it means when there is none (inf)."""
    return f"{value:.1f}" if math.isfinite(value) else endless


def run(args) -> None:
    from ..analysis.rates import rate_table
    from ..files.presets import load_preset
    from ..physics.sim import TICK_RATES

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
