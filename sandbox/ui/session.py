"""What the window remembers between runs (QSettings): the last preset, unsaved values,
tick rate, layout and zoom; autosaved so a crash loses at most AUTOSAVE_MS. A mixin for
MainWindow."""

from __future__ import annotations

from PySide6.QtCore import QSettings

from ..errors import UserError
from ..files.presets import Preset, default_preset, dump_preset, load_preset, parse_preset
from .qt import APPLICATION, ORGANIZATION

AUTOSAVE_MS = 1000
"""The session is written this long after the last change (debounced)."""


def settings() -> QSettings:
    return QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, ORGANIZATION, APPLICATION)


def _float_setting(key: str, default: float) -> float:
    try:
        return float(settings().value(key, default))
    except (TypeError, ValueError):
        return default


class SessionMixin:
    """Start from the last session, keep the layout, and autosave."""

    def _initial_preset(self) -> tuple[Preset, Preset | None]:
        """The last preset used (or the recipe's defaults) and, if the last session
        ended with unsaved changes, those values and tick rate."""
        if not self.remember:
            return default_preset(), None
        store = settings()
        preset = default_preset()
        last = store.value("preset/last_path")
        if last:
            try:
                preset = load_preset(last)
            except UserError as exc:
                self._startup_note = f"Could not reopen the last preset ({exc}); using {preset.name}. "
        restored = None
        text = store.value("preset/tuning")
        if text:
            try:
                saved = parse_preset(str(text), "last session's tuning")
                differs = dict(saved.tuning) != dict(preset.tuning) or saved.hz != preset.hz
                if saved.model is preset.model and differs:
                    restored = saved
            except UserError as exc:
                self._startup_note += f"Could not restore {exc}; starting from {preset.name}. "
        return preset, restored

    def _restore_layout(self) -> None:
        store = settings()
        geometry, state = store.value("window/geometry"), store.value("window/state")
        if geometry is not None:
            self.restoreGeometry(geometry)
        if state is not None:
            self.restoreState(state)
        self.track.set_zoom(_float_setting("view/zoom", self.track.zoom))

    def autosave(self) -> None:
        """Write the session (preset file, tuning, tick rate) to disk now, so a crash or
        kill -9 loses at most AUTOSAVE_MS of work; the next start restores it."""
        if not self.remember:
            return
        store = settings()
        if self.preset.path is not None:
            store.setValue("preset/last_path", str(self.preset.path))
        store.setValue("preset/tuning", dump_preset(self.current_preset()))
        store.sync()

