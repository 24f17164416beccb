"""A long sweep says how long before it starts, and one longer than the bound runs only
when asked (--allow-long). The estimate is replaced by a given figure here: what is
checked is what the command does with it, never how fast this machine is."""

import numpy as np
import pytest

from sandbox import cli
from sandbox.analysis import sweep
from sandbox.files.presets import BUILTIN_DIR, load_preset

DRIFT = str(BUILTIN_DIR / "drift.json")


def sweep_args(out):
    return ["sweep", "--preset", DRIFT, "--param", "drag=-0.2:-0.02:3", "--metric", "top_speed", "--out", str(out)]


@pytest.fixture
def estimate(monkeypatch):
    """Set the estimate the command gets, in seconds."""

    def set_to(seconds):
        monkeypatch.setattr(sweep, "estimate_seconds", lambda *args: seconds)

    return set_to


def test_a_sweep_over_the_bound_is_refused_before_it_starts_and_says_how_long(tmp_path, estimate, capsys):
    estimate(2 * 3600 + 5 * 60)
    out = tmp_path / "s.csv"
    assert cli.main(sweep_args(out)) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert "about 2 h 5 min" in err and "--allow-long" in err and f"over {cli.LONG_SWEEP_S // 60} min" in err
    assert not out.exists()


def test_allow_long_runs_it_after_saying_how_long(tmp_path, estimate, capsys):
    estimate(2 * 3600 + 5 * 60)
    out = tmp_path / "s.csv"
    assert cli.main(sweep_args(out) + ["--allow-long"]) == 0
    err = capsys.readouterr().err
    assert "note: sweeping 3 tunings at 60 Hz will take about 2 h 5 min" in err
    assert len(out.read_text().splitlines()) == 4


@pytest.mark.parametrize("seconds, said", [(cli.SAY_ESTIMATE_AFTER_S / 2, False), (40, True), (12 * 60, True)])
def test_the_estimate_is_said_only_when_it_is_long_enough_to_matter(tmp_path, estimate, capsys, seconds, said):
    estimate(seconds)
    assert cli.main(sweep_args(tmp_path / "s.csv")) == 0
    assert ("will take about" in capsys.readouterr().err) == said


def test_the_estimate_is_measured_on_points_of_the_grid_only_when_there_are_many():
    preset = load_preset(DRIFT)
    small = [sweep.parse_axis(f"drag=-0.2:-0.02:{sweep.PROBE_MOST}", preset.model, preset.tuning)]
    assert sweep.estimate_seconds(preset.model, preset.tuning, small, 60) == 0  # no longer than its estimate
    large = [
        sweep.parse_axis("drag=-0.2:-0.02:300", preset.model, preset.tuning),
        sweep.parse_axis("engine_power=500:2000:300", preset.model, preset.tuning),
    ]
    seconds = sweep.estimate_seconds(preset.model, preset.tuning, large, 60)
    assert np.isfinite(seconds) and seconds > 0
