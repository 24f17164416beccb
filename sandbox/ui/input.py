"""Keyboard driving: which keys are held, read once per physics tick (the drive
session's live control source).

An application-wide event filter sees the driving keys whatever widget has focus,
so clicking a slider never steals them. Auto-repeat events are ignored (a held key
is one press and one release; on X11 the server is asked not to send repeats as
release/press pairs, see x11_repeat), and every key is released when the window
loses focus, so a key let go elsewhere does not stay held.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QAbstractSpinBox, QApplication, QLineEdit

from ..physics.state import Controls
from ..session.input_channels import device_values
from ..session.sources import PadSource
from .x11_repeat import detectable_auto_repeat


def np_sign(value: int) -> int:
    return (value > 0) - (value < 0)


K = Qt.Key
ACTIONS = {
    K.Key_W: "accelerate",
    K.Key_Up: "accelerate",
    K.Key_S: "brake",
    K.Key_Down: "brake",
    K.Key_A: "steer_left",
    K.Key_Left: "steer_left",
    K.Key_D: "steer_right",
    K.Key_Right: "steer_right",
    K.Key_Space: "handbrake",
}
SHIFTS = {K.Key_E: 1, K.Key_Q: -1}
"""Manual gearbox (dynamic car): one gear per key press."""
_M = Qt.KeyboardModifier
SHORTCUT_MODIFIERS = _M.ControlModifier | _M.AltModifier | _M.MetaModifier
"""A key pressed with one of these is a shortcut's (Ctrl+E exports, Ctrl+Q quits), never
a driving key. Shift is not among them: no menu shortcut is Shift and a letter, and a
driver holding Shift (a slider dragged finely) still drives."""


EDITING_KEYS = tuple(
    getattr(QKeySequence.StandardKey, name) for name in ("Undo", "Redo", "Copy", "Cut", "Paste", "SelectAll")
)
"""A text box's own keys with Ctrl: a number box being typed in keeps them."""


def drives(event) -> bool:
    """Whether a key press may be a driving key: pressed without Ctrl, Alt or Meta."""
    return not event.modifiers() & SHORTCUT_MODIFIERS


HANDLED = frozenset(
    {
        QEvent.Type.KeyPress,
        QEvent.Type.KeyRelease,
        QEvent.Type.ShortcutOverride,
        QEvent.Type.WindowDeactivate,
        QEvent.Type.FocusOut,
    }
)
"""The event types the app-wide filter looks at: it sees every event of every widget
(about 10 000 in a model switch), so any other type goes back to Qt at once."""


class DriveKeys(QObject):
    """Held driving keys of one window, and the Tab key that toggles the panel."""

    tab_pressed = Signal()

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.held: set[Qt.Key] = set()
        self._shift = 0  # gear changes pressed since the last tick
        self._down: set[Qt.Key] = set()  # Tab and gear keys pressed and not yet let go
        self.pads = PadSource()  # the game controllers' last reading (pad_control.py polls them)
        self.device = (0.0, 0.0, 0.0)  # the last tick's raw steer, throttle, brake (the plots' input groups)
        app = QApplication.instance()
        app.installEventFilter(self)
        self.repeat_is_press_only = detectable_auto_repeat(app)
        app.applicationStateChanged.connect(self._on_app_state)

    def controls(self) -> Controls:
        """This tick's controls: steer -1/0/1, throttle, brake and handbrake 0/1, and
        the gear change pressed since the last tick (then forgotten)."""
        actions = {ACTIONS[k] for k in self.held}
        steer = float("steer_right" in actions) - float("steer_left" in actions)
        shift, self._shift = self._shift, 0
        return Controls(
            steer,
            float("accelerate" in actions),
            float("brake" in actions),
            float("handbrake" in actions),
            float(np_sign(shift)),
        )

    def controls_for_tick(self, tick: int) -> Controls:
        """The keyboard and the game controllers as the drive session's live control
        source (session.sources): per control, the larger of the two; `device` keeps
        the devices' raw values of this tick."""
        keyboard = self.controls()
        self.device = device_values(keyboard, self.pads.reading)
        return self.pads.beside(keyboard)

    def detach(self) -> None:
        """Stop watching the application's events (the window is closing)."""
        QApplication.instance().removeEventFilter(self)
        self.release_all()

    def release_all(self) -> None:
        self.held.clear()
        self._down.clear()

    def _on_app_state(self, state) -> None:
        if state != Qt.ApplicationState.ApplicationActive:
            self.release_all()

    def _mine(self, obj) -> bool:
        return hasattr(obj, "window") and callable(obj.window) and obj.window() is self.window

    def eventFilter(self, obj, event) -> bool:
        kind = event.type()
        if kind not in HANDLED:
            return False
        if kind == QEvent.Type.ShortcutOverride and self._mine(obj) and self._menu_first(event):
            event.ignore()  # the menu's shortcut runs (the box still gets the key when none has it)
            return True
        if kind in (QEvent.Type.WindowDeactivate, QEvent.Type.FocusOut) and obj is self.window:
            self.release_all()
            return False
        if kind not in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease) or not self._mine(obj):
            return False
        key = event.key()
        if kind == QEvent.Type.KeyRelease and not event.isAutoRepeat():
            self._down.discard(key)
        if kind == QEvent.Type.KeyPress and not drives(event):
            return False  # Ctrl+S is Save, not the brake; Ctrl+E exports in every model
        if key == K.Key_Tab and kind == QEvent.Type.KeyPress:
            if self._first_press(event):
                self.tab_pressed.emit()
            return True
        typing = isinstance(QApplication.focusWidget(), (QAbstractSpinBox, QLineEdit))
        if typing and kind == QEvent.Type.KeyPress and key in ACTIONS.keys() | SHIFTS.keys():
            return False  # a number box being typed in gets its letters and arrows (Enter gives the keys back)
        if key in SHIFTS and kind == QEvent.Type.KeyPress:
            if self._first_press(event):
                self._shift += SHIFTS[key]
            return True
        if key not in ACTIONS:
            return False
        if kind == QEvent.Type.KeyPress:
            if not event.isAutoRepeat():
                self.held.add(key)
        elif not event.isAutoRepeat():
            self.held.discard(key)  # whatever modifiers are down now, a release releases
        return True

    def _menu_first(self, event) -> bool:
        """A key with Ctrl, Alt or Meta in a number box being typed in is the menu's, but
        for the box's own editing keys: X11 gives a text box more (Ctrl+E, the end of the
        line) and would keep Ctrl+E from exporting while a value is typed."""
        typing = isinstance(QApplication.focusWidget(), (QAbstractSpinBox, QLineEdit))
        return typing and not drives(event) and not any(event.matches(keys) for keys in EDITING_KEYS)

    def _first_press(self, event) -> bool:
        """A press that starts a key stroke: not one Qt marks as a repeat, nor a press of
        a key already down (X11 sends repeats as presses alone, see x11_repeat)."""
        first = not event.isAutoRepeat() and event.key() not in self._down
        self._down.add(event.key())
        return first
