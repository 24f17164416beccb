"""The window's menus, built from their table: every key the README promises is a
menu shortcut, no two commands share one, and what an entry is enabled or ticked by
follows the window's state."""

import re
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QMenu

README = Path(__file__).resolve().parents[1] / "README.md"


def menu_actions(window):
    """Every action of the menu bar, submenus included (found as child widgets)."""
    found, stack = [], [window.menuBar()]
    while stack:
        owner = stack.pop()
        submenus = {
            m.menuAction(): m for m in owner.findChildren(QMenu, options=Qt.FindChildOption.FindDirectChildrenOnly)
        }
        for action in owner.actions():
            if action in submenus:
                stack.append(submenus[action])
            else:
                found.append(action)
    return found


def readme_shortcuts() -> set[str]:
    """The modifier and function keys of the README's Controls table (Ctrl+1 … Ctrl+9
    as its ends)."""
    text = README.read_text(encoding="utf-8")
    table = text[text.index("## Controls") :].split("\n\n")[1]
    keys = set()
    for row in table.splitlines()[2:]:
        first = row.split("|")[1]
        keys |= set(re.findall(r"Ctrl\+Shift\+[A-Z]|Ctrl\+[A-Z0-9=\-]|\bF[0-9]\b", first))
    return keys


def test_every_key_of_the_readme_is_a_menu_shortcut(window):
    keys = readme_shortcuts()
    assert {"Ctrl+O", "Ctrl+Shift+R", "F6", "Ctrl+9"} <= keys  # the table was read
    shown = {
        sequence.toString(QKeySequence.SequenceFormat.PortableText)
        for action in menu_actions(window)
        for sequence in action.shortcuts()
    }
    assert keys - {"Ctrl+9"} <= shown | {"Ctrl+1"}, keys - shown  # Ctrl+9: only with nine presets of a model
    assert "Ctrl+1" in shown and "R" in shown  # the first preset; reset the car


def test_no_two_menu_commands_share_a_shortcut(window):
    """Qt fires neither of two actions that share a shortcut."""
    seen = {}
    for action in menu_actions(window):
        for sequence in action.shortcuts():
            keys = sequence.toString(QKeySequence.SequenceFormat.PortableText)
            assert keys not in seen, f"{keys}: {seen[keys]} and {action.text()}"
            seen[keys] = action.text()


def test_reset_all_parameters_resets_the_panel_of_the_model_driven_now(window):
    """The table's handlers act on the window's current parts: after a model switch
    the tuning panel is a new one."""
    from sandbox.physics.models import MODELS

    assert window.switch_model("bicycle")
    name = next(p.name for p in window.model.PARAMS if not p.is_bool)
    default = next(p.default for p in window.model.PARAMS if p.name == name)
    slider = window.panel.sliders[name]
    slider.setValue(slider.param.max if default != slider.param.max else slider.param.min)
    assert window.tuning[name] != default
    reset = next(a for a in menu_actions(window) if a.text().replace("&", "") == "Reset all parameters")
    reset.trigger()
    assert window.tuning[name] == default and window.model is MODELS["bicycle"]


def test_show_panels_is_ticked_as_the_panels_are(window):
    assert window.panel_action.isChecked()
    window.panels.toggle()  # Tab
    assert not window.panel_action.isChecked() and not window.panels.panel_dock.isVisible()
    window.panel_action.trigger()  # the menu entry brings them back
    assert window.panel_action.isChecked() and window.panels.panel_dock.isVisible()


def test_the_pixels_per_metre_tick_follows_the_scale(window):
    ticked = [a.data() for a in window.scale_actions.actions() if a.isChecked()]
    assert ticked == [window.px_per_metre]
    window.set_px_per_metre(40.0)
    assert [a.data() for a in window.scale_actions.actions() if a.isChecked()] == [40.0]
