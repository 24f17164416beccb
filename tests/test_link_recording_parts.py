"""A recording of the game's drive against a peer that plays the game (tests/link_peer.py)
on 127.0.0.1: a game that restarts (its ticks counting from 1 again) or another game
that takes the link ends the recording with the drive before it, never one file of two
drives; and a recording is written over an older recording only (kept as .bak), never
over a preset, a trace or any other file."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from link_peer import Peer, wait_until
from sandbox.files.presets import BUILTIN_DIR
from sandbox.files.recordings import load_recording
from sandbox.link.protocol import LinkError
from sandbox.link.server import LinkServer

TOKEN = "feed5eed0123abcd"
HZ = 60


@pytest.fixture
def linked():
    """A server and a peer linked to it (its hello taken)."""
    link = LinkServer(port=0, token=TOKEN)
    link.start()
    peer = Peer(link.port, TOKEN)
    peer.hello()
    assert link.wait_for_game(20) is not None
    yield link, peer
    peer.close()
    link.stop()


def drive(link: LinkServer, peer: Peer, ticks) -> None:
    """Send the telemetry of `ticks` and wait until the link took the last of them."""
    ticks = list(ticks)
    for tick in ticks:
        peer.telemetry(tick)
    wait_until(lambda: link.latest() is not None and link.latest().tick == ticks[-1], f"tick {ticks[-1]}")
    link.take()


def test_a_game_restarted_while_recording_ends_the_recording_with_the_drive_before_it(linked, tmp_path):
    link, peer = linked
    link.start_recording()
    drive(link, peer, range(1, 181))  # 3 s
    peer.hello(game="Test Game")  # the game restarted: its node counts ticks from 1 again
    peer.wait_for("welcome", 2)
    wait_until(lambda: link.status().recording_ended, "the recording's end said")
    assert "restarted" in link.status().recording_ended and "180 ticks (3.00 s)" in link.status().recording_ended
    drive(link, peer, range(1, 61))
    summary = link.stop_recording(tmp_path / "drive.csv")
    assert (summary.rows, summary.lost_ticks, summary.seconds) == (180, 0, pytest.approx(180 / HZ))
    assert "restarted" in summary.ended
    recording = load_recording(summary.path)  # what `fit` reads: t never steps back
    assert len(recording) == 180 and recording.missing_ticks == 0
    assert np.array_equal(recording.t, np.arange(1, 181) / HZ)


def test_lost_ticks_and_the_duration_stay_those_of_the_drive_before_the_restart(linked, tmp_path):
    link, peer = linked
    link.start_recording()
    drive(link, peer, [t for t in range(1, 151) if t not in (40, 41, 90)])  # three ticks lost
    peer.hello()
    wait_until(lambda: link.status().recording_ended, "the recording's end said")
    drive(link, peer, [1, 2, 5])  # the new drive's own gap is not this recording's
    summary = link.stop_recording(tmp_path / "drive.csv")
    assert (summary.rows, summary.lost_ticks) == (147, 3)
    assert summary.seconds == pytest.approx(150 / HZ)  # ticks 1 … 150


def test_another_game_at_another_rate_ends_the_recording_and_the_ticks_keep_their_rate(linked, tmp_path):
    link, peer = linked
    link.start_recording()
    drive(link, peer, range(1, 151))
    peer.send({"type": "bye"})
    wait_until(lambda: link.status().game is None, "the bye")
    other = Peer(link.port, TOKEN)
    try:
        other.hello(game="Another", hz=30)
        wait_until(lambda: link.status().recording_ended, "the recording's end said")
        drive(link, other, range(1, 31))
    finally:
        other.close()
    summary = link.stop_recording(tmp_path / "drive.csv")
    assert (summary.rows, summary.seconds) == (150, pytest.approx(150 / HZ))  # at the first game's 60 Hz
    assert np.array_equal(load_recording(summary.path).t, np.arange(1, 151) / HZ)


def test_a_restart_before_the_first_recorded_tick_leaves_the_recording_going(linked, tmp_path):
    link, peer = linked
    link.start_recording()
    peer.hello()  # nothing recorded yet: nothing to keep apart
    peer.wait_for("welcome", 2)
    drive(link, peer, range(1, 11))
    summary = link.stop_recording(tmp_path / "drive.csv")
    assert summary.rows == 10 and summary.ended is None and link.status().recording_ended is None


def _not_recordings(tmp_path):
    preset = tmp_path / "drift.json"
    shutil.copy(BUILTIN_DIR / "drift.json", preset)
    trace = tmp_path / "controls.csv"
    trace.write_text("steer,throttle,brake\n0,1,0\n0.5,1,0\n", encoding="utf-8")
    notes = tmp_path / "notes.csv"
    notes.write_text("my notes, not a drive\n", encoding="utf-8")
    return [(preset, "a preset"), (trace, "a trace of controls only"), (notes, "a file the recording loader refuses")]


def test_a_recording_is_never_written_over_a_file_that_is_not_a_recording(linked, tmp_path):
    link, peer = linked
    link.start_recording()
    drive(link, peer, range(1, 31))
    for path, what in _not_recordings(tmp_path):
        before = path.read_bytes()
        with pytest.raises(LinkError, match=f"is {what}.*not a recording: nothing was written"):
            link.stop_recording(path)
        assert path.read_bytes() == before and not path.with_name(path.name + ".bak").exists()
    assert link.recording  # the drive can still be saved elsewhere
    assert link.stop_recording(tmp_path / "drive.csv").rows == 30


def test_a_recording_written_over_an_older_one_keeps_it_as_bak(linked, tmp_path):
    link, peer = linked
    path = tmp_path / "drive.csv"
    link.start_recording()
    drive(link, peer, range(1, 151))
    assert link.stop_recording(path).backup is None
    first = path.read_bytes()
    link.start_recording()
    drive(link, peer, range(151, 181))  # half a second: a short drive is a recording too
    summary = link.stop_recording(path)
    assert summary.backup == tmp_path / "drive.csv.bak" and summary.backup.read_bytes() == first
    assert len(path.read_text(encoding="utf-8").splitlines()) == 1 + 30
    link.start_recording()
    drive(link, peer, range(181, 191))
    link.stop_recording(path)  # the short one is a recording: replaced, and kept
    assert len((tmp_path / "drive.csv.bak").read_text(encoding="utf-8").splitlines()) == 1 + 30
