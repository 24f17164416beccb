"""`fit`: the tuning of a model (or of every model in the recording's units) that drives
a recorded drive, printed or as JSON, and the best written as a preset with `--out`."""

from __future__ import annotations

import json
import math

import numpy as np

from ..errors import UserError, printable

METRE_SPEEDS_UP_TO = 150.0
"""units/s: a recording whose fastest tick is slower is taken to be in metres (540 km/h),
a faster one in pixels, when --units does not say."""

TIED_TEXT = "the drive shows this combination much more sharply than either value (they trade off)"
"""Said of a combination of two values a fit names (FitResult.tied)."""


def run(args) -> int:
    from dataclasses import replace

    from ..analysis.fit_switch_text import other_units_text, switch_json, switch_lines
    from ..analysis.fit_switches import fit_switches, on_off, switch_names
    from ..analysis.tune_space import free_names
    from ..files.presets import fitted_precision, load_preset, precision_kept, reference_preset, save_preset
    from ..files.recorded_track import track_for
    from ..files.recordings import load_recording
    from ..physics.models import MODELS, get_model
    from ..physics.sim import TICK_RATES
    from .progress import Progress

    recording = load_recording(args.trace, args.hz)
    recording.track = track_for(recording.track_ref, recording.source, getattr(args, "track", None))
    start = load_preset(args.preset) if args.preset is not None else None
    left_out = []
    if args.model == "all":
        units = args.units or _units_of(recording)
        models = [m for m in MODELS.values() if m.LENGTH_UNIT == units]
        left_out = [m for m in MODELS.values() if m.LENGTH_UNIT != units]
    else:
        try:
            models = [get_model(args.model)]
        except KeyError as exc:
            raise UserError(f"--model: {exc.args[0]}") from None
        units = models[0].LENGTH_UNIT
        if args.units is not None and args.units != units:
            raise UserError(
                f"--units {args.units}: the {models[0].TITLE} model is in {units}; give a recording in {units}"
            )
        if start is not None and start.model is not models[0]:
            raise UserError(
                f"--preset {printable(args.preset)} is a preset of the {start.model.TITLE} model, not of the "
                f"{models[0].TITLE}: give one of the model fitted"
            )
    if args.segment is not None and args.segment > len(recording) - 2:
        raise UserError(
            f"--segment {args.segment} ticks is longer than the recording ({len(recording)} ticks): give a shorter one"
        )
    if not _path_length(recording) > 0:
        raise UserError(f"{recording.source}: the car never moves in the recording: there is nothing to fit")
    results, presets, searches = [], {}, {}
    switches = {n for m in models for n in switch_names(m)}
    locked_switches = [n for n in args.lock or [] if n in switches]  # kept as the preset has them: not tried
    args.lock = [n for n in args.lock or [] if n not in switches] or None
    for name in args.free or []:
        if name in switches:
            raise UserError(
                f"--free {name}: an on/off option is no value to fit: the fit tries it wherever the recording "
                f"can tell it (--lock {name} keeps the preset's)"
            )
    for model in models:
        preset = start if start is not None and start.model is model else None
        preset = preset or reference_preset(model)
        declared = {p.name for p in model.PARAMS}
        if args.model == "all" and args.free:  # each model fits those of the names it has (none: as it is)
            names = [p.name for p in model.PARAMS if p.name in args.free and p.moves_motion]
        else:
            lock = [n for n in args.lock if n in declared] if args.lock and args.model == "all" else args.lock
            names = free_names(model, args.free, lock)
        progress = Progress(f"fitting the {model.TITLE}")
        try:
            search = fit_switches(
                model,
                recording,
                dict(preset.tuning),
                names,
                recording.hz,
                stated=recording.switches,
                locked=tuple(n for n in locked_switches if n in declared),
                segment=args.segment,
                heading_weight=args.heading_weight,
                seed=args.seed,
                on_progress=progress,
            )
        finally:
            progress.close()
        results.append(search.result)
        searches[model.NAME] = search
        presets[model.NAME] = preset
    explained = [r for r in results if r.verdict != "cannot explain"]
    if not explained:
        raise UserError(_cannot_explain(recording, results, units))
    best = min(explained, key=lambda r: r.score)
    if args.out:
        preset = presets[best.model.NAME]
        tuning = preset.tuning.copy()
        tuning.set_many({**searches[best.model.NAME].switches, **best.params})  # the switches first
        hz = int(recording.hz) if recording.hz in TICK_RATES else preset.hz  # a preset's rate is an offered one
        description = (
            f"Fitted by car-sandbox fit to {recording.source} from {preset.name!r}, moving "
            f"{', '.join(n for n in best.names if n not in best.undetermined)} with "
            f"{on_off(searches[best.model.NAME].switches)}: RMS position error "
            f"{best.rms_position:.3g} {units}, {best.verdict}."
        )
        precision = precision_kept(preset, tuning) | fitted_precision(best.uncertainty)  # written to the fit's ±
        fitted = replace(
            preset, tuning=tuning, name=f"{preset.name} (fitted)", description=description, hz=hz, precision=precision
        )
        save_preset(fitted, args.out)
    if args.json:
        found = _as_json(results, best, recording, units, searches)
        for entry, result in zip(found["fits"], results):
            entry.update(switch_json(searches[result.model.NAME]))
        if left_out:
            found["models_not_tried"] = {
                "models": [m.NAME for m in left_out],
                "why": other_units_text(left_out, units),
            }
        print(json.dumps(found, indent=2))
    else:
        lines = _as_text(results, best, recording, units, searches)
        for result in results:  # under each model's verdict
            at = next(i for i, line in enumerate(lines) if line.startswith(f"{result.model.TITLE}: "))
            lines[at + 1 : at + 1] = switch_lines(searches[result.model.NAME], units)
        if left_out:
            lines.append(other_units_text(left_out, units))
        print("\n".join(lines))
        if args.out:
            print(f"wrote {printable(args.out)} (the {best.model.TITLE}'s fit)")
    return 0 if best.verdict == "good" else 1


def _units_of(recording) -> str:
    """px or m, from the recording's fastest tick (METRE_SPEEDS_UP_TO); across a lost
    tick, the mean speed over the ticks between the rows."""
    ticks = np.diff(recording.tick) if recording.tick is not None else 1
    speeds = np.hypot(*np.diff(recording.pose[:, :2], axis=0).T) / ticks * recording.hz
    return "m" if float(np.max(speeds, initial=0.0)) <= METRE_SPEEDS_UP_TO else "px"


def _path_length(recording) -> float:
    return float(np.sum(np.hypot(*np.diff(recording.pose[:, :2], axis=0).T)))


def _cannot_explain(recording, results, units: str) -> str:
    lines = [f"{recording.source}: no model explains this drive at all (nothing written):"]
    for r in results:
        lines.append(
            f"  the {r.model.TITLE}: its RMS position error, {_number(r.rms_position)} {units}, is larger than the "
            f"{_number(r.path_per_segment)} {units} the car drives per segment"
        )
    lines.append(
        "  a recording of another kind of car, in other units (--units), at another tick rate (--hz), "
        "or with walls or code of the game's own in it?"
    )
    return "\n".join(lines)


def _number(value: float) -> str:
    return f"{value:.4g}" if math.isfinite(value) else "infinite"


def _finite(value: float):
    return value if math.isfinite(value) else None  # JSON has no NaN or inf: null


def _as_json(results, best, recording, units: str, searches: dict) -> dict:
    from ..analysis.fit_advice import meaningful, uncertainty_reason, what_to_try

    return {
        "fits": [
            {
                "model": r.model.NAME,
                "rms_position": _finite(r.rms_position),
                "max_position": _finite(r.max_position),
                "rms_heading": _finite(r.rms_heading),
                "params": r.params,
                "uncertainty": {
                    name: _finite(value) if meaningful(r) else None for name, value in r.uncertainty.items()
                },
                "uncertainty_reason": uncertainty_reason(r, units),
                "undetermined": r.undetermined,
                "tied": r.tied if meaningful(r) else [],
                "verdict": r.verdict,
                "units": {
                    "position": units,
                    "heading": "°",
                    "params": {p.name: p.under(r.tuning).unit for p in r.model.PARAMS if p.name in r.params},
                },
                "path_per_segment": r.path_per_segment,
                "evaluations": r.evaluations,
                "noise_position": _finite(r.noise_position),
                "beyond_noise": r.names != [] and r.beyond_noise,
                "segments": r.segments,
                "left_out_spans_s": r.left_out_spans,
                "cannot_explain_segments": r.standing_out,
                "worst_span_s": r.worst_span or None,
                "what_to_try": what_to_try(r, search=searches[r.model.NAME]),
            }
            for r in results
        ],
        "best": best.model.NAME,
        "track": None if recording.track is None else recording.track.name,
        "hz": recording.hz,
        "seconds": recording.seconds,
        "missing_ticks": recording.missing_ticks,
        "segment": best.segment,
    }


def _as_text(results, best, recording, units: str, searches: dict) -> list[str]:
    from ..analysis.fit_advice import cannot_explain, left_out, uncertainty_reason, what_to_try

    lines = [
        f"{recording.source}: {recording.seconds:.1f} s at {recording.hz:g} Hz ({len(recording)} rows), "
        f"positions in {units}; the car put back on the recording every {best.segment} ticks "
        f"({best.segment / recording.hz:.2f} s)"
    ]
    if recording.track is not None:
        lines.append(f"  on the track {recording.track.name}: the car meets its walls as it drives")
    if recording.missing_ticks:
        gaps = len(recording.gaps)
        lines.append(
            f"  {recording.missing_ticks} tick{'s' * (recording.missing_ticks != 1)} missing (lost in "
            f"{gaps} place{'s' * (gaps != 1)}): the car is put back on the recording after each"
        )
    for r in results:
        share = r.rms_position / r.path_per_segment if r.path_per_segment > 0 else math.inf
        tried = f"{r.evaluations} tunings tried" if r.names else "as its preset is: nothing of it is free"
        lines.append(f"{r.model.TITLE}: {r.verdict.upper()} fit ({tried})")
        lines.append(
            f"  residual: RMS position {_number(r.rms_position)} {units}, worst {_number(r.max_position)} {units}, "
            f"RMS heading {_number(r.rms_heading)}° ({100 * share:.2g} % of the {_number(r.path_per_segment)} "
            f"{units} driven per segment)"
        )
        for sentence in (left_out(r), cannot_explain(r)):
            if sentence:
                lines.append(f"  {sentence}")
        reason = uncertainty_reason(r, units)
        if reason:
            lines.append(f"  the values' ± are {reason}")
        params = {p.name: p for p in r.model.PARAMS}
        for name in r.names:
            p = params[name].under(r.tuning)
            unit = f" {p.unit}" if p.unit else ""
            if name in r.undetermined:
                lines.append(
                    f"  {name:20s} {r.params[name]:.6g}{unit}: undetermined (the drive does not show it; "
                    "kept at the start value)"
                )
            elif reason:
                lines.append(f"  {name:20s} {r.params[name]:.6g}{unit} (± not meaningful)")
            else:
                lines.append(f"  {name:20s} {r.params[name]:.6g} ± {r.uncertainty[name]:.2g}{unit}")
        for tie in r.tied if not reason else []:  # what a valley of two values leaves sharp
            lines.append(f"  {tie['of']} = {tie['value']:.6g} ± {tie['uncertainty']:.2g}: {TIED_TEXT}")
        tries = what_to_try(r, search=searches[r.model.NAME])
        if tries:
            lines.append("  what to try: " + "; ".join(tries))
    above = ", its residual above the recording's noise" if best.names and best.beyond_noise else ""
    lines.append(f"best: {best.model.NAME} ({best.model.TITLE}), {best.verdict}{above}")
    return lines
