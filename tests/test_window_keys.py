"""The real window, offscreen, driven with pytest-qt. The driving keys: held keys,
auto-repeat, focus, modifiers; a clicked slider does not take them; Tab, R and the
mouse wheel."""

import math

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication

from sandbox.files.presets import BUILTIN_DIR
from sandbox.physics.models import arcade
from window_helpers import key_event, speed_trace

K = Qt.Key


def test_holding_w_raises_the_speed_plot(window, qtbot):
    qtbot.keyPress(window.track, K.Key_W)
    qtbot.waitUntil(
        lambda: speed_trace(window) is not None and len(speed_trace(window)) > 30 and speed_trace(window)[-1] > 200,
        timeout=60_000,
    )
    qtbot.keyRelease(window.track, K.Key_W)
    trace = speed_trace(window)
    moving = trace[np.argmax(trace > 0) :]
    assert np.all(np.diff(moving[:25]) > 0)  # rising every tick while W was held
    assert window.sim.state.vx[0] > 0 and window.sim.state.y[0] == 0
    assert "px/s" in window.plots.readout.text() and "60 Hz" in window.status.text()


def test_steering_keys_turn_the_front_wheels_and_the_car(window, qtbot):
    window.sim.state.vx[:] = 300.0
    qtbot.keyPress(window.track, K.Key_D)
    qtbot.waitUntil(lambda: window.sim.state.heading[0] > 0.05, timeout=60_000)
    assert window.sim.state.wheel_angle[0] == pytest.approx(math.radians(15))
    qtbot.keyRelease(window.track, K.Key_D)
    qtbot.keyPress(window.track, K.Key_Left)
    qtbot.waitUntil(lambda: window.sim.state.wheel_angle[0] < 0, timeout=60_000)
    qtbot.keyRelease(window.track, K.Key_Left)


def test_auto_repeat_does_not_stutter_the_throttle(window):
    app = QApplication.instance()
    app.sendEvent(window.track, key_event(QEvent.Type.KeyPress, K.Key_W))
    for _ in range(5):  # X11 auto-repeat: a release and a press, both marked repeat
        app.sendEvent(window.track, key_event(QEvent.Type.KeyRelease, K.Key_W, repeat=True))
        assert window.keys.controls().throttle == 1
        app.sendEvent(window.track, key_event(QEvent.Type.KeyPress, K.Key_W, repeat=True))
        assert window.keys.controls().throttle == 1
    app.sendEvent(window.track, key_event(QEvent.Type.KeyRelease, K.Key_W))
    assert window.keys.controls().throttle == 0


def test_losing_focus_releases_held_keys(window, qtbot):
    qtbot.keyPress(window.track, K.Key_W)
    qtbot.keyPress(window.track, K.Key_A)
    assert window.keys.controls().throttle == 1 and window.keys.controls().steer == -1
    QApplication.sendEvent(window, QEvent(QEvent.Type.WindowDeactivate))
    assert window.keys.controls().throttle == 0 and window.keys.controls().steer == 0


def test_release_with_a_modifier_held_still_releases(window, qtbot):
    qtbot.keyPress(window.track, K.Key_S)
    qtbot.keyRelease(window.track, K.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert window.keys.controls().brake == 0


def test_clicking_a_slider_does_not_steal_the_driving_keys(window, qtbot):
    slider = window.panel.sliders["engine_power"]
    before = slider.value()
    qtbot.mouseClick(slider.slider, Qt.MouseButton.LeftButton, pos=QPoint(5, slider.slider.height() // 2))
    assert QApplication.focusWidget() is not slider.slider
    after_click = slider.value()
    target = QApplication.focusWidget() or window
    for key in (K.Key_W, K.Key_Left):
        qtbot.keyPress(target, key)
    controls = window.keys.controls()
    assert controls.throttle == 1 and controls.steer == -1
    assert slider.value() == after_click  # the arrow drove the car, not the slider
    assert after_click != before or before == arcade.PARAMS[2].min


def test_tab_toggles_the_panel_and_r_resets_the_car(window, qtbot):
    assert window.panels.panel_dock.isVisible()
    qtbot.keyClick(window.track, K.Key_Tab)
    assert not window.panels.panel_dock.isVisible()
    qtbot.keyClick(window.track, K.Key_Tab)
    assert window.panels.panel_dock.isVisible()
    window.sim.state.x[:] = 500.0
    qtbot.keyClick(window.track, K.Key_R)
    assert window.sim.state.x[0] == 0 and window.track.trail.count == 0


def test_mouse_wheel_zooms(window):
    zoom = window.track.zoom
    centre = QPointF(window.track.width() / 2, window.track.height() / 2)
    event = QWheelEvent(
        centre,
        window.track.mapToGlobal(centre),
        QPoint(0, 0),
        QPoint(0, 120),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(window.track, event)
    assert window.track.zoom == pytest.approx(zoom * 1.15)


def test_mouse_wheel_over_a_slider_does_not_change_it(window):
    slider = window.panel.sliders["engine_power"]
    inner = slider.slider
    centre = QPointF(inner.width() / 2, inner.height() / 2)
    event = QWheelEvent(
        centre,
        inner.mapToGlobal(centre),
        QPoint(0, 0),
        QPoint(0, -240),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(inner, event)
    assert window.tuning["engine_power"] == 900 and window.undo.count() == 0


def test_handbrake_and_gear_keys_reach_the_dynamic_car(window, qtbot):
    window.open_preset_file(BUILTIN_DIR / "monster_drift_manual.json")
    assert window.model.NAME == "monster"
    qtbot.keyPress(window.track, K.Key_Space)
    assert window.keys.controls().handbrake == 1
    qtbot.keyRelease(window.track, K.Key_Space)
    qtbot.keyClick(window.track, K.Key_E)
    assert window.keys.controls().shift == 1
    assert window.keys.controls().shift == 0  # one press, one gear: consumed by the first tick
