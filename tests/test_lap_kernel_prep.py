"""The lap levels of `kernel_prep` hold what the window then runs: once a separate
process has compiled a model's "laps" and "driver" kernels, the window's process loads
every kernel of the Metrics tab's lap figures and of the driver at the wheel (its plan
as practice leaves it and its control law, tick by tick) from the kernel cache, compiling none, on a real
track (not the one the levels are compiled on); and once the "drive" level is, driving
on a track (the car's tick among walls, the live lap timer) compiles nothing there."""

from __future__ import annotations

from cold_runs import COUNTING, run_cold

LAP_LEVELS_RUN = (
    COUNTING
    + r"""
import json
from sandbox.physics.models import MODELS
model = MODELS["arcade"]
before = {level: kernel_prep.is_prepared(model, level) for level in (kernel_prep.LAPS, kernel_prep.DRIVER)}
kernel_prep.prepare(model, kernel_prep.LAPS)
kernel_prep.prepare(model, kernel_prep.DRIVER)
after = {level: kernel_prep.is_prepared(model, level) for level in (kernel_prep.LAPS, kernel_prep.DRIVER)}
from sandbox.analysis.lap_metrics import lap_figures, lap_track
from sandbox.analysis.driven_laps import practised_plan
from sandbox.files.tracks import find_builtin_track, load_track
from sandbox.physics.sim import DEFAULT_HZ, at_rest
from sandbox.session.lap_wheel import DriverSource
track = lap_track(load_track(find_builtin_track("club_circuit")))
tuning = {p.name: p.default for p in model.PARAMS}
figures = lap_figures(model, tuning, DEFAULT_HZ, track)  # as the Metrics tab's worker
plan = practised_plan(model, tuning, track, DEFAULT_HZ)  # as the driver's worker
car = at_rest(model, 1, track.in_unit(model.LENGTH_UNIT).spawn)
source = DriverSource(plan, model, tuning, DEFAULT_HZ, lambda: car)  # as the window's thread, each tick
controls = [source.controls_for_tick(tick) for tick in range(3)]
print(json.dumps({"apart": apart, "before": before, "after": after, "compiled_here": compiled_here(),
                  "lap_time": float(figures["lap_time"][0]), "throttle": controls[-1].throttle}), flush=True)
"""
)


def test_after_the_lap_levels_are_prepared_apart_the_lap_figures_and_the_driver_compile_nothing_here(tmp_path):
    result, _ = run_cold(LAP_LEVELS_RUN, tmp_path)
    assert result["before"] == {"laps": False, "driver": False}  # an empty cache: nothing here yet
    assert result["apart"] == ["laps", "driver"]  # each compiled by a separate process
    assert result["after"] == {"laps": True, "driver": True}
    # neither loading them nor what the window then runs on another track compiles
    # anything here: every kernel came from the cache
    assert result["compiled_here"] == [], result["compiled_here"]
    assert result["lap_time"] > 0 and result["throttle"] > 0  # the lap was driven, the driver drives


TRACK_RUN = (
    COUNTING
    + r"""
import json
from sandbox.physics.models import MODELS
from sandbox.physics.state import Controls
from sandbox.session.drive import DriveSession
from sandbox.session.sources import HeldControls
from sandbox.files.tracks import find_builtin_track, load_track
model = MODELS["rigid_body"]
kernel_prep.prepare(model, "drive")
used.clear()  # what preparing loaded here is not what the drive below compiles
tuning = {p.name: p.default for p in model.PARAMS}
drive = DriveSession(model, tuning, 60, HeldControls(Controls(throttle=1.0)))
drive.track = load_track(find_builtin_track("club_circuit"))
drive.reset()
for _ in range(120):
    drive.tick()
print(json.dumps({"apart": apart, "compiled_here": compiled_here(), "timed": drive.laps.course is not None,
                  "speed": float(drive.sim.state.speed[0])}), flush=True)
"""
)


def test_after_the_drive_level_is_prepared_apart_driving_on_a_track_compiles_nothing_here(tmp_path):
    """Opening a track used to compile the car's tick among walls and the lap timer on
    the window's thread (a 20-45 s freeze): the drive level now holds them."""
    result, _ = run_cold(TRACK_RUN, tmp_path)
    assert result["apart"] == ["drive"]
    assert result["timed"] and result["speed"] > 0  # the car drove on the timed track
    assert result["compiled_here"] == [], result["compiled_here"]
