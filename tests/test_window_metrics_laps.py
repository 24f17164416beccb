"""The Metrics tab with a track: on the club circuit (closed, with a start line) it lists
the driver's lap time and sector times, the lap time the one-car driver's timed lap of
the window's tuning, measured again when the tuning changes; the open field has no lap
rows; a lap that cannot be driven shows "—" with why in its tooltip."""

from __future__ import annotations

import math

import pytest

from sandbox.analysis.driven_laps import drive_timed_laps
from sandbox.files.tracks import find_builtin_track, load_track

COMPUTE_MS = 600_000  # a first use compiles the metrics' kernels


def shown_rows(window, qtbot, has_lap: bool) -> dict:
    """The panel's rows by name once the newest request is shown, with or without a lap."""
    window.metrics.settle()
    qtbot.waitUntil(
        lambda: window.metrics.rows and any(r["name"] == "lap_time" for r in window.metrics.rows) == has_lap,
        timeout=COMPUTE_MS,
    )
    return {row["name"]: (i, row) for i, row in enumerate(window.metrics.rows)}


def test_the_metrics_tab_lists_the_drivers_lap_time_on_the_club_circuit_and_none_on_the_open_field(window, qtbot):
    window.timer.stop()
    window.panels.metrics_dock.raise_()  # shown: the panel computes
    window.world.open_builtin("club_circuit")
    track = load_track(find_builtin_track("club_circuit"))
    expected = drive_timed_laps(window.model, dict(window.tuning), track, 1, window.sim.hz).laps[0]
    assert expected.valid
    rows = shown_rows(window, qtbot, True)
    i, lap = rows["lap_time"]
    assert lap["value"] == pytest.approx(expected.time, rel=1e-9)
    assert window.metrics.table.item(i, 0).text() == "lap time"
    assert window.metrics.table.item(i, 1).text() == f"{expected.time:.2f} s"
    assert "timed lap" in window.metrics.table.item(i, 0).toolTip()
    sectors = [rows[f"sector_{k + 1}"][1]["value"] for k in range(1 + len(track.sectors))]
    assert sectors == pytest.approx(list(expected.sectors), rel=1e-9)
    assert sum(sectors) == pytest.approx(expected.time, rel=1e-9)
    # a change of the tuning is measured again on the same track, and against the pinned
    # ghost (the tuning before), whose lap is driven on the same track
    window.compare.pin()
    window.panel.sliders["engine_power"].setValue(int(window.tuning["engine_power"] * 0.7))
    slower = drive_timed_laps(window.model, dict(window.tuning), track, 1, window.sim.hz).laps[0]
    window.metrics.settle()
    qtbot.waitUntil(lambda: window.metrics.rows[rows["lap_time"][0]]["value"] == pytest.approx(slower.time, rel=1e-9),
                    timeout=COMPUTE_MS)  # fmt: skip
    assert slower.time > expected.time
    window.metrics.settle()
    qtbot.waitUntil(lambda: window.metrics.table.columnCount() == 3, timeout=COMPUTE_MS)
    cell = window.metrics.table.item(rows["lap_time"][0], 2)
    assert cell.text() == f"{slower.time - expected.time:+.2f}"
    assert cell.foreground().color().name() == "#c62828"  # slower: worse, red
    window.world.open_field()
    rows = shown_rows(window, qtbot, False)
    assert not any(name == "lap_time" or name.startswith("sector_") for name in rows)
    assert "top_speed" in rows


def test_a_lap_that_cannot_be_driven_shows_a_dash_with_why(window, qtbot):
    """No engine power: the car never moves, the driver stalls; its lap time and sector
    times show "—" and say why (the command line's `lap` stops the same way)."""
    window.timer.stop()
    window.panels.metrics_dock.raise_()
    window.world.open_builtin("club_circuit")
    window.panel.sliders["engine_power"].setValue(0)
    assert window.tuning["engine_power"] == 0
    rows = shown_rows(window, qtbot, True)
    for name in ("lap_time", "sector_1"):
        i, row = rows[name]
        assert math.isnan(row["value"])
        assert window.metrics.table.item(i, 1).text() == "—"
        assert (
            window.metrics.table.item(i, 1).toolTip().startswith("n/a: the driver could not get round (stalled after ")
        )
