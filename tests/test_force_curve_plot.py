"""The force curve's markers and axes: labels that never cover each other, and ranges
that stay put while a slider moves a little (each range change redraws the axes)."""

import math

import pytest

from sandbox.ui.force_curve_plot import ForceCurvePlot
from sandbox.ui.steady_view import round_up


@pytest.fixture
def plot(qtbot):
    from sandbox.physics.models import arcade

    widget = ForceCurvePlot()
    qtbot.addWidget(widget)
    widget.resize(420, 240)
    with qtbot.waitExposed(widget):
        widget.show()
    tuning = {p.name: p.default for p in arcade.PARAMS}
    widget.set_tuning(arcade, tuning, 60)
    widget.settle()
    return widget, arcade, tuning


def recipe_top(power: float) -> float:
    """The recipe's top speed at 60 Hz: root of 0.06 v²/60 + 55 v/60 = power."""
    return (-55 + math.sqrt(55**2 + 4 * 0.06 * power * 60)) / 0.12


@pytest.mark.parametrize(
    "value, rounded", [(1.0, 1.0), (1.01, 1.2), (7.0, 8.0), (8.5, 10.0), (333.0, 400.0), (0.0042, 0.005)]
)
def test_round_up_picks_the_next_round_number(value, rounded):
    assert round_up(value) == pytest.approx(rounded)


def test_marker_labels_never_overlap_even_at_the_same_speed(plot):
    widget, _, _ = plot
    top = widget.top_marker.value()
    widget.speed_marker.setValue(top + 1)  # the car at its top speed: "now" on "top"
    widget.speed_marker.show()
    widget.slip_marker.setValue(top - 2)
    placed = widget.markers.label_rects()
    assert len(placed) == 3
    boxes = [box for _, box in placed]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert not a.intersects(b)
    area = widget.getPlotItem().getViewBox().boundingRect()
    assert all(area.contains(box) for box in boxes)  # inside the plot, under the legend row


def test_a_label_sits_beside_its_line(plot):
    widget, _, _ = plot
    widget.slip_marker.hide()
    ((marker, box),) = widget.markers.label_rects()
    x = widget.markers.x_pixel(marker.value())
    assert marker is widget.top_marker and min(abs(box.left() - x), abs(box.right() - x)) <= 4


def test_the_speed_axis_ends_on_a_round_number_and_stays_while_the_top_speed_moves_a_little(plot):
    widget, arcade, tuning = plot
    box = widget.getPlotItem().getViewBox()
    first = box.viewRange()[0]
    extent = 1.25 * recipe_top(tuning["engine_power"])  # the curve's own end: 1.25 × top speed
    assert first[1] >= round_up(extent) and first[1] == pytest.approx(round_up(extent), rel=0.05)  # 2 % padding
    widget.set_tuning(arcade, {**tuning, "engine_power": tuning["engine_power"] * 1.01}, 60)
    widget.settle()
    assert widget.top_marker.value() == pytest.approx(recipe_top(tuning["engine_power"] * 1.01))
    assert box.viewRange()[0] == first


def test_every_term_is_drawn_and_the_view_holds_them_all(qtbot):
    """The dynamic car's eight lines (a gear each, resistance, net) are one item whose
    bounds are the data's: the plot's y range holds every term's lowest and highest
    value."""
    import numpy as np

    from sandbox.files.presets import BUILTIN_DIR, load_preset

    preset = load_preset(BUILTIN_DIR / "monster_corvette_c5.json")
    widget = ForceCurvePlot()
    qtbot.addWidget(widget)
    widget.resize(420, 240)
    widget.show()
    widget.set_tuning(preset.model, preset.tuning, preset.hz)
    widget.settle()
    terms = widget.curve.terms
    assert len(widget.lines._paths) == len(terms) == 8
    low = min(float(np.nanmin(v)) for v in terms.values())
    high = max(float(np.nanmax(v)) for v in terms.values())
    y0, y1 = widget.getPlotItem().getViewBox().viewRange()[1]
    assert y0 <= low < high <= y1


def test_a_flat_line_still_has_room_to_be_drawn(qtbot):
    """A constant term (the rigid body's drive) has no height of its own; the item
    pads its bounds by a few screen pixels, or Qt would never paint it."""
    import numpy as np
    import pyqtgraph as pg

    from sandbox.ui.curve_set import CurveSet

    plot = pg.PlotWidget()
    qtbot.addWidget(plot)
    plot.resize(300, 200)
    plot.show()
    item = CurveSet()
    plot.getPlotItem().addItem(item)
    item.set_curves(np.linspace(0, 10, 11), [(pg.mkPen("w"), np.full(11, 3.0)), (pg.mkPen("r"), np.full(11, np.nan))])
    plot.getPlotItem().setRange(xRange=(0, 10), yRange=(0, 6), padding=0)
    rect = item.boundingRect()
    assert rect.height() > 0 and rect.top() < 3.0 < rect.bottom()
    assert item.dataBounds(1) == (3.0, 3.0) and item.dataBounds(0) == (0.0, 10.0)
