"""File → Export → Update my script: the tuning written into the user's own Godot car
script. The dialog shows the change first (a diff: removed lines red, added green),
the parameters the script lacks, and keeps a backup unless told not to."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QColor, QFontDatabase, QSyntaxHighlighter, QTextCharFormat
from PySide6.QtWidgets import QCheckBox, QDialog, QDialogButtonBox, QLabel, QPlainTextEdit, QVBoxLayout

from ..errors import UserError
from ..files.disk import check_target
from ..files.godot import ROUNDED_NOTE, GodotError
from ..files.godot_into import backup_path, read_update, write_update
from ..files.presets import Preset

DIFF_COLOURS = {"-": ("#a31515", "#fde8e8"), "+": ("#116611", "#e6f6e6"), "@": ("#555555", None)}
"""A diff line's first character: (text colour, background) of the line."""


class DiffHighlighter(QSyntaxHighlighter):
    """Colours a unified diff: removed lines, added lines, and the @@ hunk headers."""

    def highlightBlock(self, text: str) -> None:
        if text.startswith(("---", "+++")) or text[:1] not in DIFF_COLOURS:
            return
        colour, background = DIFF_COLOURS[text[0]]
        line = QTextCharFormat()
        line.setForeground(QColor(colour))
        if background:
            line.setBackground(QColor(background))
        self.setFormat(0, len(text), line)


class UpdateScriptDialog(QDialog):
    """The change the tuning makes to the script at `path`, and Write / Cancel.
    Raises GodotError (before showing anything) when the script is refused."""

    def __init__(self, preset: Preset, path: str | Path, parent=None):
        old, update = read_update(Path(path), preset)  # refused before any widget is made
        super().__init__(parent)
        self.path = Path(path)
        self.old, self.update = old, update
        self.written = False
        self.setWindowTitle(f"Update {self.path.name} with {preset.name!r}")

        changed = self.update.changed
        self.summary = QLabel(
            f"{len(changed)} value{'s' if len(changed) != 1 else ''} change in {self.path}; nothing else in it does."
            if changed
            else f"{self.path.name} already holds these values: there is nothing to write."
        )
        self.summary.setWordWrap(True)
        self.diff = QPlainTextEdit()
        self.diff.setReadOnly(True)
        self.diff.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.diff.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.diff.setTabStopDistance(4 * self.diff.fontMetrics().horizontalAdvance(" "))
        self.highlighter = DiffHighlighter(self.diff.document())  # before the text: coloured as it is set
        self.diff.setPlainText(self.update.diff)
        self.diff.setToolTip("The change to the script: removed lines in red, added lines in green")
        missing = self.update.missing
        self.missing = QLabel(
            "Not in the script (not added): " + ", ".join(missing)
            if missing
            else "The script declares every parameter."
        )
        self.missing.setWordWrap(True)
        notes = self.update.notes + ([f"{ROUNDED_NOTE}: {', '.join(update.rounded)}"] if update.rounded else [])
        self.notes = QLabel("\n".join(f"Note: {note[0].upper()}{note[1:]}." for note in notes))
        self.notes.setWordWrap(True)
        self.notes.setVisible(bool(notes))
        self.backup = QCheckBox(f"Keep a backup ({backup_path(self.path).name})")
        self.backup.setChecked(True)
        self.note = QLabel()
        self.note.setWordWrap(True)

        self.buttons = QDialogButtonBox()
        self.write_button = self.buttons.addButton("&Write", QDialogButtonBox.ButtonRole.AcceptRole)
        self.write_button.setEnabled(bool(changed))
        if changed:
            try:  # a read-only script is said now, not after Write
                check_target(self.path, (), GodotError)
            except UserError as exc:
                self.write_button.setEnabled(False)
                self.note.setText(f"Cannot be written: {exc}")
        self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.write_button.clicked.connect(self.write)
        self.buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.diff, 1)
        layout.addWidget(self.missing)
        layout.addWidget(self.notes)
        layout.addWidget(self.backup)
        layout.addWidget(self.note)
        layout.addWidget(self.buttons)
        self.resize(820, 560)

    def write(self) -> bool:
        """Write the change shown (and the backup); on a failure say why and stay open."""
        try:
            write_update(self.path, self.old, self.update, self.backup.isChecked())
        except UserError as exc:
            self.note.setText(f"Not written: {exc}")
            return False
        self.written = True
        self.accept()
        return True
