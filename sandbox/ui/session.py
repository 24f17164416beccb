"""What the window remembers between runs (QSettings): the last preset, unsaved values,
tick rate, layout and zoom; autosaved so a crash loses at most AUTOSAVE_MS. A mixin for
MainWindow.

A session that cannot be shown must not lock the user out: while the window opens a
session, "session/opening" is set, and cleared once the window has been on screen for
SHOWN_MS (or closes normally). A start that finds it still set knows the last one died
while opening that session: the session is set aside in a file (nothing is lost) and
the window opens on the recipe's defaults, with a message saying where the file is."""

from __future__ import annotations

import json
import math
import time
from pathlib import Path

from PySide6.QtCore import QSettings

from ..errors import UserError
from ..files.disk import write_text_atomic
from ..files.presets import Preset, declared_preset, default_preset, dump_preset, load_preset, parse_preset, user_dir
from .qt import APPLICATION, ORGANIZATION
from .track_view import ZOOM_RANGE

AUTOSAVE_MS = 1000
"""The session is written this long after the last change (debounced)."""
SHOWN_MS = 1500
"""ms on screen after which a session counts as shown (see the module's docstring)."""
OPENING = "session/opening"


def settings() -> QSettings:
    return QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, ORGANIZATION, APPLICATION)


def _float_setting(key: str, default: float, low: float = -math.inf, high: float = math.inf) -> float:
    """A number kept in the settings, or `default` when what is kept there is not a
    finite number within low … high (a settings file edited or damaged by hand must not
    reach the drawing code: 0 or nan px/m crashed every start)."""
    try:
        value = float(settings().value(key, default))
    except (TypeError, ValueError, OverflowError):
        return default
    return value if math.isfinite(value) and low <= value <= high else default


def set_aside_dir():
    """Where sessions that could not be shown are kept (beside the user presets)."""
    return user_dir().parent / "set-aside"


def set_aside_session(why: str) -> str:
    """Move the saved session (last preset and tuning) out of the way: its tuning text
    goes to a file in `set_aside_dir`; returns the message for the user."""
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
    for key in ("preset/tuning", "preset/last_path", OPENING, "window/geometry", "window/state", "view/zoom"):
        store.remove(key)  # the layout too: it may be what could not be shown
    store.sync()
    return f"The last session could not be shown ({why}), so the sandbox starts from the recipe's defaults.{where}"


class SessionMixin:
    """Start from the last session, keep the layout, and autosave."""

    def _initial_preset(self) -> tuple[Preset, Preset | None]:
        """The last preset used (or the recipe's defaults) and, if the last session
        ended with unsaved changes, those values and tick rate. Marks the session as
        opening (see the module's docstring)."""
        if not self.remember:
            return default_preset(), None
        store = settings()
        if store.value(OPENING):
            self._startup_note += set_aside_session("the sandbox stopped while opening it") + " "
        store.setValue(OPENING, 1)
        store.sync()
        preset = default_preset()
        last = store.value("preset/last_path")
        gone = False
        if last:
            try:
                preset = load_preset(last)
            except UserError as exc:
                gone = True
                self._startup_note = f"Could not reopen the last preset ({exc}); using {preset.name}. "
        restored = None
        text = store.value("preset/tuning")
        if text:
            try:
                saved = parse_preset(str(text), "last session's tuning")
                if gone and saved.model is not preset.model:  # the file is gone, its tuning is not
                    preset = declared_preset(saved.model, saved.name)
                    self._startup_note = ("Could not reopen the last preset file; its tuning comes back from "
                                          "the autosave (save it again to keep it). ")
                differs = dict(saved.tuning) != dict(preset.tuning) or saved.hz != preset.hz
                if saved.model is preset.model and differs:
                    restored = saved
            except UserError as exc:
                self._startup_note += f"Could not restore {exc}; starting from {preset.name}. "
        return preset, restored

    def _session_shown(self) -> None:
        """The session is on screen (or the window closes normally): it can be shown."""
        if self.remember:
            store = settings()
            store.remove(OPENING)
            store.sync()

    def _restore_layout(self) -> None:
        store = settings()
        geometry, state = store.value("window/geometry"), store.value("window/state")
        if geometry is not None:
            self.restoreGeometry(geometry)
        if state is not None:
            self.restoreState(state)
        self.track.set_zoom(_float_setting("view/zoom", self.track.zoom, *ZOOM_RANGE))

    def autosave(self) -> None:
        """Write the session (preset file, tuning, tick rate) to disk now, so a crash or
        kill -9 loses at most AUTOSAVE_MS of work; the next start restores it."""
        if not self.remember:
            return
        store = settings()
        if self.preset.path is not None:
            store.setValue("preset/last_path", str(Path(self.preset.path).resolve()))
        store.setValue("preset/tuning", dump_preset(self.current_preset()))
        store.sync()

