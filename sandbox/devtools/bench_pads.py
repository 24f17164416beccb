"""What reading the game controllers costs a frame: `Pads.poll()` timed with no pad, one and
two virtual pads whose stick moves before every poll, and one flooded with a thousand
events between polls. The window polls once a frame; the target is 0.2 ms a poll. Part
of `car-sandbox bench` (with the stick's ticks in the window, bench_pads_window.py), or alone:

    python -m sandbox.devtools.bench_pads
"""

from __future__ import annotations

import math
import statistics
import time

from ..session.pads import Pads
from .bench_lines import verdict

POLL_TARGET_MS = 0.2
POLLS = 2000
TICK_LIMIT = 60
"""A stick's move whose steer has not reached the car after this many ticks counts as not
arrived (bench_pads_window.stick_ticks)."""


def _timed(pads: Pads, before_poll, polls: int) -> dict:
    """Median and 99th-percentile milliseconds of `polls` polls, `before_poll(i)` run
    (untimed) before each."""
    times = []
    for i in range(polls):
        before_poll(i)
        start = time.perf_counter()
        pads.poll()
        times.append((time.perf_counter() - start) * 1000.0)
    times.sort()
    return {"median_ms": statistics.median(times), "p99_ms": times[math.ceil(0.99 * (len(times) - 1))]}


def measure(polls: int = POLLS) -> dict:
    """Each case's figures, by name; {"error": why} when SDL cannot start."""
    pads = Pads()
    if pads.error:
        return {"error": pads.error}
    sdl = pads.sdl
    sticks = []
    try:
        figures = {"no pad": _timed(pads, lambda i: None, polls)}
        for count in (1, 2):
            index = sdl.SDL_JoystickAttachVirtual(sdl.SDL_JOYSTICK_TYPE_GAMECONTROLLER, 6, 15, 0)
            sticks.append(sdl.SDL_JoystickOpen(index))
            pads.poll()

            def move(i: int) -> None:
                for stick in sticks:
                    sdl.SDL_JoystickSetVirtualAxis(stick, 0, (i * 37) % 65535 - 32768)

            figures[f"{count} pad{'s' if count > 1 else ''}, stick moving"] = _timed(pads, move, polls)

        def flood(i: int) -> None:
            for k in range(1000):
                sdl.SDL_JoystickSetVirtualAxis(sticks[0], 0, (i + k) % 2000)
                sdl.SDL_JoystickUpdate()

        figures["1 pad, 1000 events a poll"] = _timed(pads, flood, max(1, polls // 20))
        return figures
    finally:
        for stick in sticks:
            sdl.SDL_JoystickClose(stick)
        while sdl.SDL_NumJoysticks() > 0 and sdl.SDL_JoystickIsVirtual(0):
            sdl.SDL_JoystickDetachVirtual(0)
        pads.close()


def report(polls: dict, stick: dict | None, poll_target: float, tick_target: int = 1) -> list[str]:
    """The lines `bench` prints for the controllers: each poll case against the target
    (its 99th percentile), and the stick's ticks (bench_pads_window.stick_ticks; None:
    not measured)."""
    lines = [f"game controllers, one poll a frame (target ≤ {poll_target} ms at the 99th percentile):"]
    if "error" in polls:
        lines.append(f"  could not be measured: {polls['error']}")
    else:
        for name, f in polls.items():
            lines.append(
                f"  {name:28s} median {f['median_ms']:.4f} ms, p99 {f['p99_ms']:.4f} ms: "
                f"{verdict(f['p99_ms'] <= poll_target)}"
            )
    if stick is None:
        return lines
    head = "a stick moved to the steer the physics uses (the window, a virtual pad)"
    if "error" in stick:
        lines.append(f"{head}: could not be measured: {stick['error']}")
    else:
        worst = stick["max_ticks"]
        shown = f"{worst} tick{'s' if worst != 1 else ''}" if worst is not None else f"not within {TICK_LIMIT} ticks"
        ok = worst is not None and worst <= tick_target
        lines.append(f"{head}: at most {shown} over {len(stick['ticks'])} moves  target ≤ {tick_target}: {verdict(ok)}")
    return lines


def main() -> None:
    print("\n".join(report(measure(), None, POLL_TARGET_MS)))


if __name__ == "__main__":
    main()
