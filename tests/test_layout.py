"""The window's layout at the smallest size we support, 1024×640: the car gets the
room, every plot keeps a usable size, Tab clears the screen for the car, and no text
is cut off without saying so."""

import pytest
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QApplication, QLabel, QScrollArea

from sandbox.files.presets import BUILTIN_DIR, load_preset
from sandbox.ui.panels import PANEL_MIN


def test_the_car_view_gets_most_of_the_window(small):
    view = small.track
    assert view.width() >= 0.6 * small.width() and view.height() >= 0.5 * small.height()
    assert small.panels.panel_dock.width() >= PANEL_MIN


def test_each_live_plot_and_the_force_curve_keep_a_usable_height(small):
    for plot in small.plots.plots:
        assert plot.getViewBox().height() >= 25, "a live plot squeezed flat"
    assert small.curves.getPlotItem().getViewBox().height() >= 60
    assert small.panels.plots_dock.height() >= 0.25 * small.height()  # about a third


def test_the_sweep_heatmap_is_at_least_150_px_tall(small, qtbot):
    small.show_tab("sweep")
    assert small.sweep.image.isVisible()
    assert small.sweep.plot.height() >= 150
    assert small.sweep.here_point.isVisible()  # the current tuning marked
    scroll = small.sweep.findChild(QScrollArea)  # its controls fit the panel's width: nothing cut off
    assert scroll.widget().minimumSizeHint().width() <= scroll.viewport().width()


def test_tab_gives_the_car_view_the_whole_window_and_brings_the_panels_back(small, qtbot):
    small.panels.toggle()
    QApplication.processEvents()
    assert not any(dock.isVisible() for dock in small.panels.docks())
    assert small.track.width() == small.width()
    small.panels.toggle()
    QApplication.processEvents()
    assert all(dock.isVisible() for dock in (small.panels.panel_dock, small.panels.plots_dock))


def test_reset_layout_brings_back_a_closed_panel(small):
    small.panels.plots_dock.close()
    small.panels.reset_layout()
    QApplication.processEvents()
    assert small.panels.plots_dock.isVisible() and small.track.width() >= 0.6 * small.width()


def _cut_labels(window) -> list[str]:
    """Visible labels whose text does not fit: one-line labels wider than their text,
    wrapping ones (a parameter's name) shorter than their lines."""
    cut = []
    for label in window.findChildren(QLabel):
        if not label.isVisible() or not label.text():
            continue
        if label.wordWrap():
            if label.heightForWidth(label.width()) > label.height() + 1:
                cut.append(label.text())
            continue
        if label.objectName() == "plot_readout":  # one long line that scrolls out: checked below
            continue
        if label.minimumSizeHint().width() > label.width() + 1:
            cut.append(label.text())
    return cut


@pytest.mark.parametrize("preset", ["recipe_defaults.json", "monster_corvette_c5.json", "rigid_body_seed.json"])
def test_no_label_or_title_is_wider_than_its_widget(small, preset):
    small.apply_preset(load_preset(BUILTIN_DIR / preset))
    QApplication.processEvents()
    for tab in ("tuning", "metrics", "sweep"):
        small.show_tab(tab)
        QApplication.processEvents()
        assert _cut_labels(small) == [], tab
    small.curves.settle()
    title = small.curves.getPlotItem().titleLabel
    shown = QFontMetrics(small.curves.font()).horizontalAdvance(title.text)
    assert shown <= small.curves.width()
    assert small.curves.toolTip() == small.curves.full_title
    for side, plot in zip(small.plots.sides, small.plots.plots):  # names and units left of the live plots
        text = side.item.mapRectToScene(side.item.boundingRect())
        assert text.left() >= 0 and text.right() <= plot.sceneBoundingRect().left() + 1
    for slider in small.panel.sliders.values():  # every value fits its number box
        box = slider.number
        assert QFontMetrics(box.font()).horizontalAdvance(box.text()) <= box.width() - 6, slider.param.name
