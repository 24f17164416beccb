"""The window's Godot file work: export the car as a script or scene, copy the script,
import a car script's values, write the tuning into the user's own script, and export
the link node for the user's game."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication, QFileDialog

from ..errors import UserError
from ..files.godot import export_script, save_script
from ..files.godot_import import load_script
from ..files.godot_link import export_link_node, save_link_node
from ..files.godot_scene import save_scene
from .file_actions import FileActions
from .godot_export_dialog import GodotExportDialog
from .godot_into_dialog import UpdateScriptDialog
from .session import settings


class GodotActions:
    """Godot dialogs and files of `window` (a MainWindow); `files` says and remembers."""

    def __init__(self, window, files: FileActions):
        self.window, self.files = window, files

    def choice(self) -> tuple[int, bool]:
        """(Godot version, scene?) last chosen in the export dialog: Godot 4, a script."""
        if not self.window.remember:
            return 4, False
        return self.window.memory.setting("godot/version", 4, choices=(3, 4)), self.window.memory.setting(
            "godot/scene", False
        )

    def export_dialog(self) -> GodotExportDialog:
        """The export dialog for the tuning on screen (not yet shown)."""
        window = self.window
        godot, scene = self.choice()

        def ask_path(as_scene: bool) -> str | None:
            name, pattern = ("car.tscn", "Godot scene (*.tscn)") if as_scene else ("car.gd", "GDScript (*.gd)")
            return self.files.ask_save_path("Export to Godot", name, pattern, "godot/last_dir")

        return GodotExportDialog(
            window.current_preset(), window.px_per_metre, godot, scene, window, ask_path, self._saved
        )

    def _saved(self, dialog: GodotExportDialog, written: list[Path]) -> None:
        if self.window.remember:
            settings().setValue("godot/version", dialog.godot)
            settings().setValue("godot/scene", dialog.scene)
        self.window.statusBar().showMessage("Exported " + " and ".join(str(p) for p in written), 6000)

    def export(self, path, godot: int, scene: bool = False) -> bool:
        """Write the Godot script (or the scene and its script) of the tuning on screen."""
        save = save_scene if scene else save_script
        window = self.window
        return self.files.attempt(
            lambda: save(window.current_preset(), path, godot, window.px_per_metre),
            f"Exported Godot {godot} {'scene' if scene else 'script'} {path}",
        )

    def export_link_dialog(self) -> None:
        """Save dialog for the link node; its file type picks the Godot version (the
        version last exported first)."""
        godot, _ = self.choice()
        types = {f"Godot {v} link node (*.gd)": v for v in (godot, 7 - godot)}
        folder = self.files.folder("godot/last_dir") or str(Path.home())
        path, chosen = QFileDialog.getSaveFileName(
            self.window, "Export Godot link node", str(Path(folder) / "sandbox_link.gd"), ";;".join(types)
        )
        if path:
            if self.window.remember:
                settings().setValue("godot/last_dir", str(Path(path).parent))
            self.export_link(path, types.get(chosen, godot))

    def export_link(self, path, godot: int) -> bool:
        """Write the link node for the car on screen's exported script (Godot `godot`)."""
        preset = self.window.current_preset()
        return self.files.attempt(
            lambda: save_link_node(path, export_link_node(preset.model, godot, tuning=preset.tuning)),
            f"Exported the Godot {godot} link node {path}: add it to your game as a child of the car",
        )

    def copy_script(self) -> bool:
        window = self.window
        godot, _ = self.choice()
        try:
            text = export_script(window.current_preset(), godot, window.px_per_metre)
        except UserError as exc:
            window.show_error(str(exc))
            return False
        QApplication.clipboard().setText(text)
        window.statusBar().showMessage(
            f"Copied the Godot {godot} script of {window.model.TITLE} to the clipboard", 6000
        )
        return True

    def ask_script(self, title: str) -> str | None:
        """Open dialog for a car script, in the folder of the last Godot export."""
        folder = self.files.folder("godot/last_dir")
        path, _ = QFileDialog.getOpenFileName(
            self.window, title, str(folder or Path.home()), "GDScript (*.gd);;All files (*)"
        )
        return path or None

    def import_dialog(self) -> None:
        path = self.ask_script("Import Godot script")
        if path:
            self.import_script(path)

    def import_script(self, path) -> bool:
        """Apply the parameters a car.gd declares, as one undo step; list what was not used."""
        window = self.window
        result = self.files.read(lambda p: load_script(p, window.model), path)
        if result is None:
            return False
        window.panel.set_values(result.values, f"Import {Path(path).name}")
        window.statusBar().showMessage(f"Imported {len(result.values)} values from {path}", 6000)
        if result.warnings:
            window.show_error(
                f"{path}: {len(result.values)} values imported.\n" + "\n".join(result.warnings), title="Import: notes"
            )
        return True

    def update_script_dialog(self) -> None:
        path = self.ask_script("Update my Godot script")
        dialog = self.update_script(path) if path else None
        if dialog is not None:
            dialog.exec()

    def update_script(self, path) -> UpdateScriptDialog | None:
        """The dialog writing the tuning on screen into the car script at `path` (not yet
        shown), or None after a message saying why the script is refused."""
        window = self.window
        dialog = self.files.read(lambda p: UpdateScriptDialog(window.current_preset(), p, window), path)
        if dialog is not None:
            dialog.accepted.connect(lambda: window.statusBar().showMessage(f"Updated {path}", 6000))
        return dialog
