"""The arcade model against the Godot recipe (seed 001): hand-computed ticks,
closed-form balances, and the rules the recipe states."""

import math

import numpy as np
import pytest

from sandbox.physics.models import arcade
from sandbox.physics.params import Tuning, script_params
from sandbox.physics.sim import step
from sandbox.physics.state import Controls, State
from sandbox.physics.steer_feel import FEEL_GROUP

DT = 1 / 60
RECIPE = dict(
    wheel_base=70,
    steering_angle=15,
    engine_power=900,
    friction=-55,
    drag=-0.06,
    braking=-450,
    max_speed_reverse=250,
    slip_speed=400,
    traction_fast=2.5,
    traction_slow=10,
)


def tuning(**changes):
    return Tuning(arcade.PARAMS, changes)


def moving(speed, heading=0.0):
    """One car at the origin moving along its heading at `speed` px/s."""
    return State(
        np.zeros(1),
        np.zeros(1),
        np.array([heading]),
        np.array([speed * math.cos(heading)]),
        np.array([speed * math.sin(heading)]),
    )


def run(state, controls, p, ticks):
    return step(arcade, state, controls, p, DT, ticks=ticks)  # one compiled run


def test_declared_defaults_are_the_recipes():
    """The seed's ten numbers, its own formula (not 2020's) and its is_action_pressed
    pedals (on/off), with the rate dependence it has."""
    declared = {p.name: p.default for p in script_params(arcade.PARAMS) if p.group != FEEL_GROUP}
    assert declared == {  # the shape: the scene's
        **RECIPE,
        "rate_independent": False,
        "recipe_2020": False,
        "analog_pedals": False,
    }
    # the steering feel at its defaults steers at once, to the whole lock, unassisted: as the recipe
    feel = {p.name: p.default for p in arcade.PARAMS if p.group == FEEL_GROUP}
    assert feel["steer_time"] == feel["return_time"] == 0.0
    assert {feel[f"{kind}_at_{k}"] for kind in ("lock", "rate") for k in (1, 2, 3)} == {100.0}
    assert feel["countersteer_help"] == feel["drift_hold"] == 0.0


def test_first_two_ticks_of_throttle_match_hand_computation():
    p = tuning()
    s1 = step(arcade, State.at_rest(), Controls(0, 1, 0), p, DT)
    # tick 1: v = 0, acceleration = 900 (no friction at rest): v = 900/60 = 15, x = 15/60
    assert s1.vx[0] == pytest.approx(15.0, abs=1e-12)
    assert s1.x[0] == pytest.approx(0.25, abs=1e-12)
    s2 = step(arcade, s1, Controls(0, 1, 0), p, DT)
    # tick 2: friction 15*-55/60 = -13.75, drag 15*15*-0.06/60 = -0.225
    v2 = 15 + (900 - 13.75 - 0.225) / 60
    assert s2.vx[0] == pytest.approx(v2, abs=1e-12)
    assert s2.x[0] == pytest.approx(0.25 + v2 / 60, abs=1e-12)
    assert s2.y[0] == 0 and s2.heading[0] == 0


def test_top_speed_at_60hz_is_where_engine_friction_and_drag_balance():
    # 900 = 55 v / 60 + 0.06 v^2 / 60  ->  0.06 v^2 + 55 v - 54000 = 0
    expected = (-55 + math.sqrt(55**2 + 4 * 0.06 * 54000)) / (2 * 0.06)
    assert expected == pytest.approx(595.3, abs=0.1)
    s = run(State.at_rest(), Controls(0, 1, 0), tuning(), 60 * 30)
    assert s.speed[0] == pytest.approx(expected, rel=1e-9)
    assert arcade.top_speed(tuning(), DT) == pytest.approx(expected, rel=1e-12)


def test_reverse_speed_settles_at_the_clamp_plus_one_ticks_acceleration():
    # Backward: speed is clamped to 250, then this tick's acceleration (computed from
    # the unclamped speed s) is added: s = 250 + (450 - 55 s/60 - 0.06 s^2/60) / 60
    # -> (0.06/3600) s^2 + (1 + 55/3600) s - (250 + 450/60) = 0
    a, b, c = 0.06 / 3600, 1 + 55 / 3600, -(250 + 450 / 60)
    expected = (-b + math.sqrt(b * b - 4 * a * c)) / (2 * a)
    s = run(State.at_rest(), Controls(0, 0, 1), tuning(), 60 * 20)
    assert s.vx[0] < 0
    assert s.speed[0] == pytest.approx(expected, rel=1e-9)
    assert 250 < expected < 254


def test_braking_from_rest_drives_backwards_and_heading_stays():
    s = run(State.at_rest(), Controls(0, 0, 1), tuning(), 2)
    assert s.vx[0] == pytest.approx(-(7.5 + (450 - 7.5 * 55 / 60 - 7.5**2 * 0.06 / 60) / 60))
    assert s.heading[0] == 0


def test_stop_rule_below_50_px_per_s_without_pedals():
    s = step(arcade, moving(49.9), Controls(0, 0, 0), tuning(), DT)
    assert s.vx[0] == 0 and s.vy[0] == 0 and s.x[0] == 0
    # with the throttle held the rule does not apply
    s = step(arcade, moving(49.9), Controls(0, 1, 0), tuning(), DT)
    assert s.vx[0] > 49.9


def test_coasting_above_50_loses_friction_and_drag_times_dt_squared():
    v = 51.0
    s = step(arcade, moving(v), Controls(0, 0, 0), tuning(), DT)
    # the recipe's quirk: v*friction*delta is an acceleration, integrated by delta again
    assert s.vx[0] == pytest.approx(v + (v * -55 * DT + v * v * -0.06 * DT) * DT, abs=1e-12)


def test_brake_wins_when_both_pedals_are_pressed():
    both = step(arcade, State.at_rest(), Controls(0, 1, 1), tuning(), DT)
    brake = step(arcade, State.at_rest(), Controls(0, 0, 1), tuning(), DT)
    assert both.vx[0] == brake.vx[0] == pytest.approx(-450 / 60)


@pytest.mark.parametrize("speed, traction", [(390.0, 10.0), (410.0, 2.5)])
def test_traction_switches_at_slip_speed(speed, traction):
    p = tuning(friction=0, drag=0)  # isolate the steering step
    s = step(arcade, moving(speed), Controls(1, 0, 0), p, DT)
    # bicycle geometry by hand: the front wheel moves along the steer angle d
    d = math.radians(15)
    heading = math.atan2(speed * DT * math.sin(d), 70 + speed * DT * (math.cos(d) - 1))
    assert s.heading[0] == pytest.approx(heading, abs=1e-12)
    # velocity = lerp(v, new_heading * |v|, traction * dt)
    w = traction * DT
    assert s.vx[0] == pytest.approx((1 - w) * speed + w * speed * math.cos(heading), abs=1e-9)
    assert s.vy[0] == pytest.approx(w * speed * math.sin(heading), abs=1e-9)
    assert bool(s.traction_fast[0]) == (speed > 400)


def test_positive_steer_turns_right_and_heading_increases():
    s = run(moving(200), Controls(1, 1, 0), tuning(), 30)
    assert s.heading[0] > 0 and s.y[0] > 0  # y is down: right of +x is +y
    s = run(moving(200), Controls(-1, 1, 0), tuning(), 30)
    assert s.heading[0] < 0 and s.y[0] < 0


def test_reversing_while_steering_backs_along_the_car_and_respects_the_clamp():
    s = moving(-200)
    for _ in range(40):
        before = s
        s = step(arcade, s, Controls(1, 0, 1), tuning(), DT)
        hx, hy = math.cos(s.heading[0]), math.sin(s.heading[0])
        # velocity = -new_heading * min(|v|, 250), then + the brake push along the
        # heading of the tick's start (the recipe reads transform.x before rotating)
        ox, oy = math.cos(before.heading[0]), math.sin(before.heading[0])
        clamped = min(before.speed[0], 250)
        resist = (-55 + -0.06 * before.speed[0]) * DT
        ax, ay = ox * -450 + before.vx[0] * resist, oy * -450 + before.vy[0] * resist
        assert s.vx[0] == pytest.approx(-hx * clamped + ax * DT, abs=1e-9)
        assert s.vy[0] == pytest.approx(-hy * clamped + ay * DT, abs=1e-9)
    assert hx * s.vx[0] + hy * s.vy[0] < 0
    assert s.heading[0] < 0  # reversing with right steer swings the nose left


def test_standing_still_with_full_steer_does_not_move():
    s = run(State.at_rest(), Controls(1, 0, 0), tuning(), 120)
    assert s.x[0] == s.y[0] == s.heading[0] == s.vx[0] == s.vy[0] == 0


@pytest.mark.parametrize("steer", [1, -1])
@pytest.mark.parametrize("ticks", [100, 200, 480])
def test_a_full_lock_circle_turns_by_the_recipes_wheel_geometry_and_wraps_like_godot(steer, ticks):
    """calculate_steering by hand: with the velocity along the heading h, the rear wheel
    moves by v·dt·h and the front wheel by v·dt·h rotated by δ, so the new heading,
    rear → front = L·h + v·dt·(h rotated by δ − h), has turned by
    Δθ = atan2(v·dt·sin δ, L + v·dt·(cos δ − 1)). With traction·dt = 1 the lerp sets the
    velocity to new_heading·|v| (still along the heading, the same speed) and with no
    friction, drag or pedals nothing else changes it: every tick turns by the same Δθ.
    After `ticks` the heading is ticks·Δθ, read as Godot's `angle()` reads it, within
    (−π, π] (200 and 480 ticks turn past π)."""
    speed = 300.0
    p = tuning(friction=0, drag=0, traction_fast=60, traction_slow=60)
    s = run(moving(speed), Controls(steer, 0, 0), p, ticks)
    d = steer * math.radians(RECIPE["steering_angle"])
    length = RECIPE["wheel_base"]
    turn = math.atan2(speed * DT * math.sin(d), length + speed * DT * (math.cos(d) - 1))
    assert s.heading[0] == pytest.approx(math.remainder(ticks * turn, 2 * math.pi), abs=1e-9)
    assert s.speed[0] == pytest.approx(speed, rel=1e-12)


def test_the_benchmarks_plain_python_baseline_drives_like_the_model():
    """bench_baseline is the recipe written per car with `math`; the benchmark compares
    the batch engine with it, so it must be the same model: a 20-s drive of throttle,
    both steers, coasting below the stop speed, braking into reverse and drifting."""
    from sandbox.devtools.bench_baseline import tick
    from sandbox.files.traces import demo_drive

    p = tuning(**{"traction_fast": 1.5})
    state, car = State.at_rest(1), [0.0, 0.0, 0.0, 0.0, 0.0]
    for i in range(1200):
        steer, throttle, brake = demo_drive(i * DT) if i < 900 else (0.5, 0.0, 1.0)
        state = step(arcade, state, Controls(steer, throttle, brake), p, DT)
        tick(car, steer, throttle, brake, p, DT)
    assert state.speed[0] > 100  # it went somewhere
    assert car == pytest.approx([state.x[0], state.y[0], state.heading[0], state.vx[0], state.vy[0]], abs=1e-6)


def test_force_curve_net_is_zero_at_top_speed_and_matches_the_tick():
    p = tuning()
    top = arcade.top_speed(p, DT)
    curve = arcade.force_curve(p, np.array([0.0, 300.0, top]), DT)
    assert curve["net"][0] == 900
    assert curve["net"][2] == pytest.approx(0, abs=1e-9)
    # at 300 px/s the curve is what one tick adds to the speed, divided by dt
    s = step(arcade, moving(300), Controls(0, 1, 0), p, DT)
    assert curve["net"][1] == pytest.approx((s.vx[0] - 300) / DT, rel=1e-9)


def test_top_speed_without_resistance_is_unlimited_and_without_drag_linear():
    assert arcade.top_speed(tuning(friction=0, drag=0), DT) == math.inf
    assert arcade.top_speed(tuning(drag=0), DT) == pytest.approx(900 / (55 / 60))
    assert arcade.top_speed(tuning(engine_power=0), DT) == 0


def test_analog_steer_scales_the_wheel_angle():
    half = step(arcade, moving(200), Controls(0.5, 0, 0), tuning(), DT)
    full = step(arcade, moving(200), Controls(1.0, 0, 0), tuning(), DT)
    assert half.wheel_angle[0] == pytest.approx(math.radians(7.5))
    assert 0 < half.heading[0] < full.heading[0]
