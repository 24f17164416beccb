"""The File menu's work for the window: open and save presets, open and save traces,
export the plots and the sweep, with the window's questions, messages and the folder
each kind of file was last put in. A user's mistake (a bad file, a folder that cannot
be written) becomes a dialog that names it, never a traceback."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QUrl
from PySide6.QtWidgets import QFileDialog, QMessageBox, QStatusBar

from ..errors import PresetError, UserError
from ..files.disk import make_folder, write_failure
from ..files.presets import BUILTIN_DIR, Preset, load_preset, save_preset, user_dir
from ..files.traces import BUILTIN_TRACES, user_trace_dir
from ..session.drive import DriveSession
from .live_plot_export import export_live_plots
from .window_memory import settings


class FilesHost(Protocol):
    """What the File menu's work uses of the window that owns it (a QWidget: the
    dialogs are its children). It needs many of its parts, so they are named here
    rather than handed over one by one."""

    preset: Preset  # the preset loaded (a preset saved becomes it)
    switcher: object  # the PresetSwitcher: `modified()`, `drop_changes()`, `preset_changed()`, `apply_preset(p)`
    remember: bool  # whether the folders last used are kept between runs
    memory: object  # SessionMemory's `setting` (the folders last used)
    menus: object  # `fill_presets()` (a preset saved joins the list)
    drive: DriveSession  # its `last_recording` (Save recording)
    replay: object  # the ReplayControl: `save_recording_to(path)`, `open_trace_file(path)`
    curves: object  # the force curve's `export(path)`
    plots: object  # the live plots (exported as they are drawn)
    sweep: object  # the sweep panel's `export(path)`

    def current_preset(self) -> Preset: ...
    def show_error(self, message: str, title: str = ...) -> None: ...
    def statusBar(self) -> QStatusBar: ...


class FileActions:
    """File dialogs and file work of `window` (the FilesHost), which owns this."""

    def __init__(self, window: FilesHost):
        self.window = window
        self.asking = False  # the unsaved-work question is open

    # --- unsaved work --------------------------------------------------------------
    def keep_or_drop_changes(self, what: str) -> bool:
        """Before `what` would lose an unsaved tuning for good: Save, Discard or Cancel.
        True to go on (saved, or given up), False to stay as it is."""
        window = self.window
        if not window.switcher.modified():
            return True
        buttons = QMessageBox.StandardButton
        answer = self.ask_to_save(
            "Unsaved tuning",
            f"{window.preset.name} has changes that are not saved.\n{what} loses them.",
            "Save them as a preset first?",
        )
        if answer == buttons.Save:
            return self.save()
        if answer == buttons.Discard:  # given up: an autosave must not bring them back
            window.switcher.drop_changes()
            return True
        return False

    def ask_to_save(self, title: str, text: str, question: str) -> QMessageBox.StandardButton:
        """Save, Discard or Cancel, asked about work `text` says would be lost; Cancel
        without asking while another such question is open (a second Ctrl+C or Quit)."""
        buttons = QMessageBox.StandardButton
        if self.asking:
            return buttons.Cancel
        box = QMessageBox(QMessageBox.Icon.Question, title, text, buttons.Save | buttons.Discard | buttons.Cancel,
                          self.window)  # fmt: skip
        box.setInformativeText(question)
        box.setDefaultButton(buttons.Save)
        self.asking = True
        try:
            return box.exec()
        finally:
            self.asking = False

    def ask_to_replace(self, title: str, text: str, question: str) -> bool:
        """Replace or Cancel, asked before a file of the user's is written over (Cancel
        is the default: Enter never replaces a file by surprise)."""
        buttons = QMessageBox.StandardButton
        if self.asking:
            return False
        box = QMessageBox(QMessageBox.Icon.Question, title, text, buttons.Yes | buttons.Cancel, self.window)
        box.button(buttons.Yes).setText("Replace")
        box.setInformativeText(question)
        box.setDefaultButton(buttons.Cancel)
        self.asking = True
        try:
            return box.exec() == buttons.Yes
        finally:
            self.asking = False

    # --- messages and dialogs --------------------------------------------------
    def read(self, loader, path):
        """`loader(path)`, or None after a dialog saying why the file was refused."""
        try:
            return loader(path)
        except UserError as exc:
            self.window.show_error(str(exc))
            return None

    def attempt(self, action, done: str) -> bool:
        """Run `action`: a user mistake (UserError) becomes a dialog and False, success a
        status message and True."""
        try:
            action()
        except UserError as exc:
            self.window.show_error(str(exc))
            return False
        self.window.statusBar().showMessage(done, 4000)
        return True

    def folder(self, key: str) -> str:
        """The folder last used for `key` ("" when none, or the window remembers nothing)."""
        return self.window.memory.setting(key, "") if self.window.remember else ""

    def ask_save_path(self, title: str, name: str, pattern: str, key: str) -> str | None:
        """Save dialog starting in the folder last used for `key`; None if cancelled."""
        path, _ = QFileDialog.getSaveFileName(
            self.window, title, str(Path(str(self.folder(key) or Path.home())) / name), pattern
        )
        if path and self.window.remember:
            settings().setValue(key, str(Path(path).parent))
        return path or None

    # --- presets -----------------------------------------------------------------
    def open_preset_file(self, path) -> bool:
        """Load a preset file (one undo step); on a bad file show why and change nothing."""
        preset = self.read(load_preset, path)
        return preset is not None and self.window.switcher.apply_preset(preset)

    def preset_file_dialog(self) -> QFileDialog:
        """The Open dialog: it starts where Save writes (your presets folder, once it has
        a preset) and shows that folder and the built-in presets side by side."""
        mine = user_dir()
        has_mine = mine.is_dir() and any(mine.glob("*.json"))
        dialog = QFileDialog(
            self.window, "Open preset", str(mine if has_mine else BUILTIN_DIR), "Presets (*.json);;All files (*)"
        )
        dialog.setOption(QFileDialog.Option.DontUseNativeDialog)  # the side bar below is Qt's own
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        places = [QUrl.fromLocalFile(str(folder)) for folder in (mine, BUILTIN_DIR) if folder.is_dir()]
        dialog.setSidebarUrls(dialog.sidebarUrls() + places)
        return dialog

    def open_preset_dialog(self) -> None:
        dialog = self.preset_file_dialog()
        if dialog.exec() and dialog.selectedFiles():
            self.open_preset_file(dialog.selectedFiles()[0])

    def save(self) -> bool:
        """Save over the current preset (a built-in one as a copy); True once saved."""
        path = self.window.preset.path
        if path is None or path.resolve().parent == BUILTIN_DIR:
            return self.save_as_dialog()
        return self.save_preset_to(path)

    def save_as_dialog(self) -> bool:
        window = self.window
        folder = user_dir()
        try:
            make_folder(folder, PresetError)
        except PresetError as exc:  # say why, and let the user save somewhere else
            window.show_error(f"{exc}. Choose another folder for your preset.", "Save preset as")
            folder = next((p for p in folder.parents if p.is_dir() and os.access(p, os.W_OK)), Path.home())
        stem = "".join(c if c.isalnum() or c in "-_" else "_" for c in window.preset.name.lower()) or "preset"
        path, _ = QFileDialog.getSaveFileName(
            window, "Save preset as", str(folder / f"{stem}.json"), "Presets (*.json)"
        )
        if path:
            if not path.lower().endswith(".json"):
                path += ".json"
            return self.save_preset_to(path, name=Path(path).stem)
        return False

    def save_preset_to(self, path, name: str | None = None) -> bool:
        """Write the current tuning to `path` (atomically); it becomes the current preset."""
        window = self.window
        preset = window.current_preset()
        if name is not None:
            preset.name, preset.description = name, f"Based on {window.preset.name}."
        try:
            save_preset(preset, path)
        except UserError as exc:
            window.show_error(str(exc))
            return False
        except OSError as exc:  # not foreseen by the preset files: still say which file and why
            window.show_error(f"{path}: {write_failure(Path(path), exc)}; nothing was saved")
            return False
        window.preset = preset
        window.switcher.preset_changed()
        if window.remember:
            settings().setValue("preset/last_path", str(Path(preset.path).resolve()))
        window.menus.fill_presets()
        window.statusBar().showMessage(f"Saved {path}", 4000)
        return True

    # --- traces ------------------------------------------------------------------
    def save_recording_dialog(self) -> None:
        window = self.window
        if window.drive.last_recording is None or not len(window.drive.last_recording):
            window.show_error("Nothing recorded yet: Traces → Record (Ctrl+R), drive, and stop again")
            return
        folder = user_trace_dir()
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:  # the dialog still opens, in a folder that exists
            window.show_error(f"{folder}: {write_failure(folder, exc)}. Choose another folder for your recording.")
            folder = next((p for p in folder.parents if p.is_dir()), Path.home())
        path, _ = QFileDialog.getSaveFileName(window, "Save recording", str(folder / "drive.csv"), "Traces (*.csv)")
        if path:
            window.replay.save_recording_to(path if path.lower().endswith(".csv") else path + ".csv")

    def open_trace_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self.window, "Replay trace", str(BUILTIN_TRACES), "Traces (*.csv);;All files (*)"
        )
        if path:
            self.window.replay.open_trace_file(path)

    # --- exports -----------------------------------------------------------------
    def export_dialog(self, stem: str, suffix: str, export) -> None:
        """Ask where to write `stem`+`suffix` (last folder used), then `export(path)`."""
        kind = suffix[1:].upper()
        path = self.ask_save_path(
            f"Export {stem.replace('_', ' ')} as {kind}", f"{stem}{suffix}", f"{kind} (*{suffix})", "export/last_dir"
        )
        if path:
            export(path if path.lower().endswith(suffix) else path + suffix)

    def export_curve(self, path) -> bool:
        return self.attempt(lambda: self.window.curves.export(path), f"Exported {path}")

    def export_plots(self, path) -> bool:
        return self.attempt(lambda: export_live_plots(self.window.plots, path), f"Exported {path}")

    def export_sweep(self, path) -> bool:
        return self.attempt(lambda: self.window.sweep.export(path), f"Exported {path}")

    def export_curve_dialog(self, suffix: str) -> None:
        self.export_dialog("force_curve", suffix, self.export_curve)

    def export_plots_dialog(self, suffix: str) -> None:
        self.export_dialog("live_plots", suffix, self.export_plots)

    def export_sweep_dialog(self, suffix: str) -> None:
        self.export_dialog("sweep", suffix, self.export_sweep)
