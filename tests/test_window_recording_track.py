"""The real window, offscreen: a drive saved on a track names it, and replaying it (a
trace or a game recording) opens that track first and replays against its walls; a
named track file changed since is said in one message and nothing changes."""

import math

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from sandbox.devtools.fit_drives import PARKING_LOT_START, parking_lot_drive
from sandbox.files.recorded_track import track_ref
from sandbox.files.recordings import drive_recording, save_recording
from sandbox.files.tracks import find_builtin_track, open_track
from sandbox.physics.track import Pose
from sandbox.session.recorded import divergence, recorded_drive
from window_helpers import paused

K = Qt.Key


def lot_recording(window, ref):
    """The window's own car on the parking lot, sliding along its wall (parking_lot_drive)."""
    x, y, heading = PARKING_LOT_START
    return drive_recording(
        window.tuning.model, dict(window.tuning), parking_lot_drive(), 60,
        track=open_track(find_builtin_track("parking_lot")), start=Pose(x, y, math.radians(heading)), track_ref=ref,
    )  # fmt: skip


def test_a_drive_recorded_on_a_track_names_it_and_replays_on_it(window, tmp_path):
    paused(window)
    assert window.world.open_builtin("parking_lot")
    window.replay.set_recording(True)
    window.keys.held |= {K.Key_W}
    window.run_for(0.25)
    window.keys.held.clear()
    window.replay.set_recording(False)
    assert window.replay.save_recording_to(tmp_path / "lot.csv")
    assert (tmp_path / "lot.csv").read_text().splitlines()[:2] == ["# recording: 2", "# track: builtin parking_lot"]
    window.world.open_field()
    assert window.replay.open_trace_file(tmp_path / "lot.csv")
    assert window.world.source == "builtin:parking_lot" and window.drive.track is window.world.track


def test_a_game_recording_on_a_track_replays_against_its_walls(window, tmp_path):
    """Recorded by the window's own car and tuning on the parking lot (the car slides
    along its wall), replayed in the window on the open field first: the window opens
    the lot, and the replay follows the recording to float rounding; on the open field
    the same replay leaves the recording's path at the wall."""
    paused(window)
    window.world.open_field()
    path = tmp_path / "game.csv"
    save_recording(path, lot_recording(window, track_ref("parking_lot")))
    assert window.recordings.open_file(path)
    assert window.world.source == "builtin:parking_lot"
    assert window.recordings.result.distance.max() < 1e-6
    drive = recorded_drive(window.tuning.model, window.recordings.recording, "open")
    assert divergence(window.tuning.model, window.tuning, 60, drive, None).distance.max() > 10.0
    window.replay.scrub(120)  # the seek meets the walls too: on the recorded path
    row = window.recordings.recording.pose[120]
    assert math.hypot(window.sim.state.x[0] - row[0], window.sim.state.y[0] - row[1]) < 1e-6


def test_a_named_track_file_changed_since_is_said_and_nothing_changes(window, tmp_path):
    paused(window)
    level = tmp_path / "lot.json"
    level.write_bytes(find_builtin_track("parking_lot").read_bytes())
    path = tmp_path / "game.csv"
    save_recording(path, lot_recording(window, track_ref(level)))
    level.write_text(level.read_text().replace('"Parking lot"', '"Parking lot, moved"'))
    window.world.open_builtin("slalom")
    shown = window.world.track
    assert not window.recordings.open_file(path)
    boxes = [box for box in window.findChildren(QMessageBox) if box.isVisible()]
    assert len(boxes) == 1 and "lot.json" in boxes[0].text() and "changed" in boxes[0].text()
    boxes[0].close()
    assert window.world.track is shown and window.recordings.recording is None
    assert np.isfinite(window.sim.state.x[0])


def test_the_fit_dialog_fits_on_the_track_the_window_shows(window, tmp_path, qtbot):
    """A drive on the parking lot, sliding along its wall, with more engine power and
    harder brakes than the window's: fitted in the dialog on the lot (the window opened
    it with the recording), the two values come back and no stretch is left out."""
    paused(window)
    x, y, heading = PARKING_LOT_START
    hidden = dict(
        window.tuning, engine_power=window.tuning["engine_power"] * 1.2, braking=window.tuning["braking"] * 1.3
    )
    recording = drive_recording(
        window.tuning.model, hidden, parking_lot_drive(), 60, track=open_track(find_builtin_track("parking_lot")),
        start=Pose(x, y, math.radians(heading)), track_ref=track_ref("parking_lot"),
    )  # fmt: skip
    save_recording(tmp_path / "lot.csv", recording)
    assert window.recordings.open_file(tmp_path / "lot.csv")
    dialog = window.recordings.fit_dialog()
    for name, check in dialog.checks.items():
        check.setChecked(name in ("engine_power", "braking"))
    assert dialog.run()
    qtbot.waitUntil(lambda: not dialog.running, timeout=300_000)
    result = dialog.chosen
    assert result is not None and result.left_out_spans == []
    for name in ("engine_power", "braking"):
        assert abs(result.params[name] / hidden[name] - 1) < 1e-6
