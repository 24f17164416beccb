"""The window's Godot file work: export the car as a script or scene, copy the script,
import a car script's values, write the tuning into the user's own script, and export
the link node for the user's game (for the script the sandbox exports, or the user's own)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox

from ..errors import UserError, printable
from ..files.disk import read_text
from ..files.godot import SCRIPT_LIMIT, GodotError, export_script, save_script
from ..files.godot_car_scene import load_car
from ..files.godot_engine_of import export_note
from ..files.godot_level import find_project
from ..files.godot_link import LINK_FILE, LinkTable, export_link_node, link_table, save_link_node, script_label
from .file_actions import FileActions
from .godot_export_dialog import GodotExportDialog, save_scene_asking
from .godot_into_dialog import UpdateScriptDialog
from .window_memory import settings


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
        """Write the Godot script (or the scene and its script: a different script beside
        it replaced only when the user says so) of the tuning on screen."""
        window = self.window
        written = []

        def save() -> None:
            if scene:
                written.extend(save_scene_asking(window, window.current_preset(), path, godot, window.px_per_metre))
            else:
                save_script(window.current_preset(), path, godot, window.px_per_metre)
                written.append(path)

        preset = window.current_preset()
        engine = export_note(preset.model, preset.tuning, godot)
        said = f"Exported Godot {godot} {'scene' if scene else 'script'} {path}" + (f"; {engine}" if engine else "")
        done = self.files.attempt(save, said)
        if done and not written:
            window.statusBar().showMessage(f"Not exported: the script beside {path} was kept", 6000)
        return done and bool(written)

    def export_link_dialog(self) -> None:
        """Which car the link node is for, as `export-godot --link` asks: the script the
        sandbox exports of the model on screen, or the user's own car script (read first:
        a script the import cannot read is refused before anything is asked or written).
        Then where to save it; the file type picks the Godot version (the last exported first)."""
        window = self.window
        buttons = QMessageBox.StandardButton
        box = QMessageBox(
            QMessageBox.Icon.Question,
            "Export Godot link node",
            "Which car script is the link node for?",
            buttons.Yes | buttons.No | buttons.Cancel,
            window,
        )
        box.setInformativeText(
            "The node sets the car's variables by their names in its script: those of the script "
            f"the sandbox exports of the {window.model.TITLE}, or those your own script declares "
            "(read as File → Import reads it; nothing in it is run)."
        )
        box.button(buttons.Yes).setText(f"The sandbox's {window.model.TITLE} script")
        box.button(buttons.No).setText("My own car script…")
        box.setDefaultButton(buttons.Yes)
        answer = box.exec()
        if answer == buttons.Cancel:
            return
        script = None
        if answer == buttons.No:
            script = self.ask_script("Link node for my car script")
            if not script or self.files.read(self._link_script, script) is None:
                return
        godot, _ = self.choice()
        types = {f"Godot {v} link node (*.gd)": v for v in (godot, 7 - godot)}
        name = f"{Path(script).stem}_link.gd" if script else LINK_FILE
        folder = self.files.folder("godot/last_dir") or str(Path.home())
        path, chosen = QFileDialog.getSaveFileName(
            window, "Export Godot link node", str(Path(folder) / name), ";;".join(types)
        )
        if path:
            if window.remember:
                settings().setValue("godot/last_dir", str(Path(path).parent))
            self.export_link(path, types.get(chosen, godot), script)

    def _link_script(self, script) -> tuple[str, str, LinkTable]:
        """(text, name, link table) of the user's car script at `script`, read for the
        model on screen; GodotError naming the problem if it cannot be read or recognised."""
        text = read_text(script, SCRIPT_LIMIT, GodotError)
        source = printable(Path(script).name)
        return text, source, link_table(self.window.model, None, text, source)

    def export_link(self, path, godot: int, script=None) -> bool:
        """Write the link node (Godot `godot`) for the car on screen's exported script, or
        with `script` for the user's own car script at that path (as
        `export-godot --link --for-script`); a script refused: its message, nothing written."""
        window = self.window
        missing: list[str] = []

        def write() -> None:
            if script is None:
                preset = window.current_preset()
                node = export_link_node(preset.model, godot, tuning=preset.tuning)
            else:
                text, _, table = self._link_script(script)
                node = export_link_node(window.model, godot, script_text=text, source=script_label(script))
                missing.extend(table.missing)
            save_link_node(path, node)

        for_what = f"your script {Path(script).name}" if script else "the car script the sandbox exports"
        done = self.files.attempt(
            write,
            f"Exported the Godot {godot} link node {path} for {for_what}: add it to your game as a child of the car",
        )
        if done and missing:
            window.statusBar().showMessage(
                f"Exported the Godot {godot} link node {path} for {for_what}; not in the script, so left out: "
                + ", ".join(missing),
                12000,
            )
        return done

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

    def ask_script(self, title: str, scenes: bool = False) -> str | None:
        """Open dialog for a car script (with `scenes`, or a car scene), in the folder of
        the last Godot export."""
        folder = self.files.folder("godot/last_dir")
        kinds = "Car script or scene (*.gd *.tscn);;" if scenes else ""
        path, _ = QFileDialog.getOpenFileName(
            self.window, title, str(folder or Path.home()), kinds + "GDScript (*.gd);;All files (*)"
        )
        return path or None

    def import_dialog(self) -> None:
        path = self.ask_script("Import Godot script or scene", scenes=True)
        if path:
            self.import_script(path)

    def import_script(self, path) -> bool:
        """Apply the parameters a car.gd declares (a car.tscn: its script's and its collision
        shape), as one undo step; list what was not used. Inside a Godot project (a folder
        above holds project.godot), the controllers take the project's dead zones."""
        window = self.window
        result = self.files.read(lambda p: load_car(p, window.model), path)
        if result is None:
            return False
        window.panel.set_values(result.values, f"Import {Path(path).name}")
        bar = window.statusBar()
        said = f"Imported {len(result.values)} values from {path}"
        project = find_project(Path(path))
        if project is None:
            bar.showMessage(said, 6000)
        else:  # a file the controllers cannot read is said in the message; the import stands
            window.controllers.read_project(project / "project.godot", before=f"{said}. ")
        message = bar.currentMessage()
        if result.warnings:
            window.show_error(
                f"{path}: {len(result.values)} values imported.\n" + "\n".join(result.warnings), title="Import: notes"
            )
            bar.showMessage(message, 10000)  # the notes' box took the status bar
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
