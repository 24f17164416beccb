"""The real window, offscreen, driven with pytest-qt. Record and replay in the window: the
keys recorded, the toolbar, the trace files, scrubbing, Play after recording."""

import numpy as np
from PySide6.QtCore import Qt

from sandbox.files.presets import BUILTIN_DIR, load_preset
from window_helpers import paused

K = Qt.Key


def test_recording_captures_every_ticks_controls(window, tmp_path):
    paused(window)
    window.replay.set_recording(True)
    window.keys.held |= {K.Key_W, K.Key_A}
    window.run_for(0.25)
    window.keys.held.clear()
    window.run_for(0.25)
    window.replay.set_recording(False)
    rows = window.drive.last_recording
    assert rows.shape == (30, 5)  # steer, throttle, brake, handbrake, shift
    assert rows[:15].tolist() == [[-1.0, 1.0, 0.0, 0.0, 0.0]] * 15 and rows[15:].tolist() == [[0.0] * 5] * 15
    assert window.replay.save_recording_to(tmp_path / "mine.csv")
    from sandbox.files.traces import load_trace

    # pedals only: the three control columns every earlier version reads, then the car's channels
    header = (tmp_path / "mine.csv").read_text().splitlines()[0].split(",")
    assert header[:3] == ["steer", "throttle", "brake"] and "handbrake" not in header and "speed[px/s]" in header
    assert np.array_equal(load_trace(tmp_path / "mine.csv"), rows)


def test_handbrake_and_gear_shifts_are_recorded_and_replay_exactly(window, tmp_path, qtbot):
    """The dynamic car: a drive with the handbrake and manual shifts, recorded, saved,
    loaded and replayed from rest, ends exactly where the live drive ended."""
    paused(window)
    window.apply_preset(load_preset(BUILTIN_DIR / "monster_drift_manual.json"))
    assert window.tuning["manual_gears"]
    window.replay.set_recording(True)
    window.keys.held |= {K.Key_W}
    window.run_for(0.25)
    for key in (K.Key_E, K.Key_E):  # two shifts up
        qtbot.keyClick(window.track, key)
        window.run_for(0.25)
    window.keys.held |= {K.Key_Space, K.Key_D}
    window.run_for(0.25)
    live = window.sim.state
    gear = float(live.extra["gear"][0])
    window.replay.set_recording(False)
    rows = window.drive.last_recording
    assert rows[:, 3].sum() == 15 and rows[:, 4].tolist().count(1.0) == 2  # handbrake ticks, shifts
    assert gear == 3.0
    assert window.replay.save_recording_to(tmp_path / "drift.csv")
    header = (tmp_path / "drift.csv").read_text().splitlines()[0].split(",")
    assert header[:5] == ["steer", "throttle", "brake", "handbrake", "shift"] and "rpm[rpm]" in header
    window.keys.held.clear()
    assert window.replay.open_trace_file(tmp_path / "drift.csv")
    window.replay.scrub(len(rows))
    replayed = window.sim.state
    assert (replayed.x[0], replayed.y[0], replayed.heading[0]) == (live.x[0], live.y[0], live.heading[0])
    assert float(replayed.extra["gear"][0]) == gear


def test_the_speed_box_sets_the_replay_speed_and_the_frames_play_the_trace_to_its_end(window):
    """The toolbar's speed reaches the drive session, and the window's frames play the
    trace to its end, exactly as simulated (bit-identity at every speed and frame rate:
    test_drive_session)."""
    from sandbox.files.traces import BUILTIN_TRACES, load_trace
    from sandbox.physics.sim import run_trace

    paused(window)
    window.open_preset_file(BUILTIN_DIR / "drift.json")
    assert window.replay.open_trace_file(BUILTIN_TRACES / "slalom.csv")
    window.replay.bar.speed.setCurrentIndex(window.replay.bar.speed.findData(4.0))
    assert window.drive.speed == 4.0
    assert window.run_for(0.05) == 12  # 0.2 s of the trace at 4×
    while window.drive.playing:
        window.run_for(0.031)
    assert window.sim.ticks == len(window.drive.replay) == 840
    assert window.replay.bar.play_action.text() == "Play"  # paused at the end
    assert "840/840" in window.replay.bar.position.text()
    expected = run_trace(window.model, window.tuning, load_trace(BUILTIN_TRACES / "slalom.csv"))[-1]
    s = window.sim.state
    assert (s.x[0], s.y[0], s.heading[0], s.vx[0], s.vy[0]) == tuple(expected[1:6])


def test_scrub_and_step_show_the_trace_at_a_tick(window):
    from sandbox.files.traces import BUILTIN_TRACES, load_trace
    from sandbox.physics.sim import run_trace

    paused(window)
    window.replay.open_trace_file(BUILTIN_TRACES / "hairpin.csv")
    window.replay.set_playing(False)
    expected = run_trace(window.model, window.tuning, load_trace(BUILTIN_TRACES / "hairpin.csv"))
    window.replay.scrub(300)
    assert window.drive.replay_tick == 300 and window.sim.state.x[0] == expected[299, 1]
    window.replay.step()
    assert window.drive.replay_tick == 301 and window.sim.state.y[0] == expected[300, 2]
    assert "301/510" in window.replay.bar.position.text()
    window.replay.stop()
    assert window.drive.replay is None and window.sim.ticks == 0


def test_a_bad_trace_is_refused_and_nothing_changes(window, tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("steer,throttle,brake\n0,1,0\n0,2,0\n")
    assert not window.replay.open_trace_file(bad)
    assert window.drive.replay is None and "line 3: throttle 2 is outside 0 … 1" in window.last_error


def test_a_recording_with_a_tick_lost_is_refused_naming_the_tick(window, tmp_path):
    """The game's recording with a tick the link lost: its controls are unknown, so the
    window does not replay it and says the fit can use it."""
    from lost_ticks import without_rows
    from sandbox.files.recordings import drive_recording
    from sandbox.physics.models import MODELS

    controls = np.column_stack([np.zeros(180), np.ones(180), np.zeros(180)])
    without_rows(drive_recording(MODELS["arcade"], dict(window.tuning), controls, 60), {100}, tmp_path)
    assert not window.replay.open_trace_file(tmp_path / "lost.csv")
    assert window.drive.replay is None
    assert "tick 100 (t = 1.66667 s) is missing from this recording" in window.last_error
    assert "`car-sandbox fit` can use it" in window.last_error


def test_the_play_button_shows_the_standard_pause_icon_while_playing(window):
    from PySide6.QtWidgets import QStyle

    bar = window.replay.bar
    assert bar.play_action.text() == "Play" and not bar.play_action.icon().isNull()
    window.replay.play_trace(np.zeros((600, 5)), "still")
    pause = window.style().standardIcon(QStyle.StandardPixmap.SP_MediaPause)
    assert bar.play_action.text() == "Pause"
    assert bar.play_action.icon().pixmap(16).toImage() == pause.pixmap(16).toImage()


def test_play_replays_a_recording_just_made_without_saving_it(window):
    """Record, stop, Play: the recording replays from rest and ends where the drive did
    (the same controls, the same physics), with no save and open in between."""
    paused(window)
    assert not window.replay.bar.play_action.isEnabled()  # nothing to play yet
    window.replay.set_recording(True)
    window.keys.held |= {K.Key_W, K.Key_A}
    window.run_for(0.25)
    window.run_for(0.25)
    live = window.sim.state
    window.keys.held.clear()
    window.replay.set_recording(False)
    assert window.replay.bar.play_action.isEnabled()
    window.replay.bar.play_action.trigger()  # F6
    assert window.drive.replay is not None and window.drive.playing
    window.replay.scrub(len(window.drive.last_recording))
    replayed = window.sim.state
    assert (replayed.x[0], replayed.y[0], replayed.heading[0]) == (live.x[0], live.y[0], live.heading[0])
