"""Sweeps: the grid, its batch simulation, and the command's refusals."""

import math
import re
import subprocess
import sys

import numpy as np
import pytest

from sandbox.analysis.sweep import Axis, parse_axis, run
from sandbox.errors import UserError
from sandbox.files.presets import BUILTIN_DIR
from sandbox.physics.models import arcade
from sandbox.physics.params import Tuning

DEFAULTS = BUILTIN_DIR / "recipe_defaults.json"


def test_every_grid_point_gets_its_own_balance():
    axes = [parse_axis("drag=-0.2:-0.02:4", arcade), parse_axis("engine_power=500:2000:3", arcade)]
    grid, values = run(arcade, Tuning(arcade.PARAMS), axes, 60)
    assert grid.shape == (12, 2)
    assert list(grid[:3, 0]) == [-0.2, -0.2, -0.2] and list(grid[:3, 1]) == [500, 1250, 2000]
    for (drag, engine), top in zip(grid, values["top_speed"]):
        a, b = -drag / 60, 55 / 60  # engine = 55 v/60 - drag v²/60
        assert top == pytest.approx((-b + math.sqrt(b * b + 4 * a * engine)) / (2 * a), rel=1e-5)


def test_the_command_writes_one_row_per_point_with_every_metric(tmp_path):
    out = tmp_path / "s.csv"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "sandbox",
            "sweep",
            "--preset",
            str(DEFAULTS),
            "--param",
            "traction_fast=1:5:5",
            "--metric",
            "peak_slip_skidpad",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "5 tunings" in done.stdout
    lines = out.read_text().splitlines()
    assert lines[0].startswith("traction_fast,top_speed,") and len(lines) == 6
    column = lines[0].split(",").index("peak_slip_skidpad")
    slip = np.array([float(line.split(",")[column]) for line in lines[1:]])
    assert np.all(np.diff(slip) < 0)  # more grip at speed, less slide on the skid pad


@pytest.mark.parametrize(
    "text, expected",
    [
        ("drag", "expected NAME=LO:HI:N"),
        ("wings=1:2:3", "not a parameter of arcade"),
        ("rate_independent=0:1:2", "is a switch"),
        ("drag=-5:0:3", "outside the allowed range"),
        ("drag=-0.1:0:0", "N must be 1"),
    ],
)
def test_bad_axes_are_refused(text, expected):
    with pytest.raises(UserError, match=expected):
        parse_axis(text, arcade)


def test_bad_metric_exits_2_with_the_list(tmp_path):
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "sandbox",
            "sweep",
            "--preset",
            str(DEFAULTS),
            "--param",
            "drag=-0.1:-0.05:2",
            "--metric",
            "fun",
            "--out",
            str(tmp_path / "x.csv"),
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2 and "not a metric" in done.stderr and "top_speed" in done.stderr
    assert not (tmp_path / "x.csv").exists()


def test_sweep_help_lists_every_metric():
    from sandbox.analysis.metrics import METRICS

    done = subprocess.run([sys.executable, "-m", "sandbox", "sweep", "--help"], capture_output=True, text=True)
    assert done.returncode == 0
    listed = done.stdout.split("metrics (--metric NAME", 1)[1]
    for name, metric in METRICS.items():
        assert f"  {name}  " in listed and metric.label in listed


def test_swept_values_are_the_parameters_decimals_printed_and_simulated(tmp_path):
    """Spacing 3/15 = 0.2 in binary gives 6.199999999999999: the values are rounded to the
    step's decimals (steering_angle: step 0.5, one decimal), in the CSV and the summary,
    and those rounded values are the ones simulated."""
    axis = parse_axis("steering_angle=5:8:16", arcade)
    assert axis.decimals == 1
    assert [axis.text(v) for v in axis.values] == [f"{5 + 0.2 * i:.1f}" for i in range(16)]
    assert list(axis.values) == [round(5 + 0.2 * i, 1) for i in range(16)]
    assert parse_axis("engine_power=500:2000:10", arcade).text(666.6666666666666) == "667"
    plain = Axis("steering_angle", 5, 8, 16)  # no declared decimals (the window's): binary noise only goes
    assert 7.8 in list(plain.values) and plain.text(plain.values[14]) == "7.8"

    out = tmp_path / "s.csv"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "sandbox",
            "sweep",
            "--preset",
            str(DEFAULTS),
            "--param",
            "steering_angle=5:8:16",
            "--param",
            "engine_power=500:2000:4",
            "--metric",
            "turning_circle",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    rows = [line.split(",") for line in out.read_text().splitlines()[1:]]
    assert len(rows) == 64
    assert {r[0] for r in rows} == {f"{5 + 0.2 * i:.1f}" for i in range(16)}
    assert {r[1] for r in rows} == {"500", "1000", "1500", "2000"}
    assert "64 tunings" in done.stdout and "px" in done.stdout
    lowest = next(line for line in done.stdout.splitlines() if line.strip().startswith("lowest"))
    assert re.search(r"at steering_angle \d+\.\d, engine_power \d+$", lowest), lowest
    assert "99999" not in done.stdout and "00000" not in done.stdout


def test_a_metric_no_tuning_has_says_why(tmp_path):
    from sandbox.files.presets import BUILTIN_DIR

    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "sandbox",
            "sweep",
            "--preset",
            str(BUILTIN_DIR / "rigid_body_seed.json"),
            "--param",
            "mass=1:2:2",
            "--metric",
            "top_speed",
            "--out",
            str(tmp_path / "s.csv"),
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert "no top_speed for any tuning (none: nothing limits the speed on a straight)" in done.stdout
