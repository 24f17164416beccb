"""`car-sandbox soak`: the long run on the real window, offscreen.

Scripted driving (`controls.demo_drive`, looped) for MINUTES of physics time, frame
by frame as fast as the machine allows (one tick of wall time per frame, as in the
benchmark); every simulated second one slider moves to a random value through the
slider widget itself (an undo step, like a user's drag), every simulated minute the
next built-in preset loads (all five models take turns; the moved sliders are given
up without the unsaved-work question, which nobody would answer offscreen). Reports, per simulated
minute, the frame times, resident memory and Python's allocated blocks, and counts
exceptions (any reaching sys.excepthook, i.e. Qt slots, and any from the loop).
"""

from __future__ import annotations

import random
import sys
import traceback

from ..files.presets import list_presets, load_preset
from .bench_window import frame, frame_stats, offscreen_window, rss_mb, scripted_trace


def run(minutes: float = 30.0, seed: int = 1, on_minute=None, seconds: int = 60) -> dict:
    """`minutes` rows, each of `seconds` s of driving (60; a test drives fewer), a slider
    moved every second."""
    rng = random.Random(seed)
    presets = builtin_presets()
    errors: list[str] = []
    hook = sys.excepthook
    sys.excepthook = lambda kind, value, tb: errors.append("".join(traceback.format_exception(kind, value, tb)))
    minutes_out = []
    frames = 0
    try:
        with offscreen_window() as (app, window):
            for minute in range(int(round(minutes))):
                load_minute_preset(window, presets, minute)
                hz = window.sim.hz
                window.replay.play_trace(scripted_trace(float(seconds), hz), "soak")
                costs: list[float] = []
                for _ in range(seconds):
                    _move_a_slider(window, rng)
                    for _ in range(hz):
                        try:
                            costs.append(frame(app, window, hz)[1])
                        except Exception:  # noqa: BLE001 (counted and reported, the run goes on)
                            errors.append(traceback.format_exc())
                        frames += 1
                row = {
                    "minute": minute + 1,
                    "model": window.model.NAME,
                    "preset": window.preset.name,
                    **frame_stats(costs),
                    "rss_mb": rss_mb(),
                    "python_blocks": sys.getallocatedblocks(),
                    "errors": len(errors),
                }
                minutes_out.append(row)
                if on_minute:
                    on_minute(row)
            window.metrics.wait()
            undo_steps = window.undo.count()
    finally:
        sys.excepthook = hook
    first, last = minutes_out[0], minutes_out[-1]
    return {
        "minutes": minutes_out,
        "frames": frames,
        "errors": errors,
        "undo_steps": undo_steps,
        "rss_growth_mb": last["rss_mb"] - first["rss_mb"],
        "python_blocks_growth": last["python_blocks"] - first["python_blocks"],
    }


def builtin_presets() -> list:
    """The built-in presets' paths, in the order the minutes load them."""
    return [path for path, _, builtin, _ in list_presets() if builtin]


def load_minute_preset(window, presets: list, minute: int) -> None:
    """Minute `minute`'s preset (the presets in turn). The run owns its window: the
    sliders it moved are given up on purpose, never asked about (the question would
    wait offscreen for an answer that never comes)."""
    window.switcher.apply_preset(load_preset(presets[minute % len(presets)]), drop_changes=True)


def _move_a_slider(window, rng: random.Random) -> None:
    """One parameter of the current model to a random value in its range, through
    its widget (a switch is flipped)."""
    panel = window.panel
    name = rng.choice(sorted(panel.sliders) + sorted(panel.switches))
    if name in panel.switches:
        box = panel.switches[name]
        box.setChecked(not box.isChecked())
        return
    p = window.tuning.param(name)  # its range under the switches (the 2020 recipe's friction is another)
    panel.sliders[name].setValue(rng.uniform(p.min, p.max))


HEADER = (
    f"{'minute':>6} {'model':10} {'preset':24} {'median ms':>9} {'p99 ms':>7} {'RSS MB':>7} "
    f"{'py blocks':>10} {'errors':>6}"
)
"""Column titles of `minute_line`."""


def minute_line(r: dict) -> str:
    """One simulated minute's row of figures, under HEADER."""
    return (
        f"{r['minute']:6d} {r['model']:10} {r['preset'][:24]:24} {r['median_ms']:9.1f} {r['p99_ms']:7.1f} "
        f"{r['rss_mb']:7.1f} {r['python_blocks']:10d} {r['errors']:6d}"
    )


def report(result: dict) -> str:
    """The run's summary (the minutes' rows are printed as they come) and its first
    exceptions."""
    lines = [
        f"{result['frames']} frames; resident memory from minute 1 to the last: "
        f"{result['rss_growth_mb']:+.1f} MB; Python blocks {result['python_blocks_growth']:+d}; "
        f"exceptions: {len(result['errors'])}"
    ]
    lines += result["errors"][:3]
    return "\n".join(lines)
