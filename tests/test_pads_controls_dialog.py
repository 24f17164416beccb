"""The Controls dialog in the real window, with virtual controllers attached through the
SDL library the window polls: each axis live, raw and as the car receives it; the
per-axis shaping set in the dialog reaches the car on its next tick, as the formula
written out here says; reset gives Godot's values back; the settings are kept between
runs and a hand-broken one falls back alone; a wheel's axis map changes which axis steers."""

import math

import pytest

import test_pads_window
from sandbox.session.pad_maps import WheelMap
from sandbox.ui.window_memory import settings
from test_pads_window import DEADLINE_S, STICK_X, connected, frame_with_a_tick
from virtual_pads import Virtual, godot_axis

sdl = test_pads_window.sdl  # the SDL the window polls, its virtual devices detached after each test


def shaped(raw: int, dz: float, sat: float = 1.0, exponent: float = 1.0, inverted: bool = False) -> float:
    """The steer the car receives for a 16-bit stick value, written out: inverted, then
    the dead zone … saturation mapped to 0..1 (clamped), then strength ** exponent."""
    v = max(-1.0, min(1.0, raw / 32767))
    v = -v if inverted else v
    if v == 0 or abs(v) < dz:
        return 0.0
    return math.copysign(min(1.0, (abs(v) - dz) / (sat - dz)) ** exponent, v)


def open_dialog(window):
    menu_action = next(
        a
        for a in window.menuBar().findChildren(type(window.dead_zone_actions.actions()[0]))
        if a.text() == "C&ontrols…"
    )
    menu_action.trigger()
    dialog = window.controllers.dialog
    assert dialog is not None and dialog.isVisible()
    return dialog


def shown(dialog, instance: int) -> dict:
    meters = dialog.meters.get(instance)
    return {} if meters is None else meters.shown()


def test_without_a_controller_the_dialog_says_how_to_plug_one_in(window, qtbot, sdl):
    dialog = open_dialog(window)
    assert "No game controller is connected" in dialog.note.text() and "keyboard" in dialog.note.text()
    pad = Virtual(sdl)
    qtbot.waitUntil(lambda: pad.instance in dialog.meters, timeout=DEADLINE_S * 1000)
    assert "No game controller" not in dialog.note.text()
    pad.detach()
    qtbot.waitUntil(lambda: "No game controller is connected" in dialog.note.text(), timeout=DEADLINE_S * 1000)


def test_the_dialog_shows_each_axis_raw_and_as_the_car_receives_it(window, qtbot, sdl):
    pad = Virtual(sdl)
    dialog = open_dialog(window)
    for raw in (24000, -20000, 9000):
        pad.axis(STICK_X, raw)
        want = (round(raw / 32767, 3), round(godot_axis(raw, 0.5, 0.5), 3))
        qtbot.waitUntil(lambda w=want: shown(dialog, pad.instance).get("steer") == w, timeout=DEADLINE_S * 1000)
    assert set(shown(dialog, pad.instance)) == {"steer", "throttle", "brake"}  # a pad has no clutch


@pytest.mark.parametrize(
    "editor, value, formula",
    [
        ("exponent", 2.0, lambda raw: shaped(raw, 0.5, exponent=2.0)),
        ("dead_zone", 0.1, lambda raw: shaped(raw, 0.1)),
        ("saturation", 0.8, lambda raw: shaped(raw, 0.5, sat=0.8)),
        ("inverted", True, lambda raw: shaped(raw, 0.5, inverted=True)),
    ],
)
def test_shaping_set_in_the_dialog_reaches_the_car_on_its_next_tick_and_reset_restores_godot(
    window,
    qtbot,
    sdl,
    editor,
    value,
    formula,
):
    pad = Virtual(sdl)
    qtbot.waitUntil(lambda: connected(window) != "", timeout=DEADLINE_S * 1000)
    dialog = open_dialog(window)
    box = dialog.editors["steer"][editor]
    box.setChecked(value) if editor == "inverted" else box.setValue(value)
    for raw in (24000, -20000, 10000, -32768, 25000):
        pad.axis(STICK_X, raw)
        frame_with_a_tick(window)
        assert window.drive.controls.steer == pytest.approx(formula(raw), abs=1e-5), raw
    assert formula(25000) != pytest.approx(godot_axis(25000, 0.5, 0.5), abs=1e-3)  # the setting did change it
    dialog.reset_button.click()
    assert dialog.editors["steer"]["dead_zone"].text() == "Godot's (0.5 / 0.5)"
    frame_with_a_tick(window)
    assert window.drive.controls.steer == pytest.approx(godot_axis(25000, 0.5, 0.5), abs=1e-6)


def test_a_value_the_shaping_cannot_use_is_refused_in_the_dialog(window, qtbot):
    dialog = open_dialog(window)
    dialog.editors["brake"]["saturation"].setValue(0.6)
    dialog.editors["brake"]["dead_zone"].setValue(0.7)  # above the saturation
    assert "brake: dead zone 0.7 must be at least 0 and below the saturation 0.6" in dialog.status.text()
    assert window.controllers.shaping.of("brake").dead_zone is None
    assert dialog.editors["brake"]["dead_zone"].value() < 0  # shows Godot's again


def test_a_wheels_axis_map_set_in_the_dialog_changes_which_axis_steers(window, qtbot, sdl):
    wheel = Virtual(sdl, wheel=True)
    dialog = open_dialog(window)
    qtbot.waitUntil(lambda: wheel.instance in dialog.wheel_editors, timeout=DEADLINE_S * 1000)
    assert set(shown(dialog, wheel.instance)) == {"steer", "throttle", "brake", "clutch"}
    wheel.axis(0, 30000)
    wheel.axis(3, -24000)
    frame_with_a_tick(window)
    assert window.drive.controls.steer == pytest.approx(godot_axis(30000, 0.5, 0.5), abs=1e-6)
    editor = dialog.wheel_editors[wheel.instance]
    editor.numbers["clutch"].setValue(-1)  # the clutch's axis is free: the wheel steers with it
    editor.numbers["steer"].setValue(3)
    editor.inverted["steer"].setChecked(True)
    frame_with_a_tick(window)
    assert window.drive.controls.steer == pytest.approx(godot_axis(24000, 0.5, 0.5), abs=1e-6)
    assert window.controllers.pads.wheel_map_of("Test Wheel").clutch is None


def test_the_settings_are_kept_between_runs_and_a_broken_one_falls_back_alone(qtbot):
    from sandbox.ui.app import MainWindow

    window = MainWindow()
    qtbot.addWidget(window)
    dialog = window.controllers.controls_dialog()
    dialog.editors["steer"]["exponent"].setValue(1.5)
    dialog.editors["steer"]["dead_zone"].setValue(0.2)
    dialog.editors["throttle"]["inverted"].setChecked(True)
    window.controllers.set_wheel_map("Test Wheel", WheelMap(combined_pedals=True))
    window.close()
    again = MainWindow()
    qtbot.addWidget(again)
    kept = again.controllers.shaping
    assert (kept.of("steer").exponent, kept.of("steer").dead_zone, kept.of("throttle").inverted) == (1.5, 0.2, True)
    assert again.controllers.wheel_map("Test Wheel").combined_pedals
    assert again.controllers.controls_dialog().editors["steer"]["exponent"].value() == 1.5
    again.close()

    store = settings()
    broken = {
        "controllers/shaping/steer/exponent": "banana",
        "controllers/shaping/brake/saturation": 3.0,
        "controllers/shaping/roll/exponent": 2.0,
        "controllers/shaping/clutch/dead_zone": 0.95,  # above its saturation
        "controllers/wheels/Test%20Wheel/steer_axis": "x",
    }
    store.setValue("controllers/shaping/clutch/saturation", 0.9)
    for key, value in broken.items():
        store.setValue(key, value)
    store.sync()
    third = MainWindow()
    qtbot.addWidget(third)
    kept = third.controllers.shaping
    assert kept.of("steer").exponent == 1.0 and kept.of("steer").dead_zone == 0.2  # only the broken value is gone
    assert kept.of("brake").saturation == 1.0 and kept.of("throttle").inverted
    assert kept.of("clutch").dead_zone is None and kept.of("clutch").saturation == 0.9
    wheel = third.controllers.wheel_map("Test Wheel")
    assert wheel.steer.axis == 0 and wheel.combined_pedals
    qtbot.waitUntil(lambda: "controllers/shaping/roll" in third.statusBar().currentMessage(), timeout=DEADLINE_S * 1000)
    message = third.statusBar().currentMessage()
    assert all(key.replace("%20", " ") in message or key in message for key in broken), message
    assert not any(settings().contains(key) for key in broken)
    assert settings().contains("controllers/shaping/steer/dead_zone")
    third.close()


def test_the_dialog_reads_the_dead_zones_of_a_project_godot_and_shows_them(window, qtbot, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    game = tmp_path / "game"
    game.mkdir()
    (game / "project.godot").write_text(test_pads_window.PROJECT_GODOT3)
    dialog = open_dialog(window)
    assert "(0.5 / 0.5)" in dialog.editors["steer"]["dead_zone"].specialValueText()  # Godot 3's default
    chosen = str(game / "project.godot")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *args, **kwargs: (chosen, ""))
    dialog.project_button.click()
    # the project's steer_left 0.3 and steer_right 0.15, as the file sets them
    assert "(0.3 / 0.15)" in dialog.editors["steer"]["dead_zone"].specialValueText()
    assert window.controllers.project == chosen and "0.3" in dialog.status.text()
