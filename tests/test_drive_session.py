"""The drive session without a window: ghosts in step with the car, replay and seeking
bit-identical to driving, recordings that round-trip through a trace file, odometers
and the frame clock's tick count. No Qt."""

import math
from fractions import Fraction

import numpy as np
import pytest

from sandbox.files.presets import BUILTIN_DIR, load_preset
from sandbox.files.traces import BUILTIN_TRACES, demo_drive, load_trace, save_trace
from sandbox.physics.models import MODELS, arcade
from sandbox.physics.sim import run_trace
from sandbox.physics.state import Controls
from sandbox.session.clock import MAX_CATCH_UP
from sandbox.session.drive import DriveSession
from sandbox.session.ghosts import MAX_GHOSTS
from sandbox.session.sources import HeldControls, TraceSource


class Scripted:
    """`demo_drive` at the tick's time, with the handbrake pulled and gears shifted now
    and then (a source whose every control changes); notes the ticks it was asked for."""

    def __init__(self, hz: int):
        self.hz, self.asked = hz, []

    def controls_for_tick(self, tick: int) -> Controls:
        self.asked.append(tick)
        steer, throttle, brake = demo_drive((tick % 480) / self.hz)
        handbrake = 1.0 if 200 <= tick % 480 < 230 else 0.0
        shift = 1.0 if tick % 480 in (60, 120) else -1.0 if tick % 480 == 300 else 0.0
        return Controls(steer, throttle, brake, handbrake, shift)


def session(preset: str = "recipe_defaults.json", source=None) -> DriveSession:
    p = load_preset(BUILTIN_DIR / preset)
    return DriveSession(p.model, p.tuning.copy(), p.hz, source or Scripted(p.hz))


UNEVEN = (0.007, 0.031, 0.0, 0.016, 0.0213, 0.26)
"""s: frames of uneven length, one with no tick at all, one beyond MAX_CATCH_UP."""


def test_a_ghost_with_the_cars_tuning_has_the_cars_state_bit_for_bit():
    drive = session()
    drive.add_ghost(arcade, drive.sim.params.copy(), "twin")
    for i in range(200):
        drive.run_for(UNEVEN[i % len(UNEVEN)])
        ghost = drive.ghosts[0]
        assert ghost.sim.ticks == drive.sim.ticks  # in step: the same tick count after every frame
        assert ghost.sim.state.data.tobytes() == drive.state.data.tobytes()  # bit for bit
    assert drive.sim.ticks > 600 and drive.live.asked == list(range(drive.sim.ticks))  # each tick read once, in order
    assert drive.ghosts[0].travelled == drive.travelled > 0
    assert drive.gaps()[0].gap == 0.0 and drive.gaps()[0].ahead == 0.0


def test_ghosts_of_other_tunings_and_models_are_separate_runs_of_the_same_controls():
    drive = session("monster_drift_manual.json")
    drive.start_recording()  # the controls every tick got, to run the ghosts again alone
    others = {name: load_preset(BUILTIN_DIR / name) for name in ("drift.json", "ackermann_notes.json")}
    for name, p in others.items():
        drive.add_ghost(p.model, p.tuning.copy(), name)
    for i in range(120):
        drive.run_for(UNEVEN[i % len(UNEVEN)])
    rows = drive.stop_recording()
    assert len(rows) == drive.sim.ticks and all(g.sim.ticks == drive.sim.ticks for g in drive.ghosts)
    for ghost, p in zip(drive.ghosts, others.values()):
        alone = run_trace(p.model, p.tuning, rows, p.hz)[-1]
        s = ghost.sim.state
        assert (s.x[0], s.y[0], s.heading[0], s.vx[0], s.vy[0]) == tuple(alone[1:6])
    car = run_trace(drive.model, drive.sim.params, rows)[-1]
    assert (drive.state.x[0], drive.state.y[0]) == (car[1], car[2])


def test_at_most_four_ghosts():
    drive = session()
    for i in range(MAX_GHOSTS):
        drive.add_ghost(arcade, drive.sim.params.copy(), f"g{i}")
    with pytest.raises(ValueError, match="at most 4"):
        drive.add_ghost(arcade, drive.sim.params.copy(), "fifth")
    assert [g.colour for g in drive.ghosts] == [0, 1, 2, 3]


@pytest.mark.parametrize("model", sorted(MODELS))
def test_seeking_to_a_tick_gives_the_state_playing_there_gives(model):
    """Seek N re-simulates N ticks in one compiled call; stepping N times ticks one by
    one: the same controls, so the same state bit for bit, the ghost's too."""
    m = MODELS[model]
    tuning = {p.name: p.default for p in m.PARAMS}
    rows = load_trace(BUILTIN_TRACES / "hairpin.csv")
    played, seeked = (DriveSession(m, dict(tuning), 60) for _ in range(2))
    for drive in (played, seeked):
        drive.add_ghost(arcade, {p.name: p.default for p in arcade.PARAMS}, "arcade")
        drive.play_trace(rows, "hairpin")
        drive.set_playing(False)
    for _ in range(300):
        assert played.step()
    seeked.seek(300)
    assert played.replay_tick == seeked.replay_tick == 300
    assert played.state.data.tobytes() == seeked.state.data.tobytes()
    assert played.ghosts[0].sim.state.data.tobytes() == seeked.ghosts[0].sim.state.data.tobytes()
    assert played.travelled == pytest.approx(seeked.travelled, rel=1e-12)
    assert np.allclose(played.distances[:, :301], seeked.distances[:, :301], rtol=1e-12, atol=0)
    seeked.seek(10_000)  # past the end: the end
    assert seeked.replay_tick == len(rows)
    seeked.stop_replay()
    assert seeked.replay is None and seeked.sim.ticks == 0


@pytest.mark.parametrize("speed, frames", [(4.0, [0.007, 0.031, 0.0, 0.016]), (0.25, [0.1, 0.013, 0.2])])
def test_replay_is_bit_identical_to_simulate_at_any_speed_and_frame_rate(speed, frames):
    drive = session("drift.json")
    rows = load_trace(BUILTIN_TRACES / "slalom.csv")
    drive.play_trace(rows, "slalom")
    drive.speed = speed
    i = 0
    while drive.playing:
        drive.run_for(frames[i % len(frames)])  # uneven frames, some with no tick at all
        i += 1
    assert drive.sim.ticks == len(rows) == 840
    expected = run_trace(drive.model, drive.sim.params, rows)[-1]
    s = drive.state
    assert (s.x[0], s.y[0], s.heading[0], s.vx[0], s.vy[0]) == tuple(expected[1:6])
    assert drive.run_for(1.0) == 0  # ended: nothing more runs


def test_a_recording_round_trips_through_a_trace_file(tmp_path):
    """The dynamic car with the handbrake and manual shifts: recorded, saved as a
    trace, loaded and replayed from rest, it passes through the same states tick for tick."""
    drive = session("monster_drift_manual.json")
    drive.start_recording()
    live = []
    drive.on_tick = lambda state, shadows: live.append(state.data[0].copy())
    for i in range(150):
        drive.run_for(UNEVEN[i % len(UNEVEN)])
    rows = drive.stop_recording()
    assert drive.recording is None and rows is drive.last_recording
    assert rows.shape == (len(live), 5) and rows[:, 3].any() and (rows[:, 4] == 1).sum() >= 2
    assert float(drive.state.extra["gear"][0]) >= 2  # the shifts did reach the gearbox
    save_trace(tmp_path / "drive.csv", rows)
    assert (tmp_path / "drive.csv").read_text().splitlines()[0] == "steer,throttle,brake,handbrake,shift"
    replayed = []
    drive.on_tick = lambda state, shadows: replayed.append(state.data[0].copy())
    drive.play_trace(load_trace(tmp_path / "drive.csv"), "drive")
    while drive.playing:
        drive.run_for(1 / 60)
    assert np.array(replayed).tobytes() == np.array(live).tobytes()


def test_play_with_no_trace_plays_the_last_recording():
    drive = session(source=HeldControls(Controls(-1.0, 1.0)))
    drive.start_recording()
    drive.run_for(0.25)
    live = drive.state.data.copy()
    drive.stop_recording()
    drive.set_playing(True)
    assert drive.replay.name == "recording" and drive.playing and drive.sim.ticks == 0
    drive.seek(len(drive.last_recording))
    assert drive.state.data.tobytes() == live.tobytes()


def test_a_pedals_only_trace_from_before_the_handbrake_column_still_replays():
    from pathlib import Path

    rows = load_trace(Path(__file__).parent / "data" / "trace_pedals_only_before_handbrake.csv")
    assert rows.shape[1] == 5 and not rows[:, 3:].any()
    drive = session()
    drive.play_trace(rows, "old")
    drive.seek(len(rows))
    assert drive.sim.ticks == len(rows)


def test_the_odometer_is_the_sum_of_each_ticks_displacement():
    drive = session()
    drive.add_ghost(arcade, dict(drive.sim.params, engine_power=1800), "strong")
    path, ghost_path = [(0.0, 0.0)], [(0.0, 0.0)]

    def seen(state, shadows):
        path.append((float(state.x[0]), float(state.y[0])))
        ghost_path.append((float(shadows[0][0].x[0]), float(shadows[0][0].y[0])))

    drive.on_tick = seen
    for i in range(100):
        drive.run_for(UNEVEN[i % len(UNEVEN)])
    steps = [math.dist(a, b) for a, b in zip(path, path[1:])]
    ghost_steps = [math.dist(a, b) for a, b in zip(ghost_path, ghost_path[1:])]
    assert drive.travelled == pytest.approx(math.fsum(steps), rel=1e-12)
    assert drive.ghosts[0].travelled == pytest.approx(math.fsum(ghost_steps), rel=1e-12)
    # the path is longer than the straight line from the start (demo_drive turns)
    assert drive.travelled > math.dist(path[0], path[-1]) > 0
    # driven through in one compiled call: the same odometer
    through = session()
    through.add_ghost(arcade, dict(through.sim.params, engine_power=1800), "strong")
    through.drive_through([demo_drive((t % 480) / 60) for t in range(drive.sim.ticks)])
    plain = session(source=TraceSource([demo_drive((t % 480) / 60) for t in range(drive.sim.ticks)], "demo"))
    plain.add_ghost(arcade, dict(plain.sim.params, engine_power=1800), "strong")
    plain.run_for(MAX_CATCH_UP)
    while plain.sim.ticks < drive.sim.ticks:
        plain.run_for(min(MAX_CATCH_UP, (drive.sim.ticks - plain.sim.ticks) / 60 + 1e-6))
    assert through.sim.ticks == plain.sim.ticks
    assert through.travelled == pytest.approx(plain.travelled, rel=1e-12)
    assert through.ghosts[0].travelled == pytest.approx(plain.ghosts[0].travelled, rel=1e-12)


def test_the_clock_runs_floor_of_elapsed_times_hz_ticks_across_uneven_frames():
    drive = session(source=HeldControls())
    frames = [0.0123, 0.0051, 0.0207, 0.0009, 0.0333, 0.0, 0.0171]
    total = Fraction(0)
    for i in range(400):
        elapsed = frames[i % len(frames)]
        drive.run_for(elapsed)
        total += Fraction(elapsed)
        exact = total * 60
        assert min(exact - math.floor(exact), math.ceil(exact) - exact) > Fraction(1, 10**9) or exact == 0
        assert drive.sim.ticks == math.floor(exact)
    assert drive.sim.ticks > 300


def test_a_frame_runs_at_most_a_quarter_second_of_physics():
    drive = session(source=HeldControls())
    assert drive.run_for(5.0) == round(MAX_CATCH_UP * 60) == 15
    assert drive.run_for(0.0) == 0


def test_a_paused_replay_runs_nothing_and_a_finished_one_stops():
    drive = session()
    drive.play_trace(np.zeros((20, 5)), "still")
    drive.set_playing(False)
    assert drive.run_for(0.2) == 0 and drive.sim.ticks == 0
    drive.set_playing(True)
    drive.speed = 4.0
    assert drive.run_for(0.05) == 12  # 0.2 s of the trace at 4×
    assert drive.run_for(0.05) == 8  # 12 more due, 8 left
    assert not drive.playing and drive.sim.ticks == 20
    assert not drive.step()  # at its end: nothing to step


def test_a_rate_change_reaches_the_ghosts():
    drive = session()
    drive.add_ghost(arcade, drive.sim.params.copy(), "twin")
    drive.set_hz(120)
    assert drive.sim.dt == drive.ghosts[0].sim.dt == 1 / 120
    assert drive.run_for(0.1 + 1e-9) == 12 and drive.ghosts[0].sim.ticks == 12


def test_a_replay_with_a_start_puts_the_car_and_each_ghost_there_in_its_own_unit():
    """A game recording starts where the game's car was: the car (px) and a ghost in
    metres start there, the ghost's position and velocity divided by 25 px a metre;
    seeking back to tick 0 puts them there again, and a trace without a start from rest."""
    from sandbox.physics.state import State

    s = session()
    s.px_per_metre = 25.0
    bicycle = load_preset(BUILTIN_DIR / "bicycle_blog.json")
    s.add_ghost(bicycle.model, bicycle.tuning.copy(), "bicycle")
    start = State.at_rest(1, arcade.STATE)
    start.x[0], start.y[0], start.heading[0], start.vx[0], start.vy[0] = 250.0, -100.0, 0.5, 50.0, 25.0
    s.play_trace(load_trace(BUILTIN_TRACES / "slalom.csv"), "game", start)
    car, ghost = s.sim.state, s.ghosts[0].sim.state
    assert (car.x[0], car.y[0], car.heading[0], car.vx[0], car.vy[0]) == (250.0, -100.0, 0.5, 50.0, 25.0)
    assert (ghost.x[0], ghost.y[0], ghost.heading[0], ghost.vx[0], ghost.vy[0]) == (10.0, -4.0, 0.5, 2.0, 1.0)
    s.seek(100)
    assert s.sim.state.x[0] != 250.0
    s.seek(0)
    assert s.sim.state.x[0] == 250.0 and s.ghosts[0].sim.state.x[0] == 10.0
    s.play_trace(load_trace(BUILTIN_TRACES / "slalom.csv"), "slalom")
    assert (s.sim.state.x[0], s.ghosts[0].sim.state.x[0]) == (0.0, 0.0)
