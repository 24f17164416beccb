"""Recording the game's drive in the window (Link → Record game drive, Ctrl+Shift+L):
start, stop and save where the user says (a new file, or an older recording the user
chose to replace, kept as .bak; never a file that is not a recording), the question
before a recording would be lost, the recording's end when the game restarts or
another game takes the link, and Open it. Part of the window's LinkControl
(link_control.py)."""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QMessageBox

from ..errors import UserError, printable
from ..files.disk import make_folder
from ..files.traces import user_trace_dir
from ..link.record_target import replaced_recording

AGAIN = "Record game drive (Ctrl+Shift+L) saves it"
"""What saves a drive stopped and not yet saved."""


class GameDriveRecording:
    """LinkControl's recording: its `window`, `panel`, `server`, `recording` (a drive
    is being recorded and is not saved), `saved` (the drive last saved) and
    `ended_said` (the recording's end at a new hello is shown)."""

    def show_recording_end(self, status) -> None:
        """Once, when the recording ended at a new hello (`status`: a LinkStatus): said
        in the panel and the status bar; the drive before it is kept for saving."""
        if self.recording and status.recording_ended and not self.ended_said:
            self.ended_said = True
            text = f"The recording ended: {status.recording_ended}. Record game drive (Ctrl+Shift+L) saves it."
            self.panel.recorded.setText(text)
            self.window.statusBar().showMessage(text, 10000)

    def set_recording(self, on: bool) -> None:
        """Start recording the game's drive, or stop and save it where the user says."""
        if on and self.server is not None and not self.recording:
            self.server.start_recording()
            self.recording, self.ended_said = True, False
            self.panel.open_recorded.hide()
            self.panel.recorded.setText("Recording the game's drive…")
            self.window.statusBar().showMessage("Recording the game's drive: Ctrl+Shift+L again to stop", 5000)
        elif not on and self.recording:
            self.server.hold_recording()  # the drive ends at Stop, not when the file is chosen
            folder = user_trace_dir()
            try:
                make_folder(folder)
            except UserError:
                folder = Path.home()
            name = time.strftime("game_drive_%Y%m%d_%H%M%S.csv")
            path, _ = QFileDialog.getSaveFileName(
                self.window, "Save the game's drive", str(folder / name), "Trace CSV (*.csv)",
                options=QFileDialog.Option.DontConfirmOverwrite,  # asked below, knowing what the file is
            )  # fmt: skip
            if not (path and self._may_write(path) and self.stop_recording_to(path)):
                self.panel.recorded.setText(f"The game's drive is stopped and not saved: {AGAIN}.")
                self.window.statusBar().showMessage(f"The game's drive is not saved: {AGAIN}", 5000)
        self._show_listening()

    def _may_write(self, path) -> bool:
        """Whether the drive may be written to `path`: a new file, or an older recording
        the user chose to replace (kept as .bak); a file that is not a recording is
        refused with what it is."""
        w = self.window
        try:
            backup = replaced_recording(path)
        except UserError as exc:
            w.show_error(f"{exc}\nThe drive is kept: {AGAIN}, elsewhere.", "Record game drive")
            return False
        return backup is None or w.files.ask_to_replace(
            "Replace the recording?",
            f"{printable(Path(path).name)} is already a recording.",
            f"Replace it with the game's drive? The one there now is kept as {printable(backup.name)}.",
        )

    def keep_or_drop_recording(self, what: str) -> bool:
        """Before `what` would end a recording of the game's drive: Save, Discard or
        Cancel. True to go on (saved, or given up), False to stay as it is."""
        if not self.recording:
            return True
        buttons = QMessageBox.StandardButton
        answer = self.window.files.ask_to_save(
            "Recording the game's drive",
            f"The game's drive is being recorded and is not saved.\n{what} ends the recording.",
            "Save the drive first?",
        )
        if answer == buttons.Save:
            self.set_recording(False)
            return not self.recording
        if answer == buttons.Discard:
            self.server.discard_recording()
            self.recording = False
            self.panel.open_recorded.hide()
            self.panel.recorded.setText("The game's drive recorded was not saved.")
            self._show_listening()
            return True
        return False

    def stop_recording_to(self, path) -> bool:
        """Stop recording and write the drive to `path` (a trace with the pose per tick)."""
        w = self.window
        if self.server is None or not self.recording:
            return False
        try:
            summary = self.server.stop_recording(path)
        except UserError as exc:  # the link keeps recording: the drive can still be saved elsewhere
            w.show_error(f"{exc}\nThe drive is kept: {AGAIN}, elsewhere.", "Record game drive")
            self.panel.recorded.setText(f"Not saved (the drive is kept): {exc}")
            self._show_listening()
            return False
        self.recording = False
        self.saved = Path(summary.path)
        self.panel.open_recorded.show()
        text = f"Recorded {summary.rows} rows, {summary.seconds:.2f} s, {summary.lost_ticks} lost ticks: {summary.path}"
        if summary.backup is not None:
            text += f" (the older recording is kept as {printable(summary.backup.name)})"
        if summary.ended:
            text += f". It ended before it was stopped: {summary.ended}"
        self.panel.recorded.setText(text)
        self.panel.recorded.setToolTip("The last recording of the game's drive: rows (ticks), seconds, lost ticks")
        self._show_listening()
        w.statusBar().showMessage(f"{text} (Open it, in the Link tab, replays it as a game recording)", 8000)
        return True

    def open_saved(self) -> bool:
        """Replay the drive last saved as a game recording (Open it)."""
        return self.saved is not None and self.window.recordings.open_file(self.saved)
