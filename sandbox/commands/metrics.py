"""`metrics`: a preset's metrics from the standard manoeuvres, and its top speed from
the parameters beside the simulated one; with `--track`, the manoeuvres driven on the
track from its spawn (analysis/track_metrics.py)."""

from __future__ import annotations

import json
import math
import sys


def _values(preset, hz, track_name):
    """(values, met_at or None, the track or None) of the preset's manoeuvres."""
    from ..analysis.metrics import compute

    if track_name is None:
        return compute(preset.model, preset.tuning, hz), None, None
    from ..analysis.track_metrics import compute_on_track, meets_walls
    from ..files.tracks import find_builtin_track, open_track

    track = open_track(find_builtin_track(track_name))
    if not meets_walls(preset.model):
        print(f"note: the {preset.model.TITLE} model does not meet walls yet; it drives through them", file=sys.stderr)
    values, met_at = compute_on_track(preset.model, preset.tuning, hz, track)
    return values, met_at, track


def _laps(preset, hz, track) -> dict | None:
    """The driver's lap figures of the preset on `track` (lap_time, sector_1 …, s, None
    where there is no lap, and why), None for no track or one without a closed centre
    line and a start line (the manoeuvres alone)."""
    from ..analysis.lap_metrics import lap_figures, lap_note, lap_track, sector_names

    if lap_track(track) is None:
        return None
    figures = lap_figures(preset.model, preset.tuning, hz, track)
    names = ["lap_time", *sector_names(track)]
    values = {name: float(figures[name][0]) for name in names}
    return {
        **{name: (v if math.isfinite(v) else None) for name, v in values.items()},
        "missing": lap_note(preset.model, figures),
    }


def run(args) -> None:
    from ..analysis.metrics import format_value, formula_top_speed, table, unit_of
    from ..analysis.track_metrics import wall_note
    from ..files.presets import load_preset

    preset = load_preset(args.preset)
    hz = args.hz or preset.hz
    values, met_at, track = _values(preset, hz, getattr(args, "track", None))
    rows = table(preset.model, values)
    for r in rows:
        r["met_wall_after_s"] = None
        if met_at is not None and math.isfinite(met_at[r["name"]][0]):
            r["met_wall_after_s"] = float(met_at[r["name"]][0])
            r["missing"] = wall_note(r["met_wall_after_s"])
    formula, how = formula_top_speed(preset.model, preset.tuning, hz)
    laps = _laps(preset, hz, track)
    if args.json:
        clean = [{**r, "value": r["value"] if math.isfinite(r["value"]) else None} for r in rows]
        top = {"value": formula if math.isfinite(formula) else None, "unit": unit_of("speed", preset.model), "how": how}
        print(
            json.dumps(
                {
                    "preset": preset.name,
                    "model": preset.model.NAME,
                    "hz": hz,
                    "track": None if track is None else track.name,
                    "metrics": clean,
                    "top_speed_from_parameters": top,
                    "lap": laps,
                },
                indent=2,
            )
        )
        return
    where = "" if track is None else f" on {track.name}, from its spawn"
    print(f"{preset.name} ({preset.model.TITLE}) at {hz} Hz{where}")
    for r in rows:
        point = f"   ({r['point']})" if r["point"] else ""
        if r["met_wall_after_s"] is not None:
            point = f"   ({r['missing']})"
        unit = r["unit"] if math.isfinite(r["value"]) else ""  # "none", "—": no unit
        print(f"  {r['label']:42s} {format_value(r['value']):>8s} {unit:6s}{point}".rstrip())
        if r["name"] == "top_speed":
            beside = f"{format_value(formula):>8s} {r['unit']:6s}   ({how})" if math.isfinite(formula) else f"    {how}"
            print(f"  {'top speed from the parameters':42s} {beside}")
    if laps is not None:
        print("  the driver's first timed lap, from the spawn (the car's own limits):")
        for name, value in laps.items():
            if name != "missing" and value is not None:
                print(f"  {name.replace('_', ' '):42s} {value:8.2f} s")
        if laps["missing"]:
            print(f"  {'lap time':42s} {'—':>8s}   ({laps['missing']})")
