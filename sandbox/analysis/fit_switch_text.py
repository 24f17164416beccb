"""What `fit` (and the window's Fit dialog) says of the model's on/off options: those
the recording stated, the set chosen with every other set's residual, and those the
recording cannot tell; and which models a recording's units leave out of `--model all`."""

from __future__ import annotations

import math

from .fit import NOISE_FACTOR, ROUNDING
from .fit_switches import MAX_SWITCH_SETS, SCREEN_FACTOR, SwitchFit, alike, on_off


def _number(value: float) -> str:
    return f"{value:.4g}" if math.isfinite(value) else "infinite"


def switch_lines(search: SwitchFit, units: str) -> list[str]:
    """Lines (for people, indented under the model's verdict) on the fit's switches."""
    lines = []
    best = search.result
    if search.stated:
        lines.append(f"  switches from the recording (the game's script): {on_off(search.stated)}; set, not searched")
    if search.foreign:
        lines.append(f"  the recording's switches {', '.join(search.foreign)} are not this model's: left out")
    if search.searched:
        chosen = {name: search.switches[name] for name in search.searched}
        sets = len(search.tried) + len(search.screened)
        how = "each fitted from its own defaults"
        if search.screened:
            how = f"each from its own defaults, {len(search.tried)} fitted in full after a quick fit of every set"
        lines.append(
            f"  switches tried ({sets} sets of {', '.join(search.searched)}, {how}): chosen {on_off(chosen)}, "
            f"RMS position {_number(best.rms_position)} {units}"
        )
        turned = {name: search.start[name] for name in search.searched if chosen[name] != search.start[name]}
        if turned:
            lines.append(f"    the start had {on_off(turned)}: the recording contradicts it")
        close = max(NOISE_FACTOR * best.noise_position, ROUNDING * best.path_per_segment)
        for switches, other in search.tried[1:]:
            alike = (
                " — as close as the chosen: the recording hardly tells them apart"
                if math.isfinite(other.rms_position) and other.rms_position <= close
                else ""
            )
            lines.append(
                f"    {on_off(switches)}: RMS position {_number(other.rms_position)} {units}, {other.verdict}{alike}"
            )
        for switches, quick in search.screened:
            lines.append(f"    {on_off(switches)}: {_screened_out(search, quick, units)}")
    if search.untold:
        kept = on_off({name: search.switches[name] for name in search.untold})
        lines.append(
            f"  the recording cannot tell {', '.join(search.untold)}: every setting drives it alike "
            f"(kept as the start has it: {kept})"
        )
    if search.beyond_bound:
        kept = on_off({name: search.switches[name] for name in search.beyond_bound})
        them = "it" if len(search.beyond_bound) == 1 else "them"
        lines.append(
            f"  not tried (at most {MAX_SWITCH_SETS} sets of switches are fitted): {kept}, as the start has "
            f"{them}; turn {them} in the start tuning (--preset, or the window's) to fit the other way"
        )
    if search.locked:
        lines.append(f"  kept as the start has them (--lock): {on_off({n: search.switches[n] for n in search.locked})}")
    return lines


def _screened_out(search: SwitchFit, quick, units: str) -> str:
    """Why a set was not fitted in full, with its quick fit's residual."""
    residual = f"RMS position {_number(quick.rms_position)} {units} after a quick fit"
    twin = next((s for s, other in search.quick if alike(quick, other) and s in [t for t, _ in search.tried]), None)
    if twin is not None:
        return f"{residual}, exactly as {on_off(twin)}: these switches change nothing of this drive, one fit for both"
    best = search.quick[0][1]
    times = math.sqrt(quick.score / best.score) if best.score > 0 else math.inf
    if times > SCREEN_FACTOR:
        return f"{residual}, {_number(times)} times the best quick fit's error: not fitted in full"
    return f"{residual}: not fitted in full (stopped)"


def switch_json(search: SwitchFit) -> dict:
    """The switch search as JSON: the chosen switches, where they came from, each set's fit
    (those screened out: their quick fit)."""
    return {
        "switches": search.switches,
        "switches_from_recording": search.stated,
        "switches_untold": search.untold,
        "switches_not_tried": search.beyond_bound + search.locked,
        "switch_sets": [
            {
                "switches": switches,
                "rms_position": other.rms_position if math.isfinite(other.rms_position) else None,
                "score": other.score if math.isfinite(other.score) else None,
                "verdict": other.verdict,
                "fitted_in_full": full,
            }
            for switches, other, full in [(s, r, True) for s, r in search.tried]
            + [(s, r, False) for s, r in search.screened]
        ],
    }


def other_units_text(left_out: list, units: str) -> str:
    """Why `--model all` fitted only the models in `units`, and how to try the others."""
    other = "m" if units == "px" else "px"
    names = ", ".join(f"{m.NAME} ({m.TITLE})" for m in left_out)
    if other == "m":
        how = (
            "to try them, write the recording in metres (x, y, vx and vy divided by your game's pixels per "
            "metre) and fit that with --units m"
        )
    else:
        how = "to try them, write the recording in pixels (x, y, vx and vy times your game's pixels per metre)"
    return (
        f"only the models in {units} were fitted: a recording's units decide which models can drive it "
        f"(the recording is in {units}); not tried, in {other}: {names}; {how}"
    )
