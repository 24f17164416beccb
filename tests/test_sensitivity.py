"""What changes what: sizes and signs that physics fixes, and the differences as defined."""

import json
import subprocess
import sys

import pytest

from sandbox.analysis.metrics import compute
from sandbox.analysis.sensitivity import SHARE, sensitivity
from sandbox.files.presets import BUILTIN_DIR, load_preset

ARCADE = [p for p in sorted(BUILTIN_DIR.glob("*.json")) if load_preset(p).model.NAME == "arcade"]
MONSTER = [p for p in sorted(BUILTIN_DIR.glob("*.json")) if load_preset(p).model.NAME == "monster"]


def resistance_factor(tuning, hz):
    """k of the arcade's straight-line balance engine_power = k·(|friction|·v + |drag|·v²):
    the tick (the recipe multiplies friction and drag by delta, then integrates them by
    delta again), the recipe's 1/60 with rate_independent, 1 in the 2020 recipe (no
    delta in apply_friction)."""
    if tuning["recipe_2020"]:
        return 1.0
    return 1 / 60 if tuning["rate_independent"] else 1 / hz


@pytest.mark.parametrize("path", ARCADE, ids=lambda p: p.stem)
def test_arcade_sensitivities_are_the_derivatives_of_the_recipes_balance(path):
    """The top speed v settles where the engine meets friction and drag (seed 001,
    parts 2-3): P = k·(|f|·v + |d|·v²). Differentiated: dv/dP = 1/(k·(|f| + 2|d|·v)),
    dv/d(drag) = v²/(|f| + 2|d|·v) (drag is negative: towards 0 is less of it). One
    slider step is small enough for the derivative (within 2 %); over 10 % of the
    range v bends (a square root's curve), so that move is held to at least half of it.

    Braking from v: the deceleration is |B| plus the resistance k·(|f|·u + |d|·u²),
    which grows with the speed u up to P at v (that is the balance), so
    |B| ≤ a(u) ≤ |B| + P and the distance s = ∫ u/a(u) du moves with the braking value
    by ds/dB = ∫ u/a(u)² du, between v²/(2(|B| + P)²) and v²/(2|B|²); the change for a
    move is held within half the lower and twice the upper. A zero, or the wrong sign,
    fails every one of these."""
    preset = load_preset(path)
    t = dict(preset.tuning)
    result = sensitivity(preset.model, t, preset.hz)
    v = result.base["top_speed"]
    f, d, power, brake = abs(t["friction"]), abs(t["drag"]), t["engine_power"], abs(t["braking"])
    dv_dpower = 1 / (resistance_factor(t, preset.hz) * (f + 2 * d * v))
    dv_ddrag = v * v / (f + 2 * d * v)
    most = power if not t["recipe_2020"] else max(power, 3 * f * 100 + d * 100**2)  # friction ×3 below 100 px/s
    ds_dbrake = (v * v / (2 * (brake + most) ** 2), v * v / (2 * brake**2))
    for per in ("step", "share"):
        move = {name: preset.tuning.param(name).step for name in ("engine_power", "drag", "braking")}
        if per == "share":
            move = {name: SHARE * (preset.tuning.param(name).max - preset.tuning.param(name).min) for name in move}
        power_change = result.change("engine_power", "top_speed", per)
        drag_change = result.change("drag", "top_speed", per)
        if per == "step":
            assert power_change == pytest.approx(move["engine_power"] * dv_dpower, rel=0.02)
            assert drag_change == pytest.approx(move["drag"] * dv_ddrag, rel=0.02)
        else:
            assert power_change >= 0.5 * move["engine_power"] * dv_dpower
            assert drag_change >= 0.5 * move["drag"] * dv_ddrag
        low, high = (move["braking"] * bound for bound in ds_dbrake)
        assert 0.5 * low <= result.change("braking", "braking_from_top", per) <= 2 * high


@pytest.mark.parametrize("path", MONSTER, ids=lambda p: p.stem)
def test_dynamic_car_signs_agree_with_physics(path):
    preset = load_preset(path)
    result = sensitivity(preset.model, dict(preset.tuning), preset.hz)
    assert result.change("c_drag", "top_speed", "share") < 0  # more drag, slower
    # heavier, slower off the line (to 90 % of the top speed: the manual preset in first gear never
    # reaches 100 km/h)
    assert result.change("mass", "time_to_90pct", "share") > 0
    brake = "brake_total" if preset.tuning["four_wheel_brakes"] else "brake_force"
    assert result.change(brake, "braking_from_top", "share") < 0  # more brake, shorter stop


def test_the_changes_are_the_central_differences_of_separate_runs():
    preset = load_preset(BUILTIN_DIR / "recipe_defaults.json")
    tuning = dict(preset.tuning)
    result = sensitivity(preset.model, tuning, 60)

    def top(power):
        return float(compute(preset.model, {**tuning, "engine_power": power}, 60)["top_speed"][0])

    power = tuning["engine_power"]  # 900 of 0 … 4000: both moves stay inside the range
    assert result.change("engine_power", "top_speed") == pytest.approx((top(power + 10) - top(power - 10)) / 2)
    assert result.change("engine_power", "top_speed", "share") == pytest.approx(
        (top(power + 400) - top(power - 400)) / 2
    )
    # the recipe's steady state, engine = friction·v/60 + drag·v²/60 (dt = 1/60), differentiated:
    # dv/dP = 1/(55/60 + 2·0.06·v/60) at v ≈ 595 px/s: one step of 10 px/s² is ≈ 4.75 px/s
    v = result.base["top_speed"]
    assert result.change("engine_power", "top_speed") == pytest.approx(10 / (55 / 60 + 2 * 0.06 * v / 60), rel=0.02)


def test_at_the_end_of_a_range_the_difference_is_one_sided():
    preset = load_preset(BUILTIN_DIR / "recipe_defaults.json")
    tuning = {**preset.tuning, "engine_power": 4000.0}  # the slider's maximum
    result = sensitivity(preset.model, tuning, 60)

    def top(power):
        return float(compute(preset.model, {**tuning, "engine_power": power}, 60)["top_speed"][0])

    assert result.change("engine_power", "top_speed") == pytest.approx(top(4000) - top(3990))
    assert result.change("engine_power", "top_speed", "share") == pytest.approx(top(4000) - top(3600))
    assert SHARE * 4000 == 400


def test_options_are_not_moved_and_every_slider_is():
    preset = load_preset(BUILTIN_DIR / "monster_corvette_c5.json")
    result = sensitivity(preset.model, dict(preset.tuning), 60)
    sliders = [p.name for p in preset.model.PARAMS if p.moves_motion]  # not the collision shape: no motion here
    assert result.params == sliders and result.per_step.shape == (len(sliders), len(result.metrics))


def test_sensitivity_command_prints_the_table_and_json():
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "sandbox",
            "sensitivity",
            "--preset",
            str(BUILTIN_DIR / "recipe_defaults.json"),
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert report["per_step"]["engine_power"]["top_speed"] > 0
    assert report["top_speed_formula"]["value"] == pytest.approx(report["metrics"]["top_speed"], rel=0.01)
    text = subprocess.run(
        [sys.executable, "-m", "sandbox", "sensitivity", "--preset", str(BUILTIN_DIR / "go_kart.json")],
        capture_output=True,
        text=True,
        timeout=300,
    ).stdout
    assert "engine_power (10 px/s² a step, 400 px/s² for 10%)" in text and "top_speed" in text


def test_the_dynamic_car_top_speed_in_each_gear_has_its_closed_form():
    """A short gear stops at its redline: v = redline·2π/60·Rw/(xg·xd) (the seed's rpm
    formula turned round); the best gear's is the model's own top speed."""
    import math

    from sandbox.physics.models import monster

    preset = load_preset(BUILTIN_DIR / "monster_corvette_c5.json")
    p = dict(preset.tuning)
    gears = monster.gear_top_speeds(p)
    for gear in ("1", "2", "3"):
        redline = p["redline_rpm"] * 2 * math.pi / 60 * p["wheel_radius"] / (p[f"gear_{gear}"] * p["differential"])
        assert gears[gear] == pytest.approx(redline, abs=0.06)  # the grid's 0.05 m/s
    assert max(gears.values()) == pytest.approx(monster.top_speed(p, 1 / 60), abs=0.06)
