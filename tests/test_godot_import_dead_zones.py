"""`import-godot` of a car script or scene inside a Godot project (a folder above it holds
project.godot): the import's report says the controller dead zones the project sets, or
that it sets none and the default of the Godot release applies (the project's release,
else the one the import found the file written for); a project.godot that cannot be read
is a note, and the import still succeeds. The project files are written as Godot 3.5 and
Godot 4.3 write them (tests/data/godot_input)."""

from pathlib import Path

import pytest

from sandbox.cli import main
from sandbox.files.presets import BUILTIN_DIR

DATA = Path(__file__).parent / "data" / "godot_input"
GODOT3 = (DATA / "godot3" / "project.godot").read_text(encoding="utf-8")
GODOT4 = (DATA / "godot4" / "project.godot").read_text(encoding="utf-8")
NO_RELEASE = '; Engine configuration file.\n\n[application]\n\nconfig/name="Kart"\n'
"""A project.godot that names no release and sets no input (cut down by hand)."""


def game(tmp_path, project: str | None, godot: int = 3, scene: bool = False) -> Path:
    """A game folder holding `project` as its project.godot, and the sandbox's car exported
    into its cars/ folder (a script, or a scene and its script); the car's path."""
    root = tmp_path / "game"
    (root / "cars").mkdir(parents=True)
    if project is not None:
        (root / "project.godot").write_text(project, encoding="utf-8")
    car = root / "cars" / ("car.tscn" if scene else "car.gd")
    args = ["export-godot", "--preset", str(BUILTIN_DIR / "drift.json"), "--out", str(car), "--godot", str(godot)]
    assert main(args + (["--scene"] if scene else [])) == 0
    return car


def imported(car: Path, capsys) -> tuple[str, str]:
    capsys.readouterr()
    assert main(["import-godot", str(car), "--out", str(car.parent / "back.json")]) == 0
    assert (car.parent / "back.json").is_file()  # the import itself succeeded
    out = capsys.readouterr()
    return out.out, out.err


def test_a_godot3_script_in_its_project_reports_each_actions_dead_zone(tmp_path, capsys):
    car = game(tmp_path, GODOT3)
    out, _ = imported(car, capsys)
    project = car.parent.parent / "project.godot"
    assert (
        f"controller dead zones from {project}: accelerate 0.25, steer_left 0.1, steer_right 0.35; "
        "any other action Godot 3's default 0.5"
    ) in out


def test_a_godot4_scene_in_its_project_reports_the_dead_zones_of_its_release(tmp_path, capsys):
    car = game(tmp_path, GODOT4, godot=4, scene=True)
    out, _ = imported(car, capsys)
    # the file says Godot 4.3, whose default is still 0.5 (0.2 from 4.4)
    assert "accelerate 0.05, steer_left 0.2, steer_right 0.2; any other action Godot 4.3's default 0.5" in out


@pytest.mark.parametrize(("godot", "default"), [(3, "Godot 3's default 0.5"), (4, "Godot 4.4 and later's default 0.2")])
def test_a_project_naming_no_release_takes_the_release_the_import_found(tmp_path, capsys, godot, default):
    car = game(tmp_path, NO_RELEASE, godot=godot)
    out, err = imported(car, capsys)
    assert f"project.godot sets none; {default} applies to every action" in out
    assert "note:" in err and "no [input] section" in err


def test_a_project_godot_that_cannot_be_read_is_a_note_and_the_import_succeeds(tmp_path, capsys):
    odd = GODOT3.replace('"deadzone": 0.1,', '"deadzone": "wide",')
    out, err = imported(game(tmp_path, odd), capsys)
    assert "steer_right 0.35" in out and "steer_left" not in out.split("controller dead zones")[1]
    assert "action steer_left: dead zone wide is not a number" in err and "Traceback" not in err
    big = tmp_path / "big"
    big.mkdir()
    out, err = imported(game(big, GODOT3 + ";" + "x" * (10 * 1024 * 1024) + "\n"), capsys)
    assert "controller dead zones" not in out
    assert "note: controller dead zones not read:" in err and "project.godot" in err
    broken = tmp_path / "broken"
    broken.mkdir()
    out, err = imported(game(broken, GODOT3.replace('"deadzone": 0.25,', '"deadzone": [0.25,')), capsys)
    assert "controller dead zones" not in out and "note: controller dead zones not read:" in err


def test_a_script_outside_any_project_says_nothing_of_dead_zones(tmp_path, capsys):
    out, err = imported(game(tmp_path, None), capsys)
    assert "dead zone" not in out + err
