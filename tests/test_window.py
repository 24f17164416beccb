"""The real window, offscreen, driven with pytest-qt: keys, sliders, undo, presets,
exports and memory between runs."""

import json
import math
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QKeyEvent, QWheelEvent
from PySide6.QtWidgets import QApplication

from sandbox.files.presets import BUILTIN_DIR, load_preset
from sandbox.physics.models import arcade
from sandbox.ui.app import MainWindow

K = Qt.Key


def paused(w):
    """Stop the frame timer and reset, so a test counts exactly the ticks it runs."""
    w.timer.stop()
    w.reset_car()
    return w


def speed_trace(w):
    return w.plots.speed_curve.getData()[1]


def key_event(kind, key, repeat=False):
    return QKeyEvent(kind, key, Qt.KeyboardModifier.NoModifier, "", repeat)


def test_holding_w_raises_the_speed_plot(window, qtbot):
    qtbot.keyPress(window.track, K.Key_W)
    qtbot.waitUntil(
        lambda: speed_trace(window) is not None and len(speed_trace(window)) > 30 and speed_trace(window)[-1] > 200,
        timeout=5000,
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
    qtbot.waitUntil(lambda: window.sim.state.heading[0] > 0.05, timeout=3000)
    assert window.sim.state.wheel_angle[0] == pytest.approx(math.radians(15))
    qtbot.keyRelease(window.track, K.Key_D)
    qtbot.keyPress(window.track, K.Key_Left)
    qtbot.waitUntil(lambda: window.sim.state.wheel_angle[0] < 0, timeout=3000)
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


def test_save_then_load_restores_the_tuning_exactly(window, tmp_path):
    for name, value in (("engine_power", 1230), ("traction_fast", 3.3), ("drag", -0.071)):
        window.panel.sliders[name].setValue(value)
    saved = dict(window.tuning)
    path = tmp_path / "mine.json"
    assert window.save_preset_to(path, name="mine")
    assert "mine" in window.windowTitle() and "*" not in window.windowTitle()
    window.panel.reset_all()
    assert dict(window.tuning) != saved
    assert window.open_preset_file(path)
    assert dict(window.tuning) == saved
    shown = {name: slider.value() for name, slider in window.panel.sliders.items()}
    assert shown == pytest.approx({k: v for k, v in saved.items() if k in shown})


def test_presets_menu_switches_and_undo_goes_back(window):
    action = next(a for a in window.presets_menu.actions() if a.text() == "Ice")
    action.trigger()
    assert dict(window.tuning) == dict(load_preset(BUILTIN_DIR / "ice.json").tuning)
    assert window.windowTitle().endswith("Ice")
    window.undo.undo()
    assert window.tuning["traction_slow"] == 10
    assert window.windowTitle().endswith("Recipe defaults")
    window.undo.redo()
    assert window.windowTitle().endswith("Ice") and window.tuning["traction_slow"] == 2
    steps = window.undo.count()
    action.trigger()  # Ice again: nothing changes, so nothing to undo
    assert window.undo.count() == steps and window.undo.canUndo()
    window.panel.sliders["traction_slow"].setValue(3)
    action.trigger()  # Ice over a changed value: a step back to it
    assert window.undo.count() == steps + 2 and window.tuning["traction_slow"] == 2


def test_bad_preset_shows_a_message_and_leaves_the_tuning(window, tmp_path):
    window.panel.sliders["braking"].setValue(-700)
    before = dict(window.tuning)
    bad = tmp_path / "bad.json"
    data = json.loads((BUILTIN_DIR / "drift.json").read_text())
    data["params"]["wheel_base"] = 5000
    bad.write_text(json.dumps(data))
    assert not window.open_preset_file(bad)
    assert dict(window.tuning) == before
    assert (
        str(bad) in window.last_error
        and "params.wheel_base" in window.last_error
        and "10 … 300 px" in window.last_error
    )
    boxes = [w for w in QApplication.topLevelWidgets() if w.isVisible() and w.windowTitle() == "car-sandbox"]
    assert any(window.last_error in b.text() for b in boxes if hasattr(b, "text"))


def test_exports_are_valid_files(window, tmp_path):
    assert window.export_curve(tmp_path / "f.png")
    assert window.export_curve(tmp_path / "f.svg")
    assert window.export_curve(tmp_path / "f.csv")
    assert (tmp_path / "f.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert b"<svg" in (tmp_path / "f.svg").read_bytes()
    rows = (tmp_path / "f.csv").read_text().splitlines()
    assert rows[0] == "speed,engine,friction,drag,net" and len(rows) > 100
    assert not window.export_curve(tmp_path / "f.bmp") and "bmp" in window.last_error


def test_pyqtgraph_context_menu_export_works_on_the_curve(window, tmp_path):
    """The plot's right-click Export… runs pyqtgraph's exporters on this item."""
    import pyqtgraph.exporters as ex

    assert window.curves.getPlotItem().menuEnabled()
    ex.CSVExporter(window.curves.getPlotItem()).export(str(tmp_path / "menu.csv"))
    lines = (tmp_path / "menu.csv").read_text().splitlines()
    assert len(lines) == 1 + 241  # header, then one row per curve point
    first = [float(v) for v in lines[1].replace("\t", ",").split(",") if v.strip()]
    assert first[:2] == [0.0, 900.0]  # engine curve at speed 0: engine_power


def test_tab_toggles_the_panel_and_r_resets_the_car(window, qtbot):
    assert window.panel_dock.isVisible()
    qtbot.keyClick(window.track, K.Key_Tab)
    assert not window.panel_dock.isVisible()
    qtbot.keyClick(window.track, K.Key_Tab)
    assert window.panel_dock.isVisible()
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


def test_skid_marks_appear_above_slip_speed(window):
    paused(window).scripted_drive(4)
    skid = window.track.trail.view()[6]
    assert skid.any() and not skid[:5].any()  # starts on grip, slides once past 400 px/s


def test_plots_survive_hundreds_of_repaints(window, qtbot):
    """ENVIRONMENT.md: PySide6 6.12 crashed pyqtgraph after a few repaints."""
    paused(window)
    for _ in range(300):
        window.scripted_drive(1 / 60)
        window.plots.repaint()
        window.curves.repaint()
    assert len(speed_trace(window)) == 300


def test_last_preset_tuning_and_layout_are_restored(qtbot):
    first = MainWindow()
    qtbot.addWidget(first)
    first.show()
    assert first.open_preset_file(BUILTIN_DIR / "go_kart.json")
    first.panel.sliders["engine_power"].setValue(1700)
    first.panel_dock.hide()
    first.close()
    second = MainWindow()
    qtbot.addWidget(second)
    second.show()
    assert second.preset.name == "Go-kart"
    assert second.tuning["engine_power"] == 1700 and second.tuning["wheel_base"] == 40
    assert "*" in second.windowTitle()
    assert not second.panel_dock.isVisible()


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


def test_presets_menu_marks_the_active_preset(window):
    window.open_preset_file(BUILTIN_DIR / "heavy_truck.json")
    window._fill_presets_menu()
    checked = [a.text() for a in window.presets_menu.actions() if a.isChecked()]
    assert checked == ["Heavy truck"]


def test_a_broken_last_preset_is_reported_at_start(qtbot, tmp_path):
    from sandbox.ui.app import settings

    broken = tmp_path / "gone.json"
    broken.write_text("{")
    settings().setValue("preset/last_path", str(broken))
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.preset.name == "Recipe defaults"
    assert "Could not reopen the last preset" in w.statusBar().currentMessage()
    assert str(broken) in w.statusBar().currentMessage()


def pick_rate(window, hz):
    """Choose `hz` in the panel's tick-rate box as a user does (activated signal)."""
    box = window.panel.rate
    box.setCurrentIndex(box.findData(hz))
    box.activated.emit(box.currentIndex())


def test_tick_rate_selector_changes_physics_curve_and_status(window):
    pick_rate(window, 120)
    window.curves.settle()
    assert window.sim.hz == 120 and window.sim.dt == 1 / 120
    # the recipe at 120 Hz balances 900 = 55 v/120 + 0.06 v²/120
    top = (-55 + math.sqrt(55**2 + 4 * 0.06 * 900 * 120)) / 0.12
    assert window.curves.top_marker.value() == pytest.approx(top)
    assert "120 Hz" in window.curves.getPlotItem().titleLabel.text
    window._refresh_views()
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


def test_presets_carry_their_tick_rate(window, tmp_path):
    pick_rate(window, 144)
    path = tmp_path / "fast.json"
    assert window.save_preset_to(path, name="fast")
    assert json.loads(path.read_text())["hz"] == 144
    window.open_preset_file(BUILTIN_DIR / "drift.json")
    assert window.sim.hz == 60
    window.open_preset_file(path)
    assert window.sim.hz == 144 and window.panel.rate.currentData() == 144
    window.undo.undo()
    assert window.sim.hz == 60


def test_export_godot_scripts_then_import_restores_the_values(window, tmp_path):
    window.open_preset_file(BUILTIN_DIR / "go_kart.json")
    window.panel.sliders["drag"].setValue(-0.123)
    expected = dict(window.tuning)
    for godot in (3, 4):
        assert window.export_godot(tmp_path / f"car{godot}.gd", godot)
    text4 = (tmp_path / "car4.gd").read_text()
    assert "extends CharacterBody2D" in text4 and "var drag: float = -0.123" in text4
    assert "extends KinematicBody2D" in (tmp_path / "car3.gd").read_text()
    window.panel.reset_all()
    steps = window.undo.count()
    assert window.import_godot(tmp_path / "car3.gd")
    assert dict(window.tuning) == expected
    assert window.undo.count() == steps + 1  # the whole import is one undo step
    window.undo.undo()
    assert window.tuning["wheel_base"] == 70


def test_import_of_a_script_without_parameters_changes_nothing(window, tmp_path):
    before = dict(window.tuning)
    path = tmp_path / "other.gd"
    path.write_text("extends Node\nfunc _ready():\n\tpass\n")
    assert not window.import_godot(path)
    assert dict(window.tuning) == before and "no parameter of the arcade model" in window.last_error


def test_file_menu_has_import_and_export_submenus(window):
    assert window.export_menu.title() == "&Export" and window.import_menu.title() == "&Import"
    in_file = window.file_menu.actions()
    assert window.export_menu.menuAction() in in_file and window.import_menu.menuAction() in in_file
    exports = [a.text().replace("&", "") for a in window.export_menu.actions() if a.text()]
    assert [t for t in exports if "Godot" in t] == ["Godot script or scene…", "Copy Godot script"]
    assert sum("Force curve" in t for t in exports) == 3
    assert [a.text().replace("&", "") for a in window.import_menu.actions()] == ["Godot script (.gd)…"]


def test_model_menu_switches_to_ackermann_and_drives_in_metres(window, qtbot):
    action = next(a for a in window.model_actions.actions() if a.data() == "ackermann")
    action.trigger()
    assert window.model.NAME == "ackermann" and window.preset.name == "Ackermann (notes)"
    assert "track_width" in window.panel.sliders and "engine_power" not in window.panel.sliders
    assert window.undo.count() == 0 and window.track.unit == "m" and window.track.unit_scale == 25
    qtbot.keyPress(window.track, K.Key_W)
    qtbot.keyPress(window.track, K.Key_D)
    qtbot.waitUntil(lambda: window.sim.state.heading[0] > 0.05, timeout=5000)
    qtbot.keyRelease(window.track, K.Key_D)
    qtbot.keyRelease(window.track, K.Key_W)
    state = window.sim.state
    assert state.extra["beta"][0] > state.extra["alpha"][0] > 0  # inner wheel turned further
    window._refresh_views()
    assert "m/s" in window.plots.readout.text()
    window.curves.settle()
    assert window.curves.getPlotItem().getAxis("bottom").labelUnits == "m/s"
    assert not window.track.grab().isNull()  # paints the centre and the wheel axes


def test_loading_another_models_preset_switches_the_model(window):
    from PySide6.QtWidgets import QMessageBox

    from dialogs import answer

    window.panel.sliders["drag"].setValue(-0.2)
    asked = []
    answer(QMessageBox.StandardButton.Discard, asked)  # the changed drag is given up (asked first)
    assert window.open_preset_file(BUILTIN_DIR / "bicycle_exact_arc.json")
    assert asked
    assert window.model.NAME == "bicycle" and window.tuning["exact_arc"] is True
    assert window.undo.count() == 0
    # and back: the arcade preset brings the arcade model with its own sliders
    assert window.open_preset_file(BUILTIN_DIR / "drift.json")
    assert window.model.NAME == "arcade" and window.panel.sliders["engine_power"].value() == 1200


def test_pixels_per_metre_scales_the_metre_models(window):
    window.switch_model("bicycle")
    window.set_px_per_metre(40.0)
    assert window.track.unit_scale == 40.0
    window.switch_model("arcade")
    assert window.track.unit_scale == 1.0  # pixels stay pixels


def test_save_and_load_a_bicycle_preset(window, tmp_path):
    window.switch_model("bicycle")
    window.panel.sliders["wheel_base"].setValue(3.1)
    window.panel.switches["keep_wheel_base"].setChecked(True)
    assert window.save_preset_to(tmp_path / "b.json", name="b")
    saved = dict(window.tuning)
    window.switch_model("arcade")
    assert window.open_preset_file(tmp_path / "b.json")
    assert window.model.NAME == "bicycle" and dict(window.tuning) == saved


@pytest.mark.parametrize("model", ["bicycle", "ackermann", "rigid_body", "monster"])
def test_every_model_exports_a_godot_script_and_scene_and_imports_it_back(window, tmp_path, model):
    window.switch_model(model)
    first = next(p for p in window.model.PARAMS if not p.is_bool)
    window.panel.sliders[first.name].setValue(first.min + 2 * first.step)
    expected = dict(window.tuning)
    assert window.export_godot(tmp_path / "car.tscn", 3, scene=True)
    assert (tmp_path / "car.gd").is_file() and 'path="car.gd"' in (tmp_path / "car.tscn").read_text()
    window.panel.reset_all()
    assert window.import_godot(tmp_path / "car.gd")
    assert dict(window.tuning) == expected


def test_a_godot_script_of_another_model_changes_nothing(window, tmp_path):
    window.switch_model("bicycle")
    assert window.export_godot(tmp_path / "bicycle.gd", 4)
    window.switch_model("arcade")
    before, steps = dict(window.tuning), window.undo.count()
    assert not window.import_godot(tmp_path / "bicycle.gd")
    assert "this is a script of the Kinematic bicycle" in window.last_error and "line " in window.last_error
    assert dict(window.tuning) == before and window.undo.count() == steps


@pytest.mark.parametrize("preset, variables", [("recipe_defaults", 12), ("recipe_2020", 11)])
def test_the_godot_export_dialog_counts_the_variables_the_script_declares(window, qtbot, preset, variables):
    """The recipe's ten numbers and its switches: rate_independent and analog_pedals for
    the Godot 4 recipe; only analog_pedals for the 2020 one (its code is its formula)."""
    window.open_preset_file(BUILTIN_DIR / f"{preset}.json")
    dialog = window.godot_export_dialog()
    qtbot.addWidget(dialog)
    assert f"{variables} tuning variables" in dialog.note.text()


def test_the_godot_export_dialog_shows_the_script_and_saves_a_scene(window, tmp_path, qtbot):
    from PySide6.QtWidgets import QApplication

    from sandbox.files.godot import export_script

    window.open_preset_file(BUILTIN_DIR / "rigid_body_road.json")
    dialog = window.godot_export_dialog()
    qtbot.addWidget(dialog)
    dialog.version.setCurrentIndex(1)  # Godot 3
    dialog.as_scene.setChecked(True)
    dialog.scale.setValue(40)
    expected = export_script(window.current_preset(), 3, 40.0)
    assert dialog.text.toPlainText() == expected
    assert dialog.preview.shapes["Body"][2][0] == pytest.approx(40 * window.model.body(window.tuning)["length"] / 2)
    dialog.copy_button.click()
    assert QApplication.clipboard().text() == expected
    written = dialog.save(tmp_path / "road.tscn")
    assert written == [tmp_path / "road.tscn", tmp_path / "road.gd"]
    assert (tmp_path / "road.gd").read_text() == expected
    # a model in pixels has no scale to choose
    window.open_preset_file(BUILTIN_DIR / "drift.json")
    assert not window.godot_export_dialog().scale.isEnabled()


def test_copy_godot_script_puts_the_script_on_the_clipboard(window):
    from PySide6.QtWidgets import QApplication

    from sandbox.files.godot import export_script

    window.switch_model("ackermann")
    shortcut = next(a for a in window.godot_exports if a.shortcut().toString() == "Ctrl+Shift+C")
    shortcut.trigger()
    assert QApplication.clipboard().text() == export_script(window.current_preset(), 4, window.px_per_metre)


def test_handbrake_and_gear_keys_reach_the_dynamic_car(window, qtbot):
    window.open_preset_file(BUILTIN_DIR / "monster_drift_manual.json")
    assert window.model.NAME == "monster"
    qtbot.keyPress(window.track, K.Key_Space)
    assert window.keys.controls().handbrake == 1
    qtbot.keyRelease(window.track, K.Key_Space)
    qtbot.keyClick(window.track, K.Key_E)
    assert window.keys.controls().shift == 1
    assert window.keys.controls().shift == 0  # one press, one gear: consumed by the first tick


def test_model_telemetry_plots_the_chosen_channels(window):
    window.open_preset_file(BUILTIN_DIR / "monster_corvette_c5.json")
    assert [window.channel_box.itemText(i) for i in range(window.channel_box.count())] == list(window.model.TELEMETRY)
    window.channel_box.setCurrentText("rpm and gear")
    paused(window).scripted_drive(3)
    rpm = window.plots.channel_curves[0].getData()[1]
    gear = window.plots.channel_curves[1].getData()[1]
    assert len(rpm) == 180 and rpm.min() >= 1000 and rpm.max() > 2000  # idle floor, revving up
    assert set(np.unique(gear)) <= {1000.0, 2000.0, 3000.0}  # gear × 1000
    # the axis names the unit; the group's name is in the box (a long one overlapped)
    assert window.plots.channel_unit == "rpm" and "[rpm]" in window.plots.sides[2].text
    window.channel_box.setCurrentText("axle loads")
    window.scripted_drive(1)
    front, rear = (c.getData()[1] for c in window.plots.channel_curves)
    finite = np.isfinite(front)
    assert finite.sum() == 60  # the new group starts blank, then fills
    # total load is the weight: m·g = 1500·9.8 N
    assert (front[finite] + rear[finite]) == pytest.approx(np.full(60, 1500 * 9.8))
    assert window.plots.channel_unit == "N" and "[N]" in window.plots.sides[2].text


def test_ghost_drives_with_the_same_controls(window, qtbot):
    paused(window)
    window.pin_ghost()
    window.panel.sliders["engine_power"].setValue(1800)  # the car changes, the ghost keeps 900
    window.scripted_drive(2)
    car, ghost = window.sim.state, window.ghost.state
    assert ghost.speed[0] > 0 and car.speed[0] > ghost.speed[0]
    # the ghost is exactly a separate run of the pinned tuning on the same controls
    from sandbox.files.traces import demo_drive
    from sandbox.physics.sim import run_trace

    trace = np.array([demo_drive(i / 60) for i in range(120)])
    alone = run_trace(arcade, load_preset(BUILTIN_DIR / "recipe_defaults.json").tuning, trace)
    assert (ghost.x[0], ghost.y[0]) == (alone[-1, 1], alone[-1, 2])
    ghost_speed = window.plots.ghost_speed_curves[0].getData()[1]
    assert ghost_speed[-1] == pytest.approx(ghost.speed[0])  # overlaid on the speed plot
    assert any("ghost pinned" in line for line in window.track.ghost_lines)
    window.remove_ghost()
    assert window.ghost is None and window.track.ghosts == []


def test_ghost_of_another_model_shares_the_view_in_the_cars_units(window):
    paused(window)
    assert window.ghost_from_file(BUILTIN_DIR / "ackermann_notes.json")  # metres beside pixels
    window.scripted_drive(1)
    assert window.ghost_scale() == 25.0  # px per metre
    g = window.ghost.state
    shown = window.plots.ghost_speed_curves[0].getData()[1][-1]
    assert shown == pytest.approx(g.speed[0] * 25.0)  # m/s drawn as px/s
    assert not window.track.grab().isNull()


def test_metrics_panel_follows_the_sliders_and_compares_with_the_ghost(window, qtbot):
    assert not window.metrics.active  # behind the tuning tab: nothing computed
    assert window.metrics.rows == []
    with qtbot.waitSignal(window.metrics.updated, timeout=10000):
        window.metrics_dock.raise_()  # shown: computes the latest request
    top = window.metrics.rows[0]
    assert top["name"] == "top_speed" and top["value"] == pytest.approx(595.265, abs=0.01)
    window.pin_ghost()
    window.panel.sliders["engine_power"].setValue(1800)
    window.metrics.settle()  # the newest request's figures (an earlier one's may arrive first)
    # the balance 1800 = 55 v/60 + 0.06 v²/60, and the ghost keeps 900's
    expected = (-55 + math.sqrt(55**2 + 4 * 0.06 * 1800 * 60)) / 0.12
    assert window.metrics.rows[0]["value"] == pytest.approx(expected, rel=1e-5)
    delta = float(window.metrics.table.item(0, 2).text())
    assert delta == pytest.approx(expected - 595.265, rel=1e-3)
    assert window.metrics.table.horizontalHeaderItem(2).text() == "vs 1"
    assert "1: pinned Recipe defaults" in window.metrics.legend.text()
    window.ghost_from_file(BUILTIN_DIR / "ice.json")
    window.metrics.settle()
    assert window.metrics.table.columnCount() == 4  # metric, value, and one column per ghost
    ice_top = (-12 + math.sqrt(12**2 + 4 * 0.06 * 350 * 60)) / 0.12  # ice: 350 = 12 v/60 + 0.06 v²/60
    assert float(window.metrics.table.item(0, 3).text()) == pytest.approx(expected - ice_top, rel=1e-3)
    assert "ms" in window.metrics.status.text()


def test_the_ghost_follows_keyboard_driving(window):
    paused(window)
    window.pin_ghost()
    window.keys.held |= {K.Key_W, K.Key_D}  # as if W and D were held
    window.run_for(0.25)
    window.run_for(0.25)  # one frame runs at most 0.25 s of physics
    car, ghost = window.sim.state, window.ghost.state
    assert window.sim.ticks == 30 and car.speed[0] > 0 and car.heading[0] > 0
    assert (ghost.x[0], ghost.y[0], ghost.heading[0]) == (car.x[0], car.y[0], car.heading[0])  # same tuning


def test_recording_captures_every_ticks_controls(window, tmp_path):
    paused(window)
    window.set_recording(True)
    window.keys.held |= {K.Key_W, K.Key_A}
    window.run_for(0.25)
    window.keys.held.clear()
    window.run_for(0.25)
    window.set_recording(False)
    rows = window.drive.last_recording
    assert rows.shape == (30, 5)  # steer, throttle, brake, handbrake, shift
    assert rows[:15].tolist() == [[-1.0, 1.0, 0.0, 0.0, 0.0]] * 15 and rows[15:].tolist() == [[0.0] * 5] * 15
    assert window.save_recording_to(tmp_path / "mine.csv")
    from sandbox.files.traces import load_trace

    # pedals only: the three-column file every earlier version reads
    assert (tmp_path / "mine.csv").read_text().splitlines()[0] == "steer,throttle,brake"
    assert np.array_equal(load_trace(tmp_path / "mine.csv"), rows)


def test_handbrake_and_gear_shifts_are_recorded_and_replay_exactly(window, tmp_path, qtbot):
    """The dynamic car: a drive with the handbrake and manual shifts, recorded, saved,
    loaded and replayed from rest, ends exactly where the live drive ended."""
    paused(window)
    window.apply_preset(load_preset(BUILTIN_DIR / "monster_drift_manual.json"))
    assert window.tuning["manual_gears"]
    window.set_recording(True)
    window.keys.held |= {K.Key_W}
    window.run_for(0.25)
    for key in (K.Key_E, K.Key_E):  # two shifts up
        qtbot.keyClick(window.track, key)
        window.run_for(0.25)
    window.keys.held |= {K.Key_Space, K.Key_D}
    window.run_for(0.25)
    live = window.sim.state
    gear = float(live.extra["gear"][0])
    window.set_recording(False)
    rows = window.drive.last_recording
    assert rows[:, 3].sum() == 15 and rows[:, 4].tolist().count(1.0) == 2  # handbrake ticks, shifts
    assert gear == 3.0
    assert window.save_recording_to(tmp_path / "drift.csv")
    assert (tmp_path / "drift.csv").read_text().splitlines()[0] == "steer,throttle,brake,handbrake,shift"
    window.keys.held.clear()
    assert window.open_trace_file(tmp_path / "drift.csv")
    window.scrub(len(rows))
    replayed = window.sim.state
    assert (replayed.x[0], replayed.y[0], replayed.heading[0]) == (live.x[0], live.y[0], live.heading[0])
    assert float(replayed.extra["gear"][0]) == gear


def test_a_pedals_only_trace_from_before_the_handbrake_column_still_replays(window):
    from sandbox.files.traces import load_trace

    old = Path(__file__).parent / "data" / "trace_pedals_only_before_handbrake.csv"
    rows = load_trace(old)
    assert rows.shape[1] == 5 and not rows[:, 3:].any()
    assert window.open_trace_file(old)
    window.scrub(len(rows))
    assert window.sim.ticks == len(rows)


@pytest.mark.parametrize("speed, frames", [(4.0, [0.007, 0.031, 0.0, 0.016]), (0.25, [0.1, 0.013, 0.2])])
def test_replay_is_bit_identical_to_simulate_at_any_speed_and_frame_rate(window, speed, frames):
    from sandbox.files.traces import BUILTIN_TRACES, load_trace
    from sandbox.physics.sim import run_trace

    paused(window)
    window.open_preset_file(BUILTIN_DIR / "drift.json")
    assert window.open_trace_file(BUILTIN_TRACES / "slalom.csv")
    window.replay_bar.speed.setCurrentIndex(window.replay_bar.speed.findData(speed))
    length = len(window.drive.replay)
    i = 0
    while window.drive.playing:
        window.run_for(frames[i % len(frames)])  # uneven frames, some with no tick at all
        i += 1
    assert window.sim.ticks == length == 840
    expected = run_trace(window.model, window.tuning, load_trace(BUILTIN_TRACES / "slalom.csv"))[-1]
    s = window.sim.state
    assert (s.x[0], s.y[0], s.heading[0], s.vx[0], s.vy[0]) == tuple(expected[1:6])


def test_scrub_and_step_show_the_trace_at_a_tick(window):
    from sandbox.files.traces import BUILTIN_TRACES, load_trace
    from sandbox.physics.sim import run_trace

    paused(window)
    window.open_trace_file(BUILTIN_TRACES / "hairpin.csv")
    window.set_playing(False)
    expected = run_trace(window.model, window.tuning, load_trace(BUILTIN_TRACES / "hairpin.csv"))
    window.scrub(300)
    assert window.drive.replay_tick == 300 and window.sim.state.x[0] == expected[299, 1]
    window.step_replay()
    assert window.drive.replay_tick == 301 and window.sim.state.y[0] == expected[300, 2]
    assert "301/510" in window.replay_bar.position.text()
    window.stop_replay()
    assert window.drive.replay is None and window.sim.ticks == 0


def test_a_bad_trace_is_refused_and_nothing_changes(window, tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("steer,throttle,brake\n0,1,0\n0,2,0\n")
    assert not window.open_trace_file(bad)
    assert window.drive.replay is None and "line 3: throttle 2 is outside 0 … 1" in window.last_error


def test_up_to_four_ghosts_each_with_its_own_readout(window):
    paused(window)
    for name in ("ice", "go_kart", "heavy_truck", "drift"):
        assert window.ghost_from_file(BUILTIN_DIR / f"{name}.json")
    assert not window.ghost_from_file(BUILTIN_DIR / "grass_sand.json")  # a fifth is refused
    assert "At most 4 ghosts" in window.last_error and len(window.ghosts) == 4
    window.scripted_drive(2)
    assert len(window.track.ghosts) == 4
    readouts = [line for line in window.track.ghost_lines if line.startswith("ghost ")]
    assert [line.split(":")[0] for line in readouts] == [
        "ghost Ice",
        "ghost Go-kart",
        "ghost Heavy truck",
        "ghost Drift",
    ]
    assert all(line.endswith(" s)") for line in readouts)  # the lead in time
    speeds = [c.getData()[1][-1] for c in window.plots.ghost_speed_curves]
    assert speeds == pytest.approx([g.sim.state.speed[0] for g in window.ghosts])
    assert len(set(speeds)) == 4  # four different cars on the same controls


def set_axis(row, name, low, high, count):
    row.name.setCurrentIndex(row.name.findData(name))
    row.low.setValue(low)
    row.high.setValue(high)
    row.count.setValue(count)


def test_sweep_one_parameter_plots_the_metric_and_a_click_loads_the_point(window, qtbot):
    window._sync_sweep()
    sweep = window.sweep
    set_axis(sweep.first, "engine_power", 500, 2000, 4)
    sweep.metric.setCurrentIndex(sweep.metric.findData("top_speed"))
    with qtbot.waitSignal(sweep.finished, timeout=20000):
        sweep.run()
    x, y = sweep.curve.getData()
    assert list(x) == [500, 1000, 1500, 2000]
    expected = [(-55 + math.sqrt(55**2 + 4 * 0.06 * e * 60)) / 0.12 for e in x]
    assert list(y) == pytest.approx(expected, rel=1e-5)
    steps = window.undo.count()
    sweep.pick(1100, 0)  # nearest grid point: 1000
    assert window.tuning["engine_power"] == 1000 and window.undo.count() == steps + 1
    window.undo.undo()
    assert window.tuning["engine_power"] == 900


def test_sweep_two_parameters_shows_a_heatmap_and_loads_a_cell(window, qtbot, tmp_path):
    window._sync_sweep()
    sweep = window.sweep
    set_axis(sweep.first, "traction_fast", 1, 5, 3)
    sweep.use_second.setChecked(True)
    set_axis(sweep.second, "slip_speed", 200, 600, 3)
    sweep.metric.setCurrentIndex(sweep.metric.findData("peak_slip_skidpad"))
    with qtbot.waitSignal(sweep.finished, timeout=20000):
        sweep.run()
    assert sweep.image.image.shape == (3, 3) and sweep.image.isVisible()
    sweep.pick(5.1, 190)
    assert (window.tuning["traction_fast"], window.tuning["slip_speed"]) == (5, 200)
    window.undo.undo()  # both values came back in one step
    assert (window.tuning["traction_fast"], window.tuning["slip_speed"]) == (2.5, 400)
    for suffix in (".csv", ".png", ".svg"):
        assert window.export_sweep(tmp_path / f"s{suffix}")
    lines = (tmp_path / "s.csv").read_text().splitlines()
    assert lines[0].startswith("traction_fast,slip_speed,top_speed") and len(lines) == 10
    assert (tmp_path / "s.png").read_bytes()[:4] == b"\x89PNG"
    assert not window.export_sweep(tmp_path / "s.txt") and "use .csv, .png or .svg" in window.last_error


def test_a_long_sweep_can_be_cancelled(window, qtbot):
    window._sync_sweep()
    sweep = window.sweep
    set_axis(sweep.first, "drag", -0.5, -0.01, 200)
    with qtbot.waitSignal(sweep.finished, timeout=60000):
        sweep.run()
        sweep.cancel_button.click()
    assert "cancelled" in sweep.note.text() and sweep.run_button.isEnabled()


def test_a_corrupt_saved_session_is_reported_and_the_preset_used(qtbot):
    from sandbox.ui.app import settings

    settings().setValue("preset/tuning", '{"format": 2, "model": "arcade", "params": {"drag": "lots"}')
    w = MainWindow()
    qtbot.addWidget(w)
    assert dict(w.tuning) == {p.name: p.default for p in arcade.PARAMS}
    message = w.statusBar().currentMessage()
    assert message.startswith("Could not restore last session's tuning: not valid JSON")


def test_switching_telemetry_group_keeps_the_ghosts_history(window):
    """Switching the model-telemetry group blanks that plot's history only."""
    paused(window)
    window.pin_ghost()
    window.scripted_drive(2)
    window.channel_box.setCurrentText("wheel angle")
    window.plots.set_channels("wheel angle", "°", window.model.TELEMETRY["wheel angle"][1])
    window.scripted_drive(0.5)
    ghost_speed = window.plots.ghost_speed_curves[0].getData()[1]
    assert len(ghost_speed) == 150 and np.isfinite(ghost_speed).all()
    channel = window.plots.channel_curves[0].getData()[1]
    assert np.isnan(channel[:120]).all() and np.isfinite(channel[120:]).all()


def test_time_to_cover_interpolates_between_ticks_and_extrapolates_past_the_end():
    from sandbox.analysis.curves import time_to_cover

    dt, v = 1 / 60, 120.0
    steady = v * dt * np.arange(61)  # one second at a steady 120 px/s
    assert time_to_cover(steady, 30.0, dt, v) == pytest.approx(30.0 / v)  # between ticks 15 and 16
    assert time_to_cover(steady, 150.0, dt, v) == pytest.approx(150.0 / v)  # after the end, at the last speed
    assert time_to_cover(steady, 150.0, dt, 0.0) == math.inf  # stopped short
    assert time_to_cover(steady, 0.0, dt, v) == 0.0


def test_the_ghost_readout_says_when_it_reached_the_end_of_the_trace(window):
    """Drag strip: a ghost with twice the engine power reaches the car's end point
    earlier (−), a copy of the car at the same moment (0), and the figure is the time
    its own separate run took to cover the car's distance."""
    from sandbox.analysis.curves import time_to_cover
    from sandbox.files.traces import BUILTIN_TRACES, load_trace
    from sandbox.physics.sim import run_trace

    paused(window)
    defaults = load_preset(BUILTIN_DIR / "recipe_defaults.json")
    strong = load_preset(BUILTIN_DIR / "recipe_defaults.json")
    strong.tuning.set("engine_power", 1800)
    window.set_ghost(defaults, "same")
    window.set_ghost(strong, "strong")
    trace = load_trace(BUILTIN_TRACES / "drag_strip.csv")
    assert window.open_trace_file(BUILTIN_TRACES / "drag_strip.csv")
    window.scrub(len(trace) - 1)
    assert not any("end of trace" in line for line in window.track.ghost_lines)  # not before the end
    window.step_replay()
    same, ahead = [line for line in window.track.ghost_lines if line.startswith("ghost ")]
    assert same.endswith("end of trace +0.00 s")
    figure = float(ahead.rsplit("end of trace ", 1)[1].split()[0])
    car, fast = run_trace(arcade, defaults.tuning, trace), run_trace(arcade, strong.tuning, trace)

    def odometer(rows):
        steps = np.hypot(*np.diff(np.vstack([[0.0, 0.0], rows[:, 1:3]]), axis=0).T)
        return np.concatenate([[0.0], np.cumsum(steps)])

    expected = time_to_cover(odometer(fast), odometer(car)[-1], 1 / 60, fast[-1, 6]) - len(trace) / 60
    assert figure < -0.5 and figure == pytest.approx(expected, abs=0.006)


def test_a_plot_drawn_a_frame_ago_keeps_what_it_showed(window):
    """The three live plots take turns; one refreshed on an earlier frame still holds
    that frame's data, time and values together (not a later tick's values against
    older times), so what is drawn or exported is always a real sample."""
    from sandbox.ui.drive_view import REFRESH_TURNS

    paused(window)
    window.pin_ghost()
    window.keys.held |= {K.Key_W}
    while window._drawn % REFRESH_TURNS != REFRESH_TURNS - 1:
        window.run_for(1 / 60)
    window.run_for(1 / 60)  # this frame redraws the speed plot (turn 0)
    assert window._drawn % REFRESH_TURNS == 0
    speed_then = float(window.sim.state.speed[0])
    for _ in range(REFRESH_TURNS - 1):  # the slip and channel plots' turns; the car keeps accelerating
        window.run_for(1 / 60)
    assert float(window.sim.state.speed[0]) > speed_then
    ago, speeds = window.plots.speed_curve.getData()
    assert speeds[-1] == speed_then and ago[-1] == 0.0
    ghost_ago, ghost_speeds = window.plots.ghost_speed_curves[0].getData()
    assert ghost_speeds[-1] == speed_then and ghost_ago[-1] == 0.0  # the pinned ghost drives alike


def test_export_items_that_can_only_fail_are_greyed_out(window, qtbot):
    """Every model exports to Godot; a sweep exports once one has run."""
    assert not any(a.isEnabled() for a in window.sweep_exports)
    assert "Run a sweep first" in window.sweep_exports[0].statusTip()
    for model in ("bicycle", "monster", "arcade"):
        window.switch_model(model)
        assert all(a.isEnabled() for a in window.godot_exports)
    sweep = window.sweep
    with qtbot.waitSignal(sweep.finished, timeout=60000):
        sweep.run()
    assert all(a.isEnabled() for a in window.sweep_exports)


def test_status_line_says_nothing_of_frame_rate_before_it_is_measured(window):
    paused(window)
    window.run_for(1 / 60)
    assert "fps –" not in window.status.text() and "physics 60 Hz" in window.status.text()


def test_the_play_button_shows_the_standard_pause_icon_while_playing(window):
    from PySide6.QtWidgets import QStyle

    bar = window.replay_bar
    assert bar.play_action.text() == "Play" and not bar.play_action.icon().isNull()
    window.play_trace(np.zeros((600, 5)), "still")
    pause = window.style().standardIcon(QStyle.StandardPixmap.SP_MediaPause)
    assert bar.play_action.text() == "Pause"
    assert bar.play_action.icon().pixmap(16).toImage() == pause.pixmap(16).toImage()


def test_help_lists_every_menu_shortcut(window):
    from PySide6.QtGui import QKeySequence

    text = window.help_text()
    shortcuts = []
    stack = list(window.menuBar().actions())
    while stack:
        action = stack.pop()
        if action.menu() is not None:
            stack += action.menu().actions()
        elif not action.shortcut().isEmpty():
            shortcuts.append(action.shortcut().toString(QKeySequence.SequenceFormat.NativeText))
    assert len(shortcuts) >= 10
    assert all(keys in text for keys in shortcuts)
    assert "W / ↑ accelerate" in text


def test_a_preset_opened_by_a_relative_path_is_remembered_absolute(qtbot, tmp_path, monkeypatch):
    from sandbox.ui.app import settings

    (tmp_path / "mine.json").write_text((BUILTIN_DIR / "go_kart.json").read_text())
    monkeypatch.chdir(tmp_path)
    first = MainWindow()
    qtbot.addWidget(first)
    assert first.open_preset_file(Path("mine.json"))
    first.close()
    remembered = Path(settings().value("preset/last_path"))
    assert remembered.is_absolute() and remembered == tmp_path / "mine.json"
    monkeypatch.chdir(BUILTIN_DIR)  # started from another folder, it still finds it
    second = MainWindow()
    qtbot.addWidget(second)
    assert second.preset.path is not None and second.preset.path.resolve() == tmp_path / "mine.json"


def test_when_the_last_preset_file_is_gone_its_tuning_comes_back_from_the_autosave(qtbot, tmp_path):
    mine = tmp_path / "corvette.json"
    mine.write_text((BUILTIN_DIR / "monster_corvette_c5.json").read_text())
    first = MainWindow()
    qtbot.addWidget(first)
    assert first.open_preset_file(mine)
    first.panel.sliders["mass"].setValue(1720)  # unsaved, in the autosave only
    first.close()
    mine.unlink()
    second = MainWindow()
    qtbot.addWidget(second)
    assert second.model.NAME == "monster" and second.tuning["mass"] == 1720
    assert "comes back from the autosave" in second.statusBar().currentMessage()


def test_metrics_follow_every_value_of_a_drag_before_the_release(window, qtbot):
    window.metrics_dock.raise_()
    slider = window.panel.sliders["engine_power"]
    slider.slider.setSliderDown(True)  # the mouse is held through the whole test
    for power in (1000, 1300, 1600):
        slider.slider.setValue(slider.position(power))
        window.metrics.settle()
        # the recipe's balance power = 55 v/60 + 0.06 v²/60
        expected = (-55 + math.sqrt(55**2 + 4 * 0.06 * power * 60)) / 0.12
        assert window.metrics.rows[0]["value"] == pytest.approx(expected, rel=1e-5)
        assert window.metrics.table.item(0, 1).text() == f"{expected:.1f} px/s"
    slider.slider.setSliderDown(False)


def test_the_controls_help_leaves_every_menu_alive(window, qtbot):
    """Help → Controls reads the shortcuts from the menus. It must not leave Python
    holding wrappers that delete a menu when collected: the Presets menu then still
    fills for the model shown, and Ctrl+1 loads that model's first preset."""
    import gc

    text = window.help_text()
    assert "Ctrl+1" in text and "Update my script" not in text  # listed: only commands with shortcuts
    gc.collect()
    window.open_preset_file(BUILTIN_DIR / "monster_corvette_c5.json")
    window.presets_menu.aboutToShow.emit()  # what opening the menu does
    checked = [a.text() for a in window.presets_menu.actions() if a.isChecked()]
    assert checked == ["Corvette C5 (tutorial)"]
    first = next(a for a in window.presets_menu.actions() if a.shortcut().toString() == "Ctrl+1")
    first.trigger()
    assert window.model.NAME == "monster"


def test_a_ghosts_lead_in_time_is_never_nan():
    from sandbox.session.ghosts import lead_text

    assert lead_text(0.0, 0.0) == ""  # both at rest, side by side
    assert lead_text(12.5, 0.0) == " (standing)"
    assert lead_text(50.0, 100.0) == " (+0.50 s)" and lead_text(-50.0, 200.0) == " (-0.25 s)"


def test_the_ghost_readout_at_rest_says_no_nan(window, qtbot):
    window.set_ghost(window.current_preset(), "twin")
    window._refresh_views()
    assert window.track.ghost_lines and not any("nan" in line for line in window.track.ghost_lines)


def test_the_slip_plot_does_not_zoom_onto_float_noise(window, qtbot):
    """Driving straight, slip angles of 1e-14° are float noise: the plot keeps a span of
    at least 2° instead of scaling them to its full height."""
    from sandbox.physics.state import State

    plots = window.plots
    for k in range(120):
        state = State.at_rest(1, window.model.STATE)
        state.data[0, window.model.STATE.offset["vx"]] = 100.0
        state.data[0, window.model.STATE.offset["vy"]] = 1e-14 * (k % 3 - 1)
        plots.record(k / 60, state, [])
    plots.refresh(2.0, None)
    qtbot.wait(50)
    low, high = plots.slip_plot.getViewBox().viewRange()[1]
    assert high - low >= 1.99  # degrees


@pytest.mark.parametrize("kept", ["0", "nan", "1e308", "-25", "inf", "lots"])
def test_a_damaged_scale_in_the_settings_starts_at_the_default(qtbot, kept):
    """0, nan, 1e308 or -25 px/m in the settings crashed or hung every start (the car
    view divides by it and draws a grid with it): such a value is set aside for 25."""
    from sandbox.ui.app import DEFAULT_PX_PER_METRE, settings

    settings().setValue("view/px_per_metre", kept)
    settings().setValue("view/zoom", kept)
    window = MainWindow()
    qtbot.addWidget(window)
    window.open_preset_file(BUILTIN_DIR / "rigid_body_road.json")
    window.show()
    qtbot.waitExposed(window)
    window.track.repaint()  # the paint that crashed
    assert window.px_per_metre == DEFAULT_PX_PER_METRE
    assert 0.1 <= window.track.zoom <= 8


def test_metrics_compare_only_like_with_like(window, qtbot):
    """An arcade car (px) against the Corvette (m): 0→100 px/s is not 0→100 km/h, and a
    speed in px/s is not one in m/s: no difference is printed, the cell says why."""
    with qtbot.waitSignal(window.metrics.updated, timeout=10000):
        window.metrics_dock.raise_()
    window.ghost_from_file(BUILTIN_DIR / "monster_corvette_c5.json")
    window.pin_ghost()  # and a ghost of the same model, in the same units
    window.metrics.settle()
    rows = {row["name"]: i for i, row in enumerate(window.metrics.rows)}
    for name in ("time_to_100", "top_speed"):
        corvette, same = (window.metrics.table.item(rows[name], column) for column in (2, 3))
        assert corvette.text() == "—" and "not compared" in corvette.toolTip()
        assert float(same.text()) == 0.0  # a pinned copy of the car: the same figure
    assert "not the same measurement" in window.metrics.legend.text()


def test_play_replays_a_recording_just_made_without_saving_it(window):
    """Record, stop, Play: the recording replays from rest and ends where the drive did
    (the same controls, the same physics), with no save and open in between."""
    paused(window)
    assert not window.replay_bar.play_action.isEnabled()  # nothing to play yet
    window.set_recording(True)
    window.keys.held |= {K.Key_W, K.Key_A}
    window.run_for(0.25)
    window.run_for(0.25)
    live = window.sim.state
    window.keys.held.clear()
    window.set_recording(False)
    assert window.replay_bar.play_action.isEnabled()
    window.replay_bar.play_action.trigger()  # F6
    assert window.drive.replay is not None and window.drive.playing
    window.scrub(len(window.drive.last_recording))
    replayed = window.sim.state
    assert (replayed.x[0], replayed.y[0], replayed.heading[0]) == (live.x[0], live.y[0], live.heading[0])


def test_file_export_writes_the_live_plots_as_picture_and_figures(window, tmp_path):
    """File → Export has the live plots, not only through their right-click menu."""
    import csv

    from sandbox.files.disk import png_complete

    texts = [a.text() for a in window.export_menu.actions()]
    assert {"Live plots as PNG image…", "Live plots as SVG drawing…", "Live plots as CSV data…"} <= set(texts)
    paused(window)
    window.pin_ghost()
    window.keys.held |= {K.Key_W}
    window.run_for(0.25)
    window.run_for(0.25)
    assert window.export_plots(tmp_path / "plots.csv")
    rows = list(csv.reader((tmp_path / "plots.csv").open()))
    header, body = rows[0], rows[1:]
    assert header[:3] == ["time [s]", "speed [px/s]", "slip angle [deg]"]
    assert any(name.endswith(": speed [px/s]") for name in header)  # the ghost's curve
    assert len(body) == 30  # 0.5 s at 60 Hz, one row a tick
    assert float(body[1][0]) - float(body[0][0]) == pytest.approx(1 / 60)
    assert float(body[-1][1]) == pytest.approx(float(window.sim.state.speed[0]))
    assert window.export_plots(tmp_path / "plots.png") and png_complete((tmp_path / "plots.png").read_bytes())
    assert window.export_plots(tmp_path / "plots.svg") and "<svg" in (tmp_path / "plots.svg").read_text()
    assert not window.export_plots(tmp_path / "plots.txt")  # refused, naming the types it takes
    assert ".png, .svg or .csv" in window.last_error


def test_open_starts_where_save_writes_and_shows_both_preset_folders(window, tmp_path):
    from sandbox.files.presets import user_dir

    places = lambda dialog: {Path(url.toLocalFile()).resolve() for url in dialog.sidebarUrls()}  # noqa: E731
    first = window.preset_file_dialog()  # nothing of yours yet: the built-in presets
    assert Path(first.directory().absolutePath()).resolve() == BUILTIN_DIR.resolve()
    first.deleteLater()
    user_dir().mkdir(parents=True)
    assert window.save_preset_to(user_dir() / "mine.json", name="mine")
    window.apply_preset(load_preset(BUILTIN_DIR / "drift.json"))  # on a built-in preset again
    dialog = window.preset_file_dialog()
    assert Path(dialog.directory().absolutePath()).resolve() == user_dir().resolve()  # where Save wrote
    assert {user_dir().resolve(), BUILTIN_DIR.resolve()} <= places(dialog)
    dialog.deleteLater()
