"""At 1024×640 every tab of the side dock shows its buttons without scrolling: each
push button whole inside the dock (not under the tab bar, not clipped by a scroll
area), no horizontal scroll bar, and the dock as wide on every tab."""

import os
import subprocess
import sys

import pytest
from PySide6.QtCore import QRect
from PySide6.QtWidgets import QAbstractScrollArea, QApplication, QPushButton

from sandbox.files.presets import BUILTIN_DIR, load_preset


def _side_tabs(window):
    """The docks tabified with the Tuning dock, in the order of their tabs."""
    first = window.panels.panel_dock
    return [first, *window.tabifiedDockWidgets(first)]


def _in_window(widget, window) -> QRect:
    return QRect(widget.mapTo(window, widget.rect().topLeft()), widget.size())


def _hidden_buttons(dock, window) -> list[str]:
    """Shown push buttons of `dock` not wholly in sight: outside the dock, or outside
    the viewport of a scroll area they sit in."""
    shown = _in_window(dock, window).intersected(window.rect())
    hidden = []
    for button in dock.findChildren(QPushButton):
        if not button.isVisible():
            continue
        rect = _in_window(button, window)
        areas = [a.viewport() for a in dock.findChildren(QAbstractScrollArea) if a.viewport().isAncestorOf(button)]
        if not shown.contains(rect) or any(not _in_window(v, window).contains(rect) for v in areas):
            hidden.append(button.text())
    return hidden


@pytest.mark.parametrize("preset", ["recipe_defaults.json", "monster_corvette_c5.json"])
def test_at_1024x640_every_tab_shows_its_buttons_and_keeps_the_dock_width(small, preset):
    small.apply_preset(load_preset(BUILTIN_DIR / preset))
    tabs = _side_tabs(small)
    assert len(tabs) >= 5  # Tuning, Metrics, Sweep, Tune, Link at least
    widths = {}
    for dock in tabs:
        dock.raise_()
        QApplication.processEvents()
        QApplication.processEvents()
        title = dock.windowTitle()
        widths[title] = dock.width()
        assert dock.isVisible(), title
        assert _hidden_buttons(dock, small) == [], title
        bars = [a for a in dock.findChildren(QAbstractScrollArea) if a.horizontalScrollBar().isVisible()]
        assert bars == [], f"{title}: a horizontal scroll bar in {type(bars[0]).__name__}"
    assert len(set(widths.values())) == 1, widths


def test_the_tune_tab_keeps_its_search_buttons_in_sight_while_searching(small, qtbot):
    small.show_tab("tune")  # a search of the first metric run to its end
    QApplication.processEvents()
    tune = small.tune
    assert tune.result is not None and tune.try_button.isEnabled()
    assert _hidden_buttons(small.panels.tune_dock, small) == []
    for button in (tune.run_button, tune.try_button, tune.apply_button, tune.discard_button):
        assert button.isVisible()
    assert tune.status.isVisible() and tune.status.visibleRegion().boundingRect().height() > 0


@pytest.mark.parametrize("size", [(1024, 640), (1440, 900), (1920, 1080)])
def test_the_screenshot_command_pictures_the_link_tab_at_each_size(tmp_path, size):
    """The docs' screenshots of every tab at the three sizes come from this command."""
    out = tmp_path / "link.png"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    args = ["--preset", "drift", "--tab", "link", "--drive", "1", "--size", "{}x{}".format(*size), "--out", str(out)]
    run = subprocess.run([sys.executable, "-m", "sandbox", "screenshot", *args], capture_output=True, text=True,
                         env=env, timeout=600)  # fmt: skip
    assert run.returncode == 0, run.stderr
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert (int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")) == size
