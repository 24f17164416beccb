"""The real window, offscreen, driven with pytest-qt. The tuning panel: sliders, undo and redo, reset, the tick rate."""

import math

import pytest
from PySide6.QtCore import QPoint, Qt

from sandbox.physics.models import arcade
from window_helpers import paused, pick_rate

K = Qt.Key


def test_slider_change_alters_the_next_ticks_and_the_force_curve(window, qtbot):
    old_top = window.curves.top_marker.value()
    window.panel.sliders["engine_power"].setValue(2000)
    assert window.tuning["engine_power"] == 2000
    window.curves.settle()  # computed on a worker thread
    # the curve now balances 2000 = 55 v/60 + 0.06 v²/60
    top = (-55 + math.sqrt(55**2 + 4 * 0.06 * 2000 * 60)) / 0.12
    assert window.curves.top_marker.value() == pytest.approx(top) and top > old_top
    paused(window).sim.tick(window.keys.controls().__class__(0, 1, 0))
    assert window.sim.state.vx[0] == pytest.approx(2000 / 60)


def test_undo_and_redo_with_the_keyboard(window, qtbot):
    window.panel.sliders["drag"].setValue(-0.2)
    assert window.tuning["drag"] == -0.2
    qtbot.keyClick(window, K.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.tuning["drag"] == -0.06
    assert window.panel.sliders["drag"].value() == pytest.approx(-0.06)
    qtbot.keyClick(window, K.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert window.tuning["drag"] == -0.2


def test_one_drag_is_one_undo_step(window):
    slider = window.panel.sliders["friction"]
    steps = window.undo.count()
    slider.slider.setSliderDown(True)  # mouse pressed on the handle
    for value in (-60, -80, -120, -150):
        slider.slider.setValue(slider.position(value))
        assert window.tuning["friction"] == value  # applied live while dragging
    slider.slider.setSliderDown(False)  # mouse released
    assert window.undo.count() == steps + 1
    window.undo.undo()
    assert window.tuning["friction"] == -55


def test_slider_values_snap_to_the_declared_step(window):
    window.panel.sliders["steering_angle"].setValue(17.26)
    assert window.tuning["steering_angle"] == 17.5


def test_reset_one_and_reset_all(window, qtbot):
    window.panel.sliders["slip_speed"].setValue(1000)
    window.panel.sliders["wheel_base"].setValue(120)
    qtbot.mouseClick(
        window.panel.findChild(type(window.panel._make_reset(arcade.PARAMS[0])), "reset_slip_speed"),
        Qt.MouseButton.LeftButton,
    )
    assert window.tuning["slip_speed"] == 400 and window.tuning["wheel_base"] == 120
    window.panel.reset_all()
    assert dict(window.tuning) == {p.name: p.default for p in arcade.PARAMS}
    window.undo.undo()
    assert window.tuning["wheel_base"] == 120


def test_tick_rate_selector_changes_physics_curve_and_status(window):
    pick_rate(window, 120)
    window.curves.settle()
    assert window.sim.hz == 120 and window.sim.dt == 1 / 120
    # the recipe at 120 Hz balances 900 = 55 v/120 + 0.06 v²/120
    top = (-55 + math.sqrt(55**2 + 4 * 0.06 * 900 * 120)) / 0.12
    assert window.curves.top_marker.value() == pytest.approx(top)
    assert "120 Hz" in window.curves.getPlotItem().titleLabel.text
    window.drive_view.refresh()
    assert "physics 120 Hz" in window.status.text()
    assert [a.data() for a in window.rate_actions.actions() if a.isChecked()] == [120]
    assert "*" in window.windowTitle()
    window.undo.undo()
    assert window.sim.hz == 60 and window.panel.rate.currentData() == 60


def test_rate_independent_switch_restores_the_60_hz_top_speed(window, qtbot):
    pick_rate(window, 240)
    window.curves.settle()
    recipe_top_240 = window.curves.top_marker.value()
    box = window.panel.switches["rate_independent"]
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton, pos=QPoint(8, box.height() // 2))  # on the tick box
    assert window.tuning["rate_independent"] is True
    window.curves.settle()
    # friction and drag at the recipe's 60 Hz strength: 900 = 55 v/60 + 0.06 v²/60
    top_60 = (-55 + math.sqrt(55**2 + 4 * 0.06 * 54000)) / 0.12
    assert window.curves.top_marker.value() == pytest.approx(top_60) and top_60 < recipe_top_240
    window.undo.undo()
    assert window.tuning["rate_independent"] is False and not window.panel.switches["rate_independent"].isChecked()
