"""The real window, offscreen, driven with pytest-qt, linked to a game: the real link
server on 127.0.0.1 (any free port) and a thread that speaks the protocol as the game
does (window_game_peer.py). The Link panel, values sent as they change, refusals,
the game's car drawn and plotted, Pull from game as one undo step, recording, a flood
of garbage, and Stop closing the port."""

import csv
import math
import shutil
import socket
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox

from conftest import ENGINE_REASON
from dialogs import answer
from sandbox.devtools.link_game import start_link_game
from sandbox.devtools.oracle import godot_binary
from sandbox.files.godot_link import export_link_node
from sandbox.files.presets import BUILTIN_DIR
from sandbox.files.traces import user_trace_dir
from sandbox.physics.models import arcade, monster
from sandbox.physics.params import Tuning
from sandbox.physics.state import Controls
from sandbox.ui.app import MainWindow
from sandbox.ui.palette import GAME
from sandbox.ui.track_view import GROUND_RGB
from window_game_peer import GAME as GAME_NAME
from window_game_peer import GamePeer
from window_helpers import paused

WAIT_MS = 60_000
"""ms a test waits for the link before it fails (never a figure the test checks)."""


@pytest.fixture
def linked(window, qtbot):
    """The window listening on a free port and a game peer linked to it."""
    window.link_panel.port.setValue(0)  # any free port
    window.link_panel.listen_button.click()
    assert window.link.listening
    server = window.link.server
    peer = GamePeer(server.port, server.token, dict(window.tuning))
    peer.start()
    qtbot.waitUntil(lambda: window.link.game is not None, timeout=WAIT_MS)
    yield window, peer
    peer.stop()
    assert peer.errors == []  # everything the sandbox sent kept to the protocol


def test_listen_shows_the_token_and_the_linked_game(linked):
    window, peer = linked
    panel = window.link_panel
    assert panel.token.text() == window.link.server.token and len(panel.token.text()) == 16  # 64 bits in hex
    assert panel.state.text() == f"Listening on 127.0.0.1:{window.link.server.port} (UDP)"
    assert panel.game.text() == GAME_NAME
    assert panel.godot.text() == "3.5.3"
    assert panel.model.text() == "arcade"
    assert panel.hz.text() == "60 Hz"
    assert "sent to the game" in panel.note.text()
    assert window.link_listen_action.isChecked()  # Link → Listen for the game is ticked
    window.link.copy_token()
    assert QApplication.clipboard().text() == window.link.server.token


def test_a_slider_change_reaches_the_game_as_a_set(linked, qtbot):
    window, peer = linked
    window.panel.sliders["engine_power"].setValue(1200)
    qtbot.waitUntil(lambda: peer.params["engine_power"] == 1200, timeout=WAIT_MS)
    assert peer.sets[-1]["params"] == {"engine_power": 1200.0}  # only what changed
    window.undo.undo()  # undo is a change too
    qtbot.waitUntil(lambda: peer.params["engine_power"] == 900, timeout=WAIT_MS)


def test_a_refused_value_is_shown_with_the_games_reason(linked, qtbot):
    window, peer = linked
    peer.limits["drag"] = (-0.5, 0.0)
    window.panel.sliders["drag"].setValue(-0.8)
    label = window.link_panel.refused
    qtbot.waitUntil(lambda: "drag" in label.text(), timeout=WAIT_MS)
    assert label.text() == "The game refused drag: -0.8 is outside -0.5 … 0"
    assert peer.params["drag"] == -0.06  # the game kept its own
    window.panel.sliders["drag"].setValue(-0.3)  # a value it takes: the refusal is over
    qtbot.waitUntil(lambda: peer.params["drag"] == -0.3, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: label.text() == "", timeout=WAIT_MS)


def test_a_game_of_another_model_gets_nothing_until_the_user_chooses(window, qtbot):
    window.link_panel.port.setValue(0)
    assert window.link.listen()
    peer = GamePeer(window.link.server.port, window.link.server.token, {"mass": 1500.0}, model="monster")
    peer.start()
    try:
        qtbot.waitUntil(lambda: window.link.game is not None, timeout=WAIT_MS)
        panel = window.link_panel
        assert "nothing is sent until you choose" in panel.note.text()
        assert not panel.switch_button.isHidden() and not panel.accept_button.isHidden()
        window.panel.sliders["engine_power"].setValue(1500)
        window.link.poll()
        assert window.link.sending is False and peer.sets == []
        asked: list[str] = []
        answer(QMessageBox.StandardButton.Discard, asked)  # the engine power moved above is given up
        window.link_panel.switch_button.click()  # "Switch the window to the …"
        assert "not saved" in asked[0]
        assert window.model.NAME == "monster" and window.link.sending
        window.panel.sliders["mass"].setValue(1720)
        qtbot.waitUntil(lambda: peer.params["mass"] == 1720, timeout=WAIT_MS)
        assert [m["params"] for m in peer.sets] == [{"mass": 1720.0}]  # the switch itself sent nothing
    finally:
        peer.stop()


def test_the_game_car_is_drawn_at_the_telemetrys_pose_and_plotted(linked, qtbot):
    window, peer = linked
    window.drive_view.timer.stop()
    window.drive_view.reset_car()  # the sandbox car at rest at the origin: the camera there
    peer.pose = (130.0, 70.0, 0.0, 300.0, 40.0)
    qtbot.waitUntil(lambda: window.track.game is not None and window.track.game.x == 130.0, timeout=WAIT_MS)
    game = window.track.game
    assert (game.x, game.y, game.heading) == (130.0, 70.0, 0.0)
    assert game.speed == pytest.approx(math.hypot(300, 40))
    # heading 0 points along +x; moving 40 px/s to +y (down) is to the car's right: positive slip
    assert game.slip_deg == pytest.approx(math.degrees(math.atan2(40, 300)))
    # the body: translucent red over the ground, inside the car's outline (not on a grid line)
    image = window.track.grab().toImage()
    ratio = image.devicePixelRatio()
    sx, sy = window.track.to_screen(125.0, 76.0)  # wherever the camera looks (View → camera)
    pixel = image.pixelColor(round(sx * ratio), round(sy * ratio))
    tint, alpha = QColor(GAME), 90 / 255
    expected = [g * (1 - alpha) + c * alpha for g, c in zip(GROUND_RGB, (tint.red(), tint.green(), tint.blue()))]
    assert [pixel.red(), pixel.green(), pixel.blue()] == pytest.approx(expected, abs=4)
    # its channels beside the car's in the plots, with a legend entry
    window.scripted_drive(0.5)
    speed = window.plots.game_speed_curve.getData()[1]
    slip = window.plots.game_slip_curve.getData()[1]
    assert speed[-1] == pytest.approx(math.hypot(300, 40))
    assert slip[-1] == pytest.approx(math.degrees(math.atan2(40, 300)))
    assert f"game {GAME_NAME}" in window.plots.readout.text()


def test_pull_from_game_is_one_undo_step_and_lists_what_it_cannot_take(linked, qtbot):
    window, peer = linked
    before = dict(window.tuning)
    peer.params.update({"engine_power": 1230.0, "steering_angle": 22.5, "drag": -7.0, "rocket_boost": 3.0})
    steps = window.undo.count()
    window.link_panel.pull_button.click()
    qtbot.waitUntil(lambda: not window.link.pulling, timeout=WAIT_MS)
    assert window.tuning["engine_power"] == 1230 and window.tuning["steering_angle"] == 22.5
    assert window.panel.sliders["engine_power"].value() == 1230
    assert window.tuning["drag"] == before["drag"]  # outside -1 … 0: not clamped, not taken
    assert window.undo.count() == steps + 1
    assert "rocket_boost" in window.last_error and "drag" in window.last_error
    assert "Not taken from the game: drag" in window.link_panel.refused.text()
    for box in window.findChildren(QMessageBox):  # the message listing them, read and closed
        box.accept()
    window.activateWindow()  # as the desktop does when the message closes
    qtbot.waitUntil(window.isActiveWindow, timeout=WAIT_MS)
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert dict(window.tuning) == before


def test_recording_writes_the_games_telemetry_rows(linked, qtbot, tmp_path):
    window, peer = linked
    peer.pose = (12.5, -4.0, 0.3, 50.0, 5.0)
    window.link.set_recording(True)
    assert window.link.recording and window.link_panel.record_button.isChecked()
    start = peer.tick
    qtbot.waitUntil(lambda: peer.tick >= start + 30, timeout=WAIT_MS)
    path = tmp_path / "game_drive.csv"
    assert window.link.stop_recording_to(path)
    assert not window.link.recording
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) >= 25
    for row in rows:
        sent = peer.sent[round(float(row["t"]) * 60)]
        assert float(row["x"]) == sent["x"] and float(row["y"]) == sent["y"]
        assert float(row["heading"]) == sent["heading"]
        assert float(row["steer"]) == 0.25 and float(row["throttle"]) == 1
    assert f"{len(rows)} rows" in window.link_panel.recorded.text()


def test_a_flood_of_garbage_leaves_the_window_running(linked, qtbot):
    window, peer = linked
    window.drive_view.start_frames()
    for i in range(3000):
        peer.send_raw(b"\xff not json" if i % 3 else b'{"v":1,"type":"hello","token":"wrong"}')
    for _ in range(20):
        peer.send_raw(b"{" * 65000)  # near the largest datagram UDP carries, and no JSON
    drawn = window.drive_view.drawn
    qtbot.waitUntil(lambda: window.drive_view.drawn > drawn + 10, timeout=WAIT_MS)  # frames still advance
    qtbot.waitUntil(lambda: "not JSON" in window.link_panel.dropped.text(), timeout=WAIT_MS)
    status = window.link.server.status()
    assert sum(status.dropped.values()) >= 1
    assert "token" in window.link_panel.dropped.toolTip() or "token" in status.dropped


def test_stop_closes_the_port(window, qtbot):
    window.link_panel.port.setValue(0)
    assert window.link.listen()
    port = window.link.server.port
    window.link_panel.listen_button.click()
    assert not window.link.listening and window.link_panel.listen_button.text() == "Listen"
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.bind(("127.0.0.1", port))  # free again
    finally:
        probe.close()


def test_a_port_that_cannot_be_bound_is_a_message_and_nothing_changes(window):
    taken = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    taken.bind(("127.0.0.1", 0))
    try:
        window.link_panel.port.setValue(taken.getsockname()[1])
        assert not window.link.listen()
        assert not window.link.listening and window.link_panel.state.text() == "Not listening"
        assert str(taken.getsockname()[1]) in window.last_error
    finally:
        taken.close()


@pytest.mark.skipif(godot_binary() is None, reason=ENGINE_REASON)
def test_a_slider_move_is_acknowledged_by_the_godot_engine(window, qtbot):
    """The window linked with the real game: the recipe car in Godot 3 with the
    exported link node; a slider moved in the window is applied by the engine."""
    window.link_panel.port.setValue(0)
    assert window.link.listen()
    server = window.link.server
    node = export_link_node(arcade, 3)
    idle = np.zeros((60 * 60, 5))  # a minute of nothing pressed, in real time: the game quits after it
    with start_link_game(node, server.port, idle, token=server.token, fixed_fps=False, timeout=60) as game:
        qtbot.waitUntil(lambda: window.link.game is not None or not game.running(), timeout=WAIT_MS)
        assert window.link.game is not None, game.log()
        # the recipe car's script does not say its model; the node made for the arcade does
        assert window.link.game.model == "arcade" and window.link.sending
        window.panel.sliders["engine_power"].setValue(1230)
        seq = window.link.last_seq
        qtbot.waitUntil(lambda: server.status().last_applied >= seq or not game.running(), timeout=WAIT_MS)
        status = server.status()
        assert status.last_applied >= seq, game.log()
        assert status.values["engine_power"] == 1230 and "engine_power" not in status.refused
        qtbot.waitUntil(lambda: window.track.game is not None, timeout=WAIT_MS)  # its car drawn from its telemetry


def test_the_address_and_port_are_kept_and_another_address_is_asked_about(qtbot):
    first = MainWindow(remember=True)
    qtbot.addWidget(first)
    panel = first.link_panel
    panel.port.setValue(47999)
    asked: list[str] = []
    answer(QMessageBox.StandardButton.No, asked)
    panel.address.setText("0.0.0.0")
    panel.address.editingFinished.emit()
    assert "reachable from other machines" in asked[0]
    assert panel.address.text() == "127.0.0.1"  # kept as it was
    panel.address.setText("not an address")
    panel.address.editingFinished.emit()
    assert panel.address.text() == "127.0.0.1" and "not an IP address" in first.last_error
    answer(QMessageBox.StandardButton.Yes, asked)
    panel.address.setText("0.0.0.0")
    panel.address.editingFinished.emit()
    assert len(asked) == 2 and panel.address.text() == "0.0.0.0"
    first.close()  # a normal close: the next start opens this session
    second = MainWindow(remember=True)
    qtbot.addWidget(second)
    assert second.link_panel.port.value() == 47999 and second.link_panel.address.text() == "0.0.0.0"


def test_stop_while_recording_asks_to_save_it_first(linked, qtbot, tmp_path, monkeypatch):
    window, peer = linked
    asked, questions = [], []

    def dialog(parent, title, start, pattern, **options):
        asked.append(start)
        return str(tmp_path / "kept.csv"), pattern

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(dialog))
    window.link_record_action.trigger()  # Link → Record game drive (Ctrl+Shift+L)
    start = peer.tick
    qtbot.waitUntil(lambda: peer.tick >= start + 10, timeout=WAIT_MS)
    answer(QMessageBox.StandardButton.Save, questions)
    window.link_panel.listen_button.click()  # Stop
    assert questions and "not saved" in questions[0]
    assert Path(asked[0]).parent == user_trace_dir()  # the user trace folder to start with
    assert (tmp_path / "kept.csv").is_file() and not window.link.listening
    assert "rows" in window.link_panel.recorded.text()


def test_cancel_keeps_recording_and_linked(linked, qtbot):
    window, peer = linked
    window.link_record_action.trigger()
    questions = []
    answer(QMessageBox.StandardButton.Cancel, questions)
    window.link_panel.listen_button.click()  # Stop, then Cancel
    assert questions and window.link.listening and window.link.recording and window.link.server.recording
    answer(QMessageBox.StandardButton.Cancel, questions)
    window.quit_asking()  # Quit, then Cancel: still open, still recording
    assert len(questions) == 2 and window.isVisible() and window.link.recording


def test_a_drive_that_cannot_be_written_is_still_recorded(linked, qtbot, tmp_path):
    window, peer = linked
    window.link_record_action.trigger()
    start = peer.tick
    qtbot.waitUntil(lambda: peer.tick >= start + 5, timeout=WAIT_MS)
    blocked = tmp_path / "a file, not a folder"
    blocked.write_text("", encoding="utf-8")
    errors = []
    window.show_error = lambda text, *rest: errors.append(text)
    assert not window.link.stop_recording_to(blocked / "drive.csv")
    assert errors and "The drive is kept" in errors[0] and window.link.recording
    assert window.link.stop_recording_to(tmp_path / "drive.csv")
    assert (tmp_path / "drive.csv").is_file() and not window.link.recording


def test_a_game_in_metres_is_drawn_and_plotted_in_the_windows_pixels(window, qtbot):
    """A game of a model in metres beside the arcade (px): 25 px a metre (View → Pixels per metre)."""
    window.link_panel.port.setValue(0)
    assert window.link.listen()
    peer = GamePeer(window.link.server.port, window.link.server.token, {"mass": 1500.0}, model="monster")
    peer.pose = (2.0, -1.0, math.pi / 2, 0.0, 12.0)  # pointing down (+y), moving straight ahead at 12 m/s
    peer.start()
    try:
        qtbot.waitUntil(lambda: window.track.game is not None, timeout=WAIT_MS)
        game = window.track.game
        assert window.px_per_metre == 25.0
        assert (game.x, game.y) == (50.0, -25.0) and game.speed == pytest.approx(300.0)
        assert game.slip_deg == pytest.approx(0.0, abs=1e-9)
        assert game.line.startswith(f"game {GAME_NAME}: 300 px/s")
        metres = monster.body(Tuning(monster.PARAMS))  # the Corvette's size, in m
        assert game.body["length"] == pytest.approx(metres["length"] * 25.0)
    finally:
        peer.stop()


def test_open_it_replays_the_drive_just_saved_as_a_game_recording(linked, qtbot, tmp_path):
    """After Record game drive is stopped and saved, the Link tab's Open it replays
    that file as a game recording: its rows, from its start, the Recording tab shown."""
    window, peer = linked
    peer.pose = (30.0, -20.0, 0.5, 0.0, 0.0)
    # a tick sent before the pose changed may still be on its way: record from the new pose on
    qtbot.waitUntil(lambda: (latest := window.link.server.latest()) is not None and latest.x == 30.0, timeout=WAIT_MS)
    assert not window.link_panel.open_recorded.isVisibleTo(window.link_panel)  # nothing saved yet
    window.link.set_recording(True)
    start = peer.tick
    taken = window.link.server.latest  # ticks the sandbox took (the peer's are only sent)
    qtbot.waitUntil(lambda: taken().tick >= start + 150, timeout=WAIT_MS)  # 2.5 s: a recording is at least 2 s
    path = tmp_path / "game_drive.csv"
    assert window.link.stop_recording_to(path)
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    button = window.link_panel.open_recorded
    assert button.isVisibleTo(window.link_panel) and "Open it" in window.statusBar().currentMessage()
    button.click()
    recordings = window.recordings
    assert recordings.path == path and len(recordings.recording) == len(rows)
    assert recordings.replaying and recordings.dock.isVisible()
    window.replay.scrub(0)  # the sandbox car starts where the game's car was
    assert (float(window.sim.state.x[0]), float(window.sim.state.y[0])) == (30.0, -20.0)
    window.link.set_recording(True)  # a new recording: Open it waits for it to be saved
    assert not button.isVisibleTo(window.link_panel)
    start = peer.tick
    qtbot.waitUntil(lambda: taken().tick >= start + 5, timeout=WAIT_MS)
    assert window.link.stop_recording_to(tmp_path / "second.csv") and button.isVisibleTo(window.link_panel)
    assert window.link.saved == tmp_path / "second.csv"


def _saving_to(monkeypatch, path) -> None:
    """The save dialog answers `path` (as if the user chose it)."""
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *args, **options: (str(path), "")))


def _record(window, peer, qtbot, ticks: int = 10) -> None:
    window.link_record_action.trigger()  # Link → Record game drive (Ctrl+Shift+L)
    start = peer.tick
    qtbot.waitUntil(lambda: peer.tick >= start + ticks, timeout=WAIT_MS)


def test_the_drive_ends_when_stop_is_pressed_not_when_its_file_is_chosen(linked, qtbot, tmp_path, monkeypatch):
    """The game keeps sending while the save dialog is open: none of those ticks is in
    the file; a drive whose dialog was cancelled stays stopped, and saves later."""
    window, peer = linked
    server, path, at_stop = window.link.server, tmp_path / "drive.csv", []

    def dialog(*args, **options):  # the user takes a while to choose the file (half a second of game ticks)
        at_stop.append((peer.tick, server.status().received))
        qtbot.waitUntil(lambda: server.status().received >= at_stop[0][1] + 30, timeout=WAIT_MS)
        return (str(path), "") if len(at_stop) > 1 else ("", "")  # first Cancel, then this file

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(dialog))
    _record(window, peer, qtbot)
    window.link_record_action.trigger()  # Stop: the dialog opens, and is cancelled
    assert window.link.recording and "stopped and not saved" in window.link_panel.recorded.text()
    window.link_record_action.trigger()  # Record game drive again: it saves the stopped drive
    assert not window.link.recording and path.is_file()
    with open(path, newline="") as f:
        ticks = [round(float(row["t"]) * 60) for row in csv.DictReader(f)]
    # every tick was sent before Stop (the peer may send one more as Stop is pressed);
    # 60 more reached the sandbox while the dialogs were open
    assert ticks and max(ticks) <= at_stop[0][0] + 1 < at_stop[1][0]


def test_another_game_is_refused_while_the_game_runs_and_said_when_it_takes_over(linked, qtbot):
    window, peer = linked
    panel = window.link_panel
    assert not panel.change.isVisibleTo(panel)  # the first game linked is no change
    other = GamePeer(window.link.server.port, window.link.server.token, dict(window.tuning))
    other.name = "Second Game"
    other.start()
    try:
        qtbot.waitUntil(lambda: "hello from another game" in panel.dropped.text(), timeout=WAIT_MS)
        assert window.link.game.address == peer.sock.getsockname() and panel.game.text() == GAME_NAME
        peer.stop()  # the game ends without a bye: a second of silence, and the other one is linked
        qtbot.waitUntil(lambda: panel.game.text() == "Second Game", timeout=WAIT_MS)
        said = panel.change.text()
        assert panel.change.isVisibleTo(panel)
        assert "The game changed: linked with “Second Game”" in said and f"in place of “{GAME_NAME}”" in said
        assert "The game changed" in window.statusBar().currentMessage()
    finally:
        other.stop()


def test_a_restarted_game_is_said_and_ends_the_recording_with_the_drive_before_it(linked, qtbot, tmp_path):
    window, peer = linked
    panel = window.link_panel
    _record(window, peer, qtbot, 30)
    peer.restart()  # its ticks count from 1 again
    qtbot.waitUntil(lambda: "The game restarted" in panel.change.text(), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: "The recording ended" in panel.recorded.text(), timeout=WAIT_MS)
    assert window.link.recording  # kept, not yet saved: Record game drive saves it
    qtbot.waitUntil(lambda: peer.tick >= 10, timeout=WAIT_MS)  # the restarted game drives on
    assert window.link.stop_recording_to(tmp_path / "drive.csv")
    with open(tmp_path / "drive.csv", newline="") as f:
        t = [float(row["t"]) for row in csv.DictReader(f)]
    assert len(t) >= 30 and all(b > a for a, b in zip(t, t[1:]))  # one drive: t never steps back
    assert "It ended before it was stopped: the game restarted" in panel.recorded.text()


def test_the_games_texts_are_shown_with_control_characters_escaped(window, qtbot):
    window.link_panel.port.setValue(0)
    assert window.link.listen()
    peer = GamePeer(window.link.server.port, window.link.server.token, dict(window.tuning))
    peer.name = "Evil\nGame\r\u202e"
    peer.missing = ["slip\nspeed"]
    peer.start()
    try:
        qtbot.waitUntil(lambda: window.link.game is not None, timeout=WAIT_MS)
        panel = window.link_panel
        assert panel.game.text() == "Evil\\x0aGame\\x0d\\u202e"
        assert panel.missing.text() == "slip\\x0aspeed"
        assert "Evil\\x0aGame" in window.statusBar().currentMessage()
        peer.send({"type": "ack", "seq": 1, "tick": 1, "applied": {}, "refused": {"drag\n": "too low\nfaked line"}})
        qtbot.waitUntil(lambda: panel.refused.isVisibleTo(panel), timeout=WAIT_MS)
        assert panel.refused.text() == "The game refused drag\\x0a: too low\\x0afaked line"
    finally:
        peer.stop()


def test_a_drive_is_never_saved_over_a_file_that_is_not_a_recording(linked, qtbot, tmp_path, monkeypatch):
    window, peer = linked
    preset = tmp_path / "drift.json"
    shutil.copy(BUILTIN_DIR / "drift.json", preset)
    before = preset.read_bytes()
    _saving_to(monkeypatch, preset)
    errors = []
    window.show_error = lambda text, *rest: errors.append(text)
    _record(window, peer, qtbot)
    window.link_record_action.trigger()  # stop: the dialog answers the preset
    assert errors and "is a preset (“Drift”), not a recording: nothing was written" in errors[0]
    assert preset.read_bytes() == before and window.link.recording  # still recording, to save elsewhere


def test_saving_over_an_older_recording_asks_first_and_keeps_it_as_bak(linked, qtbot, tmp_path, monkeypatch):
    window, peer = linked
    path = tmp_path / "drive.csv"
    _saving_to(monkeypatch, path)
    _record(window, peer, qtbot)
    window.link_record_action.trigger()  # a new file: nothing asked
    older = path.read_bytes()
    _record(window, peer, qtbot)
    questions = []
    answer(QMessageBox.StandardButton.Cancel, questions)
    window.link_record_action.trigger()
    assert questions and "drive.csv is already a recording" in questions[0]
    assert window.link.recording and path.read_bytes() == older  # not replaced: still recording
    answer(QMessageBox.StandardButton.Yes, questions)  # Replace
    window.link_record_action.trigger()
    assert len(questions) == 2 and not window.link.recording
    assert (tmp_path / "drive.csv.bak").read_bytes() == older and path.read_bytes() != older
    assert "the older recording is kept as drive.csv.bak" in window.link_panel.recorded.text()


def test_a_slider_change_reaches_every_view_that_follows_the_tuning(linked, qtbot, monkeypatch):
    """One move of a slider: the metrics asked for it, the force curve, the title's mark
    of changes, the link's set to the game and the car's next tick all have the value
    (each follows the tuning on its own; nothing hands the change on)."""
    window, peer = linked
    metrics, curves = [], []
    monkeypatch.setattr(window.metrics, "request", lambda car, ghosts=(), names=(), track=None: metrics.append(car))
    draw = window.curves.set_tuning
    monkeypatch.setattr(window.curves, "set_tuning", lambda m, params, hz, title="": curves.append(dict(params)))
    assert not window.windowTitle().endswith("*")
    window.panel.sliders["engine_power"].setValue(1300)
    assert metrics[-1][1]["engine_power"] == 1300
    assert curves[-1]["engine_power"] == 1300
    assert window.windowTitle().endswith(" *") and " *" in window.panel.title.text()
    qtbot.waitUntil(lambda: peer.params["engine_power"] == 1300, timeout=WAIT_MS)
    assert peer.sets[-1]["params"] == {"engine_power": 1300.0}
    paused(window).sim.tick(Controls(0.0, 1.0, 0.0))
    assert window.sim.state.vx[0] == pytest.approx(1300 / 60)  # the recipe: v += engine_power · dt from rest
    monkeypatch.setattr(window.curves, "set_tuning", draw)
    window.undo.undo()  # undone: every one of them again, the mark gone
    assert metrics[-1][1]["engine_power"] == 900 and not window.windowTitle().endswith("*")
    qtbot.waitUntil(lambda: peer.params["engine_power"] == 900, timeout=WAIT_MS)
