"""`metrics --track`: the manoeuvres driven on a track from its spawn; a figure whose
run meets a wall is no figure (none, with when its run met the wall); a figure whose
run keeps clear is the open field's; bad track files exit 2 naming them."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import numpy as np
import pytest

from sandbox.analysis.metrics import compute
from sandbox.analysis.track_metrics import compute_on_track
from sandbox.files.presets import BUILTIN_DIR, load_preset
from sandbox.files.tracks import find_builtin_track, open_track
from sandbox.physics import sim

DEFAULTS = BUILTIN_DIR / "recipe_defaults.json"
WALL_FACE = 2000.0
"""px: the face of a wall straight ahead of the spawn (at the origin, heading +x)."""
FRONT = 69.0
"""px: how far the recipe car's capsule reaches ahead of its centre (radius 34 + half
of its height 70, turned along the car)."""
TRACK = {
    "format": "car-sandbox track",
    "version": 1,
    "name": "Wall ahead",
    "unit": "px",
    "walls": [{"rect": {"x": WALL_FACE + 100, "y": 0, "width": 200, "height": 6000}}],
    "spawn": {"x": 0, "y": 0, "heading_deg": 0},
}


@pytest.fixture(scope="module")
def wall_ahead(tmp_path_factory):
    path = tmp_path_factory.mktemp("track") / "wall_ahead.json"
    path.write_text(json.dumps(TRACK))
    return path


def cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "sandbox", *map(str, args)], capture_output=True, text=True, timeout=600
    )


def test_a_run_that_meets_the_wall_is_no_figure_and_says_when(wall_ahead):
    """The standing quarter (4000 px) cannot be driven with a wall 2000 px ahead: no
    figure, and its run met the wall when the open field's run brings the car's nose
    to the wall's face (within two ticks). The reverse run and the slow circle (radius
    about 270 px) stay clear of it: the open field's figures, whatever the wall."""
    preset = load_preset(DEFAULTS)
    values, met = compute_on_track(preset.model, preset.tuning, preset.hz, open_track(wall_ahead))
    field = compute(preset.model, preset.tuning, preset.hz)
    assert math.isnan(values["standing_quarter"][0]) and math.isfinite(field["standing_quarter"][0])
    trace = np.zeros((600, 5))
    trace[:, 1] = 1.0
    xs = np.asarray(sim.record(preset.model, preset.tuning, trace, preset.hz, ("x",)))[:, 0]
    reach = (np.argmax(xs >= WALL_FACE - FRONT) + 1) / preset.hz  # s: the tick whose move would cross it
    assert abs(met["standing_quarter"][0] - reach) <= 2.0 / preset.hz
    for name in ("reverse_top_speed", "radius_low", "braking_from_100"):
        assert math.isnan(met[name][0])
        assert values[name][0] == pytest.approx(field[name][0], rel=1e-9)


def test_a_track_without_walls_gives_the_open_fields_figures():
    preset = load_preset(DEFAULTS)
    values, met = compute_on_track(preset.model, preset.tuning, preset.hz, open_track(find_builtin_track("open_field")))
    field = compute(preset.model, preset.tuning, preset.hz)
    for name, value in field.items():
        assert np.array_equal(values[name], value, equal_nan=True)
        assert math.isnan(met[name][0])


def test_the_command_names_the_track_and_the_wall(wall_ahead):
    result = cli("metrics", "--preset", DEFAULTS, "--track", wall_ahead, "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["track"] == "Wall ahead"
    rows = {row["name"]: row for row in report["metrics"]}
    assert rows["standing_quarter"]["value"] is None
    assert rows["standing_quarter"]["met_wall_after_s"] > 0
    assert "met a wall" in rows["standing_quarter"]["missing"]
    assert rows["reverse_top_speed"]["met_wall_after_s"] is None
    text = cli("metrics", "--preset", DEFAULTS, "--track", wall_ahead)
    assert "on Wall ahead, from its spawn" in text.stdout
    assert "met a wall" in text.stdout


@pytest.mark.parametrize("content", [None, "{not json", '{"format": "car-sandbox track", "version": 1}'])
def test_a_missing_or_broken_track_exits_2_naming_it(tmp_path, content):
    path = tmp_path / "level.json"
    if content is not None:
        path.write_text(content)
    result = cli("metrics", "--preset", DEFAULTS, "--track", path)
    assert result.returncode == 2
    assert "level.json" in result.stderr and "Traceback" not in result.stderr
    assert result.stdout == ""
