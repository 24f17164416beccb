"""The bench's controller figures in the real window (offscreen, an SDL virtual pad): the
count of physics ticks from a stick moved to the car's steer is a whole number for every
move; without SDL the figure says why it could not be measured and the report says so.
No timed assertion: the bench prints the figures against their targets."""

import math
import os
import sys

os.environ["SDL_VIDEODRIVER"] = "dummy"  # headless

from sandbox.devtools.bench import TARGETS  # noqa: E402
from sandbox.devtools.bench_pads import report  # noqa: E402
from sandbox.devtools.bench_pads_window import MOVES, stick_ticks  # noqa: E402


def test_the_stick_figure_counts_whole_ticks_for_every_move():
    figure = stick_ticks(MOVES[:4])
    assert "error" not in figure, figure
    assert len(figure["ticks"]) == 4
    assert all(isinstance(n, int) and n >= 0 for n in figure["ticks"]), figure
    assert figure["max_ticks"] == max(figure["ticks"])
    lines = report({"no pad": {"median_ms": 0.01, "p99_ms": 0.02}}, figure, 0.2, 1)
    assert "no pad" in lines[1] and math.isfinite(float(lines[1].split("median ")[1].split(" ms")[0]))
    assert f"over 4 moves  target ≤ {TARGETS['pad_stick_ticks']}" in lines[-1]


def test_without_sdl_the_figures_say_why_and_the_bench_goes_on(monkeypatch):
    monkeypatch.setitem(sys.modules, "sdl2", None)  # as if PySDL2 or its library were missing
    figure = stick_ticks()
    assert "SDL library could not be loaded" in figure["error"]
    lines = report({"error": "game controllers are off"}, figure, 0.2, 1)
    assert lines[1] == "  could not be measured: game controllers are off"
    assert lines[2].endswith(f"could not be measured: {figure['error']}")
