"""The real window, offscreen, driven with pytest-qt. The link node from the window:
File → Export → Godot link node for the script the sandbox exports or for the user's
own car script, and the export dialog's scene with the link node in it; each file the
one `car-sandbox export-godot` writes for the same choice, and a script the import
cannot read refused with nothing written."""

import pytest
from PySide6.QtWidgets import QFileDialog, QMessageBox

from dialogs import answer
from sandbox.cli import main
from sandbox.devtools.oracle import PROJECT
from sandbox.files.godot import DEFAULT_PX_PER_METRE
from sandbox.files.presets import BUILTIN_DIR

RECIPE = (PROJECT / "recipe_car.gd").read_text(encoding="utf-8")
"""The recipe's own car.gd: a script the sandbox did not write (no SANDBOX_MODEL)."""
Button = QMessageBox.StandardButton


@pytest.fixture
def dialogs(monkeypatch):
    """The file dialogs answered as a user would: `opened` the script chosen, `saved`
    (path, file type) the save dialog's answer; `asked` lists the save dialogs shown."""

    class Answers:
        opened = ""
        saved = ("", "")
        asked: list = []

    answers = Answers()
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (answers.opened, ""))

    def save(parent, title, start, types, *rest, **options):
        answers.asked.append((title, start, types))
        return answers.saved

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save)
    return answers


def test_the_link_node_for_my_own_script_is_the_commands(window, tmp_path, monkeypatch, dialogs):
    """My own car script…: the node the window writes is byte for byte the one
    `export-godot --link --for-script car.gd` writes, for the Godot version of the file type."""
    script = tmp_path / "car.gd"
    script.write_text(RECIPE, encoding="utf-8")
    dialogs.opened = str(script)
    dialogs.saved = (str(tmp_path / "window_link.gd"), "Godot 3 link node (*.gd)")
    asked = []
    answer(Button.No, asked)  # "My own car script…"
    window.godot.export_link_dialog()
    assert asked == ["Which car script is the link node for?"]
    assert dialogs.asked[0][1].endswith("car_link.gd")  # named after the script
    monkeypatch.chdir(tmp_path)
    assert main(["export-godot", "--link", "--for-script", "car.gd", "--godot", "3", "--out", "cli_link.gd"]) == 0
    written = (tmp_path / "window_link.gd").read_text(encoding="utf-8")
    assert written == (tmp_path / "cli_link.gd").read_text(encoding="utf-8")
    assert "export var token" in written and "car.gd" in written  # Godot 3's node, made for that script
    message = window.statusBar().currentMessage()
    assert "car.gd" in message and "rate_independent, analog_pedals" in message  # what the script lacks


def test_the_link_node_for_the_exported_script_is_the_commands(window, tmp_path, dialogs):
    window.open_preset_file(BUILTIN_DIR / "drift.json")
    dialogs.saved = (str(tmp_path / "window_link.gd"), "Godot 4 link node (*.gd)")
    answer(Button.Yes, [])  # "The sandbox's … script"
    window.godot.export_link_dialog()
    assert dialogs.asked[0][1].endswith("sandbox_link.gd")
    assert main(["export-godot", "--link", "--preset", "drift", "--godot", "4", "--out", str(tmp_path / "cli.gd")]) == 0
    written = (tmp_path / "window_link.gd").read_text(encoding="utf-8")
    assert written == (tmp_path / "cli.gd").read_text(encoding="utf-8") and "@export var token" in written


@pytest.mark.parametrize(
    "text, says",
    [
        ("extends Node\nfunc _ready():\n\tpass\n", "no parameter of the arcade model"),
        (RECIPE.replace("var engine_power = 900", "var engine_power = BASE * 2"), "engine_power"),
        (None, "car.gd"),  # no such file
    ],
)
def test_a_script_the_import_cannot_read_is_refused_and_nothing_is_written(window, tmp_path, dialogs, text, says):
    script = tmp_path / "car.gd"
    if text is not None:
        script.write_text(text, encoding="utf-8")
    dialogs.opened = str(script)
    dialogs.saved = (str(tmp_path / "link.gd"), "Godot 4 link node (*.gd)")
    answer(Button.No, [])
    window.last_error = ""
    window.godot.export_link_dialog()
    assert says in window.last_error
    assert dialogs.asked == []  # refused before the save dialog
    assert not window.godot.export_link(tmp_path / "link.gd", 4, script)  # and refused when asked directly
    assert sorted(p.name for p in tmp_path.iterdir()) == (["car.gd"] if text is not None else [])


def test_the_scene_with_the_link_node_is_what_export_godot_with_link_writes(window, tmp_path, qtbot, dialogs):
    window.open_preset_file(BUILTIN_DIR / "monster_corvette_c5.json")
    dialog = window.godot_export_dialog()
    qtbot.addWidget(dialog)
    dialog.version.setCurrentIndex(1)  # Godot 3
    dialog.scale.setValue(DEFAULT_PX_PER_METRE)
    assert not dialog.with_link.isEnabled()  # a script alone has no scene to put it in
    dialog.as_scene.setChecked(True)
    assert dialog.with_link.isEnabled() and not dialog.with_link.isChecked()
    dialog.with_link.setChecked(True)
    assert "link node" in dialog.note.text()
    (tmp_path / "window").mkdir()
    dialogs.saved = (str(tmp_path / "window" / "corvette.tscn"), "")
    dialog.save_button.click()
    out = tmp_path / "cli" / "corvette.tscn"
    out.parent.mkdir()
    args = ["export-godot", "--preset", "monster_corvette_c5", "--scene", "--with-link", "--godot", "3"]
    assert main([*args, "--out", str(out)]) == 0
    names = ["corvette.gd", "corvette.tscn", "corvette_link.gd"]
    assert sorted(p.name for p in (tmp_path / "window").iterdir()) == names
    for name in names:
        window_text = (tmp_path / "window" / name).read_text(encoding="utf-8")
        assert window_text == (tmp_path / "cli" / name).read_text(encoding="utf-8"), name
    assert 'name="SandboxLink"' in (tmp_path / "window" / "corvette.tscn").read_text(encoding="utf-8")
    assert "corvette_link.gd" in window.statusBar().currentMessage()


def test_a_script_alone_leaves_the_link_node_out(window, tmp_path, qtbot):
    dialog = window.godot_export_dialog()
    qtbot.addWidget(dialog)
    dialog.as_scene.setChecked(True)
    dialog.with_link.setChecked(True)
    dialog.as_script.setChecked(True)  # the box is kept, greyed out, and means nothing now
    assert dialog.save(tmp_path / "car.gd") == [tmp_path / "car.gd"]
    assert [p.name for p in tmp_path.iterdir()] == ["car.gd"]
