"""Switching what the window drives: a preset (one undo step), another model (a new
undo history, after asking about an unsaved tuning), the physics tick rate (one undo
step), and the title that says which preset is on and whether it has changes."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Protocol

from PySide6.QtGui import QUndoCommand, QUndoStack
from PySide6.QtWidgets import QStatusBar

from ..errors import UserError
from ..files.presets import Preset, declared_preset, list_presets, load_preset
from ..physics.models import MODELS
from ..session.drive import DriveSession
from ..session.tuning import LiveTuning, TuningChange
from .model_prep import ModelPreparer
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
        self.old = (window.preset, dict(window.tuning), window.drive.sim.hz, dict(window.fitted))
        self.new = (preset, dict(preset.tuning), preset.hz, {})

    def redo(self) -> None:
        self.switcher.show_preset(*self.new)

    def undo(self) -> None:
        self.switcher.show_preset(*self.old)


class SetRate(QUndoCommand):
    """Undoable change of the physics tick rate."""

    def __init__(self, switcher: "PresetSwitcher", hz: int):
        super().__init__(f"Tick rate {switcher.window.drive.sim.hz} → {hz} Hz")
        self.switcher, self.old, self.new = switcher, switcher.window.drive.sim.hz, hz

    def redo(self) -> None:
        self.switcher.apply_rate(self.new)

    def undo(self) -> None:
        self.switcher.apply_rate(self.old)


class _Switch:
    """A switch to `preset`, made when called (what a waiting switch holds)."""

    def __init__(self, switcher: "PresetSwitcher", preset: Preset):
        self.switcher, self.preset = switcher, preset

    def __call__(self) -> None:
        if self.preset.model is not self.switcher.window.tuning.model:
            self.switcher._switch_now(self.preset)


class SwitcherHost(Protocol):
    """What switching presets, models and the tick rate uses of the window that owns it
    (a QWidget: its title is the window's). It needs many of its parts, so they are
    named here rather than handed over one by one."""

    preset: Preset  # the preset loaded (set here)
    fitted: dict  # {parameter: (value, ±)} of the fits applied since (set here)
    tuning: LiveTuning  # followed: the title's mark of changes, the views' tick rate
    drive: DriveSession  # the car's tick rate
    undo: QUndoStack  # a preset or a rate is one step; another model clears it
    remember: bool  # whether the last preset is kept between runs
    files: object  # FileActions' `keep_or_drop_changes(why)` (an unsaved tuning)
    menus: object  # `refresh()`, `fill_presets()`
    memory: object  # SessionMemory's `timer` (the autosave)
    panels: object  # `show_curves()`, `replace_tuning_panel(hz)`, `set_units()`
    panel: object  # the TuningPanel: its `title` label and `show_rate(hz)`
    track: object  # the TrackView's `set_hz(hz)`
    plots: object  # the live plots' `set_hz(hz)`
    drive_view: object  # the frame loop's `refresh()` and `reset_car()`

    def statusBar(self) -> QStatusBar: ...
    def show_error(self, text: str) -> None: ...  # a model that could not be prepared
    def windowTitle(self) -> str: ...
    def setWindowTitle(self, title: str) -> None: ...


class PresetSwitcher:
    """Presets, models and the tick rate of `window` (the SwitcherHost, which owns this)."""

    def __init__(self, window: SwitcherHost):
        self.window = window
        window.tuning.changed.connect(self._tuning_changed)
        self.first = ModelPreparer(window, "prepare model")

    def _tuning_changed(self, change: TuningChange) -> None:
        """The title's mark of changes; another rate shown (another model: `_switch_to`)."""
        if change.hz is not None and not change.model:
            self._show_rate(change.hz[1])
        self.update_title()

    @property
    def prepare_first(self) -> bool:
        """A switch to a model not compiled yet waits for it, the car driven meanwhile
        (the app turns it on, `warm_up.prepare_physics`)."""
        return self.first.enabled

    @prepare_first.setter
    def prepare_first(self, on: bool) -> None:
        self.first.enabled = on

    @property
    def preparing(self) -> Preset | None:
        """The preset a switch waits to show until its model is compiled (None: none waits)."""
        return self.first.waiting[1].preset if self.first.waiting is not None else None

    def modified(self) -> bool:
        """The tuning or the tick rate differ from the loaded preset's."""
        w = self.window
        return dict(w.tuning) != dict(w.preset.tuning) or w.drive.sim.hz != w.preset.hz

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
        if preset.model is not w.tuning.model:
            if drop_changes:
                self.drop_changes()
            elif not w.files.keep_or_drop_changes(f"Switching to the {preset.model.TITLE} model ({preset.name})"):
                w.menus.refresh()  # the menu ticked the new model already
                return False
            if not self._switch_to(preset):
                w.menus.refresh()  # the menu ticked the new model already: the car driven is the old one
                return True  # switches once its model is compiled (the status bar says so)
        else:
            self.first.give_up()  # a switch waiting for its model is given up for this preset
            if (preset.name, preset.path, dict(preset.tuning), preset.hz) != (
                w.preset.name,
                w.preset.path,
                dict(w.tuning),
                w.drive.sim.hz,
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
        if w.tuning.update(values, hz) is None:  # the same values under another name
            self.preset_changed()

    def preset_changed(self) -> None:
        """Another preset is current with the same tuning (saved as, or loaded with equal
        values): its name in the title and on the force curve, and in the autosave."""
        w = self.window
        self.update_title()
        w.panels.show_curves()
        w.memory.timer.start()

    def switch_model(self, name: str) -> bool:
        """Drive model `name`, starting from its first built-in preset; False if the
        user kept the unsaved tuning of the model driven now."""
        model = MODELS[name]
        if model is self.window.tuning.model:
            return True
        firsts = [path for path, _, builtin, m in list_presets() if builtin and m == name]
        preset = None
        if firsts:
            try:
                preset = load_preset(firsts[0])
            except UserError:
                preset = None
        return self.apply_preset(preset or declared_preset(model, f"{model.TITLE} defaults"))

    def _switch_to(self, preset: Preset) -> bool:
        """Replace the model (False: once it is compiled, `preparing`)."""
        change = _Switch(self, preset)
        return self.first.when_ready(preset.model, "you switched to", change)

    def _switch_now(self, preset: Preset) -> None:
        """Replace the model: new tuning, panel, simulation and units; undo starts afresh
        (the old model's steps cannot apply to the new one's parameters)."""
        w = self.window
        w.preset = preset
        w.fitted = {}
        w.tuning.switch(preset.model, preset.tuning, preset.hz)  # the car, plots and link follow it
        w.panels.replace_tuning_panel(preset.hz)
        w.undo.clear()
        w.panels.set_units()
        w.track.set_hz(preset.hz)
        w.plots.set_hz(preset.hz)
        w.menus.refresh()
        w.menus.fill_presets()  # Ctrl+1…9 open this model's presets, not the last one's
        self.update_title()  # on the new panel
        w.drive_view.reset_car()
        w.statusBar().showMessage(f"Model {w.tuning.model.TITLE}, preset {preset.name} (undo history cleared)", 6000)

    def set_rate(self, hz: int) -> None:
        """Change the physics tick rate as one undo step."""
        w = self.window
        if hz != w.drive.sim.hz:
            w.undo.push(SetRate(self, hz))
        else:
            w.panel.show_rate(hz)

    def apply_rate(self, hz: int) -> None:
        self.window.tuning.set_hz(hz)

    def _show_rate(self, hz: int) -> None:
        """The views that tick at the tuning's rate, at `hz`."""
        w = self.window
        w.track.set_hz(hz)
        w.plots.set_hz(hz)
        w.menus.refresh()
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
            f"<b>{w.tuning.model.TITLE}</b><br>preset: {html.escape(w.preset.name)}{star}<br>"
            f"<span style='color:gray'>{html.escape(about)}</span>"
        )
        if text != w.panel.title.text():  # a new text lays the whole panel out again: not on every drag step
            w.panel.title.setText(text)
            w.panel.title.setToolTip(w.preset.description)
