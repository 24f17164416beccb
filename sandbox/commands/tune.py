"""`tune`: the tuning nearest a preset whose metrics hit the targets given, printed or
as JSON, and written as a preset with `--out`."""

from __future__ import annotations

import json
import math

from ..errors import UserError, printable


def run(args) -> int:
    from dataclasses import replace

    from ..analysis.lap_metrics import metric_of
    from ..analysis.metrics import METRICS, format_value, unit_of
    from ..analysis.tune import conflicts, free_names, parse_range, parse_target, search
    from ..files.presets import load_preset, precision_kept, save_preset

    if args.name is not None and args.out is None:
        raise UserError("--name names the tuned preset written by --out; give --out too (nothing else is saved)")
    from .sweep import lap_track

    track = lap_track(getattr(args, "track", None))
    preset = load_preset(args.preset)
    model = preset.model
    targets = [parse_target(text, model, track) for text in args.target]
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
    result = search(model, dict(preset.tuning), targets, names, hz, args.seed, ranges, track=track)
    pulls = (
        [] if result.hit else conflicts(model, dict(preset.tuning), targets, names, hz, args.seed, ranges, track=track)
    )
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
                preset,
                tuning=tuning,
                name=args.name or f"{preset.name} (tuned)",
                description=description,
                path=None,
                precision=precision_kept(preset, tuning),
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
            f"{preset.name} ({model.TITLE}) at {hz} Hz{'' if track is None else ' on ' + track.name}: "
            f"{'every target met' if result.hit else 'NOT every target met'}"
            f" after {result.evaluations} tunings"
        )
        for t in targets:
            unit = unit_of(metric_of(t.metric).kind, model)
            achieved = result.achieved[t.metric]
            verdict = (
                "met"
                if t.miss(achieved) == 0
                else f"missed by {format_value(achieved - t.value)} {unit}"
                if math.isfinite(achieved)
                else "not measured: the manoeuvre never reaches its mark"
                if t.metric in METRICS
                else "not measured: no valid lap (cut, a cone, or not completed)"
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
