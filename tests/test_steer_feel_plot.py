"""The Steering feel section's plot in the real window: on every model, the full-lock and
steering-speed shares over speed, as drawn, follow a slider moved (straight lines
between the three speed points, flat beyond: worked out here with numpy's interp and
by hand, and the physics' own share_at agrees), with the model's speed unit."""

import numpy as np
import pytest

from sandbox.physics.models import MODELS
from sandbox.physics.steer_feel import FEEL_GROUP, share_at


def drawn(window, prefix):
    speeds, shares = window.panel.feel_plot.curves[prefix].getData()
    return np.asarray(speeds), np.asarray(shares)


@pytest.mark.parametrize("name", sorted(MODELS))
def test_every_model_draws_its_feel_curves_and_follows_the_sliders(window, name):
    assert window.switch_model(name)
    panel = window.panel
    plot = panel.feel_plot
    assert plot is not None and plot.parent() is not None
    panel.sections[FEEL_GROUP].header.setChecked(True)
    assert plot.isVisibleTo(panel)
    unit = window.model.LENGTH_UNIT
    assert plot.getPlotItem().getAxis("bottom").labelUnits == f"{unit}/s"
    speeds, lock = drawn(window, "lock_at")
    assert np.all(lock == 100.0)  # the defaults: full lock at every speed
    points = [window.tuning[f"speed_point_{k}"] for k in (1, 2, 3)]
    panel.sliders["lock_at_2"].setValue(60.0)  # as a user drags it
    panel.sliders["lock_at_3"].setValue(40.0)
    panel.sliders["rate_at_1"].setValue(200.0)
    assert window.tuning["lock_at_2"] == 60.0 and window.tuning["rate_at_1"] == 200.0
    speeds, lock = drawn(window, "lock_at")
    _, rate = drawn(window, "rate_at")
    assert speeds[0] == 0.0 and speeds[-1] > points[2]  # flat beyond the last point, in sight
    assert lock == pytest.approx(np.interp(speeds, points, [100.0, 60.0, 40.0]))
    assert rate == pytest.approx(np.interp(speeds, points, [200.0, 100.0, 100.0]))
    halfway = (points[0] + points[1]) / 2
    assert np.interp(halfway, speeds, lock) == pytest.approx(80.0)  # halfway from 100 % to 60 %
    assert lock[-1] == 40.0 and rate[0] == 200.0
    for v, share in zip(speeds[::10], lock[::10]):  # the physics' own rule, point by point
        assert share == share_at.py_func(v, *points, 100.0, 60.0, 40.0)
    window.drive_view.timer.stop()
    window.sim.state.vx[:] = halfway  # the car at that speed: the dashed line there
    window.drive_view.refresh()
    assert plot.marker.isVisible() and plot.marker.value() == pytest.approx(float(window.sim.state.speed[0]))
    window.undo.undo()  # the steering speed at the first point back to 100 %: the curve follows
    assert np.all(drawn(window, "rate_at")[1] == 100.0) and drawn(window, "lock_at")[1][-1] == 40.0


def test_a_section_is_opened_and_scrolled_to_by_its_name_and_an_unknown_one_named(window):
    from sandbox.errors import UserError

    panel = window.panel
    panel.sections[FEEL_GROUP].header.setChecked(False)
    panel.scroll.verticalScrollBar().setValue(0)
    panel.show_section(FEEL_GROUP)  # the last section: far below the top
    section = panel.sections[FEEL_GROUP]
    assert section.is_open() and panel.scroll.verticalScrollBar().value() > 0
    top = section.mapTo(panel.scroll.viewport(), section.rect().topLeft()).y()
    assert 0 <= top < panel.scroll.viewport().height()  # its header in view
    with pytest.raises(UserError, match="no section 'Tyres!'.*Steering feel"):
        panel.show_section("Tyres!")
