"""The Fit dialog's work on the worker's thread (one fit per model asked for, the
progress of all of them as one share) and the words for its outcome."""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, field
from types import ModuleType

from ..analysis.fit import FitResult
from ..analysis.fit_advice import cannot_explain, left_out, uncertainty_reason, what_to_try
from ..analysis.fit_switch_text import switch_lines
from ..analysis.fit_switches import SwitchFit, fit_switches
from ..errors import UserError
from ..files.recordings import Recording
from ..physics.params import effective_params
from .worker import Task


@dataclass
class FitRun:
    """One model to fit: its start tuning (the fixed values, and where the search
    starts) and the names of its free parameters; once fitted, what the fit says of its
    switches (lines of text: those the recording stated, the sets tried, those untold)
    and the switch search itself."""

    model: ModuleType
    start: dict
    free: list[str]
    switches: list[str] = field(default_factory=list)
    search: SwitchFit | None = None


def fit_job(runs: list[FitRun], recording: Recording, segment: int | None, task: Task) -> list:
    """Each run's FitResult (or a UserError's text), in order, its switches set from
    the recording or tried where it tells them (analysis/fit_switches.py); progress 0…1 over all of
    them; `task.stop` ends the running fit with its best so far (the first one's: its
    start, if stopped before it began) and skips the rest."""
    out = []
    for i, run in enumerate(runs):
        if i and task.stop.is_set():
            break
        try:
            search = fit_switches(
                run.model,
                recording,
                run.start,
                run.free,
                recording.hz,
                stated=recording.switches,
                segment=segment,
                on_progress=lambda share, i=i: task.report((i + share) / len(runs)),
                stop=task.stop,
            )
            result, run.switches = search.result, switch_lines(search, run.model.LENGTH_UNIT)
            run.search = search
        except UserError as exc:
            result = f"{run.model.TITLE}: {exc}"
        out.append(result)
    return out


def best_of(results: list) -> FitResult | None:
    """The fit with the least error per tick (FitResult.score) among those that explain
    the drive at all; None if none does."""
    fits = [r for r in results if isinstance(r, FitResult) and math.isfinite(r.score) and r.verdict != "cannot explain"]
    return min(fits, key=lambda r: r.score) if fits else None


VERDICTS = {
    "good": "good: the model drives the recording closely",
    "poor": "poor: the model follows the recording only roughly",
    "cannot explain": "cannot explain: the model's errors are larger than the distance driven",
}


def switches_html(lines: list[str]) -> str:
    """What a fit says of its switches (FitRun.switches), for the dialog's report."""
    if not lines:
        return ""
    return "<p>" + "<br>".join(html.escape(line.strip()) for line in lines) + "</p>"


DIALOG = {
    "free": "tick them among the free parameters",
    "switches": "in the window's tuning, before the fit",
    "model": "Model: all models",
}
"""How each thing to try is done in the Fit dialog (fit_advice.what_to_try)."""


def result_html(result: FitResult, best: bool, search: SwitchFit | None = None) -> str:
    """One model's fit for people: the verdict, the residual with units, every fitted
    value ± its uncertainty (or why a ± would mean nothing), the stretches left out,
    the values the recording cannot tell, and what to try (knowing the switch search
    `search` that chose it)."""
    model, unit = result.model, result.model.LENGTH_UNIT
    params = {p.name: p for p in effective_params(model.PARAMS, result.tuning)}
    reason = uncertainty_reason(result, unit)
    rows = []
    for name in result.names:
        if name in result.undetermined:
            continue
        p = params[name]
        spread = result.uncertainty.get(name, math.nan)
        if reason:
            plus = " (± not meaningful)"
        else:
            plus = f" ± {spread:.2g}" if math.isfinite(spread) else " (uncertainty unknown)"
        value = f"{result.params[name]:.6g}{plus} {html.escape(p.unit)}"
        rows.append(f"<tr><td>{html.escape(p.label)}&nbsp;&nbsp;</td><td>{value}</td></tr>")
    text = (
        f"<p><b>{html.escape(model.TITLE)}</b>{' — <b>best fit</b>' if best else ''}: "
        f"{html.escape(VERDICTS.get(result.verdict, result.verdict))}<br>"
        f"position error RMS {result.rms_position:.3g} {unit}, worst {result.max_position:.3g} {unit}; "
        f"heading error RMS {result.rms_heading:.3g}° (re-anchored every {result.segment} ticks; "
        f"{result.evaluations} tunings tried)</p>"
    )
    for sentence in (left_out(result), cannot_explain(result)):
        if sentence:
            text += f"<p>{html.escape(sentence[0].upper() + sentence[1:], quote=False)}.</p>"
    if reason:
        text += f"<p>The values' ± are {html.escape(reason, quote=False)}.</p>"
    if rows:
        text += "<table>" + "".join(rows) + "</table>"
    if result.undetermined:
        names = ", ".join(html.escape(params[n].label) for n in result.undetermined)
        text += (
            f"<p>The recording cannot tell: {names}. Every value of "
            f"{'it' if len(result.undetermined) == 1 else 'them'} drives it the same, so "
            f"{'it is' if len(result.undetermined) == 1 else 'they are'} kept at the start value.</p>"
        )
    tries = what_to_try(result, DIALOG, search)
    if tries:
        text += "<p>What to try: " + "; ".join(html.escape(t, quote=False) for t in tries) + ".</p>"
    return text
