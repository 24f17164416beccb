"""Pull level from game in the real window, offscreen, driven with pytest-qt: the real
link server on 127.0.0.1 and a thread that speaks the protocol as the game does
(window_game_peer.py). The game's level becomes the window's track ("from the game" in
the Track menu), the car starts where the game's car is and meets the game's wall; bad
data, an older link node and no game are one message each, and the track stays; the
level can be saved as a track file."""

from __future__ import annotations

import json

import numpy as np
from PySide6.QtWidgets import QFileDialog, QMessageBox

from sandbox.files.tracks import find_builtin_track, load_track, open_track
from sandbox.physics.state import Controls
from sandbox.session.sources import HeldControls
from window_game_peer import GAME as GAME_NAME
from window_game_peer import GamePeer

WAIT_MS = 60_000
"""ms a test waits for the link or the level before it fails (never a figure the test checks)."""
WALL = {"node": "Main/Walls/East", "type": "RectangleShape2D", "transform": [0, 1, -1, 0, 300, 0], "extents": [300, 10]}
"""A wall turned 90°: 20 px wide along x (x = 290 … 310) and 600 px along y, centred on (300, 0)."""
POST = {"node": "Main/Walls/Post", "type": "CircleShape2D", "transform": [2, 0, 0, 2, 100, 200], "radius": 15}
"""A post of radius 15 scaled 2: radius 30 at (100, 200)."""
LEVEL = {"shapes": [WALL, POST], "car": {"x": 100.0, "y": 0.0, "rotation": 0.0},
         "not_read": [{"why": "disabled shapes: not read", "nodes": ["Main/Gate/Bar"], "count": 1}]}  # fmt: skip


def link_game(window, qtbot, version: int = 2, level: dict | None = None) -> GamePeer:
    window.link_panel.port.setValue(0)  # any free port
    assert window.link.listen()
    server = window.link.server
    peer = GamePeer(server.port, server.token, dict(window.tuning))
    peer.version, peer.level = version, level
    peer.start()
    qtbot.waitUntil(lambda: window.link.game is not None, timeout=WAIT_MS)
    return peer


def one_message(window) -> str:
    boxes = [box for box in window.findChildren(QMessageBox) if box.isVisible()]
    assert len(boxes) == 1
    text = boxes[0].text()
    boxes[0].close()
    return text


def test_pull_level_puts_the_games_walls_in_the_window_and_the_car_meets_them(window, qtbot):
    peer = link_game(window, qtbot, level=LEVEL)
    try:
        window.link_panel.level_button.click()
        qtbot.waitUntil(lambda: window.world.from_game, timeout=WAIT_MS)
        assert peer.errors == []
    finally:
        peer.stop()
    track = window.world_track
    assert track.name == f"{GAME_NAME} (from the game)" and track.unit == "px"
    assert window.drive.track is track and window.track.world.source is track  # driven on and drawn
    (wall,) = track.rects
    assert sorted(map(tuple, wall.corners().round(6).tolist())) == [(290, -300), (290, 300), (310, -300), (310, 300)]
    (post,) = track.circles
    assert (post.x, post.y, post.radius) == (100, 200, 30)
    assert window.world.game_action.isChecked() and window.world.game_action.text() == track.name  # the Track menu
    assert window.link_panel.level.text().startswith("The game's level: 2 walls; 1 notes")
    assert window.link_panel.level.toolTip() == "<qt>disabled shapes: not read: Main/Gate/Bar</qt>"
    # the car starts where the game's car is, drives east into the wall and stops at it
    drive = window.drive
    window.drive_view.timer.stop()
    assert (float(drive.sim.state.x[0]), float(drive.sim.state.y[0])) == (100.0, 0.0)
    drive.live = HeldControls(Controls(throttle=1.0))
    for _ in range(60 * 5):
        drive.tick()
    x = float(drive.sim.state.x[0])
    assert 200 < x < 290, f"the car's centre at {x:.1f} px: the wall's face is at 290 px"


def test_bad_data_from_the_game_is_one_message_and_the_track_stays(window, qtbot):
    window.world.open_builtin("slalom")
    slalom = window.world_track
    broken = {**WALL, "transform": [1, 0, 0, 1, None, 0]}  # NaN in the game: null in its JSON
    peer = link_game(window, qtbot, level={**LEVEL, "shapes": [POST, broken]})
    try:
        window.link.pull_level()
        qtbot.waitUntil(lambda: not window.link.level_puller.pulling, timeout=WAIT_MS)
    finally:
        peer.stop()
    text = one_message(window)
    assert "Main/Walls/East" in text and "transform[4]" in text and "NaN or infinite" in text
    assert "track is unchanged" in text
    assert window.world_track is slalom and not window.world.from_game


def test_an_older_link_node_is_told_to_be_exported_again_and_the_track_stays(window, qtbot):
    peer = link_game(window, qtbot, version=1)
    try:
        window.link.pull_level()
        qtbot.waitUntil(lambda: not window.link.level_puller.pulling, timeout=WAIT_MS)
        assert peer.errors == []  # the game of version 1 was spoken to in version 1
    finally:
        peer.stop()
    text = one_message(window)
    assert "export the link node again" in text and "version 1" in text
    assert window.world_track is None


def test_without_a_game_pull_level_is_disabled_and_says_why(window):
    assert not window.link_panel.level_button.isEnabled()
    assert not window.link_pull_level_action.isEnabled()
    window.link.pull_level()
    assert "No game is linked" in one_message(window)


def test_the_games_level_is_saved_as_a_track_file_that_loads_the_same(window, qtbot, tmp_path, monkeypatch):
    peer = link_game(window, qtbot, level=LEVEL)
    try:
        window.link_pull_level_action.trigger()
        qtbot.waitUntil(lambda: window.world.from_game, timeout=WAIT_MS)
    finally:
        peer.stop()
    target = tmp_path / "game_level.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(target), "")))
    next(a for a in window.track_menu.actions() if a.text() == "&Save track as…").trigger()
    saved = load_track(target)
    track = window.world_track
    assert json.loads(target.read_text())["name"] == track.name
    assert np.allclose(saved.rects[0].corners(), track.rects[0].corners()) and saved.circles == track.circles
    assert (saved.spawn.x, saved.spawn.y) == (100.0, 0.0)


def test_the_last_file_track_stays_the_one_kept_when_a_level_comes_from_the_game(qtbot):
    """A game's level is not a file: the next start opens the last track file instead."""
    from sandbox.ui.app import MainWindow

    first = MainWindow(remember=True)
    qtbot.addWidget(first)
    assert first.world.open_builtin("parking_lot")
    peer = link_game(first, qtbot, level=LEVEL)
    try:
        first.link.pull_level()
        qtbot.waitUntil(lambda: first.world.from_game, timeout=WAIT_MS)
    finally:
        peer.stop()
    first.link.close()
    first.close()
    second = MainWindow(remember=True)
    qtbot.addWidget(second)
    assert second.world.source == "builtin:parking_lot"
    assert second.world_track.name == open_track(find_builtin_track("parking_lot")).name
    second.close()


def test_a_drive_recorded_on_the_games_level_is_saved_without_a_track_and_says_how_to_keep_it(window, qtbot, tmp_path):
    """A pulled level is no file a recording could name: the recording is saved (no
    track line) and the status bar says to save the level as a track file."""
    from window_helpers import paused

    peer = link_game(window, qtbot, level=LEVEL)
    try:
        window.link_panel.level_button.click()
        qtbot.waitUntil(lambda: window.world.from_game, timeout=WAIT_MS)
    finally:
        peer.stop()
    paused(window)
    window.replay.set_recording(True)
    window.run_for(0.25)
    window.replay.set_recording(False)
    assert window.replay.save_recording_to(tmp_path / "drive.csv")
    lines = (tmp_path / "drive.csv").read_text().splitlines()
    assert not any(line.startswith("# track") for line in lines)
    assert "Track → Save track as" in window.statusBar().currentMessage()


def test_a_metric_model_meets_the_games_wall_at_the_games_own_scale(window, qtbot):
    """The game's car says 40 px a metre: with the bicycle in the window, a wall 400 px
    from the origin is 10 m from it (at the default 25 px/m it would be 16 m)."""
    assert window.switch_model("bicycle")
    east = {**WALL, "transform": [0, 1, -1, 0, 400, 0]}  # x = 390 … 410 px
    peer = link_game(window, qtbot, level={**LEVEL, "shapes": [east], "pixels_per_metre": 40})
    try:
        window.link_panel.level_button.click()
        qtbot.waitUntil(lambda: window.world.from_game, timeout=WAIT_MS)
        assert peer.errors == []
    finally:
        peer.stop()
    assert window.world_track.pixels_per_metre == 40
    (wall,) = window.drive.sim.track.rects  # what the car drives against, in metres
    xs = wall.corners()[:, 0]
    assert (xs.min(), xs.max()) == (9.75, 10.25)
    (drawn,) = window.track.world.track.rects  # what is drawn under the car
    assert np.allclose(drawn.corners(), wall.corners())
