"""The real window, offscreen: its docks are the rows of one table (`DOCKS` in
sandbox/ui/docks.py), each with its title, object name, place and tab group and an
item in the View menu; a new view is one more row."""

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QDockWidget, QLabel, QMenu

from sandbox.ui import panels
from sandbox.ui.docks import DOCKS, Dock

SAVED_NAMES = {
    "tuning_dock",
    "plots_dock",
    "sensitivity_dock",
    "recording_dock",
    "metrics_dock",
    "sweep_dock",
    "tune_dock",
    "link_dock",
}
"""The object names earlier versions saved the window's layout under (QSettings
"window/state"): a layout the user arranged restores only onto docks of these names."""


def docks_of(window) -> dict[str, QDockWidget]:
    return {dock.objectName(): dock for dock in window.findChildren(QDockWidget)}


def view_menu_docks(window) -> list[str]:
    """The View menu's show-or-hide items of the docks, in order, by dock object name."""
    view = next(menu for menu in window.menuBar().findChildren(QMenu) if menu.title() == "&View")
    by_action = {dock.toggleViewAction(): name for name, dock in docks_of(window).items()}
    return [by_action[action] for action in view.actions() if action in by_action]


def test_the_windows_docks_are_exactly_the_rows_of_the_table(window):
    docks = docks_of(window)
    assert sorted(docks) == sorted(row.name for row in DOCKS)
    assert SAVED_NAMES <= set(docks), f"a saved layout would lose {sorted(SAVED_NAMES - set(docks))}"
    assert view_menu_docks(window) == [row.name for row in DOCKS]
    assert docks["tuning_dock"] is window.panels.panel_dock and docks["link_dock"] is window.panels.link_dock
    assert not docks["recording_dock"].isVisible()  # until a game recording is opened
    for dock in docks.values():
        dock.show()  # a hidden dock is in no tab group
    for row in DOCKS:
        dock = docks[row.name]
        assert dock.windowTitle() == row.title
        assert window.dockWidgetArea(dock) == row.area, row.name
        if row.behind:
            assert docks[row.behind] in window.tabifiedDockWidgets(dock), f"{row.name} is not behind {row.behind}"
        assert dock.toggleViewAction().text() == (row.menu_text or row.title)


def test_a_new_view_is_one_row_of_the_table(qtbot, monkeypatch):
    from sandbox.ui.app import MainWindow

    laps = Dock(
        "Notes",
        "notes_dock",
        lambda _: QLabel("lap times"),
        Qt.DockWidgetArea.BottomDockWidgetArea,
        behind="plots_dock",
        shortcut="Ctrl+Alt+9",
        tip="The lap times",
    )
    monkeypatch.setattr(panels, "DOCKS", (*DOCKS, laps))  # the table the window is built from
    window = MainWindow(remember=False)
    qtbot.addWidget(window)
    with qtbot.waitExposed(window):
        window.show()
    window.curves.settle()
    dock = docks_of(window)["notes_dock"]
    assert dock.widget().text() == "lap times" and dock.windowTitle() == "Notes"
    assert dock in window.tabifiedDockWidgets(window.panels.plots_dock)
    assert view_menu_docks(window) == [row.name for row in DOCKS] + ["notes_dock"]
    show = dock.toggleViewAction()
    assert show.shortcut() == QKeySequence("Ctrl+Alt+9") and show.statusTip() == "The lap times"
    assert any(line.endswith("View → Notes") for line in window.help_text().split("<br>"))
    window.show_tab("notes")
    qtbot.waitUntil(lambda: not dock.visibleRegion().isEmpty())
    window.panels.toggle()  # Tab hides it with every other panel, and brings it back
    assert not dock.isVisible()
    window.panels.toggle()
    qtbot.waitUntil(dock.isVisible)
