"""`metrics`: a preset's metrics from the standard manoeuvres, and its top speed from
the parameters beside the simulated one."""

from __future__ import annotations

import json
import math


def run(args) -> None:
    from ..analysis.metrics import compute, format_value, formula_top_speed, table, unit_of
    from ..files.presets import load_preset

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
