"""Switches a recording from the real Godot 3 engine must be fitted with. The recipe's
car reading analog pedal strengths: its recording fitted from the default preset (on/off
pedals) comes back with analog pedals on and every value the game was given. The 2020
recipe's script as its text writes it (tests/data/godot_scripts): fitted from the
default preset (the Godot 4 recipe), the 2020 formula is chosen and its friction comes
back in its own unit. The independent reason: the values the game was given. Each game
runs in real time: about 25 s."""

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from conftest import ENGINE_REASON
from sandbox.analysis.fit_switches import fit_switches
from sandbox.analysis.tune_space import free_names
from sandbox.devtools.fit_drives import arcade_drive
from sandbox.devtools.link_game import start_link_game
from sandbox.devtools.oracle import godot_binary
from sandbox.files.godot import export_script
from sandbox.files.godot_link import export_link_node
from sandbox.files.godot_scene import export_scene
from sandbox.files.presets import reference_preset
from sandbox.files.recordings import load_recording
from sandbox.link.server import LinkServer
from sandbox.physics.models import MODELS
from sandbox.physics.params import Tuning

pytestmark = pytest.mark.skipif(godot_binary() is None, reason=ENGINE_REASON)

HZ = 60
SECONDS = 20.0
GAME_VALUES = {  # the game's car: the recipe's with analog pedals and values the sandbox is not told
    "analog_pedals": True,
    "wheel_base": 82.0,
    "steering_angle": 17.3,
    "engine_power": 1037.0,
    "friction": -47.3,
    "drag": -0.0713,
    "braking": -612.0,
    "slip_speed": 353.0,
    "traction_fast": 3.17,
    "traction_slow": 8.43,
}
VALUE_SHARE = 1e-3
"""Each value within 0.1 % of the game's (the engine computes in 32 bits); a threshold,
the slip speed, within its uncertainty..."""
TIED = ("wheel_base", "steering_angle")
TIED_SHARE, RATIO_SHARE = 2e-3, 1e-4
"""...but the wheel base and the steering angle, which together set how the car turns
and trade off against each other, within 0.2 % each (0.04-0.1 % off alike, by how the
game's ticks fall into the fit's segments), their ratio within 0.01 %."""


def part_pressed(drive: np.ndarray) -> np.ndarray:
    """The throttle at 60 % on every other 100 ticks, the brake at 70 %: a gamepad's triggers."""
    drive = drive.copy()
    drive[:, 1] *= np.where(np.arange(len(drive)) % 200 < 100, 0.6, 1.0)
    drive[:, 2] *= 0.7
    return drive


SCRIPT_2020 = Path(__file__).parent / "data" / "godot_scripts" / "recipe_2020_godot3.gd"
VALUES_2020 = {"friction": -1.3, "traction_fast": 0.15, "engine_power": 950.0, "drag": -0.0021}
"""The 2020 script's car: friction −1.3 1/s (the Godot 4 recipe's unit would make it −78 1/s²)."""


def record(path, link_node: str, drive: np.ndarray, **game) -> object:
    """The game's drive (a second at rest first) recorded through the link, loaded."""
    server = LinkServer(port=0)
    server.start()
    server.start_recording()
    drive = np.vstack([np.zeros((HZ, 5)), drive])
    try:
        with start_link_game(
            link_node, server.port, drive, token=server.token, hz=HZ, fixed_fps=False, timeout=SECONDS + 40, **game
        ) as game_run:
            assert server.wait_for_game(30) is not None, game_run.log()
            assert game_run.wait(SECONDS + 40) == 0, game_run.log()
        done = server.stop_recording(path)
    finally:
        server.stop()
    assert done.lost_ticks == 0
    return load_recording(path)


@pytest.fixture(scope="module")
def recording(tmp_path_factory):
    model = MODELS["arcade"]
    preset = reference_preset(model)
    # the game's values exactly, off the sliders' steps: a precision far below their digits
    exact = {name: 1e-9 for name, value in GAME_VALUES.items() if not isinstance(value, bool)}
    game = replace(preset, tuning=Tuning(model.PARAMS, {**preset.tuning, **GAME_VALUES}), precision=exact)
    scene = {"car.tscn": export_scene(game, 3, "car.gd"), "car.gd": export_script(game, 3)}
    for name in exact:  # the game holds these numbers, not their slider's rounding (friction -47.3, not -47)
        assert f"var {name} = {GAME_VALUES[name]!r}\n" in scene["car.gd"], name
    path = tmp_path_factory.mktemp("analog") / "analog.csv"
    return record(path, export_link_node(model, 3), part_pressed(arcade_drive(SECONDS, HZ)), scene=scene)


def test_the_recipe_car_with_analog_pedals_is_found_from_the_default_preset(recording):
    model = MODELS["arcade"]
    game = GAME_VALUES
    start = reference_preset(model)
    assert start.tuning["analog_pedals"] is False
    search = fit_switches(model, recording, dict(start.tuning), free_names(model), HZ)
    result = search.result
    print("\nthe recipe's car with analog pedals, fitted from the default preset:")
    for name, value in game.items():
        if name in result.params:
            error = result.params[name] / value - 1
            print(f"  {name:18s} {result.params[name]:.8g} ± {result.uncertainty[name]:.2g} for {value:g}: "
                  f"{100 * error:+.5f} %")  # fmt: skip
    for switches, other in search.tried + search.screened:
        print(f"  {switches}: RMS position {other.rms_position:.3g} px, {other.verdict}")
    assert search.switches["analog_pedals"] is True and search.switches["recipe_2020"] is False
    assert result.verdict == "good"
    for name, value in game.items():
        if name == "analog_pedals":
            continue
        error = abs(result.params[name] - value)
        share = TIED_SHARE if name in TIED else VALUE_SHARE
        assert error <= max(share * abs(value), result.uncertainty[name] if name == "slip_speed" else 0), name
    ratio = result.params["steering_angle"] / result.params["wheel_base"]
    assert abs(ratio / (game["steering_angle"] / game["wheel_base"]) - 1) <= RATIO_SHARE
    assert result.undetermined == ["max_speed_reverse"]
    off = [r for s, r in search.tried + search.screened if not s["analog_pedals"]]  # screened: their quick fit
    assert off and all(r.rms_position > 100 * result.rms_position for r in off)


def test_the_2020_recipes_script_is_fitted_with_its_own_formula_and_units(tmp_path):
    model = MODELS["arcade"]
    text = SCRIPT_2020.read_text()
    link_node = export_link_node(model, 3, script_text=text, source=SCRIPT_2020.name)
    recording = record(tmp_path / "recipe_2020.csv", link_node, arcade_drive(SECONDS, HZ), script_text=text,
                       params=VALUES_2020)  # fmt: skip
    start = reference_preset(model)
    assert start.tuning["recipe_2020"] is False
    search = fit_switches(model, recording, dict(start.tuning), free_names(model), HZ)
    result = search.result
    print("\nthe 2020 recipe's script, fitted from the default preset:")
    for switches, other in search.tried + search.screened:
        print(f"  {switches}: RMS position {other.rms_position:.3g} px, {other.verdict}, "
              f"friction {other.params['friction']:.6g}")  # fmt: skip
    assert search.switches["recipe_2020"] is True
    assert search.switches["analog_pedals"] is False  # it reads the steering keys pressed or not
    assert result.verdict == "good"
    for name, value in VALUES_2020.items():
        assert abs(result.params[name] / value - 1) <= VALUE_SHARE, (name, result.params[name], value)
    godot_4 = [r for s, r in search.tried + search.screened if not s["recipe_2020"]]  # screened: their quick fit
    assert godot_4 and all(r.rms_position > 100 * result.rms_position for r in godot_4)
    # the link node made for the script said its formula in its hello, and the recording
    # kept it: a fit that takes the recording's word sets it, and finds the same values
    assert recording.switches["recipe_2020"] is True and recording.switches["analog_pedals"] is False
    stated = fit_switches(model, recording, dict(start.tuning), free_names(model), HZ, stated=recording.switches)
    assert stated.stated == recording.switches and stated.switches["recipe_2020"] is True
    assert "recipe_2020" not in stated.searched and len(stated.tried) == 1  # set, not searched
    for name, value in VALUES_2020.items():
        assert abs(stated.result.params[name] / value - 1) <= VALUE_SHARE, (name, stated.result.params[name], value)
