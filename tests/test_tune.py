"""Auto-tune: targets read as a user types them, tunings found that hit them, and
misses said plainly with what binds."""

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sandbox.analysis.metrics import compute
from sandbox.analysis.tune import Target, free_names, parse_target, search
from sandbox.errors import UserError
from sandbox.files.presets import BUILTIN_DIR, load_preset
from sandbox.physics.models import arcade, monster


def test_targets_are_read_with_their_tolerance_and_unit():
    assert parse_target("top_speed=600±5", arcade) == Target("top_speed", 600.0, 5.0)
    assert parse_target("top_speed = 600 px/s +- 5", arcade) == Target("top_speed", 600.0, 5.0)
    assert parse_target("time_to_100=6.2s", monster) == Target("time_to_100", 6.2, 0.02 * 6.2)  # 2 % by default
    assert parse_target("braking_from_100=40m±1m", monster).tolerance == 1.0


@pytest.mark.parametrize(
    "text, message",
    [
        ("top_speed", "expected NAME=VALUE"),
        ("speediness=600", "'speediness' is not a metric"),
        ("top_speed=600m/s", "top_speed is in px/s for the Arcade (Godot recipe) model, not in m/s"),
        ("time_to_100=-1", "time_to_100 can only be 0 … inf s"),
        ("peak_slip_skidpad=120", "can only be 0 … 90 °"),
        ("top_speed=600±0", "the tolerance must be a positive number"),
        ("top_speed=1.2.3", "expected NAME=VALUE"),
        ("top_speed=.", "expected NAME=VALUE"),
        ("top_speed=600±1.2.3", "expected NAME=VALUE"),
        ("top_speed=600±.", "expected NAME=VALUE"),
        ("peak_slip_skidpad=20°±1°x", "peak_slip_skidpad is in ° for the Arcade (Godot recipe) model, not in °x"),
    ],
)
def test_bad_targets_are_refused_naming_the_problem(text, message):
    with pytest.raises(UserError, match=re.escape(message)):
        parse_target(text, arcade)


def test_the_free_set_is_checked():
    with pytest.raises(UserError, match="'engine' is not a parameter"):
        free_names(arcade, free=["engine"])
    with pytest.raises(UserError, match="is an option"):
        free_names(arcade, free=["rate_independent"])
    with pytest.raises(UserError, match="no parameter is free"):
        free_names(arcade, lock=[p.name for p in arcade.PARAMS if not p.is_bool])
    assert "rate_independent" not in free_names(arcade)


RECOVERY = {  # model: (the unknown tuning's preset, the start preset, three metrics it is judged by)
    "arcade": ("recipe_defaults", "drift", ("top_speed", "braking_from_top", "radius_low")),
    "bicycle": ("bicycle_blog", "bicycle_exact_arc", ("top_speed", "braking_from_top", "radius_low")),
    "ackermann": ("ackermann_notes", "ackermann_van", ("top_speed", "braking_from_top", "radius_low")),
    "rigid_body": ("rigid_body_road", "rigid_body_grippy", ("time_to_100", "braking_from_100", "turning_circle")),
    "monster": ("monster_corvette_c5", "monster_corvette_abs", ("top_speed", "braking_from_top", "radius_low")),
}


@pytest.mark.parametrize("model", sorted(RECOVERY))
def test_the_metrics_of_an_unknown_tuning_are_recovered_from_another_preset(model):
    """A tuning the search never saw (a preset with four sliders moved by 8 % of their
    travel); its metrics as targets (±2 %); the search starts from another preset with
    every slider free, and meets every target (the parameters need not match)."""
    secret_stem, start_stem, metrics = RECOVERY[model]
    secret, start = load_preset(BUILTIN_DIR / f"{secret_stem}.json"), load_preset(BUILTIN_DIR / f"{start_stem}.json")
    tuning = dict(secret.tuning)
    sliders = [p for p in secret.model.PARAMS if not p.is_bool]
    for k, p in enumerate(sliders[:4]):
        tuning[p.name] = p.from_slider(p.to_slider(tuning[p.name]) + (0.08 if k % 2 else -0.08))
    assert tuning != dict(secret.tuning) and tuning != dict(start.tuning)
    achieved = {name: float(values[0]) for name, values in compute(secret.model, tuning, 60).items()}
    targets = [Target(name, achieved[name], 0.02 * abs(achieved[name])) for name in metrics]
    result = search(start.model, dict(start.tuning), targets, free_names(start.model), 60, seed=1)
    assert result.hit, {t.metric: (result.achieved[t.metric], t.value) for t in targets}
    for t in targets:
        assert abs(result.achieved[t.metric] - t.value) <= t.tolerance
    for p in sliders:  # on the slider's step, within its range
        value = result.tuning[p.name]
        assert p.min <= value <= p.max and value == p.snap(value)


def test_the_same_seed_gives_the_same_tuning():
    preset = load_preset(BUILTIN_DIR / "recipe_defaults.json")
    targets = [parse_target(text, arcade) for text in ("top_speed=650", "braking_from_top=300", "radius_low=200")]
    names = ["engine_power", "drag", "braking", "steering_angle"]
    first, second = (search(arcade, dict(preset.tuning), targets, names, 60, seed=7) for _ in range(2))
    assert first.tuning == second.tuning and first.evaluations == second.evaluations


def test_among_tunings_that_hit_the_nearest_is_preferred():
    """A target the start already meets: nothing needs to move, and nothing does."""
    preset = load_preset(BUILTIN_DIR / "recipe_defaults.json")
    top = float(compute(arcade, dict(preset.tuning), 60)["top_speed"][0])
    result = search(arcade, dict(preset.tuning), [Target("top_speed", top, 5.0)], ["engine_power", "drag"], 60)
    assert result.hit and result.tuning == dict(preset.tuning)


def cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "sandbox", *map(str, args)], capture_output=True, text=True, timeout=600
    )


def test_tune_command_meets_targets_writes_the_preset_and_exits_0(tmp_path):
    out = tmp_path / "tuned.json"
    run = cli(
        "tune",
        "--preset",
        BUILTIN_DIR / "recipe_defaults.json",
        "--target",
        "top_speed=650±10",
        "--target",
        "radius_low=200±5",
        "--free",
        "engine_power,steering_angle",
        "--out",
        out,
        "--json",
    )
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert report["hit"] and all(t["met"] for t in report["targets"])
    tuned = load_preset(out)
    metrics = compute(arcade, dict(tuned.tuning), 60)
    assert abs(float(metrics["top_speed"][0]) - 650) <= 10 and abs(float(metrics["radius_low"][0]) - 200) <= 5
    locked = load_preset(BUILTIN_DIR / "recipe_defaults.json").tuning
    assert all(tuned.tuning[p] == locked[p] for p in locked if p not in ("engine_power", "steering_angle"))


def test_an_impossible_target_exits_1_with_the_closest_tuning_and_what_binds(tmp_path):
    """Above what the largest engine power gives with this drag and friction: the
    recipe's balance 4000 = 55·v/60 + 0.06·v²/60 has v ≈ 1590 px/s."""
    out = tmp_path / "closest.json"
    run = cli(
        "tune",
        "--preset",
        BUILTIN_DIR / "recipe_defaults.json",
        "--target",
        "top_speed=3000±10",
        "--free",
        "engine_power",
        "--out",
        out,
    )
    assert run.returncode == 1, run.stderr
    assert "NOT every target met" in run.stdout and "missed by" in run.stdout
    assert "engine_power sits at the high end of its range (4000 px/s²)" in run.stdout
    assert load_preset(out).tuning["engine_power"] == 4000


@pytest.mark.parametrize(
    "args, message",
    [
        (("--target", "speediness=3"), "'speediness' is not a metric"),
        (("--target", "top_speed=600", "--free", "engine,drag"), "'engine' is not a parameter"),
        (("--target", "top_speed=20km/h"), "not in km/h"),
        (("--target", "braking_from_top=-5"), "can only be 0"),
        (
            ("--target", "top_speed=600", "--lock", ",".join(p.name for p in arcade.PARAMS if not p.is_bool)),
            "no parameter is free",
        ),
        (("--target", "top_speed=600", "--range", "drag=0:-1"), "LO < HI"),
    ],
)
def test_tune_command_refuses_bad_input_with_exit_2(args, message):
    run = cli("tune", "--preset", BUILTIN_DIR / "recipe_defaults.json", *args)
    assert run.returncode == 2 and message in run.stderr and "Traceback" not in run.stderr


def test_targets_that_pull_against_each_other_are_named():
    """With the engine power alone free, a faster top speed and a slower start cannot
    both be had (more power raises the one and shortens the other): the search misses,
    and relaxing either target lets the other be met."""
    from sandbox.analysis.tune import conflicts

    preset = load_preset(BUILTIN_DIR / "recipe_defaults.json")
    targets = [Target("top_speed", 850.0, 10.0), Target("time_to_90pct", 1.5, 0.02)]
    result = search(arcade, dict(preset.tuning), targets, ["engine_power"], 60)
    assert not result.hit and set(result.misses()) <= {"top_speed", "time_to_90pct"} and result.misses()
    pulls = conflicts(arcade, dict(preset.tuning), targets, ["engine_power"], 60)
    assert any(line.startswith("top_speed pulls against time_to_90pct") for line in pulls)
    assert any(line.startswith("time_to_90pct pulls against top_speed") for line in pulls)


def test_the_road_test_corvette_is_what_the_readmes_command_makes(tmp_path):
    """The built-in preset is the tune command's output, as the README shows it, and it
    meets the road test's figures within the command's tolerances."""
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    line = next(
        text for text in readme.splitlines() if text.startswith("car-sandbox tune --preset monster_corvette_c5 ")
    )
    args = shlex.split(line)[1:]
    out = tmp_path / "road.json"
    args[args.index("--out") + 1] = str(out)
    args[args.index("--preset") + 1] = str(BUILTIN_DIR / "monster_corvette_c5.json")
    run = cli(*args)
    assert run.returncode == 0, run.stderr
    shipped = load_preset(BUILTIN_DIR / "monster_corvette_c5_road_test.json")
    made = load_preset(out)
    assert dict(made.tuning) == dict(shipped.tuning) and made.name == shipped.name == "Corvette C5 (road test)"
    figures = compute(monster, dict(shipped.tuning), 60)
    for metric, value, tolerance in (
        ("time_to_100", 4.9, 0.3),
        ("standing_quarter", 13.4, 0.1),
        ("top_speed", 78, 1),
        ("braking_from_100", 40, 1),
        ("skidpad_lateral", 0.92 * 9.8, 0.1),
    ):
        assert abs(float(figures[metric][0]) - value) <= tolerance, metric


def test_numbers_with_a_unit_and_one_point_at_most_are_read():
    assert parse_target("peak_slip_skidpad=20°±1.5°", arcade) == Target("peak_slip_skidpad", 20.0, 1.5)
    assert parse_target("top_speed=.5e3px/s±5.", arcade) == Target("top_speed", 500.0, 5.0)


def test_a_negative_seed_is_a_usage_error_not_a_traceback():
    import subprocess
    import sys

    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "sandbox",
            "tune",
            "--preset",
            str(BUILTIN_DIR / "drift.json"),
            "--target",
            "top_speed=500",
            "--seed",
            "-1",
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2 and "seed -1 is not a whole number within 0 … 999999" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--name", "Mine"], "--name names the tuned preset written by --out"),
        (["--target", "top_speed=600"], "--target top_speed is given more than once"),
        (["--free", "engine_power", "--range", "drag=-0.1:-0.01"], "--range drag: it does not move in this search"),
    ],
)
def test_what_would_be_silently_ignored_is_refused_naming_it(extra, message):
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "sandbox",
            "tune",
            "--preset",
            str(BUILTIN_DIR / "drift.json"),
            "--target",
            "top_speed=500",
            *extra,
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2 and message in result.stderr and "Traceback" not in result.stderr


def test_an_unmeasurable_metric_weighs_more_than_any_miss():
    """A time to 100 that is never reached (NaN) or a top speed never settling (inf)
    must score worse than the farthest miss, however tiny the tolerance: else the
    search makes the metric unmeasurable to escape the miss."""
    from sandbox.analysis.tune import scores

    target = Target("time_to_100", 0.001, 0.00001)
    achieved = {"time_to_100": np.array([0.02, 0.133, 5.0, 1e300, np.nan, np.inf])}
    found = scores(achieved, [target], np.zeros(6))
    assert found[0] < found[1] < found[2] < found[3] < found[4]  # nearer is better, all the way out
    assert found[4] == found[5]
    near = scores({"time_to_100": np.array([0.001005, 0.0012])}, [target], np.zeros(2))
    # within the tolerance: 0; 0.0002 s off is 20 tolerances, 19 beyond it, weighed 19² × MISS_WEIGHT (1e4)
    assert near[0] == 0 and near[1] == pytest.approx(19.0**2 * 1e4)


def test_scores_of_extreme_misses_raise_no_warnings():
    import warnings

    from sandbox.analysis.tune import scores

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        found = scores(
            {"top_speed": np.array([600.0, 1e308, np.nan])}, [Target("top_speed", 1e-300, 1e-308)], np.zeros(3)
        )
    assert np.all(np.isfinite(found)) and found[0] <= found[1] < found[2]


def test_an_unmeasurable_target_never_moves_the_search_the_wrong_way(tmp_path):
    """0→100 px/s in a thousandth of a second is out of reach (the first tick alone is
    1/60 s): more engine power comes nearer, less only stops the car reaching 100 at
    all. The engine power must not go down, and the miss is said with a number (two
    ticks, 0.0333 s, is as near as any engine power comes)."""
    out = tmp_path / "closest.json"
    run = cli(
        "tune",
        "--preset",
        BUILTIN_DIR / "recipe_defaults.json",
        "--target",
        "time_to_100=0.001±0.00001",
        "--free",
        "engine_power",
        "--out",
        out,
    )
    assert run.returncode == 1, run.stderr
    assert load_preset(out).tuning["engine_power"] >= 900
    line = next(text for text in run.stdout.splitlines() if text.strip().startswith("time_to_100"))
    assert "missed by —" not in line and re.search(r"missed by \d", line), line
    assert "what binds: time_to_100 comes no nearer than" in run.stdout  # and why it is not met


@pytest.mark.parametrize(
    "target, message",
    [
        ("time_to_100=1e999", "--target time_to_100=1e999: 1e999 is not a finite number"),
        ("top_speed=600±1e999", "the tolerance 1e999 is not a finite number"),
        (
            "top_speed=600±1e-300",
            "a tolerance of 1e-300 px/s is finer than the sandbox measures top_speed; give at least 6e-07 px/s",
        ),
    ],
)
def test_numbers_out_of_reach_are_refused_in_one_line(target, message):
    run = cli("tune", "--preset", BUILTIN_DIR / "recipe_defaults.json", "--target", target, "--free", "engine_power")
    assert run.returncode == 2 and message in run.stderr, run.stderr
    assert len(run.stderr.strip().splitlines()) == 1 and "Traceback" not in run.stderr
    assert "Warning" not in run.stderr


def test_huge_numbers_print_readably():
    """A target met with a tolerance of 1e308 (the start already meets it): the
    tolerance is printed as 1e+308, not as its 309 digits."""
    run = cli(
        "tune",
        "--preset",
        BUILTIN_DIR / "recipe_defaults.json",
        "--target",
        "time_to_100=1±1e308",
        "--free",
        "engine_power",
    )
    assert run.returncode == 0, run.stderr
    assert "± 1e+308" in run.stdout and not re.search(r"\d{12}", run.stdout), run.stdout


def test_the_finest_tolerance_accepted_gives_no_warnings():
    run = cli(
        "tune",
        "--preset",
        BUILTIN_DIR / "recipe_defaults.json",
        "--target",
        "top_speed=600±0.000001",
        "--free",
        "engine_power,drag",
    )
    assert run.returncode in (0, 1) and "Warning" not in run.stderr and not run.stderr.strip(), run.stderr


def test_every_option_the_tune_help_mentions_exists():
    from sandbox.cli import build_parser

    run = cli("tune", "--help")
    assert run.returncode == 0
    parser = build_parser()
    tune = next(a for a in parser._subparsers._group_actions[0].choices.items() if a[0] == "tune")[1]
    options = {o for action in tune._actions for o in action.option_strings}
    mentioned = set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", run.stdout))
    assert mentioned and mentioned <= options, mentioned - options
    assert "CSV" not in run.stdout  # tune writes a preset, never a CSV


def test_a_target_no_tuning_can_measure_is_said_in_words_and_as_json_null():
    """With at most 40 px/s² of engine power against the recipe's friction the car never
    reaches 100 px/s: the time to 100 cannot be measured for any tuning searched."""
    args = (
        "tune",
        "--preset",
        BUILTIN_DIR / "recipe_defaults.json",
        "--target",
        "time_to_100=1",
        "--free",
        "engine_power",
        "--range",
        "engine_power=0:40",
    )
    text, as_json = cli(*args), cli(*args, "--json")
    assert text.returncode == as_json.returncode == 1, text.stderr + as_json.stderr
    assert "not measured: the manoeuvre never reaches its mark" in text.stdout and "missed by —" not in text.stdout

    def no_nan(word):
        raise ValueError(f"{word} is not JSON")

    report = json.loads(as_json.stdout, parse_constant=no_nan)
    assert report["targets"][0]["achieved"] is None and not report["targets"][0]["met"]
