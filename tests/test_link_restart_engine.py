"""A game that is killed and started again while the sandbox records, end to end with the
real engine: the new game's hello is refused while the killed one might still speak,
takes the link once it was silent a second, and the recording keeps the first game's
drive alone (t never steps back, nothing lost), written as one recording."""

import signal

import numpy as np
import pytest

from conftest import ENGINE_REASON
from link_peer import wait_until
from sandbox.devtools.link_game import start_link_game
from sandbox.devtools.oracle import godot_binary
from sandbox.files.godot_link import export_link_node
from sandbox.files.recordings import load_recording
from sandbox.link.server import ANOTHER_GAME, LinkServer
from sandbox.physics.models import arcade

pytestmark = pytest.mark.skipif(godot_binary() is None, reason=ENGINE_REASON)

HZ = 60
FIRST_TICKS = 150
"""ticks of the first game's drive before it is killed (2.5 s: a recording fit can take)."""


def test_a_game_killed_and_started_again_ends_the_recording_with_the_first_drive(tmp_path):
    node = export_link_node(arcade, 3)
    drive = np.tile([[0.3, 1.0, 0.0, 0.0, 0.0]], (HZ * 30, 1))
    server = LinkServer(port=0)
    server.start()
    games = []
    try:
        server.start_recording()
        games.append(start_link_game(node, server.port, drive, token=server.token, fixed_fps=False, timeout=60))
        first = server.wait_for_game(30)
        assert first is not None, games[0].log()

        def ticks_reached(tick: int) -> bool:
            server.take()
            return server.latest() is not None and server.latest().tick >= tick

        wait_until(lambda: ticks_reached(FIRST_TICKS), f"{FIRST_TICKS} ticks of the first game")
        games[0].process.send_signal(signal.SIGKILL)  # no bye: the link learns it only by its silence
        games.append(start_link_game(node, server.port, drive, token=server.token, fixed_fps=False, timeout=60))
        wait_until(lambda: server.status().game.number == 2, "the second game linked")
        status = server.status()
        assert status.game.address != first.address and status.dropped.get(ANOTHER_GAME, 0) >= 1
        assert "another game linked" in status.recording_ended
        wait_until(lambda: ticks_reached(HZ), "a second of the second game")
        summary = server.stop_recording(tmp_path / "drive.csv")
    finally:
        for game in games:
            game.stop()
        server.stop()
    recording = load_recording(summary.path)  # what `fit` reads
    ticks = np.rint(recording.t * HZ).astype(int)
    assert summary.rows == len(ticks) and ticks[-1] >= FIRST_TICKS and summary.lost_ticks == 0
    assert np.array_equal(ticks, np.arange(ticks[0], ticks[0] + len(ticks)))  # one drive, every tick, in order
    assert summary.seconds == pytest.approx(len(ticks) / HZ)
