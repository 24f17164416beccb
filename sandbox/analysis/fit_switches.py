"""The fit's on/off options: which formula and which pedal reading drove the recording.

A model's switches (its `Param.switch`es: the arcade's analog_pedals, recipe_2020,
rate_independent, …) change how the car computes, so a fit that keeps the start's
switches fits the wrong formula wherever the game's differ. Those the recording states
(the game's hello said them: its comment line, files/recording_header.py) are set to
that and never moved. Of the others, those that can change this recording's drive are
told apart by fitting each combination of them (each from the defaults and ranges its
switches give the values, `Param.variant`), and the set whose fit drives the recording
closest is chosen. A whole fit takes seconds, so every set is first screened by a quick
fit (`fit.screen`: the polish from the set's defaults) and only those within
SCREEN_FACTOR of the best quick fit are fitted in full (`fit`; always the best), one
of each group whose quick fits went alike (`alike`: the switches between them did
nothing). A switch no combination of the others lets change the drive (analog pedals
on a recording of whole presses only) is untold: kept as the start has it, and said.
"""

from __future__ import annotations

import itertools
import math
import threading
from dataclasses import dataclass, field
from types import ModuleType
from typing import Callable, Mapping

import numpy as np

from ..physics.params import Tuning
from . import fit as one_fit
from .fit import ROUNDING, FitResult, _run_one, path_per_segment
from .fit_objective import Objective, RecordedDrive

MAX_SWITCH_SETS = 8
"""Most sets of switches fitted (each a whole fit): the switches that change the drive
beyond this many sets keep the start's value, and are said to."""
MAX_TELL_SETS = 64
"""Most sets of switches driven once each to find which ones change the drive."""
SCREEN_FACTOR = 3.0
"""Of several sets, those whose quick fit (fit.screen) drives the recording within this
many times the best quick fit's error (the square root of the score per tick, a length)
are fitted in full; the others are screened out, their quick fit's residual reported."""
SCREEN_SHARE = 0.1
"""Share of the progress the quick fits take."""


@dataclass
class SwitchFit:
    """A fit over the switches: the chosen set's fit, every set fitted in full (switches
    -> its fit, the chosen first), every set's quick fit, the switches the recording
    stated (set from it), those it cannot tell (kept as the start has them), those kept
    because the sets would be too many or the user locked them, and those the recording
    states that the model lacks."""

    result: FitResult
    tried: list[tuple[dict[str, bool], FitResult]]
    quick: list[tuple[dict[str, bool], FitResult]] = field(default_factory=list)
    """Every set's quick fit (switches -> fit.screen's result, closest first); none when
    there was one set."""
    start: dict[str, bool] = field(default_factory=dict)
    stated: dict[str, bool] = field(default_factory=dict)
    untold: list[str] = field(default_factory=list)
    beyond_bound: list[str] = field(default_factory=list)
    locked: list[str] = field(default_factory=list)
    foreign: list[str] = field(default_factory=list)

    @property
    def switches(self) -> dict[str, bool]:
        """The chosen fit's switches, every one of the model's."""
        return {p.name: bool(self.result.tuning[p.name]) for p in self.result.model.PARAMS if p.is_bool}

    @property
    def screened(self) -> list[tuple[dict[str, bool], FitResult]]:
        """The sets not fitted in full, with their quick fit (closest first)."""
        fitted = [switches for switches, _ in self.tried]
        return [(switches, result) for switches, result in self.quick if switches not in fitted]

    @property
    def searched(self) -> list[str]:
        """The switches fitted both ways."""
        sets = self.tried + self.screened
        names = {name for switches, _ in sets for name in switches}
        return [p.name for p in self.result.model.PARAMS if p.name in names] if len(sets) > 1 else []


def switch_names(model: ModuleType) -> list[str]:
    return [p.name for p in model.PARAMS if p.is_bool]


def start_with(model: ModuleType, start: Mapping[str, object], switches: Mapping[str, bool]) -> dict:
    """`start` with `switches` set; a switch turned gives the values it changes the meaning
    of the defaults they have under it (Param.variant), as the tuning panel does."""
    tuning = Tuning(model.PARAMS, start)
    tuning.set_many(dict(switches))
    return dict(tuning)


def told_switches(
    model: ModuleType,
    drive: RecordedDrive,
    hz: float,
    start: Mapping[str, object],
    names: list[str],
    segment: int,
    heading_weight: float | None = None,
) -> list[str]:
    """Of `names` (switches), those that change how `start`'s car drives the recording
    (beyond float rounding) for some setting of the other `names`: each set's car driven
    once through the recording, as the fit re-anchors it (all sets while they are at
    most MAX_TELL_SETS, else each switch turned alone from `start`)."""
    sets = list(itertools.product((False, True), repeat=len(names)))
    if len(sets) > MAX_TELL_SETS:
        sets = [tuple(bool(start[n]) for n in names)]
        sets += [tuple(v if j != i else not v for j, v in enumerate(sets[0])) for i in range(len(names))]
    drives, path = {}, None
    for values in sets:
        tuning = start_with(model, start, dict(zip(names, values)))
        objective = Objective(model, drive, hz, tuning, segment, heading_weight)
        _, errors = _run_one(objective, tuning)
        drives[values] = errors[0]
        path = path if path is not None else path_per_segment(objective)
    told = []
    for i, name in enumerate(names):
        for values in drives:
            other = values[:i] + (not values[i],) + values[i + 1 :]
            if other in drives and _differ(drives[values], drives[other], ROUNDING * max(path, 1e-300)):
                told.append(name)
                break
    return told


def _differ(a: np.ndarray, b: np.ndarray, tolerance: float) -> bool:
    """Whether two drives' errors (ticks, 3) differ by more than `tolerance` anywhere (a
    drive that left the numbers differs from one that did not)."""
    finite = np.isfinite(a)
    if not np.array_equal(finite, np.isfinite(b)):
        return True
    return bool(np.max(np.abs(a[finite] - b[finite]), initial=0.0) > tolerance)


def switch_sets(model: ModuleType, start: Mapping[str, object], told: list[str]) -> tuple[list[dict], list[str]]:
    """(the distinct sets of the `told` switches to fit, the start's first; the told
    switches left at the start's value to keep the sets at most MAX_SWITCH_SETS). A switch
    that does nothing under another (Param.unused_with) keeps the start's value there."""
    params = {p.name: p for p in model.PARAMS}
    tried, beyond = list(told), []
    while True:
        sets = []
        for values in itertools.product((False, True), repeat=len(tried)):
            chosen = dict(zip(tried, values))
            for name in tried:
                other = params[name].unused_with
                if other and chosen.get(other, start.get(other, False)):
                    chosen[name] = bool(start[name])
            if chosen not in sets:
                sets.append(chosen)
        if len(sets) <= MAX_SWITCH_SETS:
            break
        beyond.insert(0, tried.pop())
    first = {name: bool(start[name]) for name in tried}
    sets.sort(key=lambda s: s != first)
    return sets, beyond


def fit_switches(
    model: ModuleType,
    drive: RecordedDrive,
    start: Mapping[str, object],
    names: list[str],
    hz: float,
    stated: Mapping[str, bool] | None = None,
    locked: tuple[str, ...] = (),
    segment: int | None = None,
    heading_weight: float | None = None,
    seed: int = 1,
    max_evaluations: int | None = None,
    on_progress: Callable[[float], None] | None = None,
    stop: threading.Event | None = None,
) -> SwitchFit:
    """`fit` of `names` with the model's switches set as the recording states them
    (`stated`), the others tried in each set the recording can tell apart but those
    `locked` (kept as in `start`), those a quick fit screens out (`_screened`) fitted no
    further; the set whose whole fit scores least per tick is chosen."""
    stated = dict(stated or {})
    declared = switch_names(model)
    foreign = sorted(name for name in stated if name not in declared)
    given = {name: value for name, value in stated.items() if name in declared}
    base = start_with(model, start, given)
    segment = int(segment or round(hz))
    free = [name for name in declared if name not in given and name not in locked]
    told = told_switches(model, drive, hz, base, free, segment, heading_weight) if free and names else []
    sets, beyond = switch_sets(model, base, told)
    sets, quick = _screened(model, drive, base, names, hz, sets, segment, heading_weight, on_progress, stop)
    screening = SCREEN_SHARE if quick else 0.0
    tried = []
    for i, switches in enumerate(sets):
        if i and stop is not None and stop.is_set():
            break
        share = (lambda s, i=i: on_progress(screening + (1 - screening) * (i + s) / len(sets))) if on_progress else None
        result = one_fit.fit(  # looked up at the call: a test may stand in for it
            model,
            drive,
            start_with(model, base, switches),
            names,
            hz,
            segment=segment,
            heading_weight=heading_weight,
            seed=seed,
            max_evaluations=max_evaluations,
            on_progress=share,
            stop=stop,
        )
        tried.append((switches, result))
    tried.sort(key=lambda pair: pair[1].score if math.isfinite(pair[1].score) else math.inf)
    return SwitchFit(
        result=tried[0][1],
        tried=tried,
        quick=quick,
        start={name: bool(start[name]) for name in declared},
        stated=given,
        untold=[name for name in free if name not in told],
        beyond_bound=beyond,
        locked=[name for name in declared if name in locked and name not in given],
        foreign=foreign,
    )


def _screened(model, drive, base, names, hz, sets, segment, heading_weight, on_progress, stop) -> tuple[list, list]:
    """(the sets to fit in full, best quick fit first; every set's quick fit, closest
    first): each set's quick fit (fit.screen), kept within SCREEN_FACTOR of the best and
    not `alike` one kept before it. One set (or none free): nothing to screen."""
    if len(sets) < 2 or not names:
        return sets, []
    quick = []
    for i, switches in enumerate(sets):
        if i and stop is not None and stop.is_set():  # the sets screened so far: the best of them is fitted
            break
        start = start_with(model, base, switches)
        result = one_fit.screen(
            model, drive, start, names, hz, segment=segment, heading_weight=heading_weight, stop=stop
        )
        quick.append((switches, result))
        if on_progress:
            on_progress(SCREEN_SHARE * (i + 1) / len(sets))
    quick.sort(key=lambda pair: pair[1].score)
    best = quick[0][1]
    floor = (ROUNDING * best.path_per_segment) ** 2  # below it: rounding, as good as exact
    bound = SCREEN_FACTOR**2 * max(best.score, floor)
    kept = []
    for switches, result in quick:  # a set whose quick fit went as a kept one's: that one's whole fit stands for it
        if (result is best or result.score <= bound) and not any(alike(result, other) for _, other in kept):
            kept.append((switches, result))
    return [switches for switches, _ in kept], quick


def alike(a: FitResult, b: FitResult) -> bool:
    """Whether two quick fits went the same way to the same values and residual: the
    switches between their sets did nothing anywhere along it (analog pedals with every
    pedal pressed whole), so one whole fit stands for both."""
    return a is not b and a.params == b.params and a.score == b.score and a.rms_position == b.rms_position


def on_off(switches: Mapping[str, bool]) -> str:
    """`analog_pedals on, recipe_2020 off`."""
    return (
        ", ".join(f"{name} {'on' if value else 'off'}" for name, value in switches.items()) or "as the start has them"
    )
