"""Sliders that fit their numbers: groups and logarithmic scales declared with each
parameter, and the panel's rows (slider, number box, notes about typed values)."""

import math

import pytest
from PySide6.QtCore import Qt

from sandbox.files.presets import BUILTIN_DIR, load_preset
from sandbox.physics.models import MODELS

SLIDERS = [(name, p) for name, model in MODELS.items() for p in model.PARAMS if not p.is_bool]


@pytest.mark.parametrize("name,p", SLIDERS, ids=[f"{n}.{p.name}" for n, p in SLIDERS])
def test_every_parameter_is_grouped_and_wide_ranges_are_logarithmic(name, p):
    assert p.group and p.group != "General"  # declared with the parameter
    if p.min > 0 and p.max / p.min > 100:  # more than two decades
        assert p.log, f"{name}.{p.name} spans {p.max / p.min:.0f}× but its slider is linear"
    # no default handle pinned to the far left where a linear slider put 7 of 12
    # rigid-body handles (a default of 0 or the minimum is where it should be)
    if p.default not in (0, p.min):
        assert p.to_slider(p.default) > 0.02, f"{name}.{p.name}: default at the far left"


def test_a_log_slider_gives_every_decade_the_same_length():
    p = next(q for q in MODELS["rigid_body"].PARAMS if q.name == "mass")  # 0.1 … 2000 kg
    one, ten, hundred = (p.to_slider(v) for v in (1.0, 10.0, 100.0))
    assert ten - one == pytest.approx(hundred - ten)
    assert p.to_slider(p.min) == 0 and p.to_slider(p.max) == pytest.approx(1)
    # the middle of the slider is the geometric mean of the ends
    assert p.from_slider(0.5) == pytest.approx(math.sqrt(0.1 * 2000), abs=p.step)


def test_a_log_slider_from_zero_keeps_zero_and_spreads_the_rest():
    p = next(q for q in MODELS["rigid_body"].PARAMS if q.name == "side_grip")  # 0 … 20 000, step 0.5
    assert p.min == 0 and p.log
    assert p.from_slider(0.0) == 0 and p.to_slider(0.0) == 0
    assert p.to_slider(p.step) > 0  # the first step is its own position, apart from 0
    for value in (0.5, 2.0, 37.5, 1200.0, 20000.0):
        assert p.from_slider(p.to_slider(value)) == pytest.approx(value, rel=1e-9)


def test_every_slider_position_maps_to_a_value_on_the_step(qtbot):
    p = next(q for q in MODELS["monster"].PARAMS if q.name == "yaw_inertia")  # 100 … 20 000, step 50
    for k in range(0, 1001, 37):
        value = p.from_slider(k / 1000)
        assert p.min <= value <= p.max
        assert (value - p.min) / p.step == pytest.approx(round((value - p.min) / p.step), abs=1e-9)


def test_sections_follow_the_groups_and_long_ones_start_closed(window, qtbot):
    window.open_preset_file(BUILTIN_DIR / "monster_corvette_c5.json")
    sections = window.panel.sections
    assert list(sections)[:2] == ["Chassis", "Wheels and tyres"]
    gearbox = sections["Gearbox"]
    assert gearbox.header.text() == "Gearbox (12)" and not gearbox.is_open()
    assert not window.panel.sliders["gear_1"].isVisibleTo(window.panel)
    gearbox.header.click()
    assert gearbox.is_open() and window.panel.sliders["gear_1"].isVisibleTo(window.panel)
    assert sections["Chassis"].is_open()


def type_into(qtbot, window, name: str, text: str) -> None:
    box = window.panel.sliders[name].number
    box.setFocus()
    box.selectAll()
    qtbot.keyClicks(box, text)
    qtbot.keyClick(box, Qt.Key.Key_Return)


def test_a_typed_value_between_steps_snaps_and_says_so(window, qtbot):
    type_into(qtbot, window, "steering_angle", "17.26")  # step 0.5
    assert window.tuning["steering_angle"] == 17.5
    assert window.panel.note.isVisibleTo(window.panel)
    assert "17.26 became 17.5" in window.panel.note.text() and "steps of 0.5" in window.panel.note.text()
    assert window.panel.sliders["steering_angle"].number.text() == "17.5"


def test_a_typed_value_outside_the_range_is_clamped_and_says_so(window, qtbot):
    type_into(qtbot, window, "engine_power", "99999")
    assert window.tuning["engine_power"] == 4000
    assert "outside 0 … 4000" in window.panel.note.text()


def test_typed_text_that_is_no_number_changes_nothing(window, qtbot):
    steps = window.undo.count()
    type_into(qtbot, window, "engine_power", "lots")  # letters that are no driving keys
    assert window.tuning["engine_power"] == 900 and window.undo.count() == steps
    assert "“lots” is not a number" in window.panel.note.text()
    assert window.panel.sliders["engine_power"].number.text() == "900"


def test_dragging_a_log_slider_moves_through_the_decades(window, qtbot):
    window.apply_preset(load_preset(BUILTIN_DIR / "rigid_body_seed.json"))
    slider = window.panel.sliders["mass"]
    slider.slider.setSliderDown(True)
    slider.slider.setValue(slider.positions // 2)
    slider.slider.setSliderDown(False)
    assert window.tuning["mass"] == pytest.approx(math.sqrt(0.1 * 2000), abs=0.1)
    window.undo.undo()
    assert window.tuning["mass"] == load_preset(BUILTIN_DIR / "rigid_body_seed.json").tuning["mass"]


def test_the_2020_recipe_switch_shows_its_own_units_and_is_one_undo_step(window, qtbot):
    """Ticking 'Godot 3 recipe (2020)' gives friction, drag and the tractions that text's
    values, units and ranges in their rows; Undo brings the Godot 4 recipe's back."""
    panel = window.panel
    panel.switches["recipe_2020"].click()
    friction = panel.sliders["friction"]
    assert window.tuning["recipe_2020"] is True
    assert (window.tuning["friction"], window.tuning["drag"]) == (-0.9, -0.0015)
    assert (window.tuning["traction_fast"], window.tuning["traction_slow"]) == (0.1, 0.7)
    assert panel.labels["friction"].full == "Friction [1/s]" and friction.param.min == -20
    assert friction.number.text() == "-0.90" and panel.labels["traction_fast"].full == "Traction fast [per tick]"
    assert "-0.9 1/s" in panel.resets["friction"].toolTip()
    friction.number.setText("-55")  # the Godot 4 recipe's number: out of this formula's range
    friction.number.editingFinished.emit()
    assert window.tuning["friction"] == -20 and "outside -20 … 0 1/s" in panel.note.text()
    window.undo.undo()  # the typed value
    window.undo.undo()  # the switch, with its four values, in one step
    assert window.tuning["recipe_2020"] is False
    assert (window.tuning["friction"], window.tuning["drag"], window.tuning["traction_fast"]) == (-55, -0.06, 2.5)
    assert panel.labels["friction"].full == "Friction [1/s²]" and friction.param.min == -400
    assert friction.number.text() == "-55"


def test_undo_brings_back_values_a_switch_reset_that_the_change_did_not_name(window, qtbot):
    """A change that turns the 2020 recipe on and names only one of its four numbers
    (a partial script imported): the other three are reset by the switch, and Undo
    brings back what they were."""
    window.panel.set_values({"traction_fast": 5.0}, "a value of mine")
    window.panel.set_values({"recipe_2020": True, "friction": -1.0}, "Import car.gd")
    assert (window.tuning["friction"], window.tuning["traction_fast"]) == (-1.0, 0.1)
    window.undo.undo()
    assert window.tuning["recipe_2020"] is False
    assert (window.tuning["friction"], window.tuning["drag"], window.tuning["traction_fast"]) == (-55, -0.06, 5.0)
    window.undo.redo()
    assert (window.tuning["friction"], window.tuning["traction_fast"]) == (-1.0, 0.1)
