"""Every parameter of every model at its slider's ends, and every switch, through the
real window: dragged there with the slider, then driven, drawn, saved and exported.
No value inside a declared range may crash or lock up the window."""

import math

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from sandbox.files.presets import load_preset
from sandbox.physics.models import MODELS


def drag_to(window, name: str, value: float) -> None:
    """Drag the parameter's slider handle to `value` (press, move, release)."""
    slider = window.panel.sliders[name].slider
    slider.setSliderDown(True)
    window.panel.sliders[name].setValue(value)
    slider.setSliderDown(False)


def exercise(window, qtbot, tmp_path, label: str) -> None:
    """Drive a second holding throttle and right lock (W and D), draw the window, save
    the tuning and export the force curve."""
    qtbot.keyPress(window.track, Qt.Key.Key_W)
    qtbot.keyPress(window.track, Qt.Key.Key_D)
    for _ in range(6):
        window.run_for(1 / 6)
    qtbot.keyRelease(window.track, Qt.Key.Key_W)
    qtbot.keyRelease(window.track, Qt.Key.Key_D)
    QApplication.processEvents()
    image = window.grab()
    assert not image.isNull() and image.width() > 0, label
    assert window.files.export_curve(tmp_path / "curve.png"), (label, window.last_error)
    assert window.files.save_preset_to(tmp_path / "tuning.json"), (label, window.last_error)
    assert dict(load_preset(tmp_path / "tuning.json").tuning) == dict(window.tuning), label
    assert all(math.isfinite(v) for v in (window.sim.state.x[0], window.sim.state.y[0])), label


@pytest.mark.parametrize("model", sorted(MODELS))
def test_every_parameter_at_each_end_and_every_switch(window, qtbot, tmp_path, model):
    window.drive_view.timer.stop()  # the test drives the frames itself
    window.switch_model(model)
    assert window.model.NAME == model
    exercise(window, qtbot, tmp_path, "defaults")
    assert window.sim.state.speed[0] > 0  # the keys did drive it
    for p in window.model.PARAMS:
        if p.is_choice:
            choices = window.panel.choices[p.name]
            for index in [*range(len(p.choices)), int(p.default)]:  # each choice, then back to the default
                choices.setCurrentIndex(index)
                choices.activated.emit(index)  # as a click on that item does
                assert window.tuning[p.name] == index
                exercise(window, qtbot, tmp_path, f"{p.name}={p.choices[index]}")
            continue
        if p.is_bool:
            box = window.panel.switches[p.name]
            for on in (not p.default, p.default):
                box.setChecked(on)
                exercise(window, qtbot, tmp_path, f"{p.name}={on}")
            continue
        for end in (p.min, p.max):
            drag_to(window, p.name, end)
            assert window.tuning[p.name] == end
            exercise(window, qtbot, tmp_path, f"{p.name}={end}")
        window.panel.reset(p.name)
