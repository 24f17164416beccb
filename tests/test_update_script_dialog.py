"""File → Export → Update my script…, driven offscreen: the change shown as a coloured
diff, Write (with its backup), Cancel, and a refused script."""

from pathlib import Path

from PySide6.QtGui import QColor

from sandbox.ui.godot_into_dialog import DIFF_COLOURS

DEMO = Path(__file__).parent / "data" / "godot_scripts" / "recipe_demo_godot4.gd"
OLD_RECIPE = Path(__file__).parent / "data" / "godot_scripts" / "recipe_2020_godot3.gd"


def _script(tmp_path, source: Path = DEMO) -> Path:
    path = tmp_path / "car.gd"
    path.write_bytes(source.read_bytes())
    return path


def _line_colour(dialog, text: str) -> QColor:
    """The text colour the highlighter gave the diff line `text`."""
    block = dialog.diff.document().begin()
    while block.isValid() and block.text() != text:
        block = block.next()
    assert block.isValid(), text
    formats = block.layout().formats()
    assert formats and formats[0].start == 0 and formats[0].length == len(text)
    return formats[0].format.foreground().color()


def test_the_menu_offers_it(window):
    texts = [action.text().replace("&", "") for action in window.export_menu.actions()]
    assert "Update my script…" in texts


def test_the_dialog_shows_the_changed_values_and_write_keeps_a_backup(window, tmp_path, qtbot):
    window.panel.sliders["engine_power"].setValue(1250)  # the rest at the recipe's values, as in the script
    path = _script(tmp_path)
    dialog = window.update_script(path)
    qtbot.addWidget(dialog)
    lines = dialog.diff.toPlainText().split("\n")
    removed, added = (
        "-var engine_power = 900  # Forward acceleration force.",
        "+var engine_power = 1250  # Forward acceleration force.",
    )
    assert removed in lines and added in lines
    assert [line for line in lines if line[:1] in "+-" and not line.startswith(("---", "+++"))] == [removed, added]
    assert _line_colour(dialog, removed) == QColor(DIFF_COLOURS["-"][0])
    assert _line_colour(dialog, added) == QColor(DIFF_COLOURS["+"][0])
    assert dialog.summary.text().startswith("1 value change in ")
    assert "rate_independent" not in dialog.missing.text()  # a switch the script lacks is its code's
    assert dialog.backup.isChecked()
    dialog.write_button.click()
    assert dialog.written and dialog.result() == dialog.DialogCode.Accepted
    assert path.read_text() == DEMO.read_text().replace("var engine_power = 900", "var engine_power = 1250")
    assert (tmp_path / "car.gd.bak").read_bytes() == DEMO.read_bytes()


def test_without_the_backup_ticked_none_is_kept(window, tmp_path, qtbot):
    window.panel.sliders["drag"].setValue(-0.08)
    path = _script(tmp_path)
    dialog = window.update_script(path)
    qtbot.addWidget(dialog)
    dialog.backup.setChecked(False)
    dialog.write_button.click()
    assert "var drag = -0.08\n" in path.read_text() and not (tmp_path / "car.gd.bak").exists()


def test_cancel_writes_nothing(window, tmp_path, qtbot):
    window.panel.sliders["engine_power"].setValue(1250)
    path = _script(tmp_path)
    dialog = window.update_script(path)
    qtbot.addWidget(dialog)
    dialog.buttons.rejected.emit()
    assert not dialog.written and path.read_bytes() == DEMO.read_bytes()
    assert not (tmp_path / "car.gd.bak").exists()


def test_a_script_changed_on_disk_after_it_was_shown_is_not_written(window, tmp_path, qtbot):
    window.panel.sliders["engine_power"].setValue(1250)
    path = _script(tmp_path)
    dialog = window.update_script(path)
    qtbot.addWidget(dialog)
    path.write_text(DEMO.read_text() + "# edited meanwhile\n")
    dialog.write_button.click()
    assert not dialog.written and "changed on disk since it was read" in dialog.note.text()
    assert path.read_text().endswith("# edited meanwhile\n") and not (tmp_path / "car.gd.bak").exists()


def test_a_refused_script_says_why_and_is_left_as_it_was(window, tmp_path):
    path = _script(tmp_path, OLD_RECIPE)
    assert window.update_script(path) is None
    assert "the script follows the 2020 recipe" in window.last_error and "nothing was written" in window.last_error
    assert path.read_bytes() == OLD_RECIPE.read_bytes() and not (tmp_path / "car.gd.bak").exists()


def test_a_read_only_script_is_said_before_write_and_left_as_it_was(window, tmp_path, qtbot):
    window.panel.sliders["engine_power"].setValue(1250)
    path = _script(tmp_path)
    path.chmod(0o444)
    try:
        dialog = window.update_script(path)
        qtbot.addWidget(dialog)
        assert not dialog.write_button.isEnabled()
        assert "is read-only" in dialog.note.text() and "-r--r--r--" in dialog.note.text()
        assert not dialog.write() and "is read-only" in dialog.note.text()  # Write, were it pressed
        assert path.read_bytes() == DEMO.read_bytes() and not (tmp_path / "car.gd.bak").exists()
    finally:
        path.chmod(0o644)


def test_a_second_update_keeps_the_first_backup_and_the_box_names_the_next(window, tmp_path, qtbot):
    path = _script(tmp_path)
    window.panel.sliders["engine_power"].setValue(1250)
    first = window.update_script(path)
    qtbot.addWidget(first)
    first.write_button.click()
    window.panel.sliders["engine_power"].setValue(1500)
    second = window.update_script(path)
    qtbot.addWidget(second)
    assert "car.gd.bak2" in second.backup.text()
    second.write_button.click()
    assert (tmp_path / "car.gd.bak").read_bytes() == DEMO.read_bytes()
    assert "var engine_power = 1250" in (tmp_path / "car.gd.bak2").read_text()


def test_a_value_off_its_step_is_shown_rounded_and_named(window, tmp_path, qtbot):
    """A fit's wheel base, 74.9747302957341 px (step 1): the diff shows 75, and the box
    names the value it rounded."""
    window.panel.set_values({"wheel_base": 74.9747302957341}, "Fit")
    assert window.tuning["wheel_base"] == 74.9747302957341
    dialog = window.update_script(_script(tmp_path))
    qtbot.addWidget(dialog)
    assert "+var wheel_base = 75  # Distance from front to rear wheel" in dialog.diff.toPlainText().split("\n")
    assert dialog.notes.isVisibleTo(dialog) and "wheel_base 74.9747302957341 as 75 (step 1)" in dialog.notes.text()
