"""The window on a small screen: it opens no larger than the screen, a size saved on
a larger one is brought inside it, and at 1024×640 every slider has a usable length,
every label and number box is whole and the Tune tables show their value boxes.
Sliders drag ten times slower with Shift, and a clicked number box takes the wheel."""

import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, QRect, Qt
from PySide6.QtGui import QFontMetrics, QMouseEvent, QWheelEvent
from PySide6.QtWidgets import QApplication

from sandbox.files.presets import BUILTIN_DIR, load_preset
from sandbox.ui import screen_fit
from sandbox.ui.param_row import COARSE_WHEEL, SLIDER_MIN_PX, SLOW_DRAG
from sandbox.ui.screen_fit import TITLE_BAR_PX

SMALL_SCREEN = QRect(0, 0, 1024, 640)
PRESETS = [
    "recipe_defaults.json",
    "bicycle_drift_illusion.json",
    "ackermann_van.json",
    "rigid_body_seed.json",
    "monster_corvette_c5.json",
]


def _fits(rect: QRect, area: QRect) -> bool:
    return (
        rect.width() <= area.width() and rect.height() <= area.height() - TITLE_BAR_PX and area.contains(rect.topLeft())
    )


def test_the_window_opens_no_larger_than_a_small_screen(qtbot, monkeypatch):
    from sandbox.ui.app import MainWindow

    monkeypatch.setattr(screen_fit, "available_area", lambda widget: SMALL_SCREEN)
    window = MainWindow(remember=False)
    qtbot.addWidget(window)
    assert _fits(window.geometry(), SMALL_SCREEN), window.geometry()


def test_the_window_opens_at_its_preferred_size_where_there_is_room(window):
    assert window.size() == screen_fit.PREFERRED_SIZE  # the tests' screen is 1920×1080


def test_a_size_saved_on_a_larger_screen_is_brought_inside_a_small_one(qtbot, monkeypatch):
    from sandbox.ui.app import MainWindow

    big = MainWindow()
    qtbot.addWidget(big)
    with qtbot.waitExposed(big):
        big.show()
    big.setGeometry(300, 200, 1600, 900)
    big.close()  # saves its geometry
    monkeypatch.setattr(screen_fit, "available_area", lambda widget: SMALL_SCREEN)
    window = MainWindow()
    qtbot.addWidget(window)
    assert _fits(window.geometry(), SMALL_SCREEN), window.geometry()


@pytest.mark.parametrize("preset", PRESETS)
def test_at_1024x640_every_slider_is_long_enough_and_its_label_and_number_whole(small, preset):
    small.apply_preset(load_preset(BUILTIN_DIR / preset))
    small.show_tab("tuning")
    panel = small.panel
    for section in panel.sections.values():
        section.header.setChecked(True)
    QApplication.processEvents()
    viewport = panel.scroll.viewport()
    assert not panel.scroll.horizontalScrollBar().isVisible()  # nothing hidden off to the side
    for name, row in panel.sliders.items():
        assert row.slider.width() >= SLIDER_MIN_PX, name
        box = row.number
        assert box.isVisible() and box.width() > 0, name
        left = box.mapTo(viewport, QPoint(0, 0)).x()
        assert 0 <= left and left + box.width() <= viewport.width(), f"{name}: number box clipped"
        assert QFontMetrics(box.font()).horizontalAdvance(box.text()) <= box.width() - 6, name
        label = panel.labels[name]
        assert label.text() == label.full, name
        assert QFontMetrics(label.font()).horizontalAdvance(label.full) <= label.width(), f"{name}: label cut"


def test_at_1024x640_the_tune_tables_show_value_boxes(small):
    small.apply_preset(load_preset(BUILTIN_DIR / "monster_corvette_c5.json"))
    small.show_tab("tune")
    QApplication.processEvents()
    tune = small.tune
    for table, rows in ((tune.targets, tune.target_rows), (tune.params, tune.param_rows)):
        viewport = table.viewport()
        shown = 0
        for _, *boxes in rows.values():
            inside = [
                box.isVisible() and viewport.rect().contains(QRect(box.mapTo(viewport, QPoint(0, 0)), box.size()))
                for box in boxes
            ]
            shown += all(inside)
        assert shown >= 2, f"{table.horizontalHeaderItem(1).text()}: {shown} rows of value boxes in view"


def _drag(widget, start: QPoint, moves: list[tuple[int, bool]]) -> None:
    """Press at `start`, move by each (dx, shift held) in turn, release."""
    widget.mousePressEvent  # noqa: B018 (a real widget)
    QApplication.sendEvent(
        widget,
        QMouseEvent(
            QEvent.Type.MouseButtonPress,
            QPointF(start),
            QPointF(start),
            Qt.MouseButton.LeftButton,
            Qt.MouseButton.LeftButton,
            Qt.KeyboardModifier.NoModifier,
        ),
    )
    x = start.x()
    for dx, shift in moves:
        x += dx
        modifiers = Qt.KeyboardModifier.ShiftModifier if shift else Qt.KeyboardModifier.NoModifier
        point = QPointF(x, start.y())
        QApplication.sendEvent(
            widget,
            QMouseEvent(
                QEvent.Type.MouseMove, point, point, Qt.MouseButton.NoButton, Qt.MouseButton.LeftButton, modifiers
            ),
        )
    point = QPointF(x, start.y())
    QApplication.sendEvent(
        widget,
        QMouseEvent(
            QEvent.Type.MouseButtonRelease,
            point,
            point,
            Qt.MouseButton.LeftButton,
            Qt.MouseButton.NoButton,
            Qt.KeyboardModifier.NoModifier,
        ),
    )


def _handle_centre(row) -> QPoint:
    from PySide6.QtWidgets import QStyle, QStyleOptionSlider

    option = QStyleOptionSlider()
    row.slider.initStyleOption(option)
    return (
        row.slider.style()
        .subControlRect(QStyle.ComplexControl.CC_Slider, option, QStyle.SubControl.SC_SliderHandle, row.slider)
        .center()
    )


def test_shift_while_dragging_moves_the_slider_ten_times_slower(small):
    small.apply_preset(load_preset(BUILTIN_DIR / "monster_corvette_c5.json"))
    row = small.panel.sliders["mass"]
    start = row.slider.sliderPosition()
    _drag(row.slider, _handle_centre(row), [(40, False)])
    fast = row.slider.sliderPosition() - start
    assert fast > 0 and small.tuning["mass"] > 1500
    start, mass = row.slider.sliderPosition(), small.tuning["mass"]
    _drag(row.slider, _handle_centre(row), [(40, True)])
    slow = row.slider.sliderPosition() - start
    assert slow == pytest.approx(fast / SLOW_DRAG, abs=1)
    assert 0 < small.tuning["mass"] - mass <= 10 * (fast / SLOW_DRAG + 1)  # a few steps of 10 kg
    start = row.slider.sliderPosition()  # Shift let go mid-drag: no jump, full speed from there
    _drag(row.slider, _handle_centre(row), [(40, True), (40, False)])
    assert row.slider.sliderPosition() - start == pytest.approx(fast + fast / SLOW_DRAG, abs=2)


def _wheel(widget, notches: int, modifiers=Qt.KeyboardModifier.NoModifier) -> None:
    centre = QPointF(widget.rect().center())
    QApplication.sendEvent(
        widget,
        QWheelEvent(
            centre,
            widget.mapToGlobal(centre),
            QPoint(),
            QPoint(0, 120 * notches),
            Qt.MouseButton.NoButton,
            modifiers,
            Qt.ScrollPhase.NoScrollPhase,
            False,
        ),
    )


def test_the_wheel_on_a_clicked_number_box_steps_the_value(small, qtbot):
    row = small.panel.sliders["engine_power"]  # the recipe: 900, step 10
    step = row.param.step
    before = small.tuning["engine_power"]
    _wheel(row.number, 1)  # not clicked: the panel scrolls, the value stays
    assert small.tuning["engine_power"] == before
    qtbot.mouseClick(row.number, Qt.MouseButton.LeftButton)
    assert row.number.hasFocus()
    _wheel(row.number, 1)
    assert small.tuning["engine_power"] == before + step and row.number.text() == f"{before + step:g}"
    _wheel(row.number, -3)
    assert small.tuning["engine_power"] == before - 2 * step
    _wheel(row.number, 1, Qt.KeyboardModifier.ControlModifier)
    assert small.tuning["engine_power"] == before + (COARSE_WHEEL - 2) * step
    small.undo.undo()  # each notch one step back
    assert small.tuning["engine_power"] == before - 2 * step
