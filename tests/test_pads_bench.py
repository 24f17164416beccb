"""The controller bench measures each case it names: no pad, one and two virtual pads
with their sticks moving, a pad flooding events. No timed assertion: the figures are
reported by `python -m sandbox.devtools.bench_pads` and docs/controllers.md."""

import math
import os

os.environ["SDL_VIDEODRIVER"] = "dummy"  # headless

from sandbox.devtools.bench_pads import measure  # noqa: E402


def test_the_bench_measures_every_case_and_leaves_no_virtual_pad_behind():
    figures = measure(polls=40)
    assert set(figures) == {"no pad", "1 pad, stick moving", "2 pads, stick moving", "1 pad, 1000 events a poll"}
    for name, f in figures.items():
        assert math.isfinite(f["median_ms"]) and 0 < f["median_ms"] <= f["p99_ms"], name
    again = measure(polls=4)  # the pads it attached are gone: it starts from none again
    assert set(again) == set(figures)
