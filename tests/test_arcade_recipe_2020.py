"""The arcade's two newer options: the recipe's Godot 3 version (2020) and the pedals
read as the recipe reads them (on/off) or by their strength; and the controls as the
engine holds them (32-bit). Expected values come from the recipe's formulas, worked by
hand here, and from the Godot 3 engine's committed trajectories (tests/goldens)."""

import json
import math
from pathlib import Path

import numpy as np
import pytest

from sandbox.devtools.oracle import PROJECT, compare, godot_binary, run_oracle
from sandbox.errors import PresetError
from sandbox.files.presets import BUILTIN_DIR, load_preset, parse_preset
from sandbox.files.traces import save_trace
from sandbox.physics.models import arcade
from sandbox.physics.params import Tuning
from sandbox.physics.sim import run_trace, step
from sandbox.physics.state import Controls, State

DATA = Path(__file__).parent / "data"
DT = 1.0 / 60.0
RECIPE_2020 = dict(
    wheel_base=70,
    steering_angle=15,
    engine_power=800,
    friction=-0.9,
    drag=-0.0015,
    braking=-450,
    max_speed_reverse=250,
    slip_speed=400,
    traction_fast=0.1,
    traction_slow=0.7,
)
"""The 2020 recipe's own values (its Godot 3 text)."""


def tuning_2020(**changes):
    return Tuning(arcade.PARAMS, {"recipe_2020": True, **RECIPE_2020, **changes})


def straight(ticks, throttle=1.0, brake=0.0):
    trace = np.zeros((ticks, 3))
    trace[:, 1], trace[:, 2] = throttle, brake
    return trace


def test_the_2020_preset_holds_the_2020_recipes_values():
    preset = load_preset(BUILTIN_DIR / "recipe_2020.json")
    assert preset.tuning["recipe_2020"] is True and preset.tuning["analog_pedals"] is False
    assert {k: preset.tuning[k] for k in RECIPE_2020} == RECIPE_2020


def test_turning_the_option_gives_each_formula_its_own_numbers_and_ranges():
    t = Tuning(arcade.PARAMS)
    t.set("recipe_2020", True)
    assert {k: t[k] for k in ("friction", "drag", "traction_fast", "traction_slow")} == {
        "friction": -0.9,
        "drag": -0.0015,
        "traction_fast": 0.1,
        "traction_slow": 0.7,
    }
    assert t.param("friction").unit == "1/s" and t.param("traction_fast").unit == "per tick"
    with pytest.raises(ValueError, match="outside the allowed range -20 … 0 1/s"):
        t.set("friction", -55)  # the Godot 4 recipe's number means something else here
    t.set("recipe_2020", False)
    assert {k: t[k] for k in ("friction", "drag", "traction_fast", "traction_slow")} == {
        "friction": -55,
        "drag": -0.06,
        "traction_fast": 2.5,
        "traction_slow": 10,
    }
    assert t.param("friction").unit == "1/s²"


def test_a_preset_with_the_other_formulas_numbers_is_refused_naming_the_range():
    data = json.loads((BUILTIN_DIR / "recipe_2020.json").read_text())
    data["params"]["friction"] = -55
    with pytest.raises(PresetError, match=r"params.friction.*-20 … 0 1/s"):
        parse_preset(json.dumps(data), "mine.json")


def test_2020_top_speed_is_where_engine_meets_friction_and_drag_without_delta():
    """800 + (-0.9)·v + (-0.0015)·v² = 0 → v = 489.5 px/s (the engine measured about 490)."""
    v = (0.9 - math.sqrt(0.9**2 + 4 * 0.0015 * 800)) / (2 * -0.0015)
    t = tuning_2020()
    assert arcade.top_speed(t, DT) == pytest.approx(v, rel=1e-12)
    assert v == pytest.approx(489.5, abs=0.05)
    ours = run_trace(arcade, t, straight(1800), 60)
    assert ours[-1, 6] == pytest.approx(v, rel=1e-9)


def test_2020_first_ticks_by_hand():
    """Tick 1 from rest: stopped (< 5 px/s), no friction, v = 800/60. Tick 2: below 100 px/s
    the friction is tripled: a = 800 + 3·(-0.9)·v + (-0.0015)·v², v += a/60."""
    t = tuning_2020()
    s1 = step(arcade, State.at_rest(), Controls(0, 1, 0), t, DT)
    v1 = 800 / 60
    assert s1.vx[0] == pytest.approx(v1, rel=1e-15)
    s2 = step(arcade, s1, Controls(0, 1, 0), t, DT)
    v2 = v1 + (800 + 3 * -0.9 * v1 - 0.0015 * v1 * v1) / 60
    assert s2.vx[0] == pytest.approx(v2, rel=1e-14)


def test_2020_stops_below_5_px_s_even_with_the_throttle_held():
    """4.9 px/s with the throttle: stopped first, then one tick of engine (800/60)."""
    t = tuning_2020()
    s = step(
        arcade, State(np.zeros(1), np.zeros(1), np.zeros(1), np.array([4.9]), np.zeros(1)), Controls(0, 1, 0), t, DT
    )
    assert s.vx[0] == pytest.approx(800 / 60, rel=1e-15)
    # the Godot 4 formula stops only a car without pedals, below 50 px/s
    g4 = step(
        arcade,
        State(np.zeros(1), np.zeros(1), np.zeros(1), np.array([4.9]), np.zeros(1)),
        Controls(0, 1, 0),
        Tuning(arcade.PARAMS),
        DT,
    )
    assert g4.vx[0] > 4.9 + 900 / 60 - 1


def test_2020_one_tick_of_full_lock_by_the_recipes_steps():
    """The 2020 text's calculate_steering, step by step: wheels moved, new heading, the
    velocity lerped 0.1 of the way (a share, no delta), then friction and drag once."""
    speed, dt = 500.0, DT
    v = np.array([speed, 0.0])
    angle = math.radians(15)
    rotated = np.array([speed * math.cos(angle), speed * math.sin(angle)])
    rear = np.array([-35.0, 0.0]) + v * dt
    front = np.array([35.0, 0.0]) + rotated * dt
    heading = (front - rear) / np.linalg.norm(front - rear)
    lerped = v + (heading * speed - v) * 0.1  # above slip speed: traction_fast
    acceleration = v * -0.9 + v * speed * -0.0015  # no throttle; 500 px/s: friction not tripled
    expected = lerped + acceleration * dt
    s = step(
        arcade,
        State(np.zeros(1), np.zeros(1), np.zeros(1), np.array([speed]), np.zeros(1)),
        Controls(1, 0, 0),
        tuning_2020(),
        dt,
    )
    assert s.vx[0] == pytest.approx(expected[0], rel=1e-12)
    assert s.vy[0] == pytest.approx(expected[1], rel=1e-12)
    assert s.heading[0] == pytest.approx(math.atan2(heading[1], heading[0]), rel=1e-12)


def test_2020_steering_keys_are_pressed_or_not():
    """The 2020 text reads steer_left/steer_right with is_action_pressed: half a stick
    turns the wheels all the way, unless the pedals (and keys) are analog."""
    half = step(arcade, State.at_rest(), Controls(0.5, 1, 0), tuning_2020(), DT)
    assert half.data[0, arcade.STATE.offset["wheel_angle"]] == pytest.approx(math.radians(15), rel=1e-15)
    analog = step(arcade, State.at_rest(), Controls(0.5, 1, 0), tuning_2020(analog_pedals=True), DT)
    assert analog.data[0, arcade.STATE.offset["wheel_angle"]] == pytest.approx(math.radians(7.5), rel=1e-15)


@pytest.mark.parametrize("analog, expected", [(False, 900 / 60), (True, float(np.float32(0.6)) * 900 / 60)])
def test_on_off_pedals_give_the_whole_engine_for_any_press(analog, expected):
    """The recipe's `is_action_pressed("accelerate")`: a trigger at 0.6 gives all 900 px/s²."""
    t = Tuning(arcade.PARAMS, {"analog_pedals": analog})
    s = step(arcade, State.at_rest(), Controls(0, 0.6, 0), t, DT)
    assert s.vx[0] == pytest.approx(expected, rel=1e-15)


def test_a_preset_written_before_the_pedal_option_keeps_its_analog_pedals():
    """A format-3 file (before the option existed) drove with analog pedals: it still does."""
    old = load_preset(DATA / "preset_format3_drift.json")
    assert old.tuning["analog_pedals"] is True and old.tuning["recipe_2020"] is False
    s = step(arcade, State.at_rest(), Controls(0, 0.5, 0), old.tuning, DT)
    assert s.vx[0] == pytest.approx(0.5 * old.tuning["engine_power"] / 60, rel=1e-15)


def test_controls_reach_the_physics_as_32_bit_values():
    """A steer of 0.7 turns the wheels by float32(0.7) = 0.699999988… of the lock, as
    Godot hands the script the action's strength; 0.5 and 1 are exact either way."""
    t = Tuning(arcade.PARAMS, {"analog_pedals": True})
    s = step(arcade, State.at_rest(), Controls(0.7, 0.7, 0), t, DT)
    as_engine = float(np.float32(0.7))
    assert as_engine != 0.7
    assert s.data[0, arcade.STATE.offset["wheel_angle"]] == as_engine * math.radians(15)
    assert s.vx[0] == pytest.approx(as_engine * 900 / 60, rel=1e-15)
    trace = np.full((3, 3), 0.7)
    trace[:, 2] = 0
    by_trace = run_trace(arcade, t, trace, 60)
    rounded = run_trace(arcade, t, trace.astype(np.float32).astype(np.float64), 60)
    assert np.array_equal(by_trace, rounded)


@pytest.mark.skipif(godot_binary() is None, reason="godot3-server is not installed")
def test_at_240_hz_the_2020_recipes_car_never_starts(tmp_path):
    """A quirk of the 2020 text, kept: one tick of engine from rest gives 800/240 = 3.33
    px/s, below the 5 px/s stop, so at 240 Hz the car is stopped again every tick; the
    Godot 3 engine, running the 2020 text's own port, does the same."""
    trace = straight(2400)
    ours = run_trace(arcade, tuning_2020(), trace, 240)
    assert ours[:, 6].max() == pytest.approx(800 / 240, rel=1e-12)
    save_trace(tmp_path / "throttle.csv", trace)
    port = (PROJECT / "recipe_2020_car.gd").read_text()
    godot = run_oracle(tmp_path / "throttle.csv", dict(tuning_2020()), 240, script_text=port)
    assert godot[:, 6].max() == pytest.approx(800 / 240, rel=1e-6)
    assert compare(ours, godot)["position_px"] < 0.01
    assert run_trace(arcade, tuning_2020(), trace, 144)[:, 6].max() > 480  # 800/144 > 5: it goes


@pytest.mark.parametrize("engine, friction, hz", [(400, -2.0, 60), (800, -0.9, 60), (800, -0.9, 240), (300, -1.5, 30)])
def test_2020_formula_top_speed_is_where_the_simulated_car_settles(engine, friction, hz):
    """Held below 100 px/s by the tripled friction (400 = 6·v + 0.0015·v² → 65.9 px/s),
    past it to the plain balance, or never started (800/240 < 5 px/s): the formula says
    what the car does."""
    t = tuning_2020(engine_power=engine, friction=friction)
    settled = run_trace(arcade, t, straight(hz * 60), hz)[-1, 6]
    assert arcade.top_speed(t, 1 / hz) == pytest.approx(settled, rel=1e-6)
    if (engine, friction) == (400, -2.0):
        v = (6 - math.sqrt(36 + 4 * 0.0015 * 400)) / (2 * -0.0015)
        assert settled == pytest.approx(v, rel=1e-9) and v < 100


def test_a_car_stopped_after_reversing_reads_no_slip():
    """Braked to a stop from reverse, the velocity's parts can be -0.0: the slip angle is
    still 0 at rest (atan2(0, -0) would say 180°, as if reversing)."""
    from sandbox.physics.state import slip_angle

    assert slip_angle(0.3, -0.0, -0.0) == 0.0 and slip_angle(np.pi, 0.0, -0.0) == 0.0
    out = run_trace(arcade, Tuning(arcade.PARAMS), np.vstack([straight(120, 0, 1), straight(120, 0, 0)]), 60)
    assert out[-1, 6] == 0 and out[-1, 7] == 0  # reversed, then stopped: at rest, no slip
    assert abs(out[100, 7]) == pytest.approx(np.pi)  # while it reversed, straight back
