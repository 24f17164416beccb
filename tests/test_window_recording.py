"""The real window, offscreen, driven with pytest-qt. A drive recorded in a game,
replayed in the window: its controls through the sandbox car from the recording's
start, its path drawn in the view, and the distance between the two per tick."""

from pathlib import Path

import numpy as np
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QMenu, QMessageBox

from dialogs import answer
from sandbox.csv_rows import format_rows
from sandbox.files.traces import BUILTIN_TRACES, load_trace
from sandbox.physics.sim import record
from window_helpers import paused

CONTROLS = ("steer", "throttle", "brake", "handbrake", "shift")


def write_recording(path, model, tuning, controls, hz, state_columns=True, t=True):
    """A recording of `model` with `tuning` driven by `controls` from rest at the origin,
    as a game writes one: the controls of each tick, then the car after it. With
    `state_columns`, every single-valued slot of the model's state too (velocity, the
    wheel angle, the model's own values), so a replay can start exactly where it starts."""
    names = ["x", "y", "heading"]
    if state_columns:
        names += [s.name for s in model.STATE.slots if s.size == 1 and s.name not in names]
    states = record(model, tuning, controls, hz, tuple(names))
    columns = list(CONTROLS) + (["t"] if t else []) + names
    times = np.arange(1, len(controls) + 1)[:, None] / hz
    rows = np.hstack([controls] + ([times] if t else []) + [states])
    path.write_text(format_rows(tuple(columns), rows))
    return states


def slalom(seconds=6.0, hz=60):
    rows = load_trace(BUILTIN_TRACES / "slalom.csv")
    return rows[: int(seconds * hz)]


def test_a_recording_of_the_window_s_own_car_replays_on_its_path_at_every_tick(window, tmp_path):
    """The same model and tuning made the recording, so the sandbox car is where the
    recorded car was at every tick: the distance is float rounding at most."""
    paused(window)
    controls = slalom()
    states = write_recording(tmp_path / "drive.csv", window.model, window.tuning, controls, window.sim.hz)
    assert window.recordings.open_file(tmp_path / "drive.csv")
    result = window.recordings.result
    assert len(result.distance) == len(controls)
    assert float(np.max(result.distance)) < 1e-9
    assert float(np.ptp(states[:, 0])) > 100  # a drive worth the name (px)
    for tick in (1, 100, len(controls) - 1):  # the replay itself, not only the curve
        window.replay.scrub(tick)
        car = window.sim.state
        assert abs(float(car.x[0]) - states[tick, 0]) < 1e-9 and abs(float(car.y[0]) - states[tick, 1]) < 1e-9
    assert window.recordings.dock.isVisible()
    window.panel.set_values({"engine_power": 1.1 * window.tuning["engine_power"]}, "more power")
    assert float(window.recordings.result.distance[-1]) > 10.0  # another tuning: computed again, apart
    window.undo.undo()
    assert float(np.max(window.recordings.result.distance)) < 1e-9


def test_opening_a_recording_as_a_trace_replays_it_as_a_recording(window, tmp_path):
    """Traces → Open trace… takes a recording too: it is replayed from where it
    starts, with its path and the divergence, not from rest at the origin."""
    paused(window)
    write_recording(tmp_path / "drive.csv", window.model, window.tuning, slalom(), window.sim.hz)
    assert window.replay.open_trace_file(tmp_path / "drive.csv")
    assert window.recordings.replaying and window.recordings.overlay in window.track.world_overlays
    window.replay.stop()  # back to the keyboard: the recording leaves the view
    assert window.track.world_overlays == [] and not window.recordings.replaying


def test_with_another_tuning_the_distance_grows_and_the_worst_point_is_named(window, tmp_path):
    paused(window)
    controls = slalom()
    made_with = window.tuning.copy()
    made_with["engine_power"] = window.tuning["engine_power"] * 0.7
    write_recording(tmp_path / "drive.csv", window.model, made_with, controls, window.sim.hz)
    assert window.recordings.open_file(tmp_path / "drive.csv")
    distance = window.recordings.result.distance
    hz = window.sim.hz
    assert distance[0] == 0.0  # both start from the recording's first state
    assert distance[hz] < distance[3 * hz] < distance[5 * hz]  # less power: further behind as time goes
    worst = int(np.argmax(distance))
    text = window.recordings.plot.worst_label.toPlainText()
    assert f"tick {worst}" in text and f"{worst / hz:.2f} s" in text and "px" in text
    # the window's replay at that tick is that far from the recorded car
    window.replay.scrub(worst)
    recorded = window.recordings.drive
    car = window.sim.state
    gap = np.hypot(float(car.x[0]) - recorded.x[worst], float(car.y[0]) - recorded.y[worst])
    assert gap == distance[worst]
    for tick in (hz, 2 * hz, 4 * hz):
        window.replay.scrub(tick)
        car = window.sim.state
        assert np.hypot(float(car.x[0]) - recorded.x[tick], float(car.y[0]) - recorded.y[tick]) <= gap


def test_the_view_draws_the_recorded_path_and_a_click_on_the_plot_seeks_there(window, tmp_path, qtbot):
    paused(window)
    controls = slalom()
    write_recording(tmp_path / "drive.csv", window.model, window.tuning, controls, window.sim.hz)
    assert window.recordings.open_file(tmp_path / "drive.csv")
    written = np.loadtxt(tmp_path / "drive.csv", delimiter=",", skiprows=1)
    header = (tmp_path / "drive.csv").read_text().splitlines()[0].split(",")
    overlay = window.recordings.overlay
    assert overlay in window.track.world_overlays
    assert np.array_equal(overlay.x, written[:, header.index("x")])
    assert np.array_equal(overlay.y, written[:, header.index("y")])
    window.track.grab()  # paints the overlay without complaint
    plot = window.recordings.plot
    window.recordings.dock.raise_()
    plot.resize(600, 300)
    plot.show()
    qtbot.waitUntil(plot.plot.isVisible)
    box = plot.plot.getViewBox()
    box.setXRange(0, 6, padding=0)
    scene_point = box.mapViewToScene(QPointF(2.0, box.viewRange()[1][0] + 0.5 * np.diff(box.viewRange()[1])[0]))
    point = plot.plot.mapFromScene(scene_point)
    qtbot.mouseClick(plot.plot.viewport(), Qt.MouseButton.LeftButton, pos=point)
    tick = window.drive.replay_tick
    assert abs(tick - 2.0 * window.sim.hz) <= 2  # within a pixel's worth of time


def test_a_bad_recording_says_why_and_changes_nothing(window, tmp_path):
    paused(window)
    controls = slalom()
    write_recording(tmp_path / "good.csv", window.model, window.tuning, controls, window.sim.hz)
    lines = (tmp_path / "good.csv").read_text().splitlines()
    header = lines[0].split(",")
    cells = lines[50].split(",")
    cells[header.index("x")] = "nan"
    lines[50] = ",".join(cells)
    (tmp_path / "bad.csv").write_text("\n".join(lines) + "\n")
    before = dict(window.tuning)
    assert not window.recordings.open_file(tmp_path / "bad.csv")
    assert window.last_error and "bad.csv" in window.last_error
    assert dict(window.tuning) == before
    assert window.drive.replay is None and window.recordings.recording is None
    assert window.track.world_overlays == [] and not window.recordings.dock.isVisible()


def test_a_recording_with_a_lost_tick_is_not_replayed_through_the_gap(window, tmp_path):
    """The controls of a tick lost on the way from the game are unknown: replaying
    through it would drive a car the game never drove."""
    paused(window)
    write_recording(tmp_path / "good.csv", window.model, window.tuning, slalom(), window.sim.hz)
    lines = (tmp_path / "good.csv").read_text().splitlines()
    del lines[100]  # the row of tick 99
    (tmp_path / "lost.csv").write_text("\n".join(lines) + "\n")
    before = dict(window.tuning)
    assert not window.recordings.open_file(tmp_path / "lost.csv")
    assert window.last_error and "is missing from this recording" in window.last_error and "fit" in window.last_error
    assert dict(window.tuning) == before and window.drive.replay is None and window.recordings.recording is None


def test_a_recording_at_another_tick_rate_asks_and_can_switch_the_window_to_it(window, tmp_path):
    paused(window)
    controls = slalom(hz=120)
    write_recording(tmp_path / "fast.csv", window.model, window.tuning, controls, 120)
    asked = []
    answer(QMessageBox.StandardButton.Yes, asked)
    assert window.recordings.open_file(tmp_path / "fast.csv")
    assert "120 Hz" in asked[0] and "60 Hz" in asked[0]
    assert window.sim.hz == 120
    assert float(np.max(window.recordings.result.distance)) < 1e-9  # at its own rate: on its path
    window.undo.undo()  # the rate was one undo step
    assert window.sim.hz == 60
    assert "recorded at 120 Hz, replayed at 60 Hz" in window.recordings.plot.summary.text()


def test_a_recording_in_the_other_length_unit_is_said_plainly(window, tmp_path):
    """The arcade works in px; the same drive written in metres (25 px a metre) is 25
    times shorter than the sandbox car's, and the window says so, converting nothing."""
    paused(window)
    controls = slalom()
    write_recording(tmp_path / "px.csv", window.model, window.tuning, controls, window.sim.hz, state_columns=False)
    lines = (tmp_path / "px.csv").read_text().splitlines()
    header = lines[0].split(",")
    table = np.loadtxt(lines[1:], delimiter=",", ndmin=2)
    for name in ("x", "y"):
        table[:, header.index(name)] /= 25.0
    (tmp_path / "metres.csv").write_text(format_rows(tuple(header), table))
    assert window.recordings.open_file(tmp_path / "metres.csv")
    note = window.recordings.units_note
    assert "is the recording in m?" in note and "converts nothing" in note
    assert note in window.recordings.plot.summary.text()


def test_a_recording_without_velocities_starts_moving_as_its_first_two_poses_say(window, tmp_path):
    """The arcade moves a car by its velocity at the tick's end (position += velocity·dt),
    so the velocity its first two recorded positions give is the one it had: started
    there, the window's own car stays on the recorded path but for rounding."""
    paused(window)
    controls = slalom()
    states = write_recording(tmp_path / "pose.csv", window.model, window.tuning, controls, window.sim.hz, False)
    assert window.recordings.open_file(tmp_path / "pose.csv")
    drive = window.recordings.drive
    assert drive.first == 1 and drive.ticks == len(controls) - 2
    assert float(np.max(window.recordings.result.distance)) < 1e-6  # px
    assert np.ptp(states[:, 0]) > 100
    assert "no velocity in the recording" in window.recordings.plot.summary.text()
    window.replay.scrub(drive.ticks)
    car = window.sim.state
    assert np.hypot(float(car.x[0]) - states[-1, 0], float(car.y[0]) - states[-1, 1]) < 1e-6


def test_the_recording_tab_is_a_panel_tab_hides_it_and_reset_layout_puts_it_back(window, tmp_path):
    """Tab hides the Recording tab with the other panels and brings it back; Reset
    layout puts it back beside the Plots (closed or moved), but never shows it empty."""
    from PySide6.QtWidgets import QApplication

    panels, dock = window.panels, window.recordings.dock
    bottom = Qt.DockWidgetArea.BottomDockWidgetArea
    paused(window)
    panels.reset_layout()
    panels.toggle()
    panels.toggle()
    assert dock.isHidden()  # no recording opened yet: nothing to show in it
    write_recording(tmp_path / "drive.csv", window.model, window.tuning, slalom(), window.sim.hz)
    assert window.recordings.open_file(tmp_path / "drive.csv")
    QApplication.processEvents()
    assert dock in panels.docks() and dock.isVisible()
    panels.toggle()  # Tab: the car gets the whole window
    QApplication.processEvents()
    assert not any(d.isVisible() for d in window.findChildren(type(dock)))
    assert window.track.width() == window.width()
    panels.toggle()  # Tab again: back with the others
    QApplication.processEvents()
    assert not dock.isHidden() and window.dockWidgetArea(dock) == bottom
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)  # moved to the side, then closed
    dock.close()
    panels.reset_layout()
    QApplication.processEvents()
    assert not dock.isHidden() and not dock.isFloating()
    assert window.dockWidgetArea(dock) == bottom and dock in window.tabifiedDockWidgets(panels.plots_dock)
    assert panels.plots_dock.isVisible()  # the Plots the tab in front
    menus = [m.title().replace("&", "") for m in dock.toggleViewAction().associatedObjects() if isinstance(m, QMenu)]
    assert "View" in menus and "Traces" in menus  # shown or hidden on its own too


def test_a_layout_saved_with_the_recording_tab_shown_starts_without_it(window, tmp_path, qtbot):
    """The window's layout is kept between runs, but a recording is not: the next start
    has no empty Recording tab."""
    from sandbox.ui.app import MainWindow
    from sandbox.ui.window_memory import settings

    paused(window)
    write_recording(tmp_path / "drive.csv", window.model, window.tuning, slalom(), window.sim.hz)
    assert window.recordings.open_file(tmp_path / "drive.csv")
    assert window.recordings.dock.isVisible()
    settings().setValue("window/state", window.saveState())  # as the window saves it when it closes
    settings().sync()
    again = MainWindow(remember=True)
    qtbot.addWidget(again)
    with qtbot.waitExposed(again):
        again.show()
    assert again.recordings.recording is None and again.panels.recording_dock.isHidden()
    assert again.panels.plots_dock.isVisible()  # the rest of the layout as saved


def test_distances_of_a_thousand_or_more_read_in_whole_units(window):
    """A real game's drive (tests/data/recordings, from the Godot engine) against the
    recipe's values parts by more than 1000 px: the tab says "1556 px", not "1.56e+03 px"."""
    paused(window)
    assert window.recordings.open_file(Path(__file__).parent / "data" / "recordings" / "game_arcade.csv")
    distance = window.recordings.result.distance
    worst = float(np.max(distance))
    assert worst >= 1000.0
    window.replay.scrub(int(np.argmax(distance)))
    texts = [
        window.recordings.plot.summary.text(),
        window.recordings.plot.worst_label.toPlainText(),
        window.recordings.plot.now.label.toPlainText(),
    ]
    for text in texts:
        assert f"{worst:.0f} px" in text and "e+" not in text, text
