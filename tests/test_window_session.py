"""The window never loses work to its files or its settings: Save and Save As say which
file and why when they fail; an autosave that cannot be written is said, and tried
again; every value read back from the settings is checked, a bad one replaced by its
default with a note; a start that died opening its session clears every setting it read."""

import errno
import json
import os
from pathlib import Path

import pytest
from PySide6.QtCore import QByteArray, QSettings
from PySide6.QtWidgets import QFileDialog, QMessageBox

from sandbox.files.presets import BUILTIN_DIR, user_dir
from sandbox.physics.models import arcade
from sandbox.ui import app as app_module
from sandbox.ui import file_actions
from sandbox.ui.app import DEFAULT_PX_PER_METRE, MainWindow
from sandbox.ui.window_memory import OPENING, settings

DEFAULT_POWER = next(p.default for p in arcade.PARAMS if p.name == "engine_power")


def message_boxes(window) -> list[str]:
    return [box.text() for box in window.findChildren(QMessageBox)]


def start(qtbot, remember=True) -> MainWindow:
    window = MainWindow(remember=remember)
    qtbot.addWidget(window)
    return window


def ask_for(monkeypatch, answer: str = "") -> list[str]:
    """The save dialog answers `answer`; returns the folders it was opened in."""
    opened = []

    def dialog(parent, title, start, pattern):
        opened.append(start)
        return answer, pattern

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(dialog))
    return opened


# --- Save and Save As ---------------------------------------------------------------
def test_save_as_with_a_data_folder_under_a_file_says_so_and_offers_another_folder(window, monkeypatch, tmp_path):
    """A real failure even for root: the data folder's parent is a file."""
    blocker = tmp_path / "data"
    blocker.write_text("a file where the data folder should be")
    monkeypatch.setenv("CAR_SANDBOX_HOME", str(blocker))
    opened = ask_for(monkeypatch)
    window.panel.sliders["engine_power"].setValue(1500)
    window.files.save_as_dialog()
    assert any(f"{blocker} is a file, not a folder" in text for text in message_boxes(window))
    assert opened and Path(opened[0]).parent.is_dir()  # the dialog still opens, somewhere it can save
    assert window.tuning["engine_power"] == 1500  # nothing lost


def test_save_as_without_permission_for_the_data_folder_says_so(window, monkeypatch, tmp_path):
    """Simulated (the tests may run as root, whom permission bits do not stop)."""

    def refused(self, *args, **kwargs):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(self))

    monkeypatch.setattr(Path, "mkdir", refused)
    ask_for(monkeypatch)
    window.files.save_as_dialog()
    assert any(
        f"cannot make the folder {user_dir()}: no permission to write in {tmp_path}" in text
        for text in message_boxes(window)
    )


def test_saving_into_a_folder_under_a_file_names_the_file_not_a_missing_folder(window, tmp_path):
    (tmp_path / "data").write_text("")
    window.panel.sliders["engine_power"].setValue(1500)
    assert not window.files.save_preset_to(tmp_path / "data" / "presets" / "mine.json", name="mine")
    assert window.last_error and "does not exist" not in window.last_error
    assert f"{tmp_path / 'data'} is a file, not a folder" in window.last_error
    assert window.preset.path is None or window.preset.path.name != "mine.json"
    assert window.tuning["engine_power"] == 1500


def test_an_unforeseen_error_of_the_system_while_saving_is_shown_not_lost(window, monkeypatch, tmp_path):
    def broken(preset, path):
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(file_actions, "save_preset", broken)
    assert not window.files.save_preset_to(tmp_path / "mine.json", name="mine")
    assert f"{tmp_path / 'mine.json'}: cannot write (Input/output error)" in window.last_error
    assert any("Input/output error" in text for text in message_boxes(window))


# --- autosave -----------------------------------------------------------------------
def test_an_autosave_that_cannot_be_written_is_said_until_it_works_again(qtbot, tmp_path):
    blocker = tmp_path / "config"
    blocker.write_text("a file where the config folder should be")
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(blocker / "settings"))
    window = start(qtbot)
    window.panel.sliders["engine_power"].setValue(1500)
    window.memory.autosave()
    marker = window.findChild(type(window.status), "unsaved_marker")
    assert marker is not None and marker.isVisibleTo(window)
    message = window.statusBar().currentMessage()
    assert "cannot be autosaved" in message and f"{blocker} is a file, not a folder" in message
    assert window.memory.timer.isActive()  # it keeps trying
    window.statusBar().clearMessage()
    window.memory.autosave()
    assert window.statusBar().currentMessage() == ""  # said once, the marker stays
    assert marker.isVisibleTo(window)

    blocker.unlink()  # the folder can be written again
    window.memory.autosave()
    assert not marker.isVisibleTo(window)
    assert "1500" in settings().value("preset/tuning")


def test_without_a_home_folder_the_autosave_says_why(qtbot, tmp_path, monkeypatch):
    """Without HOME, Qt keeps the settings in /.config: a folder a user cannot write
    (here a file stands in the way, as the tests may run as root)."""
    monkeypatch.delenv("HOME")
    (tmp_path / "root").write_text("")
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "root" / ".config"))
    window = start(qtbot)
    window.memory.autosave()
    assert "cannot be autosaved" in window.statusBar().currentMessage()
    assert "no home folder is set (HOME)" in window.statusBar().currentMessage()


# --- every value read back is checked -------------------------------------------
BAD = {
    "view/px_per_metre": "nan",
    "view/zoom": "1e308",
    "window/geometry": "not a geometry",
    "window/state": QByteArray(b"\x00\x00\x00\xffjunk"),
    "preset/last_path": ["a", "list"],
    "panel/sections/arcade": "[" * 100000,
    "godot/version": "99999999999999999999",
    "godot/scene": "perhaps",
}


def test_damaged_settings_start_with_their_defaults_and_a_note(qtbot):
    store = settings()
    for key, value in BAD.items():
        store.setValue(key, value)
    store.sync()
    window = start(qtbot)
    with qtbot.waitExposed(window):
        window.show()
    assert window.px_per_metre == DEFAULT_PX_PER_METRE and 0.1 <= window.track.zoom <= 8
    assert window.preset.name == "Recipe defaults"
    note = window.statusBar().currentMessage()
    for key in (
        "view/px_per_metre",
        "view/zoom",
        "window/geometry",
        "window/state",
        "preset/last_path",
        "panel/sections/arcade",
    ):
        assert key in note
    assert window.godot.choice() == (4, False)
    assert "godot/version" in window.statusBar().currentMessage()
    for key in BAD:
        assert not settings().contains(key), key  # replaced: said once
    window.close()


def test_a_damaged_autosaved_value_is_replaced_by_its_default_not_the_whole_tuning(qtbot):
    data = json.loads((BUILTIN_DIR / "recipe_defaults.json").read_text())
    data["hz"] = 7
    data["params"].update(steering_angle=1e9, engine_power=1234)
    settings().setValue("preset/tuning", json.dumps(data))
    window = start(qtbot)
    assert window.tuning["engine_power"] == 1234  # the good values come back
    assert window.tuning["steering_angle"] == 15 and window.sim.hz == 60
    note = window.statusBar().currentMessage()
    assert "steering_angle" in note and "'hz'" in note


def test_numbers_for_qt_must_fit_a_c_int():
    from sandbox.ui.window_memory import checked_setting, take_setting_notes

    settings().setValue("some/count", str(2**31))
    assert checked_setting("some/count", 3) == 3
    settings().setValue("some/count", str(2**31 - 1))
    assert checked_setting("some/count", 3) == 2**31 - 1
    settings().setValue("some/count", "-1")
    assert checked_setting("some/count", 3, low=0, high=10) == 3
    assert "some/count" in take_setting_notes()


# --- the crash-loop guard --------------------------------------------------------
def test_a_start_that_died_opening_is_followed_by_one_that_opens_on_defaults(qtbot, monkeypatch):
    """A setting the window cannot open with (poisoned here with monkeypatch: every
    real one found is now checked): the first start fails; the second clears every
    setting a start reads, opens on the defaults and says so."""
    store = settings()
    store.setValue("preset/last_path", str(BUILTIN_DIR / "rigid_body_road.json"))  # in metres: the scale applies
    store.setValue("view/px_per_metre", 40.0)  # a good value, which this window cannot show
    store.setValue("panel/sections/rigid_body", '{"Engine": false}')
    store.setValue("godot/version", 3)  # read only by a dialog: kept
    store.sync()
    real = app_module.TrackView.set_units

    def poisoned(view, unit, scale):
        if scale == 40.0:
            raise RuntimeError("cannot draw at 40 px/m")
        real(view, unit, scale)

    monkeypatch.setattr(app_module.TrackView, "set_units", poisoned)
    with pytest.raises(RuntimeError):
        start(qtbot)
    assert settings().value(OPENING)

    again = start(qtbot)  # the start after it opens
    assert again.px_per_metre == DEFAULT_PX_PER_METRE
    assert "could not be shown" in again.statusBar().currentMessage()
    assert not settings().contains("panel/sections/rigid_body") and not settings().contains("view/px_per_metre")
    assert settings().value("godot/version") in (3, "3")
    again.open_preset_file(BUILTIN_DIR / "rigid_body_road.json")  # the model in metres draws at the default scale
    assert again.model.NAME == "rigid_body"
