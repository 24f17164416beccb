"""Sweeps: the grid, its batch simulation, and the command's refusals."""

import math
import subprocess
import sys

import numpy as np
import pytest

from sandbox.errors import UserError
from sandbox.physics.models import arcade
from sandbox.physics.params import Tuning
from sandbox.files.presets import BUILTIN_DIR
from sandbox.analysis.sweep import parse_axis, run

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
    done = subprocess.run([sys.executable, "-m", "sandbox", "sweep", "--preset", str(DEFAULTS),
                           "--param", "traction_fast=1:5:5", "--metric", "peak_slip_skidpad", "--out", str(out)],
                          capture_output=True, text=True, check=True)
    assert "5 tunings" in done.stdout
    lines = out.read_text().splitlines()
    assert lines[0].startswith("traction_fast,top_speed,") and len(lines) == 6
    slip = np.array([float(line.split(",")[-2]) for line in lines[1:]])
    assert np.all(np.diff(slip) < 0)  # more grip at speed, less slide on the skid pad


@pytest.mark.parametrize("text, expected", [
    ("drag", "expected NAME=LO:HI:N"),
    ("wings=1:2:3", "not a parameter of arcade"),
    ("rate_independent=0:1:2", "is a switch"),
    ("drag=-5:0:3", "outside the allowed range"),
    ("drag=-0.1:0:0", "N must be 1"),
])
def test_bad_axes_are_refused(text, expected):
    with pytest.raises(UserError, match=expected):
        parse_axis(text, arcade)


def test_bad_metric_exits_2_with_the_list(tmp_path):
    done = subprocess.run([sys.executable, "-m", "sandbox", "sweep", "--preset", str(DEFAULTS), "--param",
                           "drag=-0.1:-0.05:2", "--metric", "fun", "--out", str(tmp_path / "x.csv")],
                          capture_output=True, text=True)
    assert done.returncode == 2 and "not a metric" in done.stderr and "top_speed" in done.stderr
    assert not (tmp_path / "x.csv").exists()
