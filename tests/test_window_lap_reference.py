"""The Laps tab's reference lap and cone penalty in the real window: a lap chosen as the
reference in the tab takes the car view's live delta to it; a new cone penalty
re-times the laps driven (the table shows it); the penalty is kept between runs."""

from __future__ import annotations

import numpy as np
import pytest

from sandbox.ui.app import MainWindow
from sandbox.ui.lap_settings import PENALTY_KEY
from sandbox.ui.laps_table import lap_time_text
from sandbox.ui.window_memory import settings
from test_window_lap_driver import take_the_wheel, tick_until


def delta_line(window) -> str:
    window.drive_view.refresh()
    return next(line for line in window.track.hud_lines if line.startswith("Δ "))


def test_a_lap_chosen_as_reference_in_the_tab_takes_the_live_delta_to_it(window, qtbot):
    """Lap 3, 5 s in: lap N (the lap that is not the best) chosen in the Reference box;
    the HUD's delta is the lap's elapsed time less lap N's time at the same distance,
    worked here from lap N's rows in the tab (its distance and time channels)."""
    take_the_wheel(window, qtbot)
    live = window.drive.laps
    tick_until(window, lambda: live.lap == 3 and live.elapsed > 5.0, 400 * window.sim.hz)
    assert delta_line(window).split(" · ")[0].endswith(" s to best")
    other = next(lap for lap in live.book.laps if lap is not live.book.best)
    box = window.laps.reference_box
    box.activated.emit(box.findData(other.number))
    rows = window.laps.channels[other.number]
    d, t = rows["distance"].values, rows["time"].values
    new = np.concatenate([[True], d[1:] > np.maximum.accumulate(d)[:-1]])
    expected = live.elapsed - float(np.interp(live.distance, d[new], t[new]))
    assert live.delta() == pytest.approx(expected, abs=1e-9)
    assert delta_line(window).startswith(f"Δ {expected:+.2f} s to lap {other.number} · predicted")
    assert window.laps.table.reference_row() == [lap.number for lap in window.laps.table.laps].index(other.number)
    assert window.laps.first_number() == other.number


def test_a_new_cone_penalty_retimes_a_lap_with_cones_in_the_table(window, qtbot):
    """Lap 1 knocks 3 cones (the car's count raised by 3 during it): its time is 3 × 2 s
    over its time as driven; the penalty set to 4.5 s in the tab, 3 × 2.5 s more."""
    take_the_wheel(window, qtbot)
    live = window.drive.laps
    cones = window.drive.sim.state.layout.offset["cones_hit"]
    tick_until(window, lambda: live.lap == 1 and live.elapsed > 2.0, 200 * window.sim.hz)
    window.drive.sim.state.data[0, cones] += 3
    tick_until(window, lambda: live.lap == 2, 400 * window.sim.hz)
    window.drive_view.refresh()
    before = live.book.lap(1)
    assert before.cones == 3 and before.time == pytest.approx(before.raw + 6.0)
    assert window.laps.table.item(0, 1).text() == lap_time_text(before.time)
    window.laps.penalty_box.setValue(4.5)
    after = live.book.lap(1)
    assert after.time == pytest.approx(before.time + 3 * 2.5)
    assert window.laps.table.item(0, 1).text() == lap_time_text(after.time)
    assert "3 cones (+13.5 s)" in window.laps.table.item(0, window.laps.table.columnCount() - 1).text()


def test_the_cone_penalty_is_kept_for_the_next_window_and_a_bad_one_goes_back_to_2_s(qtbot):
    first = MainWindow(remember=True)
    qtbot.addWidget(first)
    assert first.laps.penalty_box.value() == 2.0
    first.laps.penalty_box.setValue(3.5)
    first.close()
    second = MainWindow(remember=True)
    qtbot.addWidget(second)
    assert second.laps.penalty_box.value() == 3.5 and second.drive.laps.cone_penalty == 3.5
    second.close()
    settings().setValue(PENALTY_KEY, "-1")
    third = MainWindow(remember=True)
    qtbot.addWidget(third)
    assert third.laps.penalty_box.value() == 2.0 and third.drive.laps.cone_penalty == 2.0
    third.close()
