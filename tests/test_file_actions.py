"""The window's file dialogs (file_actions.py, godot_actions.py): each kind of file
starts in the folder last used for it, a missing suffix is added, and a folder that
cannot be made is said, with the dialog opening somewhere it can write."""

from pathlib import Path

import numpy as np
from PySide6.QtWidgets import QFileDialog, QMessageBox

from sandbox.files.disk import png_complete
from sandbox.ui.app import MainWindow


def remembering(qtbot) -> MainWindow:
    window = MainWindow(remember=True)
    qtbot.addWidget(window)
    window.curves.settle()
    return window


def answering(monkeypatch, method: str, answers: list[str]) -> list[str]:
    """QFileDialog.`method` answers each of `answers` in turn; returns the folders or
    paths it was opened at."""
    opened = []

    def dialog(parent, title, start, pattern):
        opened.append(start)
        return answers[len(opened) - 1], pattern

    monkeypatch.setattr(QFileDialog, method, staticmethod(dialog))
    return opened


def test_an_export_adds_its_suffix_and_the_next_starts_in_the_same_folder(qtbot, monkeypatch, tmp_path):
    window = remembering(qtbot)
    chosen = tmp_path / "pictures"
    chosen.mkdir()
    opened = answering(monkeypatch, "getSaveFileName", [str(chosen / "curve"), ""])
    window.files.export_curve_dialog(".png")
    assert png_complete((chosen / "curve.png").read_bytes())  # the suffix the user left out
    window.files.export_plots_dialog(".csv")  # cancelled: nothing written
    assert Path(opened[1]) == chosen / "live_plots.csv"
    assert not (chosen / "live_plots.csv").exists()


def test_importing_a_godot_script_starts_where_the_last_export_went(qtbot, monkeypatch, tmp_path):
    window = remembering(qtbot)
    game = tmp_path / "game"
    game.mkdir()
    answering(monkeypatch, "getSaveFileName", [str(game / "car.gd")])
    path = window.files.ask_save_path("Export to Godot", "car.gd", "GDScript (*.gd)", "godot/last_dir")
    assert window.godot.export(path, 4)
    opened = answering(monkeypatch, "getOpenFileName", [str(game / "car.gd")])
    window.panel.sliders["engine_power"].setValue(1250)
    steps = window.undo.count()
    window.godot.import_dialog()
    assert Path(opened[0]) == game
    assert window.tuning["engine_power"] == 900 and window.undo.count() == steps + 1  # one undo step


def test_a_recording_whose_folder_cannot_be_made_is_saved_elsewhere_after_saying_why(
    window, monkeypatch, tmp_path, private_user_data
):
    blocker = private_user_data.parent / "blocker"
    blocker.write_text("a file where the traces folder's parent should be")
    monkeypatch.setattr("sandbox.ui.file_actions.user_trace_dir", lambda: blocker / "traces")
    window.drive.last_recording = np.zeros((30, 5))
    target = tmp_path / "drive.csv"
    opened = answering(monkeypatch, "getSaveFileName", [str(tmp_path / "drive")])
    window.files.save_recording_dialog()
    said = [box.text() for box in window.findChildren(QMessageBox)]
    assert any(str(blocker) in text and "Choose another folder" in text for text in said), said
    assert Path(opened[0]).parent.is_dir()
    assert target.exists() and len(target.read_text().splitlines()) == 31  # a header and every tick
