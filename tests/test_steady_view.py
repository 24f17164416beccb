"""The live plots' y range follows the data in steps (ui/steady_view.py)."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import math  # noqa: E402

import numpy as np  # noqa: E402
import pyqtgraph as pg  # noqa: E402

from sandbox.ui.steady_view import SteadyViewBox  # noqa: E402


def _ranges_while_growing(view: pg.ViewBox, qapp) -> tuple[list, list]:
    """A curve climbing from 0 to 600 in 100 redraws (a car speeding up); the y range
    after each, and whether the whole curve was in view."""
    plot = pg.PlotItem(viewBox=view)
    curve = plot.plot()
    ranges, in_view = [], []
    for top in np.linspace(6, 600, 100):
        values = np.linspace(0, top, 50)
        curve.setData(np.arange(50), values)
        view.updateAutoRange()
        low, high = view.viewRange()[1]
        ranges.append((low, high))
        in_view.append(low <= values.min() and values.max() <= high)
    return ranges, in_view


def test_the_range_moves_in_steps_and_always_shows_the_data(qapp):
    plain, plain_in_view = _ranges_while_growing(pg.ViewBox(), qapp)
    steady, steady_in_view = _ranges_while_growing(SteadyViewBox(), qapp)
    assert all(plain_in_view) and all(steady_in_view)
    assert len(set(plain)) == 100  # pyqtgraph refits on every redraw
    # each step adds a quarter of the span: from 6 to 600 that is about log(100)/log(1.25) ≈ 21 steps
    assert len(set(steady)) <= 25


def test_it_refits_when_the_data_shrinks_and_leaves_manual_ranges_alone(qapp):
    view = SteadyViewBox()
    plot = pg.PlotItem(viewBox=view)
    curve = plot.plot(np.arange(10), np.linspace(0, 500, 10))
    view.updateAutoRange()
    curve.setData(np.arange(10), np.linspace(0, 50, 10))  # a tenth of the range: refit
    view.updateAutoRange()
    low, high = view.viewRange()[1]
    assert low <= 0 and 50 <= high < 100
    view.setYRange(-3, 7, padding=0)  # the user's range (mouse or code) is kept as given
    assert view.viewRange()[1] == [-3, 7]


def test_data_moving_back_and_forth_meets_the_same_few_round_ranges(qapp):
    """A slider dragged to and fro (the force curve while a mass is dragged): the
    data's top swings between 100 and 3000 five times. Every new range ends on a round
    number (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a power of ten), so the swings
    meet the same few ranges: a plain fit gives a new one each redraw (200)."""
    view = SteadyViewBox()
    plot = pg.PlotItem(viewBox=view)
    curve = plot.plot()
    swing = np.concatenate([np.geomspace(100, 3000, 20), np.geomspace(3000, 100, 20)])
    ranges = set()
    for top in np.tile(swing, 5):
        values = np.linspace(-0.1 * top, top, 30)
        curve.setData(np.arange(30), values)
        view.updateAutoRange()
        low, high = view.viewRange()[1]
        assert low <= values.min() and values.max() <= high
        ranges.add((low, high))
    for end in {abs(e) for r in ranges for e in r} - {0.0}:
        mantissa = end / 10 ** math.floor(math.log10(end))
        assert min(abs(mantissa - step) for step in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10)) < 1e-9
    # the top passes 16 round numbers between 100 and 3750 (3000 and a quarter spare)
    assert len(ranges) <= 2 * 16
