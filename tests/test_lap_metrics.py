"""Lap time as a figure of a tuning: the compiled batch against the driver's own laps."""

from dataclasses import replace

import numpy as np
import pytest

from sandbox.analysis.driven_laps import drive_timed_laps
from sandbox.analysis.lap_metrics import lap_figures, lap_note, sector_names
from sandbox.errors import UserError
from sandbox.files.presets import find_preset, load_preset
from sandbox.files.tracks import find_builtin_track, open_track


@pytest.fixture(scope="module")
def club():
    return open_track(find_builtin_track("club_circuit"))


@pytest.fixture(scope="module")
def drift():
    return load_preset(find_preset("drift"))


@pytest.mark.parametrize("hz", [60.0, 98.0])  # 98: 1 / (1 / 98) is not 98 in floating point
def test_batch_lap_equals_the_drivers_timed_lap_tuning_by_tuning(club, drift, hz):
    """Each tuning of a batch laps as `drive_timed_laps` drives and times it alone: the
    same steps in compiled code, so the same lap (time and sectors) to the bit."""
    model, tuning = drift.model, dict(drift.tuning)
    powers = np.array([900.0, 1200.0, 1800.0])
    figures = lap_figures(model, {**tuning, "engine_power": powers}, hz, club)
    for k, power in enumerate(powers):
        alone = drive_timed_laps(model, {**tuning, "engine_power": power}, club, 1, hz)
        lap = alone.laps[0]
        assert lap.valid
        assert figures["lap_time"][k] == lap.time
        assert [figures[name][k] for name in sector_names(club)] == list(lap.sectors)
        assert lap_note(model, figures, k) == ""


@pytest.mark.parametrize("name", ["drift", "ice", "heavy_truck"])
def test_a_car_that_practises_laps_the_same_in_the_batch_as_alone(name):
    """On the skid pad these cars' first drive does not count (they slide wide, or
    knock a cone joining the line), so the driver drives again asking for less grip:
    the batch practises as the driver alone does, to the same lap."""
    preset = load_preset(find_preset(name))
    pad = open_track(find_builtin_track("skid_pad"))
    tuning = dict(preset.tuning)
    alone = drive_timed_laps(preset.model, tuning, pad, 1, preset.hz)
    assert alone.plan.lateral < alone.plan.limits.lateral  # it practised
    assert alone.laps[0].valid
    figures = lap_figures(preset.model, tuning, preset.hz, pad)
    assert figures["lap_time"][0] == alone.laps[0].time


def test_more_engine_power_is_not_slower(club, drift):
    """More power: at least as quick out of every corner onto every straight, the grip
    and braking the same, so the lap is no slower."""
    model, tuning, hz = drift.model, dict(drift.tuning), drift.hz
    powers = np.array([700.0, 1000.0, 1300.0, 1600.0])
    times = lap_figures(model, {**tuning, "engine_power": powers}, hz, club)["lap_time"]
    assert np.isfinite(times).all()
    assert np.all(np.diff(times) <= 0), times


def test_a_track_without_a_start_line_is_refused_by_name(club, drift):
    no_start = replace(club, start=None)
    with pytest.raises(UserError, match="no start line"):
        lap_figures(drift.model, dict(drift.tuning), drift.hz, no_start)


def test_sensitivity_on_a_track_moves_the_lap_time_with_the_engine(club, drift):
    """More engine power, a quicker lap: the lap time's change for 10 % of the engine's
    range up is below 0, and the table's base lap is the driver's lap."""
    from sandbox.analysis.sensitivity import sensitivity

    result = sensitivity(drift.model, dict(drift.tuning), drift.hz, club)
    assert {"lap_time", "sector_1", "sector_3"} <= set(result.metrics)
    assert result.change("engine_power", "lap_time", "share") < 0
    alone = drive_timed_laps(drift.model, dict(drift.tuning), club, 1, drift.hz).laps[0]
    assert result.base["lap_time"] == alone.time
