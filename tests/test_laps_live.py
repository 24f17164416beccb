"""Laps timed live in the drive session (no window): the lap driver at the wheel laps the
club circuit in the same time as the headless drive (one control law, the same ticks),
each lap keeps its channels, a run of ticks in one call is timed as ticking them, the
delta to the best lap is positive where the lap is slower, and a tuning change starts
a new book."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sandbox.analysis.driven_laps import drive_timed_laps
from sandbox.analysis.lap_plan import plan_lap
from sandbox.files.presets import find_preset, load_preset
from sandbox.files.tracks import find_builtin_track, load_track
from sandbox.physics.state import Controls
from sandbox.session.drive import DriveSession
from sandbox.session.lap_wheel import DriverSource
from sandbox.session.laps_live import NAMES, clock, lap_lines
from sandbox.session.sources import HeldControls

HZ = 60
LAP_TICKS = 40 * 60 * HZ  # a bound far beyond any lap of the drift preset


@pytest.fixture(scope="module")
def circuit():
    return load_track(find_builtin_track("club_circuit"))


@pytest.fixture(scope="module")
def preset():
    return load_preset(find_preset("drift"))


def driven(preset, circuit) -> DriveSession:
    """A session on the club circuit with the driver at the wheel, at the spawn."""
    drive = DriveSession(preset.model, preset.tuning.copy(), HZ)
    drive.track = circuit
    plan = plan_lap(preset.model, drive.sim.params, circuit, HZ)
    drive.live = DriverSource(plan, preset.model, drive.sim.params, HZ, lambda: drive.sim.state)
    drive.reset()
    return drive


def tick_until(drive: DriveSession, done, bound: int = LAP_TICKS) -> None:
    for _ in range(bound):
        if done():
            return
        drive.tick()
    raise AssertionError("not reached within the tick bound")


def test_the_driver_at_the_wheel_laps_in_the_time_of_the_headless_drive(preset, circuit):
    """The same control law on the same ticks from the same spawn: the session's first lap
    is the headless drive's first lap, to within a tick."""
    headless = drive_timed_laps(preset.model, preset.tuning, circuit, 1, HZ)
    expected = headless.laps[0]
    drive = driven(preset, circuit)
    tick_until(drive, lambda: drive.laps.book.laps)
    lap = drive.laps.book.laps[0]
    assert lap.valid and expected.valid
    assert lap.time == pytest.approx(expected.time, abs=1.0 / HZ)
    assert lap.sectors == pytest.approx(expected.sectors, abs=1.0 / HZ)


def test_a_lap_keeps_its_channels_tick_by_tick(preset, circuit):
    """One row per tick of the lap: its distance grows to the lap's, its time to the
    lap's within a tick, its speed covers the lap's distance in the lap's time; its
    control rows are the best lap's trace."""
    drive = driven(preset, circuit)
    tick_until(drive, lambda: drive.laps.book.laps)
    lap = drive.laps.book.laps[0]
    c = drive.laps.channels[1]
    assert set(c) == set(NAMES)
    ticks = len(c["time"])
    assert all(len(v) == ticks for v in c.values())
    assert ticks == pytest.approx(lap.raw * HZ, abs=1.5)
    assert 0 <= c["time"][0] <= 1.0 / HZ and lap.raw - 1.0 / HZ <= c["time"][-1] <= lap.raw
    assert np.all(np.diff(c["time"]) == pytest.approx(1.0 / HZ))
    assert c["distance"][-1] == pytest.approx(lap.distance, rel=0.01)
    # the speed over the lap's time covers about its distance (the racing line is not the centre line)
    assert np.mean(c["speed"]) * lap.raw == pytest.approx(lap.distance, rel=0.1)
    trace = drive.laps.best_trace()
    assert trace is not None and trace[0] is lap and trace[1].shape == (ticks, 5)


def test_a_run_of_ticks_in_one_call_is_timed_as_ticking_them(preset, circuit):
    """`drive_through` (a replay seek, a scripted drive) times its ticks in one call: the
    same laps, sectors and channels as ticking the same controls one by one."""
    first = driven(preset, circuit)
    tick_until(first, lambda: first.laps.book.laps)
    rows = np.column_stack([first.laps.channels[1][n] for n in ("steer", "throttle", "brake", "handbrake", "shift")])
    out = first.laps.starts[1]
    # the out lap's controls: replayed from the spawn by both
    lead = []
    second = DriveSession(preset.model, preset.tuning.copy(), HZ, HeldControls())
    second.track = circuit
    second.reset()
    third = driven(preset, circuit)
    while not third.laps.lap:
        third.tick()
        c = third.controls
        lead.append((c.steer, c.throttle, c.brake, c.handbrake, c.shift))
    assert third.laps.starts[1].x[0] == pytest.approx(out.x[0])
    all_rows = np.vstack([np.array(lead[:-1]), rows, rows[:3]])
    second.drive_through(all_rows)
    lap = second.laps.book.laps[0]
    # the same crossings; the clocks differ only in rounding (a sum of ticks, a product)
    assert lap.time == pytest.approx(first.laps.book.laps[0].time, abs=1e-6)
    assert lap.sectors == pytest.approx(first.laps.book.laps[0].sectors, abs=1e-6)
    assert second.laps.channels[1]["distance"] == pytest.approx(first.laps.channels[1]["distance"])
    # the best lap's ghost, started with lap 2 three ticks before the run's end, is three ticks into lap 1
    from sandbox.session.lap_ghost import lap_ghost

    ghost = lap_ghost(second)
    assert ghost is not None and ghost.sim.ticks == 3
    x, y = first.laps.channels[1]["x"][2], first.laps.channels[1]["y"][2]
    assert (float(ghost.sim.state.x[0]), float(ghost.sim.state.y[0])) == pytest.approx((x, y), abs=1e-9)


def test_the_delta_grows_by_the_time_the_car_stands_still_and_the_prediction_adds_it_to_the_best(preset, circuit):
    """A car held still for 2 s stays at the same distance while its lap's clock runs:
    its delta to the best lap grows by exactly 2 s (positive: slower, as motorsport
    tools show it), and the predicted time is the best lap's plus the delta. The HUD
    says both."""
    drive = driven(preset, circuit)
    tick_until(drive, lambda: drive.laps.book.best is not None)
    best = drive.laps.book.best
    tick_until(drive, lambda: drive.laps.elapsed > 5.0)
    before = drive.laps.delta()
    drive.live = HeldControls()
    velocity = [drive.sim.state.layout.offset[name] for name in ("vx", "vy")]
    for _ in range(2 * HZ):
        drive.sim.state.data[0, velocity] = 0.0  # held still
        drive.tick()
    delta = drive.laps.delta()
    assert delta == pytest.approx(before + 2.0, abs=1e-6) and delta > 1.5
    assert drive.laps.predicted() == pytest.approx(best.time + delta)
    lines = lap_lines(drive.laps)
    assert lines[0].startswith("lap 2") and f"Δ {delta:+.2f} s" in lines[-1]
    assert f"best {clock(best.time)}" in lines[1]


def test_a_tuning_change_starts_a_new_book_and_a_reset_drops_the_running_lap(preset, circuit):
    """Laps of one tuning are compared: a changed value starts a new book (the car on an
    out lap); a reset keeps the book and drops the running lap."""
    from sandbox.session.tuning import LiveTuning

    tuning = LiveTuning(preset.model, preset.tuning.copy(), HZ)
    drive = DriveSession(preset.model, tuning, HZ, HeldControls(Controls(throttle=1.0)))
    drive.follow(tuning)
    drive.track = circuit
    tick_until(drive, lambda: drive.laps.lap == 1)
    assert drive.laps.lap == 1
    drive.reset()
    assert drive.laps.lap == 0 and drive.laps.book is not None
    tick_until(drive, lambda: drive.laps.lap == 2)  # the dropped lap's number is not used again
    book = drive.laps.book
    tuning.set("engine_power", float(tuning["engine_power"]) * 1.01)
    assert drive.laps.book is not book and drive.laps.lap == 0 and not drive.laps.book.laps


def test_nothing_is_timed_on_the_open_field_or_a_track_without_a_start_line(preset):
    drive = DriveSession(preset.model, preset.tuning.copy(), HZ, HeldControls(Controls(throttle=1.0)))
    for _ in range(10):
        drive.tick()
    assert drive.laps.course is None and lap_lines(drive.laps) == [] and math.isnan(drive.laps.delta())


def test_the_best_lap_drives_as_a_ghost_from_each_lap_start(preset, circuit):
    """After the first valid lap, each lap starts with a ghost of the best lap beside the
    car: the best lap's controls from the car's state at its start, so k ticks into the
    new lap the ghost stands where the car stood k ticks into the best lap (the same
    model, state and controls: the same ticks)."""
    from sandbox.session.lap_ghost import lap_ghost

    drive = driven(preset, circuit)
    tick_until(drive, lambda: drive.laps.lap == 1)
    assert lap_ghost(drive) is None  # no best lap yet
    tick_until(drive, lambda: drive.laps.lap == 2)
    ghost = lap_ghost(drive)
    assert ghost is not None and ghost.name == "best lap 1" and ghost in drive.ghosts
    best = drive.laps.channels[1]
    for k in (1, 100, 600):
        tick_until(drive, lambda k=k: ghost.sim.ticks == k)
        assert (float(ghost.sim.state.x[0]), float(ghost.sim.state.y[0])) == (best["x"][k - 1], best["y"][k - 1])
    drive.reset()
    assert lap_ghost(drive) is None and drive.ghosts == []


def time_at_from_rows(channels, distance: float) -> float:
    """s into a lap when its own rows first reached `distance` (between the ticks)."""
    d, t = channels["distance"], channels["time"]
    new = np.concatenate([[True], d[1:] > np.maximum.accumulate(d)[:-1]])
    return float(np.interp(distance, d[new], t[new]))


def test_the_delta_and_the_prediction_are_taken_to_the_lap_chosen_as_reference(preset, circuit):
    """Lap 3, 5 s in: with the lap that is not the best as the reference, the delta is
    the lap's elapsed time less that lap's time at the same distance (from its own rows),
    the prediction that lap's time plus the delta, and the HUD names the lap. A lap no
    longer in the book, or a new book, takes the delta to the best lap again."""
    drive = driven(preset, circuit)
    tick_until(drive, lambda: drive.laps.lap == 3 and drive.laps.elapsed > 5.0)
    laps = drive.laps
    best = laps.book.best
    other = next(lap for lap in laps.book.laps if lap is not best)
    to_best = laps.delta()
    laps.reference = other.number
    expected = laps.elapsed - time_at_from_rows(laps.channels[other.number], laps.distance)
    assert laps.delta() == pytest.approx(expected, abs=1e-9)
    assert abs(laps.delta() - to_best) > 0.01  # the two laps differ here
    assert laps.predicted() == pytest.approx(other.time + expected)
    assert lap_lines(laps)[-1].startswith(f"Δ {expected:+.2f} s to lap {other.number} · predicted")
    laps.reference = 99
    assert laps.delta() == to_best and " to best " in lap_lines(laps)[-1]
    laps.reference = other.number
    laps.restart()
    assert laps.reference is None


def test_a_new_cone_penalty_retimes_the_laps_driven_and_times_the_next_with_it(preset, circuit):
    """Lap 1 knocks 3 cones (the car's count of knocked cones raised by 3 during it): at
    2 s a cone it takes 6 s more than as driven. Set to 5 s a cone, it takes 3 × 3 s
    more; lap 2, with 1 cone, ends 5 s over its time as driven; a new book keeps 5 s."""
    drive = driven(preset, circuit)
    cones = drive.sim.state.layout.offset["cones_hit"]
    tick_until(drive, lambda: drive.laps.lap == 1 and drive.laps.elapsed > 2.0)
    drive.sim.state.data[0, cones] += 3
    tick_until(drive, lambda: drive.laps.lap == 2 and drive.laps.elapsed > 2.0)
    first = drive.laps.book.lap(1)
    assert first.cones == 3 and first.time == pytest.approx(first.raw + 3 * 2.0)
    drive.laps.set_cone_penalty(5.0)
    assert drive.laps.book.lap(1).time == pytest.approx(first.time + 3 * (5.0 - 2.0))
    assert drive.laps.book.lap(1).cones == 3 and not drive.laps.book.lap(1).valid
    drive.sim.state.data[0, cones] += 1
    tick_until(drive, lambda: drive.laps.lap == 3)
    second = drive.laps.book.lap(2)
    assert second.cones == 1 and second.time == pytest.approx(second.raw + 5.0)
    drive.laps.restart()
    assert drive.laps.cone_penalty == 5.0 and drive.laps.book.cone_penalty == 5.0


def test_a_car_that_never_crosses_the_start_line_keeps_no_rows_of_its_ticks(preset, circuit):
    """On the out lap no lap will read the ticks' rows: an hour parked before the start
    line must not hold an hour of them (about 100 bytes a tick)."""
    drive = DriveSession(preset.model, preset.tuning.copy(), HZ, HeldControls(Controls()))
    drive.track = circuit
    for _ in range(600):
        drive.tick()
    assert drive.laps.lap == 0
    assert sum(chunk.nbytes for chunk in drive.laps._rows) == 0  # what the live timing holds between laps
