"""The auto-tune's job on the worker's thread (the search, then what binds) and the
words for its outcome."""

from __future__ import annotations

import copy
import math

from ..analysis.metrics import METRICS, format_value, unit_of
from ..analysis.tune import Target, TuneResult, conflicts, search
from ..errors import UserError
from .worker import Task

BINDS_PHASE = (
    "Not every target met: searching again without each target in turn, to find what stands in the way… (Stop ends it)"
)
"""What the tab says once the search missed and the job looks for what binds."""


def search_job(model, tuning: dict, targets: list[Target], names: list, ranges: dict, hz: int, seed: int, task: Task):
    """(TuneResult or a UserError's text, stopped?) of the auto-tune, on the worker's
    thread: progress as copies of the search's Progress, then BINDS_PHASE if it looks
    for what binds; `task.stop` ends either phase with the best so far."""
    try:
        result = search(
            model,
            tuning,
            targets,
            names,
            hz,
            seed,
            ranges,
            on_generation=lambda progress: task.report(copy.deepcopy(progress)),  # the search changes its own
            stop=task.stop,
        )
        if not result.hit and not task.stop.is_set() and len(targets) > 1:  # which targets pull against each other
            task.report(BINDS_PHASE)
            result.binding += conflicts(model, tuning, targets, names, hz, seed, ranges, stop=task.stop)
    except UserError as exc:
        result = str(exc)
    return result, task.stop.is_set()


def outcome_text(result: TuneResult, changed: int, model) -> str:
    """What the search found: every target met, or how far each is missed and what
    binds; then how many parameters (`changed`) it changes."""
    count = f"{changed} parameter{'' if changed == 1 else 's'} change{'s' if changed == 1 else ''}"
    if result.hit:
        return f"Every target met ({result.evaluations} tunings); {count}" + (" (below)." if changed else ".")
    unit = {t.metric: unit_of(METRICS[t.metric].kind, model) for t in result.targets}
    misses = "; ".join(
        f"{metric} off by {format_value(miss)} {unit[metric]}"
        if math.isfinite(miss)
        else f"{metric} not measured (the manoeuvre never reaches its mark)"
        for metric, miss in result.misses().items()
    )
    return (
        f"Not every target can be met: the closest tuning found misses {misses}."
        + ("" if not result.binding else " What binds: " + "; ".join(result.binding) + ".")
        + f" {count}"
        + (" (below)." if changed else ".")
    )
