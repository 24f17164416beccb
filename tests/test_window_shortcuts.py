"""The real window, offscreen, driven with pytest-qt. Every menu shortcut does its
command in every model while the car is being driven (a driving key with Ctrl, Alt or
Meta is a shortcut's: Ctrl+E exports the force curve even where E shifts up), and
Shift held does not stop the driving keys."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QDialog, QFileDialog, QMessageBox

from sandbox.physics.models import MODELS
from sandbox.ui.input import ACTIONS, SHIFTS
from window_helpers import paused, shortcut_actions

K = Qt.Key
HELD = (K.Key_W, K.Key_D, K.Key_Space)
"""Driving keys held through every shortcut: throttle, steering right, handbrake."""


@pytest.fixture
def no_modal_dialogs(monkeypatch):
    """Every modal dialog a command opens answers at once: cancelled, nothing chosen."""
    monkeypatch.setattr(QDialog, "exec", lambda self: QDialog.DialogCode.Rejected)
    monkeypatch.setattr(QFileDialog, "exec", lambda self: QDialog.DialogCode.Rejected)
    monkeypatch.setattr(QMessageBox, "exec", lambda self: QMessageBox.StandardButton.Cancel)
    for name in ("getSaveFileName", "getOpenFileName"):
        monkeypatch.setattr(QFileDialog, name, staticmethod(lambda *a, **k: ("", "")))
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", staticmethod(lambda *a, **k: ""))
    for name in ("information", "warning", "critical"):
        monkeypatch.setattr(QMessageBox, name, staticmethod(lambda *a, **k: QMessageBox.StandardButton.Ok))
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Cancel))


def _quits(action) -> bool:
    return any(keys in QKeySequence.keyBindings(QKeySequence.StandardKey.Quit) for keys in action.shortcuts())


@pytest.mark.parametrize("model", list(MODELS))
def test_every_menu_shortcut_runs_its_command_while_driving(window, qtbot, no_modal_dialogs, model):
    assert window.switch_model(model)
    paused(window)  # the test reads the keys itself: no tick takes a gear change first
    window.link_panel.port.setValue(0)  # Listen (Ctrl+L) takes any free port
    name = next(iter(window.panel.sliders))  # two steps to undo, one to redo: Undo and Redo enabled
    for fraction in (0.4, 0.6):
        param = window.panel.sliders[name].param
        window.panel.set_values({name: param.min + fraction * (param.max - param.min)}, "a change")
    window.undo.undo()
    actions = sorted(shortcut_actions(window.menuBar()), key=_quits)  # Quit last: it may close the window
    assert len(actions) >= 20
    ran, disabled = [], []
    for action in actions:
        for keys in action.shortcuts():
            combination = keys[0]
            window.track.setFocus()
            for key in HELD:  # held on: a preset opened or a reset lets go of every key
                qtbot.keyPress(window.track, key)
            assert window.keys.held == set(HELD)
            enabled = action.isEnabled()
            fired = []
            action.triggered.connect(lambda *_, fired=fired: fired.append(True))
            qtbot.keyClick(window.track, combination.key(), combination.keyboardModifiers())
            label = f"{keys.toString()} ({action.text()})"
            assert bool(fired) == enabled, label
            assert window.keys.controls().shift == 0, f"{label} changed gear"
            assert window.model.NAME == model, f"{label} switched the model"  # Ctrl+1…9: this model's presets
            (ran if enabled else disabled).append(combination)
    driving = set(ACTIONS) | set(SHIFTS)
    taken = [c for c in disabled if c.key() in driving]
    assert taken == [], "a shortcut on a driving key was never tried"
    assert any(c.key() == K.Key_E for c in ran)  # Ctrl+E, force curve as PNG


def test_shift_held_does_not_stop_the_driving_keys(window, qtbot):
    paused(window)
    shift = Qt.KeyboardModifier.ShiftModifier
    qtbot.keyPress(window.track, K.Key_W, shift)
    qtbot.keyPress(window.track, K.Key_A, shift)
    controls = window.keys.controls()
    assert controls.throttle == 1 and controls.steer == -1
    qtbot.keyPress(window.track, K.Key_E, shift)
    assert window.keys.controls().shift == 1


@pytest.mark.parametrize("modifier", ["ControlModifier", "AltModifier", "MetaModifier"])
def test_a_driving_key_with_ctrl_alt_or_meta_does_not_drive(window, qtbot, no_modal_dialogs, modifier):
    paused(window)
    held = getattr(Qt.KeyboardModifier, modifier)
    for key in (K.Key_W, K.Key_A, K.Key_Space, K.Key_E, K.Key_Q):
        qtbot.keyPress(window.track, key, held)
    controls = window.keys.controls()
    assert (controls.throttle, controls.steer, controls.handbrake, controls.shift) == (0, 0, 0, 0)
    assert window.keys.held == set()
