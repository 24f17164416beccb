"""What the session reports for the HUD and the status line, without a window: each
model's declared regimes and gauges, the ghosts' gaps and lead in time, and when a
ghost reached the end of a replayed trace."""

import math

import numpy as np
import pytest

from sandbox.analysis.force_curves import time_to_cover
from sandbox.files.presets import BUILTIN_DIR, load_preset
from sandbox.files.traces import BUILTIN_TRACES, load_trace
from sandbox.physics.models import MODELS, arcade, monster
from sandbox.physics.sim import run_trace
from sandbox.physics.state import State
from sandbox.session.drive import DriveSession
from sandbox.session.ghosts import gap_line, lead_text
from sandbox.session.hud import TESTS, gauges, regime_text


def arcade_state(vx=0.0, vy=0.0, heading=0.0, fast=False) -> State:
    s = State.at_rest(1, arcade.STATE)
    s.vx[:], s.vy[:], s.heading[:] = vx, vy, heading
    s.data[0, arcade.STATE.offset["traction_fast"]] = float(fast)
    return s


def test_every_model_declares_its_hud_with_tests_the_session_knows():
    for model in MODELS.values():
        assert set(model.HUD) == {"regimes", "gauges"}
        assert all(test in TESTS for test, _ in model.HUD["regimes"])
        assert all(slot in model.STATE.offset for slot in model.HUD["gauges"].values())


def test_the_arcade_status_names_its_traction_regime():
    tuning = {p.name: p.default for p in arcade.PARAMS}
    slip_speed = tuning["slip_speed"]
    assert regime_text(arcade, tuning, arcade_state()) == "at rest · "
    assert regime_text(arcade, tuning, arcade_state(vx=100.0)) == "traction slow · "
    assert regime_text(arcade, tuning, arcade_state(vx=500.0, fast=True)) == (
        f"traction FAST (drift, above {slip_speed:g} px/s) · "
    )
    # moving backwards against where it points: a slip angle of 180°
    assert regime_text(arcade, tuning, arcade_state(vx=-50.0)) == "reversing (speed clamp, no traction lerp) · "
    # 89° of slip is still forwards, 91° backwards
    sideways = {deg: arcade_state(vx=math.cos(math.radians(deg)), vy=math.sin(math.radians(deg))) for deg in (89, 91)}
    assert regime_text(arcade, tuning, sideways[89]) == "traction slow · "
    assert regime_text(arcade, tuning, sideways[91]).startswith("reversing")


def test_models_without_regimes_say_none_and_only_the_engine_has_gauges():
    for name, model in MODELS.items():
        tuning = {p.name: p.default for p in model.PARAMS}
        state = State.at_rest(1, model.STATE)
        if name != "arcade":
            assert regime_text(model, tuning, state) == ""
        assert (gauges(model, state) != (None, None)) == (name == "monster")
    s = State.at_rest(1, monster.STATE)
    s.extra["rpm"], s.extra["gear"] = 3500.0, 2.0
    assert gauges(monster, s) == (3500.0, "2")
    s.extra["gear"] = -1.0
    assert gauges(monster, s)[1] == "R"


def test_a_ghosts_lead_in_time_is_never_nan():
    assert lead_text(0.0, 0.0) == ""  # both at rest, side by side
    assert lead_text(12.5, 0.0) == " (standing)"
    assert lead_text(50.0, 100.0) == " (+0.50 s)" and lead_text(-50.0, 200.0) == " (-0.25 s)"


def test_time_to_cover_interpolates_between_ticks_and_extrapolates_past_the_end():
    dt, v = 1 / 60, 120.0
    steady = v * dt * np.arange(61)  # one second at a steady 120 px/s
    assert time_to_cover(steady, 30.0, dt, v) == pytest.approx(30.0 / v)  # between ticks 15 and 16
    assert time_to_cover(steady, 150.0, dt, v) == pytest.approx(150.0 / v)  # after the end, at the last speed
    assert time_to_cover(steady, 150.0, dt, 0.0) == math.inf  # stopped short
    assert time_to_cover(steady, 0.0, dt, v) == 0.0


def test_a_ghost_in_metres_is_compared_in_the_cars_pixels():
    recipe, notes = (load_preset(BUILTIN_DIR / name) for name in ("recipe_defaults.json", "ackermann_notes.json"))
    drive = DriveSession(recipe.model, recipe.tuning.copy(), 60)
    drive.add_ghost(notes.model, notes.tuning.copy(), "notes")
    drive.px_per_metre = 25.0
    drive.drive_through(np.tile([0.0, 1.0, 0.0], (60, 1)))
    (gap,) = drive.gaps()
    ghost = drive.ghosts[0].sim.state
    assert gap.scale == 25.0 and gap.speed == pytest.approx(float(ghost.speed[0]) * 25.0)
    # both drove straight along +x: the gap is the difference of their x, in px
    assert gap.gap == pytest.approx(abs(float(ghost.x[0]) * 25.0 - float(drive.state.x[0])))
    assert gap.ahead == pytest.approx(float(ghost.x[0]) * 25.0 - float(drive.state.x[0]))
    line = gap_line(gap, float(drive.state.speed[0]), "px")
    assert line.startswith("ghost notes: ") and "px/s" in line and "nan" not in line


def test_the_ghosts_reach_the_end_of_a_drag_strip_earlier_or_at_the_same_moment():
    """A ghost with twice the engine power reaches the car's end point earlier (−), a
    copy of the car at the same moment (0); the figure is the time its own separate run
    took to cover the car's distance, less the trace's length."""
    defaults = load_preset(BUILTIN_DIR / "recipe_defaults.json")
    strong = dict(defaults.tuning, engine_power=1800)
    drive = DriveSession(arcade, defaults.tuning.copy(), 60)
    drive.add_ghost(arcade, defaults.tuning.copy(), "same")
    drive.add_ghost(arcade, strong, "strong")
    trace = load_trace(BUILTIN_TRACES / "drag_strip.csv")
    drive.play_trace(trace, "drag strip")
    drive.seek(len(trace) - 1)
    assert [g.end_of_trace for g in drive.gaps()] == [None, None]  # not before the end
    drive.step()
    same, fast_gap = drive.gaps()
    assert same.end_of_trace == pytest.approx(0.0, abs=1e-9)
    assert gap_line(same, 0.0, "px").endswith("end of trace +0.00 s")
    car, fast = run_trace(arcade, defaults.tuning, trace), run_trace(arcade, strong, trace)

    def odometer(rows):
        steps = np.hypot(*np.diff(np.vstack([[0.0, 0.0], rows[:, 1:3]]), axis=0).T)
        return np.concatenate([[0.0], np.cumsum(steps)])

    expected = time_to_cover(odometer(fast), odometer(car)[-1], 1 / 60, fast[-1, 6]) - len(trace) / 60
    assert fast_gap.end_of_trace < -0.5 and fast_gap.end_of_trace == pytest.approx(expected, abs=1e-9)
