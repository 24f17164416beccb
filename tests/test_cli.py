"""Headless commands, run as a user would: a subprocess, its exit code and output."""

import json
import math
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from other_user import as_nobody, folder_nobody_may_write
from sandbox.files.presets import BUILTIN_DIR
from sandbox.files.traces import TRAJECTORY_COLUMNS
from sandbox.physics.models import arcade

DEFAULTS = BUILTIN_DIR / "recipe_defaults.json"


def cli(*args, check=True):
    result = subprocess.run(
        [sys.executable, "-m", "sandbox", *map(str, args)], capture_output=True, text=True, timeout=120
    )
    if check:
        assert result.returncode == 0, result.stderr
    return result


def write_trace(path, rows, header="steer,throttle,brake"):
    path.write_text(header + "\n" + "".join(",".join(map(str, r)) + "\n" for r in rows))
    return path


def test_simulate_writes_one_row_per_tick_and_is_byte_identical(tmp_path):
    rows = [(0, 1, 0)] * 90 + [(1, 1, 0)] * 90 + [(-0.5, 0, 1)] * 60
    trace = write_trace(tmp_path / "trace.csv", rows)
    cli("simulate", "--preset", DEFAULTS, "--controls", trace, "--out", tmp_path / "a.csv")
    cli("simulate", "--preset", DEFAULTS, "--controls", trace, "--out", tmp_path / "b.csv")
    a = (tmp_path / "a.csv").read_bytes()
    assert a == (tmp_path / "b.csv").read_bytes()
    lines = a.decode().splitlines()
    assert lines[0] == ",".join(TRAJECTORY_COLUMNS) == "t,x,y,heading,vx,vy,speed,slip_angle"
    assert len(lines) == 1 + len(rows)
    first = dict(zip(TRAJECTORY_COLUMNS, map(float, lines[1].split(","))))
    # the first tick by hand: 900 px/s² for 1/60 s from rest
    assert (
        first["t"] == pytest.approx(1 / 60) and first["vx"] == pytest.approx(15) and first["x"] == pytest.approx(0.25)
    )
    last = dict(zip(TRAJECTORY_COLUMNS, map(float, lines[-1].split(","))))
    assert last["t"] == pytest.approx(len(rows) / 60)
    assert last["speed"] == pytest.approx(math.hypot(last["vx"], last["vy"]))


def test_simulate_hz_changes_tick_length(tmp_path):
    trace = write_trace(tmp_path / "trace.csv", [(0, 1, 0)])
    cli("simulate", "--preset", DEFAULTS, "--controls", trace, "--out", tmp_path / "o.csv", "--hz", 120)
    row = (tmp_path / "o.csv").read_text().splitlines()[1].split(",")
    assert float(row[0]) == pytest.approx(1 / 120) and float(row[4]) == pytest.approx(900 / 120)


@pytest.mark.parametrize(
    "rows, header, expected",
    [
        ([(0, 1, 0), (0, "x", 0)], "steer,throttle,brake", "line 3: throttle 'x' is not a number"),
        ([(0, 1)], "steer,throttle,brake", "line 2: 2 values, expected 3"),
        ([(2, 0, 0)], "steer,throttle,brake", "line 2: steer 2 is outside -1 … 1"),
        ([(0, 0, "nan")], "steer,throttle,brake", "line 2: brake nan is outside 0 … 1"),
        ([(0, 1, 0)], "throttle,steer,brake", "line 1: header"),
        ([], "steer,throttle,brake", "no rows"),
        ([(0, 1, 0)], "steer,throttle,brake,handbrake,shift", "line 2: 3 values, expected 5"),
        ([(0, 1, 0, 0, 2)], "steer,throttle,brake,handbrake,shift", "line 2: shift 2 is outside -1 … 1"),
        ([(0, 1, 0, 0)], "steer,throttle,brake,handbrake", "line 1: header"),
        ([(0, 1, 0)], "steer,throttle,steer", "line 1: column 'steer' given twice"),
    ],
)
def test_bad_trace_exits_2_with_one_line_naming_the_line(tmp_path, rows, header, expected):
    trace = write_trace(tmp_path / "trace.csv", rows, header)
    out = tmp_path / "out.csv"
    result = cli("simulate", "--preset", DEFAULTS, "--controls", trace, "--out", out, check=False)
    assert result.returncode == 2
    assert expected in result.stderr and str(trace) in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
    assert not out.exists()


def test_bad_preset_exits_2_naming_file_and_field(tmp_path):
    bad = tmp_path / "bad.json"
    data = json.loads(DEFAULTS.read_text())
    data["params"]["traction_fast"] = 100
    bad.write_text(json.dumps(data))
    result = cli("curves", "--preset", bad, "--out", tmp_path / "c.csv", check=False)
    assert result.returncode == 2
    assert str(bad) in result.stderr and "params.traction_fast" in result.stderr and "0 … 60 1/s" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_unknown_output_type_is_a_user_error(tmp_path):
    result = cli("curves", "--preset", DEFAULTS, "--out", tmp_path / "c.gif", check=False)
    assert result.returncode == 2 and "use .png, .svg or .csv" in result.stderr


def test_curves_csv_crosses_zero_at_the_top_speed(tmp_path):
    cli("curves", "--preset", DEFAULTS, "--out", tmp_path / "c.csv")
    lines = (tmp_path / "c.csv").read_text().splitlines()
    assert lines[0] == "speed,engine,friction,drag,net"
    rows = [list(map(float, line.split(","))) for line in lines[1:]]
    crossing = next(r[0] for a, r in zip(rows, rows[1:]) if a[4] > 0 >= r[4])
    top = (-55 + math.sqrt(55**2 + 4 * 0.06 * 54000)) / 0.12  # 900 = 55v/60 + 0.06v²/60
    assert abs(crossing - top) < rows[1][0] - rows[0][0] + 1e-9
    for speed, engine, friction, drag, net in rows:
        assert net == pytest.approx(engine + friction + drag)
        assert friction == pytest.approx(-55 * speed / 60)


def test_curves_png_and_svg_are_valid_images(tmp_path):
    cli("curves", "--preset", DEFAULTS, "--out", tmp_path / "c.png")
    cli("curves", "--preset", DEFAULTS, "--out", tmp_path / "c.svg")
    assert (tmp_path / "c.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    root = ET.parse(tmp_path / "c.svg").getroot()
    assert root.tag.endswith("svg")
    # the four curves, drawn point to point: each a polyline or path through the
    # curve's points (CURVE_POINTS = 241 speeds), however the exporter writes thin lines
    shapes = [e for e in root.iter() if e.tag.rsplit("}", 1)[-1] in ("polyline", "path")]
    points = [len(re.findall(r"[-\d.e]+,[-\d.e]+", e.get("points", "") + e.get("d", ""))) for e in shapes]
    assert sum(1 for n in points if n >= 200) >= 4
    texts = " ".join("".join(e.itertext()) for e in root.iter() if e.tag.endswith("text"))
    for legend in ("engine", "friction", "drag", "net", "top 595"):
        assert legend in texts


def test_params_lists_every_declaration():
    text = cli("params", "--json").stdout
    data = json.loads(text)
    assert [p["name"] for p in data["arcade"]] == [p.name for p in arcade.PARAMS]
    for entry in data["arcade"]:
        assert {"name", "unit", "default", "min", "max", "step", "help"} <= set(entry)
    plain = cli("params").stdout
    assert all(p.name in plain for p in arcade.PARAMS)


def test_screenshot_renders_the_window(tmp_path):
    out = tmp_path / "shot.png"
    cli("screenshot", "--preset", BUILTIN_DIR / "drift.json", "--out", out, "--drive", 2, "--size", "1000x700")
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (1000, 700)


def test_screenshot_pictures_the_update_my_script_dialog_and_leaves_the_script(tmp_path):
    script = tmp_path / "my_car.gd"
    original = (Path(__file__).parent / "data" / "godot_scripts" / "typed_godot4_port.gd").read_text()
    script.write_text(original.replace("engine_power: float = 900.0", "engine_power: float = 700.0"))
    before = script.read_bytes()
    out = tmp_path / "dialog.png"
    cli("screenshot", "--preset", DEFAULTS, "--dialog", "update-script", "--script", script, "--out", out)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert script.read_bytes() == before and not (tmp_path / "my_car.gd.bak").exists()
    refused = cli("screenshot", "--preset", DEFAULTS, "--dialog", "update-script", "--out", out, check=False)
    assert refused.returncode == 2 and "--script" in refused.stderr
    analog = Path(__file__).parent / "data" / "preset_format3_drift.json"  # saved before: analog pedals
    other = cli(
        "screenshot",
        "--preset",
        analog,
        "--dialog",
        "update-script",
        "--script",
        script,
        "--out",
        tmp_path / "other.png",
        check=False,
    )  # the script's pedals are on/off
    assert other.returncode == 2 and "analog_pedals" in other.stderr and not (tmp_path / "other.png").exists()


def test_missing_arguments_and_bad_hz_are_usage_errors(tmp_path):
    assert cli("simulate", check=False).returncode == 2
    result = cli("simulate", "--preset", DEFAULTS, "--controls", "x", "--out", "y", "--hz", "0", check=False)
    assert result.returncode == 2 and "tick rate 0 Hz" in result.stderr


def test_bench_measures_and_counts_every_tick(qtbot):
    """Structure and tick counting only: the suite never asserts on timings."""
    from sandbox.devtools import bench, bench_window
    from sandbox.physics.models import arcade, monster

    assert bench.batch_rate(arcade, 10, seconds=0.01, repeats=1) > 0
    assert bench.python_rate(seconds=0.01) > 0
    assert bench.batch_memory_mb(monster, cars=1000, ticks=2) > 1000 * 8 * 5 / 1e6  # at least x, y, heading, vx, vy
    sweep = bench.sweep_seconds(side=3)
    assert sweep["tunings"] == 9 and sweep["ticks"] == 600 and sweep["furthest_x_px"] > 0
    frame = bench_window.frame_costs(seconds=0.5, size=(800, 600), ghosts=2)
    assert frame["physics_ticks"] == frame["frames"] == 30 and frame["frames_not_one_tick"] == 0
    assert 0 < frame["median_ms"] <= frame["p99_ms"] <= frame["max_ms"]
    from sandbox.ui.qt import freeze_pending

    # the freeze it asks for has been done: left pending, the next test's collection
    # would freeze its garbage instead (seen on a loaded machine)
    assert not freeze_pending()
    figures = {
        "machine": "m",
        "date": "d",
        "quick": True,
        "targets": bench.TARGETS,
        "tick_ns": {"arcade": 40.0, "monster": 1500.0},
        "trace_tick_ns": {"arcade": 61.5},
        "batch_car_ticks_per_s": {"arcade": 4e7, "monster": 1e6},
        "python_loop": 1e6,
        "speedup_vs_python": 40.0,
        "scaling": {"arcade": {"10000": 1e7, "1000000": 2.5e7}},
        "memory_100k_mb": {"arcade": 10.0},
        "sweep": sweep,
        "seek_ms": {"arcade": 3.0},
        "metrics_ms": {"arcade": 4.0, "monster": 20.0},
        "frame": frame,
        "startup_s": 1.0,
        "startup_cold_s": 9.0,
        "tune": {"arcade": {"seconds": 3.0, "hit": True, "evaluations": 600}},
        "tune_s": {"arcade": 3.0},
        "sensitivity_ms": {"monster": 200.0},
    }
    text = bench.report(figures)
    assert "arcade          3.00 s  target ≤ 2: NOT MET" in text and "arcade yes (600 tunings)" in text
    assert "monster       200.00 ms  target ≤ 250: met" in text
    assert "arcade         40.00 M  target ≥ 40: met" in text and "monster         1.00 M  target ≥ 8: NOT MET" in text
    assert "arcade         40.00 ns  target ≤ 100: met" in text
    assert "arcade         61.50 ns  reported" in text
    assert "monster      1500.00 ns  target ≤ 1000: NOT MET" in text
    assert "spread 2.50×  target ≤ 2.0×: NOT MET" in text
    assert (
        "arcade          4.00 ms  target ≤ 16: met" in text and "monster        20.00 ms  target ≤ 16: NOT MET" in text
    )
    assert "MISSES" not in text and "meets" not in text  # plain words: "met", "NOT MET"


def test_export_godot_command(tmp_path):
    cli("export-godot", "--preset", BUILTIN_DIR / "ice.json", "--out", tmp_path / "car.gd", "--godot", "3")
    text = (tmp_path / "car.gd").read_text()
    assert "extends KinematicBody2D" in text and "var traction_slow = 2" in text
    assert "Physics Fps to 60" in text
    bad = cli(
        "export-godot", "--preset", BUILTIN_DIR / "ice.json", "--out", tmp_path / "x.gd", "--godot", "5", check=False
    )
    assert bad.returncode == 2


@pytest.mark.parametrize("preset", ["bicycle_blog", "ackermann_van", "rigid_body_road", "monster_corvette_c5"])
def test_export_godot_then_import_godot_for_every_model(preset, tmp_path):
    """A scene and its script out, the script back into a preset with the same tuning."""
    from sandbox.files.presets import load_preset

    out = cli(
        "export-godot",
        "--preset",
        BUILTIN_DIR / f"{preset}.json",
        "--out",
        tmp_path / "car.tscn",
        "--scene",
        "--godot",
        "3",
        "--pixels-per-metre",
        "40",
    ).stdout
    assert "car.tscn" in out and (tmp_path / "car.gd").is_file()
    assert 'path="car.gd"' in (tmp_path / "car.tscn").read_text()
    assert "var pixels_per_metre = 40.0" in (tmp_path / "car.gd").read_text()
    cli("import-godot", tmp_path / "car.gd", "--out", tmp_path / "back.json")
    original, back = load_preset(BUILTIN_DIR / f"{preset}.json"), load_preset(tmp_path / "back.json")
    expected = dict(original.tuning)
    if "godot_engine" in expected:  # a Godot 3 script: its car meets walls as Godot 3's does
        expected["godot_engine"] = 1.0
    assert back.model is original.model and dict(back.tuning) == expected


def test_import_godot_refuses_bad_scripts_and_writes_nothing(tmp_path):
    cli("export-godot", "--preset", BUILTIN_DIR / "bicycle_blog.json", "--out", tmp_path / "car.gd")
    text = (tmp_path / "car.gd").read_text()
    (tmp_path / "edited.gd").write_text(text.replace("var wheel_base: float = 2.5", "var wheel_base: float = 2.5 * 2"))
    bad = cli("import-godot", tmp_path / "edited.gd", "--out", tmp_path / "back.json", check=False)
    assert bad.returncode == 2 and "wheel_base = 2.5 * 2 is not a plain number" in bad.stderr
    assert "Traceback" not in bad.stderr and not (tmp_path / "back.json").exists()
    other = cli(
        "import-godot",
        tmp_path / "car.gd",
        "--out",
        tmp_path / "back.json",
        "--preset",
        BUILTIN_DIR / "drift.json",
        check=False,
    )
    assert other.returncode == 2 and "cannot be read into a tuning of the Arcade" in other.stderr
    scene = cli(
        "export-godot", "--preset", BUILTIN_DIR / "drift.json", "--out", tmp_path / "car.gd", "--scene", check=False
    )
    assert scene.returncode == 2 and "ends in .tscn" in scene.stderr


def test_rates_command_prints_both_modes(tmp_path):
    out = cli("rates", "--preset", DEFAULTS, "--markdown").stdout
    lines = out.strip().splitlines()
    assert lines[0].startswith("| tick rate | mode | top speed (px/s)")
    assert len(lines) == 2 + 2 * 5
    assert "| 30 Hz | recipe | 354.1 |" in out and "| 240 Hz | recipe | 1493.6 |" in out


def test_rates_says_a_car_that_nothing_slows_never_stops(tmp_path):
    """Friction and drag 0: nothing slows a coasting car, so no coast-down distance
    exists (the cut-off run's 2 400 000 px is no figure); full brake still stops it,
    from the speed guard's 20 000 px/s at 450 px/s²: v²/2a = 444 444 px."""
    frictionless = json.loads(DEFAULTS.read_text())
    frictionless["params"].update(friction=0, drag=0)
    (tmp_path / "p.json").write_text(json.dumps(frictionless))
    out = cli("rates", "--preset", tmp_path / "p.json").stdout
    rows = [line.split() for line in out.splitlines() if line.strip().endswith(tuple("0123456789"))]
    assert len(rows) == 10
    for row in rows:
        assert row[-3:-1] == ["never", "stops"]
        assert float(row[-1]) == pytest.approx(20000**2 / (2 * 450), rel=1e-3)
    assert "2400000" not in out


@pytest.mark.parametrize("preset", ["bicycle_blog", "ackermann_notes", "rigid_body_seed", "monster_corvette_c5"])
def test_simulate_and_curves_work_for_every_model(preset, tmp_path):
    trace = write_trace(tmp_path / "t.csv", [(0, 1, 0)] * 60 + [(1, 1, 0)] * 60)
    cli("simulate", "--preset", BUILTIN_DIR / f"{preset}.json", "--controls", trace, "--out", tmp_path / "o.csv")
    rows = np.loadtxt(tmp_path / "o.csv", delimiter=",", skiprows=1)
    assert rows.shape == (120, 8) and np.isfinite(rows).all()
    assert rows[59, 6] > 0 and rows[-1, 3] > 0  # moving, and turned right
    cli("curves", "--preset", BUILTIN_DIR / f"{preset}.json", "--out", tmp_path / "c.csv")
    header = (tmp_path / "c.csv").read_text().splitlines()[0].split(",")
    assert header[0] == "speed" and header[-1] == "net"


def test_rates_refuses_a_model_without_the_option(tmp_path):
    result = cli("rates", "--preset", BUILTIN_DIR / "monster_corvette_c5.json", check=False)
    assert result.returncode == 2 and "no rate_independent option" in result.stderr
    assert "Traceback" not in result.stderr


def test_soak_drives_moves_sliders_and_reports_per_minute(qtbot):
    """One minute's row of the long run, its minute shortened to 10 s: every tick a frame,
    a slider move every second through the widget (each an undo step), no exception."""
    from sandbox.devtools import soak

    result = soak.run(minutes=1, seconds=10)
    assert result["frames"] == 10 * 60 and result["errors"] == []
    # one step per second; the minute's preset is Recipe defaults, which the window
    # starts on, so loading it changes nothing to undo
    assert result["undo_steps"] == 10
    (minute,) = result["minutes"]
    assert minute["model"] == "arcade" and minute["rss_mb"] > 0 and minute["median_ms"] <= minute["p99_ms"]
    assert "exceptions: 0" in soak.report(result)


def test_files_without_permission_are_refused_naming_the_file():
    prefix = as_nobody()
    if prefix is None:
        pytest.skip("needs root and setpriv to run the command as another user")
    with folder_nobody_may_write() as folder:
        secret = folder / "secret.json"
        secret.write_text(DEFAULTS.read_text())
        secret.chmod(0o600)
        trace = write_trace(folder / "trace.csv", [(0, 1, 0)])
        trace.chmod(0o600)
        readable = folder / "open.json"
        readable.write_text(DEFAULTS.read_text())
        readable.chmod(0o644)
        base = prefix + [sys.executable, "-m", "sandbox"]

        def run(*args):
            return subprocess.run(base + list(map(str, args)), capture_output=True, text=True, timeout=120, cwd=folder)

        cases = [
            (run("curves", "--preset", secret, "--out", "/tmp/never.csv"), f"{secret}: permission denied"),
            (
                run("simulate", "--preset", readable, "--controls", trace, "--out", "/tmp/never.csv"),
                f"{trace}: permission denied",
            ),
            (
                run("curves", "--preset", readable, "--out", folder / "curve.csv"),
                f"{folder / 'curve.csv'}: no permission to write in {folder}",
            ),
        ]
        for result, expected in cases:
            assert result.returncode == 2 and expected in result.stderr, result.stderr
            assert "Traceback" not in result.stderr
        assert sorted(p.name for p in folder.iterdir()) == ["open.json", "secret.json", "trace.csv"]  # nothing written


@pytest.mark.parametrize("command", ["bench", "soak"])
def test_bench_and_soak_write_their_figures_to_the_user_cache_folder(command, tmp_path, monkeypatch, capsys):
    """Not into the current folder (where they would sit beside the sources, untracked):
    the user cache folder, created if needed, and stderr says where."""
    import platformdirs

    from sandbox import cli as cli_module
    from sandbox.devtools import bench, soak

    cache = tmp_path / "cache" / "car-sandbox"
    monkeypatch.setattr(platformdirs, "user_cache_dir", lambda *args, **kwargs: str(cache))
    monkeypatch.setattr(bench, "run", lambda quick=False: {"figures": 1})
    monkeypatch.setattr(bench, "report", lambda figures: "the figures")
    monkeypatch.setattr(soak, "run", lambda minutes, on_minute=None: {"minutes": []})
    monkeypatch.setattr(soak, "report", lambda result: "the run")
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    assert cli_module.main([command]) == 0
    written = cache / f"{command}.json"
    assert json.loads(written.read_text())
    assert str(written) in capsys.readouterr().err
    assert list(here.iterdir()) == []
    out = tmp_path / "elsewhere.json"  # --out still chooses
    assert cli_module.main([command, "--out", str(out)]) == 0 and out.is_file()
    ignored = (Path(__file__).parent.parent / ".gitignore").read_text().split()
    assert f"{command}.json" in ignored


@pytest.mark.parametrize("signum, code", [(2, 130), (15, 143)])
def test_a_stopped_command_leaves_no_traceback_and_no_half_written_file(tmp_path, signum, code):
    """Ctrl+C (SIGINT) or SIGTERM while `simulate` writes: exit 128 + the signal, one
    line saying so, and neither the target nor its hidden temporary file left behind."""
    import signal as signals
    import time

    trace = tmp_path / "long.csv"
    trace.write_text("steer,throttle,brake\n" + "0.5,1,0\n" * 1_500_000)
    out = tmp_path / "out.csv"
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "sandbox",
            "simulate",
            "--preset",
            str(DEFAULTS),
            "--controls",
            str(trace),
            "--out",
            str(out),
        ],
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    while not [p for p in tmp_path.iterdir() if p.name.startswith(".out.")] and time.monotonic() < deadline:
        time.sleep(0.05)  # until it has started writing
    assert process.poll() is None, "finished before it could be stopped"
    process.send_signal(signum)
    _, err = process.communicate(timeout=120)
    assert process.returncode == code
    assert "Traceback" not in err and f"stopped ({signals.Signals(signum).name})" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["long.csv"]


def test_a_fifth_ghost_is_refused_not_dropped(tmp_path):
    ghosts = [arg for _ in range(5) for arg in ("--ghost", str(BUILTIN_DIR / "ice.json"))]
    result = cli("screenshot", "--preset", DEFAULTS, *ghosts, "--out", tmp_path / "s.png", check=False)
    assert result.returncode == 2 and "--ghost given 5 times" in result.stderr and not (tmp_path / "s.png").exists()
