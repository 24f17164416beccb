"""The real window, offscreen: its tuning is one object that announces each change.
One undo step (a preset loaded, a reset of every value, a search's result applied) is
one announcement each way; a change made elsewhere than the sliders (as the link's pull,
a driver or a controller make theirs) shows on them; another model and another tick
rate are announced too."""

from sandbox.files.presets import BUILTIN_DIR, load_preset
from sandbox.physics.models import bicycle

DRIFT = load_preset(BUILTIN_DIR / "drift.json")


def heard(window) -> list:
    changes: list = []
    window.tuning.changed.connect(changes.append)
    return changes


def test_a_preset_loaded_is_one_announcement_and_so_is_its_undo(window):
    changes = heard(window)
    window.apply_preset(DRIFT)
    [load] = changes
    assert {"engine_power", "friction", "drag", "steering_angle"} <= set(load.names)
    assert load.new["engine_power"] == 1200 and load.old["engine_power"] == 900
    window.undo.undo()
    assert len(changes) == 2 and set(changes[1].names) == set(load.names)
    assert window.tuning["engine_power"] == 900 and window.panel.sliders["engine_power"].value() == 900
    window.undo.redo()
    assert len(changes) == 3 and window.panel.sliders["engine_power"].value() == 1200


def test_reset_all_is_one_step_and_one_announcement_each_way(window):
    window.panel.sliders["engine_power"].setValue(1500)
    window.panel.sliders["drag"].setValue(-0.2)
    steps = window.undo.count()
    changes = heard(window)
    window.panel.reset_all()
    assert window.undo.count() == steps + 1 and len(changes) == 1
    assert set(changes[0].names) == {"engine_power", "drag"}
    window.undo.undo()
    assert len(changes) == 2 and (window.tuning["engine_power"], window.tuning["drag"]) == (1500, -0.2)
    assert window.panel.sliders["drag"].value() == -0.2


def test_a_dragged_slider_announces_each_step_and_is_one_undo_step(window):
    slider = window.panel.sliders["friction"]
    steps = window.undo.count()
    changes = heard(window)
    slider.slider.setSliderDown(True)
    for value in (-60, -80, -120):
        slider.slider.setValue(slider.position(value))
    slider.slider.setSliderDown(False)
    assert [c.new["friction"] for c in changes] == [-60, -80, -120]  # the car follows the drag live
    assert window.undo.count() == steps + 1  # and the release, already announced, announces nothing more
    window.undo.undo()
    assert len(changes) == 4 and changes[-1].new == {"friction": -55} and slider.value() == -55


def test_a_change_made_elsewhere_shows_on_the_sliders_and_the_title(window):
    window.tuning.update({"engine_power": 1500, "recipe_2020": True})
    assert window.panel.sliders["engine_power"].value() == 1500
    assert window.panel.switches["recipe_2020"].isChecked()
    # the switch gave friction its 2020 meaning: the slider shows its unit and default
    assert window.panel.labels["friction"].full == "Friction [1/s]" and window.panel.sliders["friction"].value() == -0.9
    assert window.windowTitle().endswith(" *")


def test_another_rate_and_another_model_are_announced(window):
    changes = heard(window)
    window.switch_model("bicycle")
    assert changes[-1].model and window.model is bicycle and window.sim.model is bicycle
    window.switcher.set_rate(120)
    assert changes[-1].hz == (60, 120) and window.sim.hz == 120 and window.panel.rate.currentData() == 120
    before = len(changes)
    window.panel.sliders["max_speed"].setValue(25)  # the new model's panel follows the tuning
    assert len(changes) == before + 1 and window.tuning["max_speed"] == 25
    window.undo.undo()
    window.undo.undo()
    assert changes[-1].hz == (120, 60) and window.sim.hz == 60 and window.panel.rate.currentData() == 60
