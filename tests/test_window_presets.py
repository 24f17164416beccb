"""The real window, offscreen, driven with pytest-qt. Presets and models in the window:
save, load, switch, and what the window remembers between runs."""

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from sandbox.files.presets import BUILTIN_DIR, load_preset
from sandbox.physics.models import arcade
from sandbox.ui.app import MainWindow
from window_helpers import pick_rate

K = Qt.Key


def test_save_then_load_restores_the_tuning_exactly(window, tmp_path):
    for name, value in (("engine_power", 1230), ("traction_fast", 3.3), ("drag", -0.071)):
        window.panel.sliders[name].setValue(value)
    saved = dict(window.tuning)
    path = tmp_path / "mine.json"
    assert window.files.save_preset_to(path, name="mine")
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


def test_last_preset_tuning_and_layout_are_restored(qtbot):
    first = MainWindow()
    qtbot.addWidget(first)
    first.show()
    assert first.open_preset_file(BUILTIN_DIR / "go_kart.json")
    first.panel.sliders["engine_power"].setValue(1700)
    first.panels.panel_dock.hide()
    first.close()
    second = MainWindow()
    qtbot.addWidget(second)
    second.show()
    assert second.preset.name == "Go-kart"
    assert second.tuning["engine_power"] == 1700 and second.tuning["wheel_base"] == 40
    assert "*" in second.windowTitle()
    assert not second.panels.panel_dock.isVisible()


def test_presets_menu_marks_the_active_preset(window):
    window.open_preset_file(BUILTIN_DIR / "heavy_truck.json")
    window.menus.fill_presets()
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


def test_presets_carry_their_tick_rate(window, tmp_path):
    pick_rate(window, 144)
    path = tmp_path / "fast.json"
    assert window.files.save_preset_to(path, name="fast")
    assert json.loads(path.read_text())["hz"] == 144
    window.open_preset_file(BUILTIN_DIR / "drift.json")
    assert window.sim.hz == 60
    window.open_preset_file(path)
    assert window.sim.hz == 144 and window.panel.rate.currentData() == 144
    window.undo.undo()
    assert window.sim.hz == 60


def test_model_menu_switches_to_ackermann_and_drives_in_metres(window, qtbot):
    action = next(a for a in window.model_actions.actions() if a.data() == "ackermann")
    action.trigger()
    assert window.model.NAME == "ackermann" and window.preset.name == "Ackermann (notes)"
    assert "track_width" in window.panel.sliders and "engine_power" not in window.panel.sliders
    assert window.undo.count() == 0 and window.track.unit == "m" and window.track.unit_scale == 25
    qtbot.keyPress(window.track, K.Key_W)
    qtbot.keyPress(window.track, K.Key_D)
    qtbot.waitUntil(lambda: window.sim.state.heading[0] > 0.05, timeout=60_000)
    qtbot.keyRelease(window.track, K.Key_D)
    qtbot.keyRelease(window.track, K.Key_W)
    state = window.sim.state
    assert state.extra["beta"][0] > state.extra["alpha"][0] > 0  # inner wheel turned further
    window.drive_view.refresh()
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
    assert window.files.save_preset_to(tmp_path / "b.json", name="b")
    saved = dict(window.tuning)
    window.switch_model("arcade")
    assert window.open_preset_file(tmp_path / "b.json")
    assert window.model.NAME == "bicycle" and dict(window.tuning) == saved


def test_a_corrupt_saved_session_is_reported_and_the_preset_used(qtbot):
    from sandbox.ui.app import settings

    settings().setValue("preset/tuning", '{"format": 2, "model": "arcade", "params": {"drag": "lots"}')
    w = MainWindow()
    qtbot.addWidget(w)
    assert dict(w.tuning) == {p.name: p.default for p in arcade.PARAMS}
    message = w.statusBar().currentMessage()
    assert message.startswith("Could not restore last session's tuning: not valid JSON")


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
    with qtbot.waitExposed(window):
        window.show()
    window.track.repaint()  # the paint that crashed
    assert window.px_per_metre == DEFAULT_PX_PER_METRE
    assert 0.1 <= window.track.zoom <= 8


def test_open_starts_where_save_writes_and_shows_both_preset_folders(window, tmp_path):
    from sandbox.files.presets import user_dir

    places = lambda dialog: {Path(url.toLocalFile()).resolve() for url in dialog.sidebarUrls()}  # noqa: E731
    first = window.files.preset_file_dialog()  # nothing of yours yet: the built-in presets
    assert Path(first.directory().absolutePath()).resolve() == BUILTIN_DIR.resolve()
    first.deleteLater()
    user_dir().mkdir(parents=True)
    assert window.files.save_preset_to(user_dir() / "mine.json", name="mine")
    window.apply_preset(load_preset(BUILTIN_DIR / "drift.json"))  # on a built-in preset again
    dialog = window.files.preset_file_dialog()
    assert Path(dialog.directory().absolutePath()).resolve() == user_dir().resolve()  # where Save wrote
    assert {user_dir().resolve(), BUILTIN_DIR.resolve()} <= places(dialog)
    dialog.deleteLater()
