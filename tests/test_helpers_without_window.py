"""The window's helpers built without the window: each gets only the parts it declares
(real ones where they are cheap: a real LiveTuning, DriveSession, panel or link server),
so a helper that reaches for more of the window fails here. Each does one real thing."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QDockWidget, QLabel, QStatusBar, QWidget

from sandbox.files.presets import Preset, list_presets, load_preset
from sandbox.files.recordings import drive_recording
from sandbox.files.traces import BUILTIN_TRACES, load_trace
from sandbox.physics.models import arcade
from sandbox.session.drive import DriveSession
from sandbox.session.tuning import LiveTuning
from sandbox.ui.divergence_plot import DivergencePlot
from sandbox.ui.file_actions import FileActions, FilesHost
from sandbox.ui.link_control import LinkControl, LinkHost
from sandbox.ui.link_panel import LinkPanel
from sandbox.ui.link_pull import PullFromGame
from sandbox.ui.messages import Messages
from sandbox.ui.preset_switcher import PresetSwitcher, SwitcherHost
from sandbox.ui.recording_control import RecordingControl, RecordingHost
from sandbox.ui.track_view import TrackView
from sandbox.ui.tuning_panel import TuningPanel
from window_game_peer import GamePeer

WAIT_MS = 10000
"""ms a test waits for the link before it fails (never a figure the test checks)."""


def protocol_members(protocol) -> set[str]:
    """The names a Protocol declares: its attributes and its methods."""
    methods = {name for name, value in vars(protocol).items() if callable(value) and not name.startswith("_")}
    return set(protocol.__annotations__) | methods


def stand_in(protocol, qtbot, **parts) -> QWidget:
    """A bare widget (dialogs and timers need a parent) holding exactly `parts`, which
    must be what `protocol` declares besides what any widget has (its title)."""
    members = protocol_members(protocol)
    assert set(parts) == {name for name in members if not hasattr(QWidget, name)}
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


def test_the_link_sends_the_game_a_set_when_the_tuning_changes(qtbot, tuning):
    said = Said()
    status = QStatusBar()
    link_panel = LinkPanel()
    qtbot.addWidget(link_panel)
    host = stand_in(
        LinkHost,
        qtbot,
        link_panel=link_panel,
        panel=SimpleNamespace(set_values=tuning.update),
        tuning=tuning,
        drive=DriveSession(arcade, tuning, 60),
        track=TrackView(60),
        plots=Plots(),
        menus=SimpleNamespace(refresh=lambda: None),
        files=SimpleNamespace(),
        recordings=SimpleNamespace(),
        memory=SimpleNamespace(),
        controllers=SimpleNamespace(project="", read_project=lambda path, before="": False),
        remember=False,
        show_error=said.messages.show_error,
        statusBar=lambda: status,
        switch_model=lambda name: False,
    )
    link = LinkControl(host)
    link_panel.port.setValue(0)  # any free port
    assert link.listen(), said.errors
    peer = GamePeer(link.server.port, link.server.token, dict(tuning))
    peer.start()
    try:
        qtbot.waitUntil(lambda: link.game is not None, timeout=WAIT_MS)
        tuning.set("engine_power", 1200.0)
        qtbot.waitUntil(lambda: peer.params["engine_power"] == 1200.0, timeout=WAIT_MS)
        assert peer.sets[-1]["params"] == {"engine_power": 1200.0}  # only what changed
        qtbot.waitUntil(lambda: host.track.game is not None, timeout=WAIT_MS)  # the game's car drawn
        assert host.plots.game[0] == "Peer Test Game"
    finally:
        link.close()
        peer.stop()
    assert peer.errors == [] and said.errors == []


def test_a_replayed_recording_has_its_divergence_for_each_tuning(qtbot, tuning):
    """The recording was made with the same model and tuning, so the distance is float
    rounding at most; more power parts the cars; undoing it brings them together."""
    said, status = Said(), QStatusBar()
    drive = DriveSession(arcade, tuning, 60)
    dock = QDockWidget()
    dock.setWidget(DivergencePlot())
    qtbot.addWidget(dock)
    host = stand_in(
        RecordingHost,
        qtbot,
        panels=SimpleNamespace(recording_dock=dock),
        tuning=tuning,
        drive=drive,
        replay=SimpleNamespace(play_trace=drive.play_trace, scrub=lambda tick: None),
        track=TrackView(60),
        world=SimpleNamespace(track=None, follow_named=lambda path: True),  # the open field
        files=SimpleNamespace(),
        menus=SimpleNamespace(refresh=lambda: None),
        switcher=SimpleNamespace(),
        show_error=said.messages.show_error,
        statusBar=lambda: status,
    )
    recordings = RecordingControl(host, lambda: None)
    controls = load_trace(BUILTIN_TRACES / "slalom.csv")[:360]
    assert recordings.play(drive_recording(arcade, tuning.copy(), controls, 60), Path("drive.csv")), said.errors
    assert recordings.replaying and recordings.overlay in host.track.world_overlays
    assert float(np.max(recordings.result.distance)) < 1e-9
    tuning.set("engine_power", 1.1 * tuning["engine_power"])
    assert float(recordings.result.distance[-1]) > 10.0  # another tuning: computed again, apart (px)
    tuning.set("engine_power", 900.0)
    assert float(np.max(recordings.result.distance)) < 1e-9
    recordings.shutdown()


def builtin(model, name):
    """The built-in preset of `model` called `name`."""
    return load_preset(next(p for p, n, b, m in list_presets() if b and m == model.NAME and n == name))


def test_a_preset_is_loaded_as_one_undo_step_and_the_title_says_so(qtbot):
    first, drift = builtin(arcade, "Recipe defaults"), builtin(arcade, "Drift")
    tuning = LiveTuning(arcade, first.tuning, first.hz)
    status, undo = QStatusBar(), QUndoStack()
    views = SimpleNamespace(set_hz=lambda hz: None, refresh=lambda: None, reset_car=lambda: None)
    host = stand_in(
        SwitcherHost,
        qtbot,
        preset=first,
        fitted={},
        tuning=tuning,
        drive=DriveSession(arcade, tuning, first.hz),
        undo=undo,
        remember=False,
        files=SimpleNamespace(),
        menus=SimpleNamespace(refresh=lambda: None),
        memory=SimpleNamespace(),
        panels=SimpleNamespace(),
        panel=SimpleNamespace(title=QLabel(), show_rate=lambda hz: None),
        track=views,
        plots=views,
        drive_view=views,
        statusBar=lambda: status,
        show_error=lambda text: None,
    )
    switcher = PresetSwitcher(host)
    assert switcher.apply_preset(drift)
    assert undo.count() == 1 and host.preset is drift and dict(tuning) == dict(drift.tuning)
    assert host.windowTitle() == "car-sandbox — Drift"
    assert status.currentMessage() == "Preset Drift loaded"
    tuning.set("engine_power", 1300.0)
    assert host.windowTitle() == "car-sandbox — Drift *" and switcher.modified()
    undo.undo()
    assert host.preset is first and dict(tuning) == dict(first.tuning)
    assert host.windowTitle() == "car-sandbox — Recipe defaults" and "Recipe defaults" in host.panel.title.text()


def test_a_preset_is_saved_and_a_bad_one_refused_by_name(qtbot, tmp_path):
    drift = builtin(arcade, "Drift")
    tuning = LiveTuning(arcade, drift.tuning, drift.hz)
    said, status = Said(), QStatusBar()
    applied, changed, filled = [], [], []
    host = stand_in(
        FilesHost,
        qtbot,
        preset=drift,
        switcher=SimpleNamespace(
            preset_changed=lambda: changed.append(True), apply_preset=lambda p: applied.append(p) or True
        ),
        remember=False,
        memory=SimpleNamespace(),
        menus=SimpleNamespace(fill_presets=lambda: filled.append(True)),
        drive=DriveSession(arcade, tuning, drift.hz),
        replay=SimpleNamespace(),
        curves=SimpleNamespace(),
        plots=SimpleNamespace(),
        sweep=SimpleNamespace(),
        current_preset=lambda: Preset(arcade, tuning.copy(), drift.name, drift.description, tuning.hz),
        show_error=said.messages.show_error,
        statusBar=lambda: status,
    )
    files = FileActions(host)
    tuning.set("engine_power", 1300.0)
    path = tmp_path / "mine.json"
    assert files.save_preset_to(path, name="mine")
    assert host.preset.name == "mine" and changed and filled and status.currentMessage() == f"Saved {path}"
    assert load_preset(path).tuning["engine_power"] == 1300.0
    assert files.open_preset_file(path)
    assert [dict(p.tuning) for p in applied] == [dict(tuning)]
    bad = tmp_path / "bad.json"
    bad.write_text("{ not json")
    assert files.open_preset_file(bad) is False
    assert len(applied) == 1 and "bad.json" in said.errors[-1]
