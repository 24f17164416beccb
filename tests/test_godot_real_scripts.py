"""Car scripts as game developers write them (tests/data/godot_scripts: the recipe's
demo, a typed Godot 4 port, a commented port with export annotations, a Godot 3 port,
the 2020 recipe) read by `import-godot`: the recipe's numbers, exactly."""

import json
from pathlib import Path

import pytest

from sandbox.cli import main
from sandbox.files.presets import BUILTIN_DIR

SCRIPTS = Path(__file__).parent / "data" / "godot_scripts"
RECIPE_2024 = {
    "wheel_base": 70,
    "steering_angle": 15,
    "engine_power": 900,
    "friction": -55,
    "drag": -0.06,
    "braking": -450,
    "max_speed_reverse": 250,
    "slip_speed": 400,
    "traction_fast": 2.5,
    "traction_slow": 10,
}
"""The Godot 4 recipe's numbers, as its text gives them."""
RECIPE_2020 = {
    "wheel_base": 70,
    "steering_angle": 15,
    "engine_power": 800,
    "friction": -0.9,
    "drag": -0.0015,
    "braking": -450,
    "max_speed_reverse": 250,
    "slip_speed": 400,
    "traction_fast": 0.1,
    "traction_slow": 0.7,
}
"""The 2020 recipe's numbers."""
PORTS = {
    "recipe_demo_godot4.gd": False,
    "typed_godot4_port.gd": False,
    "commented_godot4_port.gd": True,
    "godot3_export_port.gd": False,
}
"""The scripts following the Godot 4 recipe, and whether each reads the pedals as analog strengths."""


def _import(tmp_path, script: Path, capsys) -> tuple[dict, str]:
    out = tmp_path / "imported.json"
    assert main(["import-godot", str(script), "--out", str(out)]) == 0
    return json.loads(out.read_text())["params"], capsys.readouterr().out


@pytest.mark.parametrize("name", PORTS)
def test_each_port_imports_the_recipes_ten_numbers(tmp_path, name, capsys):
    values, printed = _import(tmp_path, SCRIPTS / name, capsys)
    assert {key: values[key] for key in RECIPE_2024} == RECIPE_2024
    assert values["rate_independent"] is False  # no such switch in the script: the recipe as written
    assert "follows the Godot 4 recipe" in printed
    assert values["recipe_2020"] is False and values["analog_pedals"] is PORTS[name]


@pytest.mark.parametrize("name", PORTS)
def test_crlf_and_a_byte_order_mark_read_alike(tmp_path, name, capsys):
    """The same script saved by a Windows editor: CRLF line ends and a BOM."""
    text = (SCRIPTS / name).read_text()
    windows = tmp_path / name
    windows.write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode())
    values, _ = _import(tmp_path, windows, capsys)
    assert {key: values[key] for key in RECIPE_2024} == RECIPE_2024


def test_the_2020_recipe_imports_its_own_numbers_with_its_formula(tmp_path, capsys):
    values, printed = _import(tmp_path, SCRIPTS / "recipe_2020_godot3.gd", capsys)
    assert {key: values[key] for key in RECIPE_2020} == RECIPE_2020
    assert values["recipe_2020"] is True and values["analog_pedals"] is False
    assert "follows the 2020 recipe" in printed


def test_the_recipes_part_one_alone_is_refused_for_want_of_a_formula(tmp_path, capsys):
    """Part 1 of the recipe has no friction, drag or traction: its numbers could be
    read for either formula, so they are not read at all."""
    script = tmp_path / "part1.gd"
    script.write_text(
        "extends CharacterBody2D\n\nvar wheel_base = 70\nvar steering_angle = 15\n\nvar steer_direction\n\n"
        "\nfunc _physics_process(delta):\n    get_input()\n    calculate_steering(delta)\n"
        "    move_and_slide()\n"
    )
    out = tmp_path / "imported.json"
    assert main(["import-godot", str(script), "--out", str(out)]) == 2
    assert "no friction, drag or traction code found" in capsys.readouterr().err
    assert not out.exists()


def test_a_recipe_script_is_not_read_into_another_model(tmp_path, capsys):
    """The recipe's numbers are pixels and per-tick shares: a bicycle in metres would
    take its wheel base of 70 as 70 m."""
    out = tmp_path / "imported.json"
    assert (
        main(
            [
                "import-godot",
                str(SCRIPTS / "recipe_demo_godot4.gd"),
                "--out",
                str(out),
                "--preset",
                str(BUILTIN_DIR / "bicycle_exact_arc.json"),
            ]
        )
        == 2
    )
    assert (
        "this script computes as the Godot recipe's car (the Arcade model): its numbers mean something else "
        "in the Kinematic bicycle"
    ) in capsys.readouterr().err
    assert not out.exists()


def test_the_window_imports_the_2020_recipe_with_its_formula_in_one_undo_step(window):
    steps = window.undo.count()
    assert window.import_godot(SCRIPTS / "recipe_2020_godot3.gd")
    assert {key: window.tuning[key] for key in RECIPE_2020} == RECIPE_2020
    assert window.tuning["recipe_2020"] is True and window.tuning["analog_pedals"] is False
    assert window.undo.count() == steps + 1
    window.undo.undo()
    assert window.tuning["recipe_2020"] is False and window.tuning["friction"] == -55
