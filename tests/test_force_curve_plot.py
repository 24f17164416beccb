"""The force curve's markers and axes: labels that never cover each other, and ranges
that stay put while a slider moves a little (each range change redraws the axes)."""

import math

import pytest

from sandbox.ui.curves import ForceCurvePlot
from sandbox.ui.steady_view import round_up


@pytest.fixture
def plot(qtbot):
    from sandbox.physics.models import arcade

    widget = ForceCurvePlot()
    qtbot.addWidget(widget)
    widget.resize(420, 240)
    widget.show()
    qtbot.waitExposed(widget)
    tuning = {p.name: p.default for p in arcade.PARAMS}
    widget.set_tuning(arcade, tuning, 60)
    widget.settle()
    return widget, arcade, tuning


def recipe_top(power: float) -> float:
    """The recipe's top speed at 60 Hz: root of 0.06 v²/60 + 55 v/60 = power."""
    return (-55 + math.sqrt(55 ** 2 + 4 * 0.06 * power * 60)) / 0.12


@pytest.mark.parametrize("value, rounded", [(1.0, 1.0), (1.01, 1.2), (7.0, 8.0), (8.5, 10.0), (333.0, 400.0),
                                            (0.0042, 0.005)])
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
        for b in boxes[i + 1:]:
            assert not a.intersects(b)
    area = widget.getPlotItem().getViewBox().boundingRect()
    assert all(area.contains(box) for box in boxes)  # inside the plot, under the legend row


def test_a_label_sits_beside_its_line(plot):
    widget, _, _ = plot
    widget.slip_marker.hide()
    (marker, box), = widget.markers.label_rects()
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
