"""`sensitivity`: how much each metric moves for one step and for a share of each slider."""

from __future__ import annotations

import json
import math


def run(args) -> None:
    from ..analysis.lap_metrics import metric_of
    from ..analysis.metrics import format_value, formula_top_speed, unit_of
    from ..analysis.sensitivity import SHARE, sensitivity
    from ..files.presets import load_preset
    from .sweep import lap_track

    track = lap_track(getattr(args, "track", None))
    preset = load_preset(args.preset)
    model, hz = preset.model, args.hz or preset.hz
    result = sensitivity(model, dict(preset.tuning), hz, track)
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
                    "track": None if track is None else track.name,
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
    where = "" if track is None else f" on {track.name}"
    print(
        f"{preset.name} ({model.TITLE}) at {hz} Hz{where}: each metric's change for one slider step up, and for "
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
            unit = unit_of(metric_of(metric).kind, model)
            print(f"  {metric:20s} {step:+10.4g} {unit:6s} a step   {share:+10.4g} {unit} for {SHARE:.0%}")
