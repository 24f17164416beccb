"""What changes what: signs that physics fixes, and the differences as defined."""

import json
import subprocess
import sys

import pytest

from sandbox.analysis.metrics import compute
from sandbox.analysis.sensitivity import SHARE, sensitivity
from sandbox.files.presets import BUILTIN_DIR, load_preset

ARCADE = [p for p in sorted(BUILTIN_DIR.glob("*.json")) if load_preset(p).model.NAME == "arcade"]
MONSTER = [p for p in sorted(BUILTIN_DIR.glob("*.json")) if load_preset(p).model.NAME == "monster"]


@pytest.mark.parametrize("path", ARCADE, ids=lambda p: p.stem)
def test_arcade_signs_agree_with_physics(path):
    """More engine power never lowers the top speed; a more negative drag never raises
    it (so raising the drag value towards 0 never lowers it); more braking (a more
    negative value) never lengthens the braking distance."""
    preset = load_preset(path)
    result = sensitivity(preset.model, dict(preset.tuning), preset.hz)
    for per in ("step", "share"):
        assert result.change("engine_power", "top_speed", per) >= 0
        assert result.change("drag", "top_speed", per) >= 0
        assert result.change("braking", "braking_from_top", per) >= 0
    assert result.change("engine_power", "top_speed", "share") > 0  # and it does move


@pytest.mark.parametrize("path", MONSTER, ids=lambda p: p.stem)
def test_dynamic_car_signs_agree_with_physics(path):
    preset = load_preset(path)
    result = sensitivity(preset.model, dict(preset.tuning), preset.hz)
    assert result.change("c_drag", "top_speed", "share") < 0  # more drag, slower
    # heavier, slower off the line (to 90 % of the top speed: the manual preset in first gear never
    # reaches 100 km/h)
    assert result.change("mass", "time_to_90pct", "share") > 0
    brake = "brake_total" if preset.tuning["four_wheel_brakes"] else "brake_force"
    assert result.change(brake, "braking_from_top", "share") <= 0  # more brake, shorter stop


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
    sliders = [p.name for p in preset.model.PARAMS if not p.is_bool]
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
