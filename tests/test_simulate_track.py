"""`simulate --track`: a trace driven on a track from its spawn (or `--start`), the
trajectory as before plus the tick's wall contacts and the cones knocked; bad options
exit 2 naming them."""

from __future__ import annotations

import csv
import subprocess
import sys

from sandbox.files.presets import BUILTIN_DIR
from sandbox.files.traces import TRAJECTORY_COLUMNS

DEFAULTS = BUILTIN_DIR / "recipe_defaults.json"


def cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "sandbox", *map(str, args)], capture_output=True, text=True, timeout=300
    )


def rows_of(path):
    with open(path, newline="") as f:
        return [{k: float(v) for k, v in row.items()} for row in csv.DictReader(f)]


def test_simulate_on_the_parking_lot_starts_at_its_spawn_and_stops_at_its_wall(tmp_path):
    """Full throttle, straight, 4 s from (563, 1450) heading down (90°): the parking
    lot's bottom wall's face lies at y ≈ 1732 there, so the recipe car's centre (its
    capsule reaching 69 px ahead) stops about 1663, touching; the first ticks are the
    open field's (no wall within reach); the spawn is used without --start."""
    trace = tmp_path / "trace.csv"
    trace.write_text("steer,throttle,brake\n" + "0,1,0\n" * 240)
    out = tmp_path / "drive.csv"
    result = cli(
        "simulate", "--preset", DEFAULTS, "--controls", trace, "--track", "parking_lot",
        "--start", "563,1450,90", "--out", out,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    header = out.read_text().splitlines()[0]
    assert header == ",".join(TRAJECTORY_COLUMNS + ("wall_contacts", "cones_hit"))
    rows = rows_of(out)
    assert rows[0]["wall_contacts"] == 0 and rows[0]["x"] == 563.0
    assert rows[-1]["wall_contacts"] > 0
    assert 1662.9 < rows[-1]["y"] < 1663.1
    spawn = tmp_path / "spawn.csv"
    assert (
        cli("simulate", "--preset", DEFAULTS, "--controls", trace, "--track", "parking_lot", "--out", spawn).returncode
        == 0
    )
    first = rows_of(spawn)[0]
    assert first["y"] == 512.0 and 563.0 < first["x"] < 564.0  # the demo's start, heading +x


def test_simulate_through_the_slalom_writes_and_prints_the_cones_knocked(tmp_path):
    """The recipe car straight down the slalom's line of 8 cones (from 50 m, 30 m apart:
    from 1250 px, 750 px apart, at 25 px/m) for 10 s: at its top speed of about
    354 px/s it reaches a few of them, the count climbing as its capsule's nose (69 px
    ahead of its centre) reaches each cone's edge (3.75 px)."""
    trace = tmp_path / "trace.csv"
    trace.write_text("steer,throttle,brake\n" + "0,1,0\n" * 1200)
    out = tmp_path / "drive.csv"
    result = cli("simulate", "--preset", DEFAULTS, "--controls", trace, "--track", "slalom", "--out", out)
    assert result.returncode == 0, result.stderr
    rows = rows_of(out)
    for row in rows:  # the cones the shape (69 px ahead of the centre, radius 3.75) has reached
        reached = sum(1 for cone in range(8) if row["x"] + 69 + 3.75 >= 1250 + 750 * cone)
        assert row["cones_hit"] == reached
    assert rows[-1]["cones_hit"] > 0
    assert f"cones knocked: {int(rows[-1]['cones_hit'])} of 8" in result.stdout


def test_simulate_without_a_track_writes_the_columns_of_before(tmp_path):
    trace = tmp_path / "trace.csv"
    trace.write_text("steer,throttle,brake\n0,1,0\n")
    out = tmp_path / "drive.csv"
    assert cli("simulate", "--preset", DEFAULTS, "--controls", trace, "--out", out).returncode == 0
    assert out.read_text().splitlines()[0] == ",".join(TRAJECTORY_COLUMNS)


def test_simulate_refuses_an_unknown_track_and_a_bad_start(tmp_path):
    trace = tmp_path / "trace.csv"
    trace.write_text("steer,throttle,brake\n0,1,0\n")
    out = tmp_path / "drive.csv"
    unknown = cli("simulate", "--preset", DEFAULTS, "--controls", trace, "--track", "nowhere", "--out", out)
    assert unknown.returncode == 2 and "nowhere" in unknown.stderr and "Traceback" not in unknown.stderr
    bad = cli("simulate", "--preset", DEFAULTS, "--controls", trace, "--start", "1,2", "--out", out)
    assert bad.returncode == 2 and "x,y,heading" in bad.stderr
    assert not out.exists()
