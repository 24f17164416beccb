"""Car → Driver at the wheel (F9) in the real window: on the club circuit the driver laps
the car on its own, the session's lap book gets a valid lap in the time the headless
drive takes for the same tuning, the HUD shows the lap and the status line who drives;
F9 again gives the wheel back; on the open field there is no lap to drive."""

from __future__ import annotations

import pytest

from sandbox.analysis.driven_laps import drive_timed_laps
from sandbox.files.tracks import find_builtin_track, load_track
from sandbox.session.lap_wheel import DriverSource
from sandbox.session.laps_live import clock
from sandbox.ui.menus import shortcut_rows

PLAN_WAIT_MS = 300_000  # a first plan compiles the metrics' kernels


def take_the_wheel(window, qtbot) -> None:
    window.world.open_builtin("club_circuit")
    window.timer.stop()  # the test ticks the car itself
    assert window.driver_action.isEnabled()
    window.driver_action.trigger()
    assert window.driver_action.isChecked()
    qtbot.waitUntil(lambda: isinstance(window.drive.live, DriverSource), timeout=PLAN_WAIT_MS)
    window.drive_view.reset_car()  # from the spawn, at rest, as the headless drive starts


def tick_until(window, done, bound: int) -> None:
    for _ in range(bound):
        if done():
            return
        window.drive.tick()
    raise AssertionError("not reached within the tick bound")


def test_f9_laps_the_club_circuit_in_the_headless_drives_time_and_gives_the_wheel_back(window, qtbot):
    track = load_track(find_builtin_track("club_circuit"))
    expected = drive_timed_laps(window.model, dict(window.tuning), track, 1, window.sim.hz).laps[0]
    take_the_wheel(window, qtbot)
    hz = window.sim.hz
    tick_until(window, lambda: window.drive.laps.book.laps, int(3 * expected.time * hz) + 60 * hz)
    lap = window.drive.laps.book.laps[0]
    assert lap.valid and lap.time == pytest.approx(expected.time, abs=2.0 / hz)
    window.drive_view.refresh()
    assert "driver at the wheel" in window.status.text()
    assert any(line.startswith("lap 2") for line in window.track.hud_lines)
    assert any(f"last {clock(lap.time)}" in line for line in window.track.hud_lines)
    assert [row.number for row in window.laps.table.laps] == [lap.number]  # the Laps tab lists the live lap
    assert window.laps.channels[lap.number]["speed"].unit == f"{window.model.LENGTH_UNIT}/s"
    line = window.drive.live.plan.line.points
    assert window.track.world.racing_line == [tuple(point) for point in line.tolist()]  # drawn while it drives
    window.driver_action.trigger()
    assert window.drive.live is window.keys and not window.driver_action.isChecked()
    assert window.track.world.racing_line is None
    window.drive_view.refresh()
    assert "driver" not in window.status.text()


def test_the_driver_has_no_lap_to_drive_on_the_open_field(window):
    window.world.open_field()
    window.menus.refresh()
    assert not window.driver_action.isEnabled()
    assert window.drive.laps.course is None and window.drive.live is window.keys


def test_the_best_laps_ghost_is_drawn_after_the_first_valid_lap(window, qtbot):
    take_the_wheel(window, qtbot)
    hz = window.sim.hz
    tick_until(window, lambda: window.drive.laps.lap == 2, 200 * hz)
    assert window.drive.laps.book.best is not None
    window.drive_view.refresh()
    names = [line for line in window.track.ghost_lines if line.startswith("ghost best lap 1")]
    assert len(names) == 1 and len(window.track.ghosts) == 1


def test_the_best_laps_ghost_is_not_a_compared_tuning_in_the_metrics(window, qtbot, monkeypatch):
    """The ghost replays the car's own tuning: the Metrics tab compares no ghost."""
    take_the_wheel(window, qtbot)
    tick_until(window, lambda: window.drive.laps.lap == 2, 200 * window.sim.hz)
    assert any(g.trace is not None for g in window.drive.ghosts)  # the best lap's ghost drives
    asked = []
    monkeypatch.setattr(
        window.metrics, "request", lambda car, ghosts=(), names=(), track=None: asked.append((ghosts, names))
    )
    window._request_metrics()
    assert asked == [([], [])]


def test_a_plan_the_driver_cannot_make_gives_the_wheel_back_with_the_reason(window, qtbot, tmp_path):
    """A lap the driver cannot plan (a ring road 1 m wide: too narrow for the car) is
    said in the status bar, and the keyboard keeps the wheel; no traceback."""
    from lap_tracks import ring
    from sandbox.files.tracks import save_track

    path = save_track(ring(40.0, 0.5), tmp_path / "narrow.json")
    assert window.world.open_file(path)
    window.driver_action.trigger()
    qtbot.waitUntil(lambda: not window.wheel.driving, timeout=PLAN_WAIT_MS)
    assert window.drive.live is window.keys and not window.driver_action.isChecked()
    said = window.statusBar().currentMessage()
    assert said.startswith("The driver could not drive here: the track 'ring' is 1.0 m wide"), said
    assert "too narrow for this car" in said


def test_the_driver_is_in_the_car_menu_with_f9_and_a_tip(window):
    action = window.driver_action
    assert action.shortcut().toString() == "F9" and "racing line" in action.toolTip()
    assert "F9 · Car → Driver at the wheel" in shortcut_rows(window.menuBar())  # F1's list too


def test_a_screenshot_of_the_driver_without_a_track_is_refused_with_the_reason(tmp_path, capsys):
    from sandbox.cli import main

    out = tmp_path / "driver.png"
    assert main(["screenshot", "--preset", "drift", "--driver", "--out", str(out)]) == 2
    assert "--driver needs --track" in capsys.readouterr().err
    assert not out.exists()


def test_f9_on_the_skid_pad_drives_the_plan_the_drift_car_practised(window, qtbot):
    """The drift car's first drive of the skid pad at its whole grip slides wide, so the
    driver at the wheel drives the plan it practised to (less grip asked), the one the
    headless driver's counting lap followed."""
    from sandbox.files.presets import find_preset, load_preset

    assert window.apply_preset(load_preset(find_preset("drift")))
    track = load_track(find_builtin_track("skid_pad"))
    practised = drive_timed_laps(window.model, dict(window.tuning), track, 1, window.sim.hz)
    assert practised.laps[0].valid and practised.plan.lateral < practised.plan.limits.lateral
    window.world.open_builtin("skid_pad")
    window.timer.stop()
    window.driver_action.trigger()
    qtbot.waitUntil(lambda: isinstance(window.drive.live, DriverSource), timeout=PLAN_WAIT_MS)
    plan = window.drive.live.plan
    assert plan.lateral == practised.plan.lateral
    assert list(plan.speeds) == list(practised.plan.speeds)
