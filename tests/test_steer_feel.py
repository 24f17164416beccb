"""Steering feel and assists, every model: the steer a model reads from the steer input.

Expected values are the feel's formulas written out here (a rate of full lock in T
seconds, a straight line between speed points, an assist of so many degrees past a
slip angle), and the defaults are held to the input itself, to the bit."""

import json
import math
from pathlib import Path

import numpy as np
import pytest

from sandbox.files.presets import BUILTIN_DIR, load_preset, parse_preset
from sandbox.physics import sim
from sandbox.physics.models import MODELS
from sandbox.physics.state import Controls
from sandbox.physics.steer_feel import ASSIST_NAMES, FEEL_GROUP, NAMES

HZ = 60
DT = 1 / HZ
DATA = Path(__file__).parent / "data"
LOCK = {"arcade": "steering_angle"}
SLIDING = ("arcade", "rigid_body", "monster")


def lock_name(model) -> str:
    return LOCK.get(model.NAME, "max_steer")


def received(model, tuning, trace, start=None):
    """The steer the model read at each tick of `trace` (T, 5), and the wheel angle (rad)."""
    state = sim.at_rest(model)
    for key, value in (start or {}).items():
        if key in model.STATE.offset:  # "speed": the kinematic models' own signed speed
            state.data[0, model.STATE.offset[key]] = value
    columns = np.array([model.STATE.offset["steer_received"], model.STATE.offset["wheel_angle"]])
    out = sim._record(model, tuning, trace, HZ, columns, state, None)
    return out[:, 0], out[:, 1]


def defaults(model) -> dict:
    return {p.name: p.default for p in model.PARAMS}


def held_steer(steer, ticks, throttle=0.0):
    trace = np.zeros((ticks, 5))
    trace[:, 0], trace[:, 1] = steer, throttle
    return trace


@pytest.mark.parametrize("name", sorted(MODELS))
def test_every_model_declares_the_feel_and_the_sliding_ones_the_assists(name):
    model = MODELS[name]
    names = [p.name for p in model.PARAMS if p.group == FEEL_GROUP]
    assert names == list(NAMES) + (list(ASSIST_NAMES) if name in SLIDING else [])


def test_a_preset_from_before_the_feel_loads_with_its_defaults_and_reads_the_input_itself():
    path = DATA / "preset_v6_monster_drift_manual.json"
    assert json.loads(path.read_text())["format"] == 6 and "steer_time" not in path.read_text()
    old = load_preset(path)
    assert old.tuning["steer_time"] == 0.0 and old.tuning["lock_at_3"] == 100.0 and old.tuning["drift_hold"] == 0.0
    rng = np.random.default_rng(3)
    trace = held_steer(0.0, 600, 0.8)
    trace[:, 0] = np.repeat(rng.uniform(-1, 1, 20), 30)  # a steer changed every half second
    steer, _ = received(old.model, old.tuning, trace)
    given = trace[:, 0].astype(np.float32).astype(np.float64)  # a drive's controls are 32-bit, as the engine's
    assert np.array_equal(steer, given)  # to the bit: the model read what it was given


@pytest.mark.parametrize("name", sorted(MODELS))
def test_steer_time_takes_the_steer_to_full_lock_in_that_time_and_return_time_back(name):
    model = MODELS[name]
    tuning = defaults(model)
    tuning["steer_time"], tuning["return_time"] = 0.5, 0.25
    trace = held_steer(1.0, 60)
    trace[40:, 0] = 0.0  # let go after 40 ticks
    steer, _ = received(model, tuning, trace)  # at rest: the whole lock at speed point 1
    up = np.minimum(np.arange(1, 41) * DT / 0.5, 1.0)  # 30 ticks to full lock
    assert steer[:40] == pytest.approx(up, abs=1e-12)
    down = np.maximum(1.0 - np.arange(1, 21) * DT / 0.25, 0.0)  # 15 ticks back
    assert steer[40:] == pytest.approx(down, abs=1e-12)
    assert steer[29] == 1.0 and steer[55] == 0.0


def test_steering_across_the_centre_takes_the_steer_time_and_less_steer_the_return_time():
    model = MODELS["bicycle"]
    tuning = defaults(model)
    tuning["steer_time"], tuning["return_time"] = 1.0, 0.5
    trace = held_steer(1.0, 120)
    trace[60:90, 0] = 0.5  # steer less: back toward the centre at the return rate
    trace[90:, 0] = -1.0  # across the centre: the steer rate
    steer, _ = received(model, tuning, trace)
    assert steer[59] == pytest.approx(1.0)
    assert steer[60] == pytest.approx(1.0 - DT / 0.5) and steer[89] == pytest.approx(0.5)
    assert steer[90] == pytest.approx(0.5 - DT / 1.0) and steer[119] == pytest.approx(0.0, abs=1e-12)


@pytest.mark.parametrize("name", sorted(MODELS))
def test_the_full_lock_follows_the_speed_curve(name):
    model = MODELS[name]
    tuning = defaults(model)
    points = [tuning[f"speed_point_{k}"] for k in (1, 2, 3)]
    tuning["lock_at_1"], tuning["lock_at_2"], tuning["lock_at_3"] = 100.0, 70.0, 40.0
    for speed, share in (
        (points[0], 1.0),
        ((points[0] + points[1]) / 2, 0.85),  # halfway along the first line
        (points[1] + (points[2] - points[1]) / 4, 0.625),  # a quarter along the second
        (points[2] * 2, 0.4),  # flat after the last point
    ):
        steer, wheel = received(model, tuning, held_steer(0.625, 1), {"vx": speed, "speed": speed})
        assert steer[0] == pytest.approx(0.625 * share, rel=1e-12), speed
        if name != "ackermann":  # its wheel angle is the inner wheel's (Ackermann geometry)
            assert abs(wheel[0]) == pytest.approx(0.625 * share * math.radians(tuning[lock_name(model)]), rel=1e-9)


def test_the_steering_rate_follows_its_speed_curve():
    model = MODELS["arcade"]
    tuning = defaults(model)
    tuning["steer_time"] = 1.0
    tuning["rate_at_1"], tuning["rate_at_2"], tuning["rate_at_3"] = 200.0, 100.0, 50.0
    top = tuning["speed_point_3"]
    fast, _ = received(model, tuning, held_steer(1.0, 1), {"vx": top * 1.5})
    slow, _ = received(model, tuning, held_steer(1.0, 1), {"vx": 0.0})
    assert fast[0] == pytest.approx(DT / 1.0 * 0.5) and slow[0] == pytest.approx(DT / 1.0 * 2.0)


@pytest.mark.parametrize("name", SLIDING)
@pytest.mark.parametrize("beta_deg", [12.0, -20.0])
def test_countersteer_help_turns_the_wheels_by_the_slip_past_its_threshold(name, beta_deg):
    model = MODELS[name]
    tuning = defaults(model)
    tuning["countersteer_help"], tuning["countersteer_slip"] = 50.0, 5.0
    speed = 2 * tuning["speed_point_2"]  # moving well forward; the whole lock (100 % everywhere)
    beta = math.radians(beta_deg)  # the velocity this far right of the nose (heading 0)
    start = {"vx": speed * math.cos(beta), "vy": speed * math.sin(beta)}
    steer, _ = received(model, tuning, held_steer(0.0, 1), start)
    wanted = 0.5 * (abs(beta) - math.radians(5.0)) * math.copysign(1.0, beta) / math.radians(tuning[lock_name(model)])
    assert steer[0] == pytest.approx(max(min(wanted, 1.0), -1.0), rel=1e-9)
    assert steer[0] * beta > 0  # toward the velocity: counter-steer


@pytest.mark.parametrize("name", SLIDING)
def test_drift_hold_steers_toward_its_angle_from_either_side(name):
    model = MODELS[name]
    tuning = defaults(model)
    tuning[lock_name(model)] = 40.0
    tuning["drift_hold"], tuning["drift_hold_angle"] = 40.0, 20.0
    speed = 2 * tuning["speed_point_2"]
    for beta_deg, input_ in ((30.0, 0.0), (14.0, 0.5), (-30.0, -0.125), (-17.0, 0.25), (5.0, 0.375)):
        beta = math.radians(beta_deg)
        start = {"vx": speed * math.cos(beta), "vy": speed * math.sin(beta)}
        steer, _ = received(model, tuning, held_steer(input_, 1), start)
        weight = min(max((abs(beta_deg) - 10.0) / 10.0, 0.0), 1.0)  # from half the angle held to all of it
        hold = weight * 0.4 * (beta - math.copysign(math.radians(20.0), beta)) / math.radians(40.0)
        assert steer[0] == pytest.approx(input_ + hold, rel=1e-9, abs=1e-15), beta_deg


@pytest.mark.parametrize("name", SLIDING)
def test_the_assists_rest_when_reversing_or_nearly_still(name):
    model = MODELS[name]
    tuning = defaults(model)
    tuning["countersteer_help"], tuning["drift_hold"] = 100.0, 100.0
    beta = math.radians(30.0)
    for speed in (-2 * tuning["speed_point_2"], 0.5 if model.LENGTH_UNIT == "m" else 20.0):
        start = {"vx": speed * math.cos(beta), "vy": speed * math.sin(beta)}
        steer, _ = received(model, tuning, held_steer(0.25, 1), start)
        assert steer[0] == 0.25


def test_a_built_in_preset_steers_as_before_with_the_feel_at_its_defaults_in_batch_and_alone():
    preset = load_preset(BUILTIN_DIR / "drift.json")
    rng = np.random.default_rng(5)
    trace = held_steer(0.0, 300, 1.0)
    trace[:, 0] = np.repeat(rng.uniform(-1, 1, 10), 30)
    alone = sim.run_trace(preset.model, preset.tuning, trace, HZ)
    tuning = dict(preset.tuning)
    tuning["steer_time"] = 0.2
    felt = sim.run_trace(preset.model, tuning, trace, HZ)
    assert not np.array_equal(alone, felt)  # the option changes the drive
    both = {name: np.array([preset.tuning[name], tuning[name]], dtype=float) for name in tuning}
    batch = sim.run_batch(preset.model, both, 2, trace, len(trace), HZ)
    columns = [preset.model.STATE.offset[name] for name in ("x", "y", "heading")]
    assert np.array_equal(batch.data[0, columns], alone[-1, 1:4])  # every bit, the feel at its defaults
    assert np.array_equal(batch.data[1, columns], felt[-1, 1:4])  # and acting, car by car


def test_a_feel_value_out_of_its_range_is_refused_naming_it():
    data = json.loads((DATA / "preset_v6_monster_drift_manual.json").read_text())
    data["format"] = 7
    data["params"].update({name: p.default for p in MODELS["monster"].PARAMS for name in [p.name] if name in NAMES})
    data["params"].update({name: 0.0 for name in ASSIST_NAMES})
    data["params"]["drift_hold_angle"] = 25.0
    data["params"]["steer_time"] = -1.0
    with pytest.raises(Exception, match="steer_time"):
        parse_preset(json.dumps(data), "mine.json")


def test_controls_out_of_range_never_reach_the_model_past_full_lock():
    model = MODELS["arcade"]
    tuning = defaults(model)
    tuning["steer_time"], tuning["countersteer_help"] = 0.1, 100.0
    state = sim.at_rest(model)
    state.data[0, model.STATE.offset["vx"]] = 500.0
    state.data[0, model.STATE.offset["vy"]] = 500.0  # 45° of slip
    after = sim.step(model, state, Controls(1.0, 0.0, 0.0), tuning, DT, ticks=30)
    assert abs(after.data[0, model.STATE.offset["steer_received"]]) <= 1.0
