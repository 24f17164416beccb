"""The real window, offscreen, driven with pytest-qt. Godot from the window: export a
script or a scene, copy it, import it back, the export dialog."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from sandbox.files.presets import BUILTIN_DIR

K = Qt.Key


def test_export_godot_scripts_then_import_restores_the_values(window, tmp_path):
    window.open_preset_file(BUILTIN_DIR / "go_kart.json")
    window.panel.sliders["drag"].setValue(-0.123)
    expected = dict(window.tuning)
    for godot in (3, 4):
        assert window.godot.export(tmp_path / f"car{godot}.gd", godot)
    text4 = (tmp_path / "car4.gd").read_text()
    assert "extends CharacterBody2D" in text4 and "var drag: float = -0.123" in text4
    assert "extends KinematicBody2D" in (tmp_path / "car3.gd").read_text()
    window.panel.reset_all()
    steps = window.undo.count()
    assert window.import_godot(tmp_path / "car3.gd")
    assert dict(window.tuning) == expected | {"godot_engine": 1.0}  # a Godot 3 script: Godot 3's walls
    assert window.undo.count() == steps + 1  # the whole import is one undo step
    window.undo.undo()
    assert window.tuning["wheel_base"] == 70 and window.tuning["godot_engine"] == 0.0
    assert window.import_godot(tmp_path / "car4.gd")
    assert dict(window.tuning) == expected  # Godot 4's, as the go-kart has it


def test_import_of_a_script_without_parameters_changes_nothing(window, tmp_path):
    before = dict(window.tuning)
    path = tmp_path / "other.gd"
    path.write_text("extends Node\nfunc _ready():\n\tpass\n")
    assert not window.import_godot(path)
    assert dict(window.tuning) == before and "no parameter of the arcade model" in window.last_error


@pytest.mark.parametrize("model", ["bicycle", "ackermann", "rigid_body", "monster"])
def test_every_model_exports_a_godot_script_and_scene_and_imports_it_back(window, tmp_path, model):
    window.switch_model(model)
    first = next(p for p in window.model.PARAMS if not p.is_bool)
    window.panel.sliders[first.name].setValue(first.min + 2 * first.step)
    expected = dict(window.tuning)
    assert window.godot.export(tmp_path / "car.tscn", 3, scene=True)
    assert (tmp_path / "car.gd").is_file() and 'path="car.gd"' in (tmp_path / "car.tscn").read_text()
    window.panel.reset_all()
    assert window.import_godot(tmp_path / "car.gd")
    if "godot_engine" in expected:  # a Godot 3 script: its car meets walls as Godot 3's does
        expected["godot_engine"] = 1.0
    assert dict(window.tuning) == expected


def test_a_godot_script_of_another_model_changes_nothing(window, tmp_path):
    window.switch_model("bicycle")
    assert window.godot.export(tmp_path / "bicycle.gd", 4)
    window.switch_model("arcade")
    before, steps = dict(window.tuning), window.undo.count()
    assert not window.import_godot(tmp_path / "bicycle.gd")
    assert "this is a script of the Kinematic bicycle" in window.last_error and "line " in window.last_error
    assert dict(window.tuning) == before and window.undo.count() == steps


@pytest.mark.parametrize("preset, variables", [("recipe_defaults", 12 + 15), ("recipe_2020", 11 + 15)])
def test_the_godot_export_dialog_counts_the_variables_the_script_declares(window, qtbot, preset, variables):
    """The recipe's ten numbers and its switches: rate_independent and analog_pedals for
    the Godot 4 recipe; only analog_pedals for the 2020 one (its code is its formula);
    and the steering feel's 11 values with its 4 assists."""
    window.open_preset_file(BUILTIN_DIR / f"{preset}.json")
    dialog = window.godot_export_dialog()
    qtbot.addWidget(dialog)
    assert f"{variables} tuning variables" in dialog.note.text()


def test_the_godot_export_dialog_shows_the_script_and_saves_a_scene(window, tmp_path, qtbot):

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

    from sandbox.files.godot import export_script

    window.switch_model("ackermann")
    shortcut = next(a for a in window.godot_exports if a.shortcut().toString() == "Ctrl+Shift+C")
    shortcut.trigger()
    assert QApplication.clipboard().text() == export_script(window.current_preset(), 4, window.px_per_metre)


def _own_script_beside(tmp_path):
    mine = tmp_path / "car.gd"
    mine.write_text("extends Node\n# my own car\n")
    return mine


def test_a_scene_export_asks_before_replacing_your_script_and_cancel_writes_nothing(window, tmp_path, qtbot):
    from PySide6.QtWidgets import QMessageBox

    from dialogs import answer

    mine = _own_script_beside(tmp_path)
    dialog = window.godot_export_dialog()
    qtbot.addWidget(dialog)
    dialog.as_scene.setChecked(True)
    asked: list = []
    answer(QMessageBox.StandardButton.Cancel, asked)
    assert dialog.save(tmp_path / "car.tscn") == []
    assert asked and "car.gd: already there beside the scene" in asked[0]
    assert (
        sorted(p.name for p in tmp_path.iterdir()) == ["car.gd"] and mine.read_text() == "extends Node\n# my own car\n"
    )
    asked.clear()
    answer(QMessageBox.StandardButton.Yes, asked)  # the Replace button
    assert dialog.save(tmp_path / "car.tscn") == [tmp_path / "car.tscn", mine]
    assert asked and (tmp_path / "car.gd.bak").read_text() == "extends Node\n# my own car\n"
    assert mine.read_text() == dialog.script_text()


def test_the_windows_scene_export_asks_too(window, tmp_path):
    from PySide6.QtWidgets import QMessageBox

    from dialogs import answer

    mine = _own_script_beside(tmp_path)
    asked: list = []
    answer(QMessageBox.StandardButton.Cancel, asked)
    assert not window.godot.export(tmp_path / "car.tscn", 4, scene=True)
    assert asked and not (tmp_path / "car.tscn").exists() and mine.read_text() == "extends Node\n# my own car\n"
