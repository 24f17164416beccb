"""Switching what the window drives: a preset (one undo step), another model (a new
undo history, after asking about an unsaved tuning), the physics tick rate (one undo
step), and the title that says which preset is on and whether it has changes."""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtGui import QUndoCommand

from ..errors import UserError
from ..files.presets import Preset, declared_preset, list_presets, load_preset
from ..physics.models import MODELS
from .window_memory import settings

DESCRIPTION_CHARS = 90
"""The preset's description above the sliders is cut after about this many characters."""


class LoadPreset(QUndoCommand):
    """Undoable preset switch: values, tick rate, which preset the window is on, and
    the fits applied (none after it: the preset's values are the preset's)."""

    def __init__(self, switcher: "PresetSwitcher", preset: Preset):
        super().__init__(f"Load preset {preset.name}")
        window = switcher.window
        self.switcher = switcher
        self.old = (window.preset, dict(window.tuning), window.sim.hz, dict(window.fitted))
        self.new = (preset, dict(preset.tuning), preset.hz, {})

    def redo(self) -> None:
        self.switcher.show_preset(*self.new)

    def undo(self) -> None:
        self.switcher.show_preset(*self.old)


class SetRate(QUndoCommand):
    """Undoable change of the physics tick rate."""

    def __init__(self, switcher: "PresetSwitcher", hz: int):
        super().__init__(f"Tick rate {switcher.window.sim.hz} → {hz} Hz")
        self.switcher, self.old, self.new = switcher, switcher.window.sim.hz, hz

    def redo(self) -> None:
        self.switcher.apply_rate(self.new)

    def undo(self) -> None:
        self.switcher.apply_rate(self.old)


class PresetSwitcher:
    """Presets, models and the tick rate of `window` (a MainWindow, which owns this)."""

    def __init__(self, window):
        self.window = window

    def modified(self) -> bool:
        """The tuning or the tick rate differ from the loaded preset's."""
        w = self.window
        return dict(w.tuning) != dict(w.preset.tuning) or w.sim.hz != w.preset.hz

    def drop_changes(self) -> None:
        """Back to the loaded preset's values and rate, given up for good (an autosave
        must not bring them back); not an undo step."""
        preset = self.window.preset
        self.show_preset(preset, preset.tuning, preset.hz)

    def apply_preset(self, preset: Preset, drop_changes: bool = False) -> bool:
        """Switch to `preset` (its values and its name) as one undo step; a preset of
        another model switches the model, which starts a new undo history: first an
        unsaved tuning is saved or given up (asked; given up without asking with
        `drop_changes`, for a scripted run that owns its window). False if the user
        kept it."""
        w = self.window
        if preset.model is not w.model:
            if drop_changes:
                self.drop_changes()
            elif not w.files.keep_or_drop_changes(f"Switching to the {preset.model.TITLE} model ({preset.name})"):
                w.menus.refresh()  # the menu ticked the new model already
                return False
            self._switch_to(preset)
        elif (preset.name, preset.path, dict(preset.tuning), preset.hz) != (
            w.preset.name,
            w.preset.path,
            dict(w.tuning),
            w.sim.hz,
        ):
            w.undo.push(LoadPreset(self, preset))  # loading what is already there changes nothing to undo
        if w.remember and preset.path is not None:
            settings().setValue("preset/last_path", str(Path(preset.path).resolve()))
        w.statusBar().showMessage(f"Preset {preset.name} loaded", 4000)
        return True

    def show_preset(self, preset: Preset, values, hz: int, fitted: dict | None = None) -> None:
        """Make `preset` current with `values`, `hz` and the fits applied to it, `fitted`
        (MainWindow.fitted; used by undo/redo)."""
        w = self.window
        w.preset = preset
        w.fitted = dict(fitted or {})
        w.panel.apply_values(values)
        if hz != w.sim.hz:
            self.apply_rate(hz)
        w._on_tuning_changed()

    def switch_model(self, name: str) -> bool:
        """Drive model `name`, starting from its first built-in preset; False if the
        user kept the unsaved tuning of the model driven now."""
        model = MODELS[name]
        if model is self.window.model:
            return True
        firsts = [path for path, _, builtin, m in list_presets() if builtin and m == name]
        preset = None
        if firsts:
            try:
                preset = load_preset(firsts[0])
            except UserError:
                preset = None
        return self.apply_preset(preset or declared_preset(model, f"{model.TITLE} defaults"))

    def _switch_to(self, preset: Preset) -> None:
        """Replace the model: new tuning, panel, simulation and units; undo starts afresh
        (the old model's steps cannot apply to the new one's parameters)."""
        w = self.window
        w.model = preset.model
        w.preset = preset
        w.fitted = {}
        w.tuning = preset.tuning.copy()
        w.drive.set_car(w.model, w.tuning, preset.hz)
        w.panels.replace_tuning_panel(preset.hz)
        w.undo.clear()
        w.panels.set_units()
        w.track.set_hz(preset.hz)
        w.plots.set_hz(preset.hz)
        w.menus.refresh()
        w._on_tuning_changed()
        w.drive_view.reset_car()
        w.statusBar().showMessage(f"Model {w.model.TITLE}, preset {preset.name} (undo history cleared)", 6000)

    def set_rate(self, hz: int) -> None:
        """Change the physics tick rate as one undo step."""
        w = self.window
        if hz != w.sim.hz:
            w.undo.push(SetRate(self, hz))
        else:
            w.panel.show_rate(hz)

    def apply_rate(self, hz: int) -> None:
        w = self.window
        w.drive.set_hz(hz)
        w.track.set_hz(hz)
        w.plots.set_hz(hz)
        w.panel.show_rate(hz)
        w.menus.refresh()
        w._on_tuning_changed()
        w.drive_view.refresh()

    def update_title(self) -> None:
        """The window's title and the tuning panel's heading: model, preset, a star for
        unsaved changes, and the preset's description (cut, whole in the tooltip)."""
        w = self.window
        star = " *" if self.modified() else ""
        title = f"car-sandbox — {w.preset.name}{star}"
        if title != w.windowTitle():
            w.setWindowTitle(title)
        about = w.preset.description
        if len(about) > DESCRIPTION_CHARS:  # the whole of it in the tooltip
            about = about[:DESCRIPTION_CHARS].rsplit(" ", 1)[0] + " …"
        text = (
            f"<b>{w.model.TITLE}</b><br>preset: {html.escape(w.preset.name)}{star}<br>"
            f"<span style='color:gray'>{html.escape(about)}</span>"
        )
        if text != w.panel.title.text():  # a new text lays the whole panel out again: not on every drag step
            w.panel.title.setText(text)
            w.panel.title.setToolTip(w.preset.description)
