"""Standard-manoeuvre metrics against closed forms and hand sums."""

import json
import math
import subprocess
import sys

import numpy as np
import pytest

from sandbox.analysis.metrics import compute, table
from sandbox.files.presets import BUILTIN_DIR, load_preset
from sandbox.physics.models import Controls, ackermann, arcade, bicycle, rigid_body
from sandbox.physics.params import Tuning
from sandbox.physics.sim import step

DT = 1 / 60


def one(model, **values):
    return {k: float(np.asarray(v).reshape(-1)[0]) for k, v in compute(model, Tuning(model.PARAMS, values), 60).items()}


def test_arcade_top_and_reverse_speed_are_the_recipes_balances():
    m = one(arcade)
    # settled by extrapolating the geometric approach: within 1e-5 (0.006 px/s)
    assert m["top_speed"] == pytest.approx((-55 + math.sqrt(55**2 + 4 * 0.06 * 54000)) / 0.12, rel=1e-5)
    a, b, c = 0.06 / 3600, 1 + 55 / 3600, -(250 + 450 / 60)  # reverse fixed point (test_arcade_model)
    assert m["reverse_top_speed"] == pytest.approx((-b + math.sqrt(b * b - 4 * a * c)) / (2 * a), rel=1e-6)
    assert m["time_to_100"] == pytest.approx(8 / 60)  # 15, 29.8, … px/s: 100 reached on tick 8


def test_kinematic_speed_control_metrics_are_the_hand_sums():
    m = one(ackermann, max_speed=20, acceleration=4, braking=8, reverse_speed=5)
    assert m["top_speed"] == pytest.approx(20, abs=1e-9) and m["reverse_top_speed"] == pytest.approx(5)
    assert m["time_to_90pct"] == pytest.approx(18 / 4, abs=DT)  # 0.9·20 at 4 m/s²
    # braking 8 m/s² from 20 m/s in 1/60 s ticks: Σ (20 − k·8/60)/60, k = 1…150
    assert m["braking_from_top"] == pytest.approx(sum((20 - k * 8 / 60) / 60 for k in range(1, 151)), rel=1e-9)
    assert math.isnan(m["time_to_100"])  # 100 km/h = 27.8 m/s is above its 20 m/s top speed
    fast = one(ackermann, max_speed=30, acceleration=4)
    assert fast["time_to_100"] == pytest.approx(100 / 3.6 / 4, abs=DT)


def test_turning_radius_is_the_geometrys():
    base, w, alpha = 2.6, 1.5, math.radians(30)
    m = one(ackermann, wheel_base=base, track_width=w, max_steer=30)
    expected = math.hypot(base / 2, base / math.tan(alpha) - w / 2)  # centre p to c = p_r + base·cot α·d⊥
    assert m["radius_low"] == pytest.approx(expected, rel=1e-6)
    assert m["radius_top"] == pytest.approx(expected, rel=1e-6)
    L, delta = 2.5, math.radians(30)
    b = one(bicycle, wheel_base=L, max_steer=30, exact_arc=True)
    assert b["radius_low"] == pytest.approx(math.hypot(L / 2, L / math.tan(delta)), rel=1e-6)


def test_a_batch_is_the_same_as_one_tuning_at_a_time():
    engines = np.array([500.0, 900.0, 1500.0])
    params = {k: (engines if k == "engine_power" else v) for k, v in Tuning(arcade.PARAMS).items()}
    batch = compute(arcade, params, 60)
    for i, power in enumerate(engines):
        alone = one(arcade, engine_power=power)
        for name, value in alone.items():
            assert batch[name][i] == pytest.approx(value, rel=1e-12, nan_ok=True)
    assert np.all(np.diff(batch["top_speed"]) > 0)


def test_a_slow_approach_is_extrapolated_to_where_the_car_really_ends():
    """The Corvette is still gaining 0.07 m/s² after a minute. Its figure is where its
    own simulation ends up: 300 s of full throttle, by which time the speed changes by
    under 1e-5 in 50 s (an extrapolation from further out read 0.6 % high: the torque
    curve's kink at 4400 rpm bends the approach). The force curve's balance, rolling
    wheels in the best gear, is within 1 % of it."""
    from sandbox.physics.models import monster
    from sandbox.physics.sim import run_batch

    p = Tuning(monster.PARAMS)
    at_250 = run_batch(monster, p, 1, Controls(0.0, 1.0, 0.0), 250 * 60)
    at_300 = at_250
    for _ in range(50 * 60):
        at_300 = step(monster, at_300, Controls(0.0, 1.0, 0.0), p, DT)
    end = float(at_300.speed[0])
    assert float(at_250.speed[0]) == pytest.approx(end, rel=1e-5)  # settled: the run's real end
    m = one(monster)
    assert m["top_speed"] == pytest.approx(end, rel=1e-4)
    assert m["top_speed"] == pytest.approx(monster.top_speed(p, DT), rel=0.01)


def test_a_top_speed_on_the_rev_limiter_is_the_redline_speed():
    """A manual gearbox stays in first on the straight and saws on the limiter: the
    figure is the redline's speed in first, ω·R/(x₁·x_d), not "none"."""
    preset = load_preset(BUILTIN_DIR / "monster_drift_manual.json")
    p = preset.tuning
    assert p["manual_gears"]
    redline = p["redline_rpm"] * 2 * math.pi / 60 * p["wheel_radius"] / (p["gear_1"] * p["differential"])
    m = compute(preset.model, p, 60)
    assert float(m["top_speed"][0]) == pytest.approx(redline, rel=0.005)
    assert float(m["time_to_90pct"][0]) < 10  # reached in first gear within seconds


def test_a_model_without_top_speed_says_so():
    m = one(rigid_body)
    assert math.isinf(m["top_speed"]) and math.isnan(m["braking_from_top"]) and math.isnan(m["time_to_90pct"])
    rows = table(rigid_body, compute(rigid_body, Tuning(rigid_body.PARAMS), 60))
    assert rows[0]["unit"] == "m/s" and rows[1]["label"] == "time 0→100 km/h"


def test_metrics_command_prints_json():
    out = subprocess.run(
        [sys.executable, "-m", "sandbox", "metrics", "--preset", str(BUILTIN_DIR / "go_kart.json"), "--json"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    data = json.loads(out)
    assert data["model"] == "arcade" and data["hz"] == 60
    names = [m["name"] for m in data["metrics"]]
    # thirteen manoeuvre figures, then the ten handling figures (understeer gradient … drift angle)
    assert names[0] == "top_speed" and len(names) == 23 and "turning_circle" in names
    assert names[13] == "understeer_gradient" and names[-1] == "max_drift_angle"
    assert data["metrics"][0]["value"] == pytest.approx(645, abs=1) and data["metrics"][0]["unit"] == "px/s"
    # beside it, the recipe's balance engine_power + friction·dt·v + drag·dt·v² = 0 solved by hand
    p = json.loads((BUILTIN_DIR / "go_kart.json").read_text())["params"]
    a, b, c = p["drag"] / 60, p["friction"] / 60, p["engine_power"]
    root = (-b - math.sqrt(b * b - 4 * a * c)) / (2 * a)
    formula = data["top_speed_from_parameters"]
    assert formula["value"] == pytest.approx(root, rel=1e-12) and formula["unit"] == "px/s"


def test_metrics_command_says_why_the_rigid_body_has_no_top_speed():
    out = subprocess.run(
        [sys.executable, "-m", "sandbox", "metrics", "--preset", str(BUILTIN_DIR / "rigid_body_seed.json")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    line = next(line for line in out.splitlines() if "from the parameters" in line)
    assert "none: nothing resists the motion" in line and "500" not in out


def test_the_dynamic_cars_lateral_acceleration_respects_the_grip_limit():
    """Tyre side forces are capped at μ × axle load and the loads add up to m·g, so a
    car turning on its tyres cannot corner harder than μ·g."""
    from sandbox.physics.models import monster

    for mu in (0.7, 1.0):
        m = one(monster, mu=mu)
        assert 0.5 * mu * 9.8 < m["peak_lateral_accel"] <= 1.02 * mu * 9.8


def test_reverse_on_the_rev_limiter_settles_at_the_redline_speed():
    """The Corvette reverses until the engine hits the redline, then saws on the
    limiter: the speed never stops changing, and the figure is where the redline puts
    it, ω_engine·R/(x_reverse·x_d) = (6000·2π/60)·0.34/(2.90·3.42) = 21.54 m/s."""
    preset = load_preset(BUILTIN_DIR / "monster_corvette_c5.json")
    p = preset.tuning
    redline = p["redline_rpm"] * 2 * math.pi / 60 * p["wheel_radius"] / (p["gear_reverse"] * p["differential"])
    assert redline == pytest.approx(21.54, abs=0.01)
    m = compute(preset.model, p, 60)
    assert float(m["reverse_top_speed"][0]) == pytest.approx(redline, rel=0.005)


def test_the_standing_quarter_mile_of_the_kinematic_bicycle_is_its_pedals_sum():
    """Straight ahead the blog's bicycle moves its centre speed·dt a tick, the speed
    rising by acceleration·dt to the top speed: summed here tick by tick, the time at
    402.336 m interpolated within the tick that crosses it."""
    from sandbox.physics.models import bicycle

    tuning = dict(Tuning(bicycle.PARAMS))
    dt = 1 / 60
    speed, x, tick = 0.0, 0.0, 0
    while True:
        tick += 1
        speed = min(speed + tuning["acceleration"] * dt, tuning["max_speed"])
        before, x = x, x + speed * dt
        if x >= 402.336:
            expected = (tick - 1 + (402.336 - before) / (x - before)) * dt
            break
    got = float(compute(bicycle, tuning, 60)["standing_quarter"][0])
    assert got == pytest.approx(expected, rel=1e-9)


def test_the_skid_pad_figure_of_the_kinematic_bicycle_is_v_squared_over_r():
    """At full lock the blog's centre runs at speed·cos(δ/2) on a circle of
    L/(2·sin(δ/2)) (models.md); held at its top speed that is the larger circle's
    steady lateral acceleration. A small lock keeps the tick's chord close to the arc."""
    import math

    from sandbox.physics.models import bicycle

    tuning = dict(Tuning(bicycle.PARAMS, {"max_steer": 8.0, "max_speed": 10.0, "wheel_base": 2.5}))
    half = math.radians(8.0) / 2
    expected = (10.0 * math.cos(half)) ** 2 / (2.5 / (2 * math.sin(half)))
    got = float(compute(bicycle, tuning, 60)["skidpad_lateral"][0])
    assert got == pytest.approx(expected, rel=0.01)


def test_the_corvettes_skid_pad_figure_is_within_its_tyres_grip():
    """The dynamic car holds at most μ·g sideways (each axle's force ≤ μ × its load)."""
    from sandbox.physics.models import monster

    preset = load_preset(BUILTIN_DIR / "monster_corvette_c5.json")
    got = float(compute(monster, dict(preset.tuning), 60)["skidpad_lateral"][0])
    assert 0.5 * monster.G < got <= preset.tuning["mu"] * monster.G * 1.01
