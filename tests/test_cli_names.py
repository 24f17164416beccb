"""What a user types for names: a built-in preset or test drive by its name, output
extensions in any case, --version."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import tomllib

from sandbox.cli import build_parser, find_presets
from sandbox.errors import PresetError, TraceError
from sandbox.files.presets import BUILTIN_DIR
from sandbox.files.traces import BUILTIN_TRACES, find_trace, load_trace

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
from make_test_drives import DRIVES  # noqa: E402


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


def simulate(cwd, controls, out="out.csv"):
    done = subprocess.run(
        [sys.executable, "-m", "sandbox", "simulate", "--preset", "drift", "--controls", str(controls), "--out", out],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )
    return done, (cwd / out).read_text() if done.returncode == 0 else None


@pytest.mark.parametrize("given", ["slalom", "SLALOM", "Slalom.csv", " slalom "])
def test_a_built_in_drives_name_stands_for_its_file(given):
    """The drive the tool that writes the built-in drives made, found by its name."""
    found = find_trace(given)
    assert found == BUILTIN_TRACES / "slalom.csv"
    written = np.array(DRIVES["slalom"], dtype=np.float64)  # tools/make_test_drives.py's rows
    rows = load_trace(found)
    assert rows.shape == (len(written), 5) and np.array_equal(rows[:, :3], written)


def test_simulate_takes_a_built_in_drive_by_name_wherever_it_runs(tmp_path):
    """From a folder without the drive's file, `--controls slalom` drives the same
    trajectory as the file's path; a file of that name in the folder is the user's, and
    wins."""
    by_name, trajectory = simulate(tmp_path, "slalom")
    assert by_name.returncode == 0, by_name.stderr
    by_path, expected = simulate(tmp_path, BUILTIN_TRACES / "slalom.csv", "by_path.csv")
    assert by_path.returncode == 0, by_path.stderr
    assert trajectory == expected and len(trajectory.splitlines()) == 1 + len(DRIVES["slalom"])
    (tmp_path / "slalom").write_text("steer,throttle,brake\n0,1,0\n0,1,0\n0,1,0\n")
    own, trajectory = simulate(tmp_path, "slalom")
    assert own.returncode == 0, own.stderr
    assert len(trajectory.splitlines()) == 1 + 3


@pytest.mark.parametrize(
    "given, listed",
    [("figure_eight", sorted(DRIVES)), ("slalm", ["slalom"]), ("traces/slalom.csv", sorted(DRIVES))],
)
def test_a_name_that_is_no_file_and_no_built_in_drive_names_the_built_in_drives(tmp_path, given, listed):
    """Refused in one line, naming the close built-in drives, else all of them."""
    done, _ = simulate(tmp_path, given)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    said = done.stderr.strip()
    assert said.startswith(f"car-sandbox: error: {given}: no such file, and no built-in test drive of that name; ")
    assert said.split(" test drives: ")[1].split(", ") == listed
    assert not (tmp_path / "out.csv").exists()
    with pytest.raises(TraceError, match="built-in test drive"):
        find_trace(given)
