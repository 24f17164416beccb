"""A user's own Godot 3 car script, both ways, in the real engine: read into the
sandbox, it drives as the engine drives it; a tuning written into it (only its numbers
changed), the engine drives it as the sandbox drives that tuning.

The scripts are in tests/data/godot_scripts: a Godot 3 port of the recipe with its
settings as `export` variables, and the recipe's Godot 3 version (2020) as its text
writes it. They were written for the tests, as users write them, not by the sandbox.
Both read the steering keys pressed or not, as a keyboard does (the port's import notes
that a stick would steer it otherwise than the sandbox): their drives steer with whole
keys, and press the pedals part way (which both read as whole presses).
"""

import shutil
from pathlib import Path

import numpy as np
import pytest

from sandbox.devtools.oracle import compare, godot_binary, run_oracle
from sandbox.files.godot_import import load_script
from sandbox.files.godot_into import write_into
from sandbox.files.presets import BUILTIN_DIR, Preset, load_preset
from sandbox.files.traces import load_trace, save_trace
from sandbox.physics.models import arcade
from sandbox.physics.params import Tuning
from sandbox.physics.sim import run_trace

SCRIPTS = Path(__file__).parent / "data" / "godot_scripts"
DRIVES = Path(__file__).parent / "goldens" / "traces"
POSITION_PX = 1.0
HEADING_RAD = 5e-4
NEW_VALUES = {
    # a tuning of each recipe, none of it the script's own numbers
    "godot3_export_port.gd": {
        "wheel_base": 64,
        "steering_angle": 18,
        "engine_power": 1250,
        "friction": -70,
        "drag": -0.045,
        "braking": -600,
        "max_speed_reverse": 300,
        "slip_speed": 350,
        "traction_fast": 1.8,
        "traction_slow": 12,
    },
    "recipe_2020_godot3.gd": {
        "recipe_2020": True,
        "wheel_base": 80,
        "steering_angle": 13,
        "engine_power": 950,
        "friction": -1.2,
        "drag": -0.002,
        "braking": -500,
        "max_speed_reverse": 200,
        "slip_speed": 450,
        "traction_fast": 0.15,
        "traction_slow": 0.6,
    },
}
needs_godot = pytest.mark.skipif(godot_binary() is None, reason="godot3-server is not installed")


def _drive(name: str, folder: Path) -> Path:
    """A reference drive with the steering as keys give it (-1, 0 or 1)."""
    trace = load_trace(DRIVES / f"{name}.csv")
    trace[:, 0] = np.sign(trace[:, 0])
    path = folder / f"{name}_keys.csv"
    save_trace(path, trace)
    return path


def _gap(tuning, trace: Path, script: str) -> dict:
    godot = run_oracle(trace, hz=60, script_text=script)
    return compare(run_trace(arcade, tuning, load_trace(trace), 60), godot)


@needs_godot
@pytest.mark.parametrize("name", sorted(NEW_VALUES))
@pytest.mark.parametrize("drive", ("mixed_60s", "analog_pad"))
def test_a_users_script_read_in_drives_as_the_engine_drives_it(name, drive, tmp_path):
    result = load_script(SCRIPTS / name, arcade)
    tuning = Tuning(arcade.PARAMS, result.values)
    gap = _gap(tuning, _drive(drive, tmp_path), (SCRIPTS / name).read_text())
    assert gap["position_px"] < POSITION_PX and gap["heading_rad"] < HEADING_RAD, gap


@needs_godot
@pytest.mark.parametrize("name", sorted(NEW_VALUES))
def test_a_tuning_written_into_a_users_script_drives_in_the_engine_as_in_the_sandbox(name, tmp_path):
    mine = tmp_path / name
    shutil.copy(SCRIPTS / name, mine)
    tuning = Tuning(arcade.PARAMS, NEW_VALUES[name])
    update = write_into(mine, Preset(arcade, tuning, "Mine"))
    assert len(update.changed) == 10  # every number of the recipe's ten
    written = mine.read_text()
    before = (SCRIPTS / name).read_text()
    assert written != before and len(written.splitlines()) == len(before.splitlines())
    for drive in ("mixed_60s", "analog_pad"):
        gap = _gap(tuning, _drive(drive, tmp_path), written)
        assert gap["position_px"] < POSITION_PX and gap["heading_rad"] < HEADING_RAD, (drive, gap)
    # and the script as it was drives another car: the values did reach the engine
    assert _gap(tuning, _drive("mixed_60s", tmp_path), before)["position_px"] > 100


def test_the_new_values_are_a_tuning_the_recipe_allows():
    """Every value above is within its range (under the 2020 switch where it is on), and
    the built-in recipe presets hold other numbers (so writing them changes the script)."""
    for values in NEW_VALUES.values():
        tuning = Tuning(arcade.PARAMS, values)
        stem = "recipe_2020" if values.get("recipe_2020") else "recipe_defaults"
        defaults = load_preset(BUILTIN_DIR / f"{stem}.json")
        assert all(tuning[k] != defaults.tuning[k] for k in values if k != "recipe_2020")
        assert np.isfinite([tuning[k] for k in values]).all()
