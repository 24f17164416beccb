"""What the driver follows: the car's measured limits, the friction ellipse of the
profile, and every built-in preset lapping the club circuit."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sandbox.analysis.driven_laps import drive_timed_laps, line_crossing
from sandbox.analysis.lap_plan import acceleration_table, car_limits, plan_lap, practised
from sandbox.analysis.speed_profile import profile
from sandbox.files.presets import BUILTIN_DIR, find_preset, load_preset
from sandbox.files.tracks import find_builtin_track, load_track
from sandbox.physics.models import get_model
from sandbox.physics.track import Line


def defaults(model) -> dict:
    return {p.name: p.default for p in model.PARAMS}


def test_the_acceleration_table_of_an_arcade_car_without_friction_or_drag_is_its_engine_power():
    """The recipe's step: velocity += transform.x * engine_power * delta when nothing
    resists; going straight the car gains engine_power px/s every second at every speed."""
    arcade = get_model("arcade")
    tuning = defaults(arcade) | {"friction": 0.0, "drag": 0.0, "engine_power": 300.0}
    table = acceleration_table(arcade, tuning, 60, math.inf)
    assert table[0, 0] == 0.0 and table[-1, 0] > 1000.0
    assert table[1:, 1] == pytest.approx(300.0, rel=1e-6)


def test_the_braking_limit_is_the_mean_deceleration_of_the_stop_from_top_speed():
    """v² = 2·a·d: the braking figure the profile uses stops the car from its top speed
    in the braking distance the metrics measured."""
    preset = load_preset(find_preset("recipe_defaults"))
    limits = car_limits(preset.model, preset.tuning, 60)
    from sandbox.analysis.metrics import compute

    values = compute(preset.model, preset.tuning, 60)
    top, distance = float(values["top_speed"][0]), float(values["braking_from_top"][0])
    assert limits.top == top and limits.lateral == float(values["skidpad_lateral"][0])
    assert top**2 / (2 * limits.braking) == pytest.approx(distance, rel=1e-12)


def test_the_friction_ellipse_brakes_earlier_and_changes_nothing_on_a_circle():
    """A straight of 200 m into a circle of radius 50 m (a_lat 8, braking 8, drive 4):
    sharing the grip gives a profile nowhere faster than the one with the grips apart,
    slower before the bend, and the same √(a_lat·R) = 20 m/s all round the bend."""
    ds = 1.0
    straight = np.zeros(200)
    bend = np.full(int(math.pi * 50 / ds), 1 / 50)
    kappa = np.concatenate([straight, bend, straight, bend])
    s = np.arange(len(kappa) + 1) * ds
    apart = profile(s, kappa, 8.0, 8.0, 4.0, 60.0)
    shared = profile(s, kappa, 8.0, 8.0, 4.0, 60.0, combined=True)
    assert np.all(shared <= apart + 1e-12)
    assert shared[200 + 20 : 200 + len(bend) - 20] == pytest.approx(20.0, rel=1e-9)
    assert apart[200 + 20 : 200 + len(bend) - 20] == pytest.approx(20.0, rel=1e-9)
    assert np.sum(shared < apart - 1e-6) > 10  # braking starts earlier, in the straight


def test_a_line_crosses_a_timing_line_where_the_segments_meet():
    """A square of side 10 driven clockwise on screen from (0, 0): a line across its
    first side at x = 4 is crossed 4 along; crossed the other way it is never crossed."""
    points = np.array([[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]])
    s = np.array([0.0, 10.0, 20.0, 30.0, 40.0])
    assert line_crossing(points, s, Line(4.0, -1.0, 4.0, 1.0, (1.0, 0.0))) == pytest.approx(4.0)
    assert math.isnan(line_crossing(points, s, Line(4.0, -1.0, 4.0, 1.0, (-1.0, 0.0))))
    assert line_crossing(points, s, Line(-1.0, 5.0, 1.0, 5.0, (0.0, -1.0))) == pytest.approx(35.0)


PRESETS = sorted(path.stem for path in BUILTIN_DIR.glob("*.json"))


@pytest.mark.parametrize("name", PRESETS)
def test_every_built_in_preset_laps_the_club_circuit_three_times_with_every_lap_counting(name):
    """Three timed laps from the spawn: none cut (the car inside the walls' corridor all
    the time), none backwards, no sector line missed; each lap's sectors add up to it,
    and lap 2 onwards (flying laps) are no slower than lap 1 (a standing start). The
    driver holds its plan: a flying lap takes at most 5 % longer than the plan's own
    time along the line, ∫ds/v of its speed profile, and the first lap, which starts
    below the profile's speed, at most 20 % (a car joining the line into a wall and
    scraping it loses far more)."""
    preset = load_preset(find_preset(name))
    track = load_track(find_builtin_track("club_circuit"))
    driven = drive_timed_laps(preset.model, preset.tuning, track, 3, preset.hz)
    laps = driven.laps[:3]
    assert len(laps) == 3, driven.drive.ended
    assert all(lap.valid for lap in laps), [lap.marks for lap in laps]
    for lap in laps:
        assert sum(lap.sectors) == pytest.approx(lap.time, abs=1e-9)
    assert min(laps[1].time, laps[2].time) <= laps[0].time
    line, speeds = driven.plan.line, driven.plan.speeds
    planned = float(np.sum(np.diff(line.s) / (0.5 * (speeds + np.roll(speeds, -1)))))
    shares = [lap.time / planned for lap in laps]
    assert all(share <= most for share, most in zip(shares, (1.2, 1.05, 1.05))), shares


def test_practice_asks_for_half_the_most_lateral_acceleration_the_failed_drive_asked():
    """The drive after a failed one: its speeds ask for at most half of the most v²·|κ|
    the failed one's did (the forward–backward profile keeps every point's v²·|κ| at or
    below the grip it is given), and a car that cannot reach its grip (held back by its
    top speed) is asked for half of what it reached, not of its grip."""
    preset = load_preset(find_preset("ice"))
    track = load_track(find_builtin_track("skid_pad"))
    plan = plan_lap(preset.model, preset.tuning, track, preset.hz)
    asked = float(np.max(plan.speeds**2 * np.abs(plan.line.kappa)))
    assert asked < 0.9 * plan.lateral  # the ice car's top speed holds it below its grip here
    again = practised(preset.model, plan)
    assert again.lateral == pytest.approx(0.5 * asked)
    assert float(np.max(again.speeds**2 * np.abs(again.line.kappa))) <= 0.5 * asked * (1 + 1e-9)
    assert np.all(again.speeds <= plan.speeds)


@pytest.mark.parametrize("name", PRESETS)
def test_every_built_in_preset_laps_the_skid_pad_three_times_knocking_no_cone(name):
    """The skid pad's road is marked by cones only: three timed laps from the spawn,
    none cut and no cone knocked, the first one included (the car starts on the
    circle's middle, beside the racing line at its outer edge, and joins it). The
    sliding cars (drift, ice) get there by practice: driven again asking for less grip
    until their laps count."""
    preset = load_preset(find_preset(name))
    track = load_track(find_builtin_track("skid_pad"))
    driven = drive_timed_laps(preset.model, preset.tuning, track, 3, preset.hz)
    laps = driven.laps[:3]
    assert len(laps) == 3, driven.drive.ended
    assert [(lap.cones, lap.marks) for lap in laps] == [(0, ())] * 3
