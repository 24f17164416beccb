"""What the window remembers between runs (QSettings): the last preset, unsaved values,
tick rate, layout and zoom; autosaved so a crash loses at most AUTOSAVE_MS.

A session that cannot be shown must not lock the user out: while the window opens a
session, "session/opening" is set, and cleared once the window has been on screen for
SHOWN_MS (or closes normally). A start that finds it still set knows the last one died
while opening that session: the session is set aside in a file (nothing is lost), every
setting a start reads is cleared, and the window opens on the recipe's defaults, with a
message saying where the file is.

Every value read back from the settings goes through `checked_setting`."""

from __future__ import annotations

import json
import math
import os
import time
from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings, QTimer
from PySide6.QtWidgets import QLabel

from ..errors import UserError, shown
from ..files.disk import folder_problem, write_text_atomic
from ..files.presets import Preset, declared_preset, default_preset, dump_preset, load_preset, parse_preset, user_dir
from .camera import CAMERA_VALUES, ZOOM_RANGE
from .qt import APPLICATION, ORGANIZATION

AUTOSAVE_MS = 1000
"""The session is written this long after the last change (debounced)."""
AUTOSAVE_RETRY_MS = 10000
"""A session that could not be written is tried again this often (and at each change)."""
SHOWN_MS = 1500
"""ms on screen after which a session counts as shown (see the module's docstring)."""
OPENING = "session/opening"


def settings() -> QSettings:
    return QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, ORGANIZATION, APPLICATION)


C_INT = (-(2**31), 2**31 - 1)
"""What a whole number handed to Qt must fit (a C int)."""
TEXT_LIMIT = 1024 * 1024
"""characters: a path or an autosaved tuning is far shorter; a layout's bytes too."""
KEPT_KEYS = ("export/last_dir", "godot/last_dir", "godot/version", "godot/scene")
"""Settings read only when a dialog opens: a start that failed cannot have failed on them."""
_notes: list[str] = []
"""Settings found damaged and replaced by their defaults, not yet said in the window."""


def _converted(raw, default):
    """`raw` (as QSettings gives it back: often text) as the type of `default`, or None."""
    if isinstance(default, QByteArray):
        data = QByteArray(raw) if isinstance(raw, (QByteArray, bytes)) else None
        return data if data is not None and data.size() <= TEXT_LIMIT else None
    if isinstance(default, str):
        return raw if isinstance(raw, str) and "\0" not in raw and len(raw) <= TEXT_LIMIT else None
    if not isinstance(raw, (str, int, float)) or len(str(raw)) > 40:  # a list, bytes, or no number
        return None
    text = str(raw).strip().lower()
    if isinstance(default, bool):
        return {"true": True, "1": True, "false": False, "0": False}.get(text)
    try:
        value = int(text) if isinstance(default, int) else float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def checked_setting(key: str, default, low=None, high=None, choices=None, check=None):
    """The value kept under `key`, or `default` when what is kept there is not of
    `default`'s type (bool, int, float, text, bytes), within low … high (a whole number:
    within a C int, Qt's), one of `choices`, or accepted by `check(value)` (which
    raises ValueError if not). A bad value is removed from the
    settings and a one-line note kept for the window: a settings file edited or damaged
    by hand must never reach Qt or the drawing code (0 or nan px/m crashed every start)."""
    store = settings()
    if not store.contains(key):
        return default
    raw = store.value(key)
    value = _converted(raw, default)
    if isinstance(default, int) and not isinstance(default, bool):  # for Qt: within a C int
        low, high = max(C_INT[0], C_INT[0] if low is None else low), min(C_INT[1], C_INT[1] if high is None else high)
    if value is not None and (
        (low is not None and value < low)
        or (high is not None and value > high)
        or (choices is not None and value not in choices)
    ):
        value = None
    if value is not None and check is not None:
        try:
            check(value)
        except (ValueError, TypeError, RecursionError):
            value = None
    if value is not None:
        return value
    store.remove(key)
    what = "the saved layout" if isinstance(default, QByteArray) else f"{shown(str(raw))!r}"
    _notes.append(f"The setting {key} ({what}) could not be used; it is back to its default.")
    return default


def take_setting_notes() -> str:
    """The notes of `checked_setting` not yet shown, as one line (and forgets them)."""
    text = " ".join(_notes)
    _notes.clear()
    return text


def set_aside_dir():
    """Where sessions that could not be shown are kept (beside the user presets)."""
    return user_dir().parent / "set-aside"


def set_aside_session(why: str) -> str:
    """Move the saved session out of the way: its tuning text goes to a file in
    `set_aside_dir`, and every setting a start reads (the last preset, the view, the
    layout, the window's place) is cleared: any of them may be what could not be shown.
    Returns the message for the user."""
    store = settings()
    text, last = store.value("preset/tuning"), store.value("preset/last_path")
    where = ""
    if text or last:
        path = set_aside_dir() / time.strftime("session-%Y%m%d-%H%M%S.json")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_text_atomic(path, str(text) if text else json.dumps({"last_preset": str(last)}) + "\n")
            where = f" It is kept in {path}."
        except (OSError, UserError) as exc:
            where = f" It could not be kept ({exc})."
    for key in store.allKeys():
        if key not in KEPT_KEYS:
            store.remove(key)
    store.sync()
    return (
        f"The last session could not be shown ({why}), so the sandbox starts from the recipe's defaults, "
        f"with the default view and layout.{where}"
    )


def _accepted_by(restore):
    """A `checked_setting` check: the bytes are good if `restore(bytes)` takes them."""

    def check(data) -> None:
        if not restore(data):
            raise ValueError("not a layout this window can use")

    return check


class SessionMemory:
    """What `window` (a MainWindow, which owns this) keeps between runs: start from the
    last session, keep the layout, and autosave. `note`: what the start has to say
    (set aside, restored, damaged settings), shown once the window is up."""

    def __init__(self, window):
        self.window = window
        self.remember = window.remember
        self.note = ""
        self._layout_restored = False
        self._notes_shown: str | None = None
        self._unsaved_marker: QLabel | None = None
        self.timer = QTimer(window)  # the autosave, debounced
        self.timer.setSingleShot(True)
        self.timer.setInterval(AUTOSAVE_MS)
        self.timer.timeout.connect(self.autosave)

    def initial_preset(self) -> tuple[Preset, Preset | None]:
        """The last preset used (or the recipe's defaults) and, if the last session
        ended with unsaved changes, those values and tick rate. Marks the session as
        opening (see the module's docstring)."""
        if not self.remember:
            return default_preset(), None
        store = settings()
        if store.value(OPENING):
            self.note += set_aside_session("the sandbox stopped while opening it") + " "
        store.setValue(OPENING, 1)
        store.sync()
        preset = default_preset()
        last = checked_setting("preset/last_path", "")
        gone = False
        if last:
            try:
                preset = load_preset(last)
            except UserError as exc:
                gone = True
                self.note = f"Could not reopen the last preset ({exc}); using {preset.name}. "
        restored = None
        text = checked_setting("preset/tuning", "")
        if text:
            try:
                fixes: list[str] = []
                saved = parse_preset(text, "last session's tuning", fixes)
                if fixes:
                    self.note += (
                        "Some of last session's values were damaged and are back to their "
                        f"defaults: {'; '.join(fixes)}. "
                    )
                if gone and saved.model is not preset.model:  # the file is gone, its tuning is not
                    preset = declared_preset(saved.model, saved.name)
                    self.note = (
                        "Could not reopen the last preset file; its tuning comes back from "
                        "the autosave (save it again to keep it). "
                    )
                differs = dict(saved.tuning) != dict(preset.tuning) or saved.hz != preset.hz
                if saved.model is preset.model and differs:
                    restored = saved
            except UserError as exc:
                self.note += f"Could not restore {exc}; starting from {preset.name}. "
        return preset, restored

    def shown(self) -> None:
        """The session is on screen (or the window closes normally): it can be shown."""
        if self.remember:
            store = settings()
            store.remove(OPENING)
            store.sync()

    def setting(self, key: str, default, **limits):
        """`checked_setting`, its note (if the value was bad) said in the status bar."""
        value = checked_setting(key, default, **limits)
        if self._layout_restored and _notes:
            shown_now = self.window.statusBar().currentMessage()
            earlier = shown_now + " " if shown_now == self._notes_shown else ""
            self._notes_shown = earlier + take_setting_notes()  # notes read together are said together
            self.window.statusBar().showMessage(self._notes_shown, 10000)
        return value

    def restore_layout(self) -> None:
        self.setting("window/geometry", QByteArray(), check=_accepted_by(self.window.restoreGeometry))
        self.setting("window/state", QByteArray(), check=_accepted_by(self.window.restoreState))
        low, high = ZOOM_RANGE
        track = self.window.track
        track.set_zoom(self.setting("view/zoom", float(track.zoom), low=low, high=high))
        track.set_camera(self.setting("view/camera", track.camera_mode, choices=CAMERA_VALUES))
        notes = take_setting_notes()
        if notes:
            self.note += notes + " "
        self._layout_restored = True

    def autosave(self) -> None:
        """Write the session (preset file, tuning, tick rate) to disk now, so a crash or
        kill -9 loses at most AUTOSAVE_MS of work; the next start restores it."""
        if not self.remember:
            return
        store = settings()
        preset = self.window.preset
        if preset.path is not None:
            store.setValue("preset/last_path", str(Path(preset.path).resolve()))
        store.setValue("preset/tuning", dump_preset(self.window.current_preset()))
        store.sync()
        self._say_if_not_saved(store)

    def _say_if_not_saved(self, store: QSettings) -> None:
        """When the session cannot be written (a folder that cannot be written, no home
        folder, a full disk), say so once in the status bar and keep a marker in it until
        a later autosave works; keep trying meanwhile."""
        marker = self._unsaved_marker
        if store.status() == QSettings.Status.NoError:
            self.timer.setInterval(AUTOSAVE_MS)
            if marker is not None and not marker.isHidden():
                marker.hide()
                self.window.statusBar().showMessage(f"Autosaving again to {store.fileName()}", 5000)
            return
        if marker is None:
            marker = self._unsaved_marker = QLabel("⚠ Not autosaved")
            marker.setObjectName("unsaved_marker")
            self.window.statusBar().addPermanentWidget(marker)
            marker.hide()
        reason = folder_problem(Path(store.fileName()).parent) or "the disk may be full, or the file is not writable"
        if os.name == "posix" and not os.environ.get("HOME"):  # Qt then keeps its settings under /
            reason = f"no home folder is set (HOME); {reason}"
        text = (
            f"Your tuning cannot be autosaved to {store.fileName()} ({reason}), so it would not come back "
            "after a crash or a restart. Save it as a preset to keep it; the sandbox keeps trying."
        )
        marker.setToolTip(text)
        if marker.isHidden():
            marker.show()
            self.window.statusBar().showMessage(text, 15000)
        self.timer.start(AUTOSAVE_RETRY_MS)
