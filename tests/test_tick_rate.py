"""The tick rate: the recipe's rate dependence, and the rate_independent option
keeping top speed, coast-down and braking within 1 % from 30 to 240 Hz."""

import math

import numpy as np
import pytest

from sandbox.analysis.rates import drive_metrics, rate_table
from sandbox.files.presets import BUILTIN_DIR, load_preset
from sandbox.physics.models import arcade
from sandbox.physics.params import Tuning
from sandbox.physics.sim import TICK_RATES, step
from sandbox.physics.state import Controls, State


def recipe_top_speed(hz, engine=900, friction=-55, drag=-0.06):
    """Root of engine + friction v/hz + drag v²/hz = 0: the recipe's per-tick balance."""
    a, b = -drag / hz, -friction / hz
    return (-b + math.sqrt(b * b + 4 * a * engine)) / (2 * a)


@pytest.mark.parametrize("hz, expected", [(30, 354), (60, 595), (240, 1494)])
def test_recipe_top_speed_depends_on_the_tick_rate(hz, expected):
    """The issue's figures: about 354 px/s at 30 Hz, 595 at 60 and 1494 at 240."""
    measured = drive_metrics(arcade, Tuning(arcade.PARAMS), hz)["top_speed"][0]
    assert measured == pytest.approx(recipe_top_speed(hz), rel=1e-6)
    assert round(measured) == expected


def test_rate_independent_agrees_within_one_percent_for_every_builtin_preset():
    presets = [
        pr
        for pr in map(load_preset, sorted(BUILTIN_DIR.glob("*.json")))
        if pr.model is arcade and not pr.tuning["recipe_2020"]
    ]  # the 2020 recipe has no such form
    params = {p.name: np.array([pr.tuning[p.name] for pr in presets]) for p in arcade.PARAMS}
    params["rate_independent"] = np.ones(len(presets), dtype=bool)
    by_rate = {hz: drive_metrics(arcade, params, hz) for hz in TICK_RATES}
    for key in ("top_speed", "coast_distance", "braking_distance"):
        values = np.array([by_rate[hz][key] for hz in TICK_RATES])  # (rates, presets)
        spread = (values.max(axis=0) - values.min(axis=0)) / values.min(axis=0)
        assert np.all(spread < 0.01), f"{key}: {dict(zip([p.name for p in presets], spread))}"
        assert np.all(values > 0)
    # calibrated on the recipe at 60 Hz: the same balance, hence the same top speed
    recipe_60 = drive_metrics(arcade, {**params, "rate_independent": np.zeros(len(presets), bool)}, 60)
    assert by_rate[60]["top_speed"] == pytest.approx(recipe_60["top_speed"], rel=1e-9)


def test_rate_table_has_both_modes_at_every_rate():
    rows = rate_table(arcade, Tuning(arcade.PARAMS), (30, 60))
    assert [(r["hz"], r["mode"]) for r in rows] == [
        (30, "recipe"),
        (30, "rate_independent"),
        (60, "recipe"),
        (60, "rate_independent"),
    ]
    assert rows[0]["top_speed"] == pytest.approx(recipe_top_speed(30), rel=1e-6)


def moving(speed):
    return State(np.zeros(1), np.zeros(1), np.zeros(1), np.array([speed]), np.zeros(1))


def test_rate_independent_traction_is_the_recipes_at_60_hz():
    p = Tuning(arcade.PARAMS, {"friction": 0, "drag": 0, "rate_independent": True})
    s = step(arcade, moving(300), Controls(1, 0, 0), p, 1 / 60)
    w = 10 / 60  # traction_slow * dt, exactly as the recipe at 60 Hz
    h = s.heading[0]
    assert s.vx[0] == pytest.approx((1 - w) * 300 + w * 300 * math.cos(h), abs=1e-9)
    assert s.vy[0] == pytest.approx(w * 300 * math.sin(h), abs=1e-9)


def test_traction_lerp_never_overshoots():
    """traction 60 at 30 Hz: the recipe's weight traction·dt would be 2, swinging the
    velocity past the heading and adding speed every tick. The guard caps it at 1 and
    the compounded weight of rate_independent is 1 there: both land on the heading."""
    base = {"friction": 0, "drag": 0, "traction_slow": 60}
    for mode in (False, True):
        s = step(
            arcade, moving(300), Controls(1, 0, 0), Tuning(arcade.PARAMS, {**base, "rate_independent": mode}), 1 / 30
        )
        assert s.slip_angle[0] == pytest.approx(0, abs=1e-12)
        assert s.speed[0] == pytest.approx(300)


def test_the_guards_leave_the_recipe_alone_where_it_is_stable():
    """At the recipe's defaults neither guard acts: one tick is the hand formula."""
    v = 300.0
    s = step(arcade, moving(v), Controls(0, 0, 0), Tuning(arcade.PARAMS), 1 / 30)
    assert s.vx[0] == pytest.approx(v + (v * -55 / 30 + v * v * -0.06 / 30) / 30, abs=1e-12)


def test_friction_guard_stops_the_recipes_blow_up():
    """friction -400, drag -1 at 30 Hz: the recipe's tick would turn 600 px/s into
    600·(1 - (400 + 600)/900) < 0, flipping and growing. Guarded, it stops at zero."""
    p = Tuning(arcade.PARAMS, {"friction": -400, "drag": -1})
    s = moving(600)
    for _ in range(30):
        s = step(arcade, s, Controls(0, 0, 0), p, 1 / 30)
        assert s.speed[0] <= 600
    assert s.speed[0] == 0


def test_docs_rate_table_is_the_commands_output():
    import re
    import subprocess
    import sys
    from pathlib import Path

    doc = (Path(__file__).parent.parent / "docs" / "models.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- rates:start -->\n(.*?)<!-- rates:end -->", doc, re.S)
    assert block, "docs/models.md lacks the rates table markers"
    out = subprocess.run(
        [sys.executable, "-m", "sandbox", "rates", "--preset", str(BUILTIN_DIR / "recipe_defaults.json"), "--markdown"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert block.group(1).strip() == out.strip()
