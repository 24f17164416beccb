"""The real window, offscreen, driven with pytest-qt. The menus: File's submenus, items
greyed out when they can only fail, exports, the help's list of shortcuts."""

import pytest
from PySide6.QtCore import Qt

from sandbox.files.presets import BUILTIN_DIR
from window_helpers import paused

K = Qt.Key


def test_file_menu_has_import_and_export_submenus(window):
    assert window.export_menu.title() == "&Export" and window.import_menu.title() == "&Import"
    in_file = window.file_menu.actions()
    assert window.export_menu.menuAction() in in_file and window.import_menu.menuAction() in in_file
    exports = [a.text().replace("&", "") for a in window.export_menu.actions() if a.text()]
    assert [t for t in exports if "Godot" in t] == ["Godot script or scene…", "Copy Godot script", "Godot link node…"]
    assert sum("Force curve" in t for t in exports) == 3
    assert [a.text().replace("&", "") for a in window.import_menu.actions()] == ["Godot script (.gd)…"]


def test_export_items_that_can_only_fail_are_greyed_out(window, qtbot):
    """Every model exports to Godot; a sweep exports once one has run."""
    assert not any(a.isEnabled() for a in window.sweep_exports)
    assert "Run a sweep first" in window.sweep_exports[0].statusTip()
    for model in ("bicycle", "monster", "arcade"):
        window.switch_model(model)
        assert all(a.isEnabled() for a in window.godot_exports)
    sweep = window.sweep
    with qtbot.waitSignal(sweep.finished, timeout=600_000):
        sweep.run()
    assert all(a.isEnabled() for a in window.sweep_exports)


def test_exports_are_valid_files(window, tmp_path):
    assert window.files.export_curve(tmp_path / "f.png")
    assert window.files.export_curve(tmp_path / "f.svg")
    assert window.files.export_curve(tmp_path / "f.csv")
    assert (tmp_path / "f.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert b"<svg" in (tmp_path / "f.svg").read_bytes()
    rows = (tmp_path / "f.csv").read_text().splitlines()
    assert rows[0] == "speed,engine,friction,drag,net" and len(rows) > 100
    assert not window.files.export_curve(tmp_path / "f.bmp") and "bmp" in window.last_error


def test_pyqtgraph_context_menu_export_works_on_the_curve(window, tmp_path):
    """The plot's right-click Export… runs pyqtgraph's exporters on this item."""
    import pyqtgraph.exporters as ex

    assert window.curves.getPlotItem().menuEnabled()
    ex.CSVExporter(window.curves.getPlotItem()).export(str(tmp_path / "menu.csv"))
    lines = (tmp_path / "menu.csv").read_text().splitlines()
    assert len(lines) == 1 + 241  # header, then one row per curve point
    first = [float(v) for v in lines[1].replace("\t", ",").split(",") if v.strip()]
    assert first[:2] == [0.0, 900.0]  # engine curve at speed 0: engine_power


def test_file_export_writes_the_live_plots_as_picture_and_figures(window, tmp_path):
    """File → Export has the live plots, not only through their right-click menu."""
    import csv

    from sandbox.files.disk import png_complete

    texts = [a.text() for a in window.export_menu.actions()]
    assert {"Live plots as PNG image…", "Live plots as SVG drawing…", "Live plots as CSV data…"} <= set(texts)
    paused(window)
    window.compare.pin()
    window.keys.held |= {K.Key_W}
    window.run_for(0.25)
    window.run_for(0.25)
    assert window.files.export_plots(tmp_path / "plots.csv")
    rows = list(csv.reader((tmp_path / "plots.csv").open()))
    header, body = rows[0], rows[1:]
    assert header[:3] == ["time [s]", "speed [px/s]", "slip angle [deg]"]
    assert any(name.endswith(": speed [px/s]") for name in header)  # the ghost's curve
    assert len(body) == 30  # 0.5 s at 60 Hz, one row a tick
    assert float(body[1][0]) - float(body[0][0]) == pytest.approx(1 / 60)
    assert float(body[-1][1]) == pytest.approx(float(window.sim.state.speed[0]))
    assert window.files.export_plots(tmp_path / "plots.png") and png_complete((tmp_path / "plots.png").read_bytes())
    assert window.files.export_plots(tmp_path / "plots.svg") and "<svg" in (tmp_path / "plots.svg").read_text()
    assert not window.files.export_plots(tmp_path / "plots.txt")  # refused, naming the types it takes
    assert ".png, .svg or .csv" in window.last_error


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
