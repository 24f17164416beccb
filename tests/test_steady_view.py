"""The live plots' y range follows the data in steps (ui/steady_view.py)."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

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
