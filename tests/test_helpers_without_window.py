"""The window's helpers built without the window: each gets only the parts it declares
(real ones where they are cheap: a real LiveTuning, DriveSession, panel or link server),
so a helper that reaches for more of the window fails here. Each does one real thing."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QWidget

from sandbox.physics.models import arcade
from sandbox.session.tuning import LiveTuning
from sandbox.ui.link_panel import LinkPanel
from sandbox.ui.link_pull import PullFromGame
from sandbox.ui.messages import Messages
from sandbox.ui.tuning_panel import TuningPanel

WAIT_MS = 10000
"""ms a test waits for the link before it fails (never a figure the test checks)."""


def protocol_members(protocol) -> set[str]:
    """The names a Protocol declares: its attributes and its methods."""
    methods = {name for name, value in vars(protocol).items() if callable(value) and not name.startswith("_")}
    return set(protocol.__annotations__) | methods


def stand_in(protocol, qtbot, **parts) -> QWidget:
    """A bare widget (dialogs and timers need a parent) holding exactly `parts`, which
    must be exactly what `protocol` declares."""
    assert set(parts) == protocol_members(protocol)
    host = QWidget()
    qtbot.addWidget(host)
    for name, part in parts.items():
        setattr(host, name, part)
    return host


class Said:
    """Messages that keep what was said: `errors` and `lines` (the status bar's)."""

    def __init__(self):
        self.errors: list[str] = []
        self.lines: list[str] = []
        self.messages = Messages(
            lambda text, title="": self.errors.append(text), lambda text, ms: self.lines.append(text)
        )


class Plots:
    """The live plots as the link uses them: the game's car last set."""

    def __init__(self):
        self.game = None

    def set_game(self, name, speed=None, slip_deg=None):
        self.game = (name, speed, slip_deg)


@pytest.fixture
def tuning():
    return LiveTuning(arcade, hz=60)


def test_pull_from_game_puts_the_games_values_into_the_tuning_as_one_undo_step(qtbot, tuning):
    undo = QUndoStack()
    panel = TuningPanel(tuning, undo)
    qtbot.addWidget(panel)
    link = SimpleNamespace(server=None, game=None, panel=LinkPanel(), not_taken=[], sent={}, refused={})
    qtbot.addWidget(link.panel)
    said = Said()
    puller = PullFromGame(link, tuning, panel.set_values, said.messages, panel)
    puller.apply({"engine_power": 1300.0, "wheel_base": 90.0, "wings": 2.0})
    assert (tuning["engine_power"], tuning["wheel_base"]) == (1300.0, 90.0)
    assert undo.count() == 1  # one step
    assert link.sent == {"engine_power": 1300.0, "wheel_base": 90.0}  # the game has them: not sent back
    assert "wings: no such parameter" in said.errors[-1]
    undo.undo()
    assert (tuning["engine_power"], tuning["wheel_base"]) == (900, 70)  # arcade's defaults
