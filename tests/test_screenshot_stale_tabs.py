"""A screenshot is drawn without the event loop running (the screenshot command), so
what Qt let go of must be deleted first: the dock layout lets go of a copy of the
bottom panels' tab strip, which would be drawn stale across the window."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QTabBar


def strips(window) -> list[list[str]]:
    bars = window.findChildren(QTabBar, options=Qt.FindChildOption.FindDirectChildrenOnly)
    return [[bar.tabText(k) for k in range(bar.count())] for bar in bars]


def test_a_screenshot_draws_one_tab_strip_for_each_group_of_panels(qtbot, tmp_path):
    from sandbox.ui.app import MainWindow

    window = MainWindow(remember=False)
    qtbot.addWidget(window)
    window.resize(1400, 900)
    window.show()
    QApplication.processEvents()  # as the screenshot command runs: no event loop
    assert ["Plots", "What changes what"] in strips(window)  # the copy Qt let go of, not yet deleted
    window.save_screenshot(tmp_path / "window.png")
    assert sorted(strips(window)) == [
        ["Plots", "What changes what", "Laps", "Tyres", "g-g"],
        ["Tuning", "Metrics", "Sweep", "Tune", "Link"],
    ]
    assert (tmp_path / "window.png").stat().st_size > 0
