"""The Laps tab, offscreen: the lap table's sector colours against laps with known
sector times, two laps overlaid with their delta, the map coloured by a channel, the
CSV export; and the tab fed by a real driver's laps of the club circuit."""

from __future__ import annotations

import csv

import numpy as np
import pytest
from PySide6.QtCore import QItemSelectionModel

from sandbox.analysis.lap_channels import Channel
from sandbox.analysis.laps import Lap, LapBook
from sandbox.errors import UserError
from sandbox.physics import lap_timer as lt
from sandbox.ui.laps_tab import LapsTab
from sandbox.ui.laps_table import OVERALL, PERSONAL, SLOWER, rank


def lap(number: int, sectors: tuple[float, ...], flags: int = 0, cones: int = 0, distance: float = 300.0) -> Lap:
    """A lap driven at an even pace within each of its three equal sectors."""
    edges = np.linspace(0.0, distance, len(sectors) + 1)
    times = np.concatenate([[0.0], np.cumsum(sectors)])
    raw = float(times[-1])
    return Lap(number, 0.0, raw + 2.0 * cones, raw, 2.0 * cones, cones, flags, distance, sectors, edges, times)


def book_of(*laps: Lap) -> LapBook:
    book = LapBook()
    book.laps.extend(laps)
    return book


def channels_of(the_lap: Lap, ticks: int = 50) -> dict[str, Channel]:
    """Channels at even distances: speed rising along the lap, the path a circle."""
    d = np.linspace(0.0, the_lap.distance, ticks, endpoint=False)
    angle = 2 * np.pi * d / the_lap.distance
    return {
        "distance": Channel(d, "m"),
        "time": Channel(the_lap.time_at(d), "s"),
        "x": Channel(50 * np.cos(angle), "m"),
        "y": Channel(50 * np.sin(angle), "m"),
        "speed": Channel(10 + d / 10, "m/s"),
        "steer": Channel(np.sin(angle), ""),
    }


# Four laps, three sectors each. Sector 1: 10, 9 (best so far), 9.5 (slower), 8 (best of all).
# Lap 3 is cut: its 7.0 in sector 2 never counts. Sector 3 is best on lap 1 and never bettered.
LAPS = (
    lap(1, (10.0, 11.0, 12.0)),
    lap(2, (9.0, 11.5, 12.5)),
    lap(3, (9.5, 7.0, 12.1), flags=lt.CUT),
    lap(4, (8.0, 10.5, 13.0)),
)


@pytest.fixture
def tab(qtbot):
    widget = LapsTab()
    qtbot.addWidget(widget)
    widget.resize(1000, 700)
    with qtbot.waitExposed(widget):
        widget.show()
    return widget


def test_a_time_is_purple_when_best_of_all_green_when_better_than_before_and_yellow_when_slower():
    assert rank([10.0, 9.0, 9.5, 8.0], [True] * 4) == [PERSONAL, PERSONAL, SLOWER, OVERALL]
    assert rank([10.0, 9.0, 7.0, 9.0], [True, True, False, True]) == [PERSONAL, OVERALL, "", SLOWER]


def test_the_table_lists_every_lap_with_its_sector_colours_and_the_best_and_optimal_lap(tab):
    tab.show_book(book_of(*LAPS), {})
    table = tab.table
    assert table.rowCount() == 4
    heads = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    assert heads == ["Lap", "Time", "S1", "S2", "S3", "Cones", "Marks"]
    colours = [[table.colour_of(row, col) for col in (2, 3, 4)] for row in range(4)]
    assert colours == [
        [PERSONAL, PERSONAL, OVERALL],
        [PERSONAL, SLOWER, SLOWER],
        ["", "", ""],  # cut: it does not count
        [OVERALL, OVERALL, SLOWER],
    ]
    # lap times: 33, 33, (28.6 cut), 31.5
    assert [table.colour_of(row, 1) for row in range(4)] == [PERSONAL, SLOWER, "", OVERALL]
    assert table.item(2, 6).text() == "cut"
    assert table.item(0, 6).text() == "valid"
    assert table.item(3, 2).background().color() != table.item(0, 2).background().color()
    # best: lap 4, 31.5 s; optimal: 8 + 10.5 + 12 = 30.5 s
    assert "31.500 (lap 4)" in tab.summary.text() and "optimal 30.500" in tab.summary.text()


def test_two_laps_chosen_are_drawn_with_a_delta_that_ends_at_their_time_difference(tab):
    book = book_of(*LAPS)
    tab.show_book(book, {x.number: channels_of(x) for x in LAPS})
    tab.choose(1, 4)
    d, delta = tab.delta_curve.getData()
    assert d[0] == 0.0 and d[-1] == pytest.approx(300.0)
    assert delta[-1] == pytest.approx(31.5 - 33.0, abs=1e-12)
    # at the end of sector 1 (d = 100) lap 4 is 8 - 10 = 2 s ahead
    assert np.interp(100.0, d, delta) == pytest.approx(-2.0, abs=1e-9)
    first_x, first_speed = tab.first_curve.getData()
    assert len(first_x) == 50 and first_speed[-1] == pytest.approx(10 + first_x[-1] / 10)
    assert len(tab.second_curve.getData()[0]) == 50


def test_selecting_two_rows_of_the_table_overlays_those_laps(tab):
    tab.show_book(book_of(*LAPS), {x.number: channels_of(x) for x in LAPS})
    tab.table.selectRow(1)
    add = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
    tab.table.selectionModel().select(tab.table.model().index(2, 0), add)
    assert (tab.first_number(), tab.second_number()) == (2, 3)
    assert tab.delta_curve.getData()[1][-1] == pytest.approx(28.6 - 33.0)


def test_the_map_colours_follow_the_chosen_channel(tab):
    tab.show_book(book_of(*LAPS), {x.number: channels_of(x) for x in LAPS})
    tab.choose(1, 2)
    tab.choose_channel("speed")  # rising over the lap: each point's colour is further along the map
    colours = tab.map.colours()
    cmap = tab.map.cmap
    assert colours[0] == cmap.map(0.0, mode="qcolor").getRgb()[:3]
    assert colours[-1] == cmap.map(1.0, mode="qcolor").getRgb()[:3]
    assert len(set(colours)) > 10
    tab.choose_channel("steer")  # sin of the angle: highest a quarter of the way round
    steer = tab.map.colours()
    assert steer != colours
    assert steer[int(np.argmax(np.sin(2 * np.pi * np.arange(50) / 50)))] == cmap.map(1.0, mode="qcolor").getRgb()[:3]
    assert tab.map.bar.axis.labelText == "steer"
    tab.choose_channel("speed")
    assert tab.map.bar.axis.labelText == "speed [m/s]"


def test_a_laps_channels_export_as_csv_with_a_header_and_a_row_per_tick(tab, tmp_path):
    tab.show_book(book_of(*LAPS), {x.number: channels_of(x) for x in LAPS})
    path = tab.export_csv(2, tmp_path / "lap2.csv")
    rows = list(csv.reader(path.open()))
    assert rows[0] == ["distance [m]", "time [s]", "x [m]", "y [m]", "speed [m/s]", "steer"]
    assert len(rows) == 1 + 50
    assert [float(v) for v in rows[1][:2]] == [0.0, 0.0]
    assert float(rows[-1][0]) == pytest.approx(300.0 * 49 / 50)
    # lap 2's first sector is 9 s over 100 m: at 12 m, 1.08 s
    assert float(rows[3][1]) == pytest.approx(9.0 * 12 / 100)


def test_an_export_that_cannot_be_written_says_why_and_writes_nothing(tab, tmp_path):
    tab.show_book(book_of(*LAPS), {x.number: channels_of(x) for x in LAPS})
    with pytest.raises(UserError):
        tab.export_csv(2, tmp_path / "no such folder" / "lap2.csv")
    with pytest.raises(UserError, match="lap 9 has no channels"):
        tab.export_csv(9, tmp_path / "lap9.csv")
    assert list(tmp_path.iterdir()) == []


def test_a_drivers_laps_of_the_club_circuit_fill_the_tab_with_their_channels(tab):
    """The driver's two laps from the spawn: the first starts slower (from the run-up),
    so the second is ahead; the delta's end is their difference as driven, and each
    lap's distance channel runs from the start line to its end."""
    from sandbox.analysis.driven_laps import drive_timed_laps
    from sandbox.analysis.lap_channels import driven_channels
    from sandbox.files.presets import find_preset, load_preset
    from sandbox.files.tracks import find_builtin_track, load_track

    preset = load_preset(find_preset("drift"))
    track = load_track(find_builtin_track("club_circuit"))
    driven = drive_timed_laps(preset.model, preset.tuning, track, 2, 60)
    channels = driven_channels(driven, track, preset.model.LENGTH_UNIT)
    first, second = driven.laps
    tab.show_book(driven.book, channels)
    tab.choose(first.number, second.number)
    assert tab.delta_curve.getData()[1][-1] == pytest.approx(second.raw - first.raw, abs=1e-9)
    for done in driven.laps:
        distance, time = channels[done.number]["distance"].values, channels[done.number]["time"].values
        # one sample per tick inside the lap: the lap's time as driven over the tick, within a tick
        assert len(time) == pytest.approx(done.raw * 60, abs=1)
        assert 0 <= distance[0] < 30 and done.distance - 30 < distance[-1] < done.distance
        assert np.all(np.diff(time) == pytest.approx(1 / 60))
    speed = channels[second.number]["speed"]
    assert speed.unit == "px/s" and tab.second_curve.getData()[1] == pytest.approx(speed.values)


def test_a_screenshot_of_the_laps_tab_without_a_track_is_refused_with_the_reason(tmp_path, capsys):
    from sandbox.cli import main

    out = tmp_path / "laps.png"
    assert main(["screenshot", "--preset", "drift", "--tab", "laps", "--out", str(out)]) == 2
    assert "--tab laps needs --track" in capsys.readouterr().err
    assert not out.exists()


def test_the_window_has_a_laps_tab_beside_the_plots_that_shows_a_book(window, qtbot):
    assert window.laps.summary.text().startswith("No laps yet")
    window.show_tab("laps")
    dock = window.panels.by_name["laps_dock"]
    qtbot.waitUntil(lambda: not dock.visibleRegion().isEmpty())
    assert dock in window.tabifiedDockWidgets(window.panels.plots_dock)
    window.laps.show_book(book_of(*LAPS), {x.number: channels_of(x) for x in LAPS})
    assert window.laps.table.rowCount() == 4 and (window.laps.first_number(), window.laps.second_number()) == (4, 3)
    window.laps.choose(1, 4)
    assert window.laps.delta_curve.getData()[1][-1] == pytest.approx(31.5 - 33.0)


def test_the_reference_lap_is_the_best_until_a_lap_is_chosen_and_its_row_is_marked(tab, qtbot):
    """The Reference box offers the best lap and every lap; the best (lap 4) is the
    reference at first, its row marked and the overlay's first lap (against lap 3). Lap 2
    chosen: its row marked, it is the first lap (lap 3 is 9.5 - 9 = 0.5 s behind it at
    100 m, 1.5 s behind lap 4), and the tab says it. A new book goes back to the best."""
    tab.show_book(book_of(*LAPS), {x.number: channels_of(x) for x in LAPS})
    box = tab.reference_box
    assert [box.itemText(i) for i in range(box.count())] == ["Best lap", "Lap 1", "Lap 2", "Lap 3", "Lap 4"]
    assert box.currentIndex() == 0 and tab.table.reference_row() == 3 and tab.first_number() == 4
    assert tab.table.item(3, 0).text() == "4 · reference" and tab.table.item(3, 0).font().bold()
    with qtbot.waitSignal(tab.reference_chosen) as said:
        box.activated.emit(box.findData(2))
    assert said.args == [2] and tab.reference == 2
    assert tab.table.reference_row() == 1 and tab.table.item(1, 0).text() == "2 · reference"
    assert tab.table.item(3, 0).text() == "4" and box.currentText() == "Lap 2"
    assert (tab.first_number(), tab.second_number()) == (2, 3)
    d, delta = tab.delta_curve.getData()
    assert np.interp(100.0, d, delta) == pytest.approx(0.5, abs=1e-9)
    tab.show_book(book_of(*LAPS), {})  # another book (laps reset, another track)
    assert tab.reference is None and box.currentIndex() == 0 and tab.table.reference_row() == 3


def test_the_tables_context_menu_makes_a_lap_or_the_best_lap_the_reference(tab, qtbot):
    tab.show_book(book_of(*LAPS), {x.number: channels_of(x) for x in LAPS})
    use = {action.text(): action for action in tab.table.menu_for(0).actions()}
    with qtbot.waitSignal(tab.reference_chosen) as said:
        use["Use as reference lap (lap 1)"].trigger()
    assert said.args == [1] and tab.table.reference_row() == 0 and tab.reference_box.currentText() == "Lap 1"
    with qtbot.waitSignal(tab.reference_chosen) as said:
        use["Use the best lap as reference"].trigger()
    assert said.args == [None] and tab.table.reference_row() == 3
    assert not tab.table.menu_for(-1).actions()[0].isEnabled()  # below the rows: no lap to use


def test_the_cone_penalty_box_goes_from_0_to_60_s_in_half_seconds_from_2_and_says_a_change(tab, qtbot):
    box = tab.penalty_box
    assert (box.minimum(), box.maximum(), box.singleStep(), box.value()) == (0.0, 60.0, 0.5, 2.0)
    assert "each cone" in box.toolTip()
    with qtbot.waitSignal(tab.cone_penalty_changed) as said:
        box.stepUp()
    assert said.args == [2.5]
    with qtbot.assertNotEmitted(tab.cone_penalty_changed):
        tab.show_cone_penalty(4.0)
    assert box.value() == 4.0


def test_the_first_lap_follows_the_best_as_it_improves_until_another_is_chosen(tab):
    book = book_of(*LAPS[:2])
    tab.show_book(book, {})
    assert tab.first_number() == 1 and tab.table.reference_row() == 0
    book.laps.extend(LAPS[2:])  # lap 4 is the best now
    tab.show_book(book, {})
    assert tab.first_number() == 4 and tab.table.reference_row() == 3
    tab.choose(1, 3)
    book.laps.append(lap(5, (7.0, 10.0, 12.0)))  # the best again
    tab.show_book(book, {})
    assert tab.first_number() == 1 and tab.table.reference_row() == 4
