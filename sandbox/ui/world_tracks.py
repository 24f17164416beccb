"""The Track menu's work: which track (the world) the window shows, opened from a file
(.json, .csv, .tscn), a built-in by name, a recent file, the linked game's level (Link →
Pull level from game), or none (the open field); the car put at its spawn; the last
track and the recent files kept in the settings (a game's level is not a file: the last
file track stays the one kept); Save track as… writes the track shown as a track file.

The walls are drawn; the car does not meet them yet (contact comes to the models later).
Not to be confused with the car view, `window.track` (a TrackView)."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QMenu

from ..errors import UserError
from ..files.recorded_track import BUILTIN, file_hash, named_track, open_recorded_track
from ..files.tracks import BUILTIN_TRACKS, builtin_track_names, find_builtin_track, open_track, save_track
from ..physics.track import Track
from .menus import add_action
from .window_memory import settings
from .world_layer import world_note

RECENT_LIMIT = 6
"""Recent track files kept in the Track menu."""
LAST_KEY = "track/last"
"""The last track: "builtin:NAME", a file's path, or "" for the open field."""
RECENT_KEY = "track/recent"
"""The recent track files, newest first, as a JSON list of paths."""
FILE_PATTERN = (
    "Tracks (*.json *.csv *.tscn);;Track files (*.json);;Racetrack-database circuits (*.csv);;Godot levels (*.tscn)"
)
GAME = "game:"
"""The source of a level pulled from the linked game (not kept as the last track)."""


def _recent_list(text: str) -> list[str]:
    """The recent files kept as `text`; ValueError when it is not a list of paths."""
    value = json.loads(text)
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValueError("not a list of paths")
    return value[:RECENT_LIMIT]


def read_named_track(text: str) -> tuple[Track, str]:
    """The track `text` names (a track file, or a built-in track's name) and its source
    as kept in the settings; UserError (TrackError) naming the problem."""
    path = find_builtin_track(text)
    track = open_track(path)
    if path.resolve().parent == BUILTIN_TRACKS.resolve():
        return track, BUILTIN + path.stem
    return track, str(path.resolve())


class WorldTracks:
    """The track of `window` (a MainWindow, which owns this): `track` (None: the open
    field), `source` (what it was opened from, as kept in the settings) and the recent
    files."""

    def __init__(self, window):
        self.window = window
        self.track: Track | None = None
        self.source = ""
        self.recent: list[str] = []
        # the Track menu's entry of the game's level: ticked, and named after it, while it is shown
        self.game_action = QAction("Level from the game", window)
        self.game_action.setObjectName("track_from_game_action")
        self.game_action.setCheckable(True)
        self.game_action.setStatusTip("Pull the linked game's level (Link → Pull level from game)")
        self.game_action.triggered.connect(self._pull_from_game)
        if window.remember:
            self.recent = _recent_list(window.memory.setting(RECENT_KEY, "[]", check=_recent_list))

    # --- opening -------------------------------------------------------------------
    def open_dialog(self) -> None:
        start = str(Path(self.source).parent) if self.source and not self.source.startswith(BUILTIN) else ""
        path, _ = QFileDialog.getOpenFileName(self.window, "Open track", start, FILE_PATTERN)
        if path:
            self.open_file(path)

    def open_file(self, path) -> bool:
        """Open the track file `path`; a file that cannot be read is said in one message
        naming the problem, and the current track stays."""
        path = str(Path(path).resolve())
        try:
            track = open_track(path)
        except UserError as exc:
            self.window.show_error(str(exc), "Could not open the track")
            if not Path(path).exists() and path in self.recent:
                self.recent.remove(path)
                self._keep()
            return False
        self.recent = [path] + [p for p in self.recent if p != path][: RECENT_LIMIT - 1]
        self.show_track(track, path)
        return True

    def open_builtin(self, name: str) -> bool:
        try:
            track = open_track(find_builtin_track(name))
        except UserError as exc:
            self.window.show_error(str(exc), "Could not open the track")
            return False
        self.show_track(track, BUILTIN + name)
        return True

    def show_named(self, text: str) -> None:
        """A built-in track's name or a track file (the command line's `--track`);
        UserError (TrackError) when it cannot be read, nothing changed."""
        self.show_track(*read_named_track(text))

    def show_game_level(self, track: Track) -> None:
        """The linked game's level (link_level.py) as the track, "from the game"."""
        self.show_track(track, GAME + track.name)
        walls = len(track.polylines) + len(track.rects) + len(track.circles)
        notes = f"; {len(track.notes)} notes on what was not read (point here for them)" if track.notes else ""
        self.window.link_panel.show_level(f"The game's level: {walls} walls{notes}", track.notes)

    def _pull_from_game(self) -> None:
        self.game_action.setChecked(self.from_game)  # ticked once the level is shown, not at the click
        self.window.link.pull_level()

    @property
    def from_game(self) -> bool:
        """The track shown is a level pulled from the game."""
        return self.source.startswith(GAME)

    def save_dialog(self) -> None:
        """Track → Save track as…: the track shown as a JSON track file; one that cannot
        be written (or would not load again) is said, nothing written."""
        if self.track is None:
            self.window.show_error("No track is open: the open field has nothing to save", "Save track")
            return
        name = self.track.name.replace(" (from the game)", "").strip() or "track"
        safe = "".join(c if c.isalnum() or c in "-_ " else "_" for c in name).strip().replace(" ", "_") + ".json"
        path, _ = QFileDialog.getSaveFileName(self.window, "Save track as", safe, "Track files (*.json)")
        if not path:
            return
        try:
            written = save_track(self.track, path)
        except UserError as exc:
            self.window.show_error(str(exc), "Could not save the track")
            return
        self.window.statusBar().showMessage(f"Track saved as {written}", 8000)

    def follow_named(self, path) -> bool:
        """Before a saved drive is replayed: the track its file names shown (it was driven
        there), unless it is the one shown already; a file that names none replays on the
        track shown. False (said in one message, nothing changed) when the named track
        cannot be opened: moved, deleted or changed since the drive."""
        try:
            named = named_track(path)
            if named is None or (named.builtin and self.source == BUILTIN + named.builtin):
                return True
            if not named.builtin and self.source == named.path and file_hash(named.path) == named.sha256:
                return True
            track = open_recorded_track(named, Path(path).name)
        except UserError as exc:
            self.window.show_error(str(exc), "Could not open the drive's track")
            return False
        self.show_track(track, BUILTIN + named.builtin if named.builtin else named.path)
        return True

    def open_field(self) -> None:
        """No track: the open field, the car at the origin."""
        self.show_track(None, "")

    def restore(self) -> None:
        """The last track of the last run (a file gone: said, and the open field)."""
        last = self.window.memory.setting(LAST_KEY, "")
        opened = True
        if last.startswith(BUILTIN):
            opened = self.open_builtin(last[len(BUILTIN) :])
        elif last:
            opened = self.open_file(last)
        if not opened:
            self._keep()  # the open field from now on: the message is not said at every start

    def show_track(self, track: Track | None, source: str) -> None:
        """Show `track` (None: the open field), read from `source` (a file's path, or
        "builtin:NAME"), and put the car at its spawn."""
        w = self.window
        self.track, self.source = track, source
        w.drive.track = track
        w.track.set_world_track(track)
        w.wheel.track_changed()
        w._request_metrics()  # the lap figures are the track's
        self._keep()
        w.drive_view.reset_car()  # at the track's spawn
        self.game_action.setChecked(self.from_game)
        self.game_action.setText(track.name if self.from_game else "Level from the game")
        if track is None:
            w.statusBar().showMessage("The open field: nothing to meet", 5000)
        else:
            said = "" if track.is_open_field else f" ({world_note(w.model, w.tuning, track)})"
            w.statusBar().showMessage(f"Track: {track.name}{said}", 10000)
        w.menus.refresh()

    def _keep(self) -> None:
        if self.window.remember and not self.from_game:
            store = settings()
            store.setValue(LAST_KEY, self.source)
            store.setValue(RECENT_KEY, json.dumps(self.recent))

    # --- the menu ------------------------------------------------------------------
    def fill_builtin(self, menu: QMenu) -> None:
        menu.clear()
        for name in builtin_track_names():
            action = add_action(
                menu, name.replace("_", " ").capitalize(), lambda _=False, n=name: self.open_builtin(n),
                tip=str(BUILTIN_TRACKS / f"{name}.json"),
            )  # fmt: skip
            action.setCheckable(True)
            action.setChecked(self.source == BUILTIN + name)

    def fill_recent(self, menu: QMenu) -> None:
        menu.clear()
        for path in self.recent:
            add_action(menu, Path(path).name, lambda _=False, p=path: self.open_file(p), tip=path)
        if not self.recent:
            menu.addAction("(none yet)").setEnabled(False)

    def zoom_to_track(self) -> None:
        """View → Zoom to track: the whole track in the view, around the car."""
        if not self.window.track.zoom_to_world():
            self.window.statusBar().showMessage("No track is open: Track → Open track… or a built-in one", 5000)
