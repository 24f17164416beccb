"""Menus declared as data: each menu a tuple of entries (a command with its text,
shortcut, handler, tips, when it is enabled and ticked; a group of choices; an action
something else owns; a submenu), built in one place by `Menus` (the window's table is
menu_bar.py). What an entry
is enabled or ticked by is read from the window again by `Menus.refresh` whenever
the window's state changes. Handlers take the window, so an entry always acts on the
window's current parts (the tuning panel is replaced when the model changes)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMenu

Window = Any
"""The MainWindow the menus are built for (not imported: it imports this)."""
Keys = str | QKeySequence.StandardKey | None


@dataclass(frozen=True)
class Command:
    """One menu item: `call(window)` when triggered. `enabled(window)` and
    `checked(window)` (a checkable item) are read by `Menus.refresh`; while disabled
    the status tip says `why_disabled`. `name`: the window attribute the action is
    kept as; `listed`: the window's list of actions it joins."""

    text: str
    call: Callable[[Window], object]
    shortcut: Keys = None
    tip: str = ""
    enabled: Callable[[Window], bool] | None = None
    why_disabled: str = ""
    checked: Callable[[Window], bool] | None = None
    name: str = ""
    listed: str = ""


@dataclass(frozen=True)
class Choices:
    """An exclusive group of checkable items, one per (label, value, tip[, shortcut])
    of `items(window)`; triggering one calls `pick(window, value)`; `current(window)` is
    the value ticked. `name`: the window attribute the QActionGroup is kept as."""

    items: Callable[[Window], list[tuple]]
    pick: Callable[[Window, Any], object]
    current: Callable[[Window], Any]
    name: str


@dataclass(frozen=True)
class Owned:
    """An action another part of the window owns (undo stack, a dock, the replay bar),
    listed here with `shortcuts` (the first is the one shown); or several, in order
    (every dock's, read from the window when the menu is built)."""

    action: Callable[[Window], QAction | list[QAction]]
    shortcuts: tuple[str, ...] = ()


@dataclass(frozen=True)
class Submenu:
    """A menu of `entries`; or, with `fill`, one filled again before each showing
    (`fill(window, menu)`), and at the start if `filled_at_start`. `name`: the window attribute the QMenu is kept as."""

    text: str
    entries: tuple = ()
    fill: Callable[[Window, QMenu], None] | None = None
    name: str = ""
    filled_at_start: bool = True  # its shortcuts (Ctrl+1…9) work before it is first opened


SEPARATOR = None


def add_action(menu: QMenu, text: str, slot, shortcut: Keys = None, tip: str = "") -> QAction:
    """A plain action at the end of `menu`, owned by it (menu.clear() deletes it)."""
    action = QAction(text, menu)
    if shortcut is not None:
        action.setShortcut(QKeySequence(shortcut))
    if tip:
        action.setStatusTip(tip)
        action.setToolTip(tip)
    action.triggered.connect(slot)
    menu.addAction(action)
    return action


def shortcut_rows(owner, path: str = "") -> list[str]:
    """ "keys · Menu → Command" for every command under `owner` (a menu bar or menu)
    that has a shortcut, read from the menus themselves (F1's list is never out of date)."""
    rows = []
    # submenus found as the owner's child widgets: QAction.menu() would hand Python
    # a wrapper that deletes the menu when it is collected (the menu then dies)
    submenus = {
        menu.menuAction(): menu for menu in owner.findChildren(QMenu, options=Qt.FindChildOption.FindDirectChildrenOnly)
    }
    for action in owner.actions():
        label = action.text().replace("&", "")
        if action in submenus:
            rows += shortcut_rows(submenus[action], f"{path}{label} → ")
        elif not action.shortcut().isEmpty():
            keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
            rows.append(f"{keys} · {path}{label.rstrip('…')}")
    return rows


@dataclass
class Menus:
    """The menu bar of `window` built from `entries`; `refresh()` reads every
    enabled-when and ticked-when of the table from the window again."""

    window: Window
    entries: tuple
    rules: list = field(default_factory=list)  # (QAction, Command) with an enabled or checked rule
    groups: list = field(default_factory=list)  # (QActionGroup, Choices)
    fillers: dict = field(default_factory=dict)  # name -> (QMenu, its fill)
    lists: dict = field(default_factory=dict)  # name -> the actions listed under it

    def __post_init__(self) -> None:
        for entry in self.entries:
            self._add(self.window.menuBar(), entry)
        self.refresh()

    def _add(self, owner, entry) -> None:
        window = self.window
        if entry is SEPARATOR:
            owner.addSeparator()
        elif isinstance(entry, Submenu):
            menu = owner.addMenu(entry.text)
            if entry.name:
                setattr(window, entry.name, menu)
            for inner in entry.entries:
                self._add(menu, inner)
            if entry.fill is not None:
                self.fillers[entry.name] = (menu, entry.fill)
                menu.aboutToShow.connect(lambda menu=menu, fill=entry.fill: fill(window, menu))
                if entry.filled_at_start:
                    entry.fill(window, menu)
        elif isinstance(entry, Owned):
            owned = entry.action(window)
            for action in owned if isinstance(owned, list) else [owned]:
                if entry.shortcuts:
                    action.setShortcuts([QKeySequence(keys) for keys in entry.shortcuts])
                owner.addAction(action)
        elif isinstance(entry, Choices):
            group = QActionGroup(window)
            for label, value, tip, *keys in entry.items(window):
                pick = lambda _=False, v=value: entry.pick(window, v)  # noqa: E731
                action = add_action(owner, label, pick, keys[0] if keys else None, tip)
                action.setCheckable(True)
                action.setData(value)
                group.addAction(action)
            setattr(window, entry.name, group)
            self.groups.append((group, entry))
        else:
            action = add_action(owner, entry.text, lambda _=False: entry.call(window), entry.shortcut, entry.tip)
            action.setCheckable(entry.checked is not None)
            if entry.name:
                setattr(window, entry.name, action)
            if entry.listed:
                self.lists.setdefault(entry.listed, []).append(action)
                setattr(window, entry.listed, self.lists[entry.listed])
            if entry.enabled is not None or entry.checked is not None:
                self.rules.append((action, entry))

    def refresh(self) -> None:
        """Enable, disable and tick every entry as the window's state says now."""
        window = self.window
        for action, entry in self.rules:
            if entry.enabled is not None:
                on = bool(entry.enabled(window))
                action.setEnabled(on)
                if entry.why_disabled:
                    action.setStatusTip("" if on else entry.why_disabled)
            if entry.checked is not None:
                action.setChecked(bool(entry.checked(window)))
        for group, choices in self.groups:
            current = choices.current(window)
            for action in group.actions():
                action.setChecked(action.data() == current)

    def fill(self, name: str) -> None:
        """Fill the menu kept as `name` again now (before it is next shown)."""
        menu, fill = self.fillers[name]
        fill(self.window, menu)

    def fill_presets(self) -> None:
        self.fill("presets_menu")
