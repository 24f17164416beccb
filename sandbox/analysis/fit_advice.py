"""What a fit's outcome means for its values and what to try next, in words for people
(the `fit` command and the Fit dialog say the same)."""

from __future__ import annotations

import math
from typing import Mapping

from ..physics.models import MODELS
from ..physics.params import effective_params
from .fit import NOISE_FACTOR, ROUNDING, FitResult
from .fit_switches import MAX_SWITCH_SETS, SwitchFit, on_off

CLI = {
    "free": "--free or --lock",
    "switches": "a preset with them set: --preset",
    "lock": "leave out of --lock",
    "model": "--model all",
}
"""How each thing to try is done with `car-sandbox fit`."""


def meaningful(result: FitResult) -> bool:
    """Whether the values' ± mean anything: not when the residual is far beyond what
    the recording's noise explains (the values drive the recording closely, but the
    curvature of a misfit says nothing of how far they are from the recorded car's)."""
    return not (result.names and result.beyond_noise)


def uncertainty_reason(result: FitResult, unit: str) -> str | None:
    """Why the ± are not shown (None when they mean what they say)."""
    if meaningful(result):
        return None
    times = result.rms_position / max(result.noise_position, 1e-300)
    return (
        f"not meaningful: the residual is {times:.2g} times what the recording's noise explains "
        f"({result.noise_position:.3g} {unit}), so these values drive the recording this closely without being "
        "the recorded car's, and how sharply the error rises around them says nothing of how far they are "
        "from those"
    )


def cannot_explain(result: FitResult) -> str | None:
    """The sentence for a drive whose segments stand out too often to leave out."""
    if not result.standing_out:
        return None
    return (
        f"cannot explain this drive as it is fitted: {result.standing_out} of its {result.segments} segments stand "
        "far above the rest, too many to be stretches to leave out (none is)"
    )


def left_out(result: FitResult) -> str | None:
    """The sentence naming the stretches left out, or None."""
    if not result.left_out_spans:
        return None
    joined: list[list[float]] = []
    for a, b in result.left_out_spans:  # segments end to end: one stretch
        if joined and abs(joined[-1][1] - a) < 1e-9:
            joined[-1][1] = b
        else:
            joined.append([a, b])
    spans = ", ".join(f"{a:.2f}–{b:.2f} s" for a, b in joined)
    return (
        f"left out: {spans} ({len(result.left_out_spans)} of {result.segments} segments), where the car does what "
        "the model cannot (a wall, a collision, code of the game's own?); the values come from the rest"
    )


def what_to_try(result: FitResult, how: Mapping[str, str] = CLI, search: SwitchFit | None = None) -> list[str]:
    """What may drive the recording closer, most likely first; empty for a fit that
    drives it to its noise. `how` says how each is done where the user is; `search`
    (the switch search that chose `result`) which on/off options were tried."""
    if meaningful(result) and not result.standing_out and result.verdict == "good":
        return []
    model = result.model
    params = effective_params(model.PARAMS, result.tuning)
    out = []
    held = [p for p in params if p.moves_motion and p.searched and p.name not in result.names]
    if held:
        out.append(f"free the {len(held)} value{'s' * (len(held) != 1)} held at the start ({how['free']})")
    if search is not None:
        out += switches_to_try(search, how)
    elif any(p.is_bool for p in params):  # nothing known of a search: every switch may be it
        switches = ", ".join(p.name for p in params if p.is_bool)
        out.append(f"set the model's on/off options as the game's script has them ({switches}; {how['switches']})")
    others = [m for m in MODELS.values() if m is not model and m.LENGTH_UNIT == model.LENGTH_UNIT]
    if others:
        out.append(f"another model ({how['model']})")
    if result.worst_span and not result.left_out_spans and math.isfinite(result.rms_position):
        a, b = result.worst_span
        out.append(
            f"look at {a:.2f}–{b:.2f} s, the stretch it fits worst: a wall, a collision or code of the game's own "
            "there is not in the model"
        )
    return out


def switches_to_try(search: SwitchFit, how: Mapping[str, str] = CLI) -> list[str]:
    """What to try of the model's on/off options, knowing what the switch search did: a
    switch it did not try (beyond the sets fitted, locked, or set from the recording's
    header) is worth turning; one it tried, or one the recording cannot tell (every
    setting drives it alike), is not: for those, how far the other sets drove it."""
    out, chosen = [], search.switches
    if search.stated:
        out.append(
            f"the recording's header states {on_off(search.stated)}, as the game's script was read when it was "
            "recorded, and the fit set them so: if the script is not the one the game's link node was made for, "
            "they may be wrong: delete the header's `# switches:` line and fit again to have them tried"
        )
    if search.beyond_bound:
        kept = on_off({name: chosen[name] for name in search.beyond_bound})
        out.append(
            f"turn {', '.join(search.beyond_bound)} in the start tuning ({how['switches']}) and fit again: not "
            f"tried ({kept}, as the start has them), as at most {MAX_SWITCH_SETS} sets of switches are fitted"
        )
    if search.locked:  # only the command locks a switch
        out.append(f"let the fit try {', '.join(search.locked)} ({how.get('lock', CLI['lock'])})")
    others = search.tried[1:] + search.screened
    if others:
        best = search.result
        switches, nearest = min(others, key=lambda pair: _rms(pair[1]))
        turned = on_off({name: value for name, value in switches.items() if value != chosen[name]})
        quick = " after a quick fit" if any(nearest is r for _, r in search.screened) else ""
        close = max(NOISE_FACTOR * best.noise_position, ROUNDING * best.path_per_segment)
        residual = f"RMS position {_rms(nearest):.4g} {best.model.LENGTH_UNIT}{quick}"
        if _rms(nearest) <= close:
            out.append(
                f"not a switch of those tried: of the other {len(others)} set{'s' * (len(others) != 1)} of "
                f"switches, the nearest ({turned}) drives it as closely ({residual}): the recording hardly tells "
                "them apart"
            )
        else:
            out.append(
                f"not a switch of those tried: the other {len(others)} set{'s' * (len(others) != 1)} of switches "
                f"drove it less closely (the nearest, {turned}: {residual})"
            )
    return out


def _rms(result: FitResult) -> float:
    return result.rms_position if math.isfinite(result.rms_position) else math.inf
