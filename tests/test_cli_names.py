"""What a user types for names: a built-in preset by its name, output extensions in any
case, --version."""

import subprocess
import sys
from pathlib import Path

import pytest
import tomllib

from sandbox.cli import build_parser, find_presets
from sandbox.errors import PresetError
from sandbox.files.presets import BUILTIN_DIR

ROOT = Path(__file__).resolve().parents[1]


def cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "sandbox", *map(str, args)], capture_output=True, text=True, timeout=300
    )


def test_version_is_the_installed_packages():
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    result = cli("--version")
    assert result.returncode == 0 and result.stdout.strip() == f"car-sandbox {version}"


@pytest.mark.parametrize("given", ["drift", "DRIFT", "Drift.json", "  drift "])
def test_a_built_in_presets_name_or_stem_stands_for_its_file(given):
    by_file = cli("metrics", "--preset", BUILTIN_DIR / "drift.json")
    by_name = cli("metrics", "--preset", given)
    assert by_name.returncode == 0, by_name.stderr
    assert by_name.stdout == by_file.stdout and by_name.stdout.startswith("Drift (")


@pytest.mark.parametrize(
    "argv",
    [
        ["--preset", "corvette c5 (ROAD TEST)"],
        ["screenshot", "--preset", "Ice", "--ghost", "go-kart", "--ghost", "monster_corvette_abs", "--out", "x.png"],
        ["import-godot", "car.gd", "--preset", "recipe 2020 (godot 3)", "--out", "p.json"],
    ],
)
def test_every_preset_argument_takes_a_built_in_name(argv):
    """The window's --preset, a screenshot's ghosts, the import's base preset: any
    preset argument, by display name (any case) or file stem."""
    args = build_parser().parse_args(argv)
    find_presets(args)
    found = [args.preset] + list(getattr(args, "ghost", []))
    assert all(path.parent == BUILTIN_DIR and path.is_file() for path in found)
    expected = {
        "corvette c5 (ROAD TEST)": "monster_corvette_c5_road_test",
        "Ice": "ice",
        "go-kart": "go_kart",
        "monster_corvette_abs": "monster_corvette_abs",
        "recipe 2020 (godot 3)": "recipe_2020",
    }
    assert [path.stem for path in found] == [expected[text] for text in argv if text in expected]


def test_a_name_that_is_no_file_and_no_built_in_lists_the_close_names():
    result = cli("metrics", "--preset", "drfit")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "drfit: no such file" in result.stderr and "close built-in presets:" in result.stderr
    assert "drift" in result.stderr.split("close built-in presets:")[1]
    args = build_parser().parse_args(["--preset", "corvete"])
    with pytest.raises(PresetError, match="monster_corvette_c5"):
        find_presets(args)


def test_a_scenes_extension_is_taken_in_any_case(tmp_path):
    result = cli("export-godot", "--preset", BUILTIN_DIR / "drift.json", "--scene", "--out", tmp_path / "CAR.TSCN")
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["CAR.TSCN", "CAR.gd"]
    assert 'path="CAR.gd"' in (tmp_path / "CAR.TSCN").read_text()
