"""Control trace files that are not traces: each refused with a message naming the
file and the problem, quickly, and (from the command line) exit code 2."""

import subprocess
import sys

import numpy as np
import pytest

from sandbox.errors import TraceError
from sandbox.files.presets import BUILTIN_DIR
from sandbox.files.traces import TRACE_LIMIT, load_trace, load_trace_and_device, save_trace


def _write(path, data):
    path.write_bytes(data)
    return path


@pytest.mark.parametrize(
    "name, make, expected",
    [
        ("garbage.csv", lambda p: _write(p, bytes(range(256)) * 4), "not UTF-8 text"),
        ("utf16.csv", lambda p: _write(p, "steer,throttle,brake\n0,1,0\n".encode("utf-16")), "not UTF-8 text"),
        ("truncated.csv", lambda p: _write(p, b"steer,throttle,brake\n0,1,0\n0,1"), "line 3: 2 values, expected 3"),
        (
            "words.csv",
            lambda p: _write(p, b"steer,throttle,brake\nleft,full,none\n"),
            "line 2: steer 'left' is not a number",
        ),
        (
            "huge_number.csv",
            lambda p: _write(p, b"steer,throttle,brake\n0,1e308,0\n"),
            "line 2: throttle 1e308 is outside 0",
        ),
        ("empty.csv", lambda p: _write(p, b""), "empty file"),
        ("folder.csv", lambda p: p.mkdir() or p, "is a directory"),
    ],
)
def test_a_file_that_is_not_a_trace_is_refused_naming_it(tmp_path, name, make, expected):
    path = make(tmp_path / name)
    with pytest.raises(TraceError, match=expected) as caught:
        load_trace(path)
    assert str(path) in str(caught.value)


def test_a_100_mb_trace_is_refused_unread(tmp_path):
    path = tmp_path / "big.csv"
    with open(path, "wb") as f:
        f.truncate(100 * 1024 * 1024)  # sparse: 100 MB on paper, nothing written
    assert TRACE_LIMIT < 100 * 1024 * 1024
    with pytest.raises(TraceError, match="too large"):
        load_trace(path)
    out = tmp_path / "out.csv"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "sandbox",
            "simulate",
            "--preset",
            str(BUILTIN_DIR / "recipe_defaults.json"),
            "--controls",
            str(path),
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2 and f"{path}: file is larger than" in result.stderr
    assert "Traceback" not in result.stderr and not out.exists()


def test_a_trace_read_in_chunks_is_the_whole_trace(tmp_path):
    """`simulate` reads, simulates and writes a chunk at a time: the chunks join into
    exactly the rows of reading the file at once, and a bad line is named wherever it is."""
    from sandbox.files.traces import load_trace, trace_chunks

    rng = np.random.default_rng(3)
    rows = np.column_stack([rng.uniform(-1, 1, 2500), rng.uniform(0, 1, 2500), rng.uniform(0, 1, 2500)])
    path = tmp_path / "t.csv"
    path.write_text("steer,throttle,brake\n" + "".join(f"{a!r},{b!r},{c!r}\n" for a, b, c in rows.tolist()))
    chunks = list(trace_chunks(path, rows_per_chunk=700))
    assert [len(c) for c, _ in chunks] == [700, 700, 700, 400] and chunks[-1][1] == 1.0
    assert np.array_equal(np.concatenate([c for c, _ in chunks]), load_trace(path))
    lines = path.read_text().splitlines()
    lines[1801] = "0,2,0"  # file line 1802, inside the third chunk
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(TraceError, match="line 1802: throttle 2 is outside 0 … 1"):
        list(trace_chunks(path, rows_per_chunk=700))


def test_simulate_in_chunks_is_bit_identical_to_one_run(tmp_path):
    from sandbox.physics.models import monster
    from sandbox.physics.sim import run_trace, trace_trajectory

    rng = np.random.default_rng(4)
    trace = np.column_stack([rng.uniform(-1, 1, 3000), rng.integers(0, 2, 3000), rng.integers(0, 2, 3000)])
    whole = run_trace(monster, {}, trace, 60)
    parts = np.concatenate(list(trace_trajectory(monster, {}, iter(np.array_split(trace, 7)), 60)))
    assert np.array_equal(whole, parts)


def test_the_window_refuses_a_trace_longer_than_it_replays(tmp_path):
    from sandbox.files.traces import load_trace

    path = tmp_path / "long.csv"
    path.write_text("steer,throttle,brake\n" + "0,1,0\n" * 1001)
    with pytest.raises(TraceError, match="1,001 ticks is more than the 1,000 the window replays"):
        load_trace(path, max_rows=1000)
    assert len(load_trace(path)) == 1001


def test_long_work_reports_progress_on_stderr_only(tmp_path, capsys, monkeypatch):
    """Past Progress.SHOW_AFTER_S (set to 0 here) `simulate` and `sweep` say how far
    they are on stderr; stdout, which may be piped into a file, gets nothing extra."""
    from sandbox import cli

    monkeypatch.setattr(cli.Progress, "SHOW_AFTER_S", 0.0)
    monkeypatch.setattr(cli.Progress, "wanted", staticmethod(lambda: True))  # as on a terminal
    trace = tmp_path / "t.csv"
    trace.write_text("steer,throttle,brake\n" + "0,1,0\n" * 300_000)
    assert (
        cli.main(
            [
                "simulate",
                "--preset",
                str(BUILTIN_DIR / "recipe_defaults.json"),
                "--controls",
                str(trace),
                "--out",
                str(tmp_path / "o.csv"),
            ]
        )
        == 0
    )
    out, err = capsys.readouterr()
    assert out == "" and "simulating:" in err and "done in" in err
    assert (
        cli.main(
            [
                "sweep",
                "--preset",
                str(BUILTIN_DIR / "recipe_defaults.json"),
                "--param",
                "drag=-0.5:-0.01:600",
                "--metric",
                "top_speed",
                "--out",
                str(tmp_path / "s.csv"),
            ]
        )
        == 0
    )
    out, err = capsys.readouterr()
    assert "sweeping:" in err and "sweeping" not in out


def test_a_command_without_its_own_progress_says_it_is_still_working(capsys, monkeypatch):
    """Past two seconds (0 here) any command says on stderr that it is still working;
    stdout carries only its result."""
    from sandbox import cli

    monkeypatch.setattr(cli.Progress, "SHOW_AFTER_S", 0.01)
    monkeypatch.setattr(cli.Progress, "wanted", staticmethod(lambda: True))  # as on a terminal
    monkeypatch.setattr(cli.Watchdog, "EVERY_S", 0.01)
    assert cli.main(["metrics", "--preset", str(BUILTIN_DIR / "monster_corvette_c5.json"), "--hz", "1000"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("Corvette C5") and "still working" not in out
    assert "car-sandbox metrics: still working" in err


def test_no_progress_line_reaches_a_stderr_that_is_not_a_terminal(capsys, monkeypatch):
    """A script reading a command's errors (stderr a pipe or a file) gets only those:
    progress and 'still working' lines are for a terminal."""
    from sandbox import cli

    monkeypatch.setattr(cli.Progress, "SHOW_AFTER_S", 0.0)
    monkeypatch.setattr(cli.Watchdog, "EVERY_S", 0.01)
    assert cli.main(["metrics", "--preset", str(BUILTIN_DIR / "monster_corvette_c5.json"), "--hz", "1000"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("Corvette C5") and err == ""


def test_a_controllers_raw_values_are_kept_only_when_they_differ_from_the_controls(tmp_path):
    rows = np.array([[0.5, 1.0, 0.0, 0.0, 0.0]] * 3)
    keys = tmp_path / "keys.csv"
    save_trace(keys, rows, device=rows[:, :3])  # a keyboard: its raw values are its controls
    assert keys.read_text().splitlines()[0] == "steer,throttle,brake"
    assert load_trace_and_device(keys)[1] is None
    pad = tmp_path / "pad.csv"
    device = np.array([[0.75, 1.0, 0.0], [np.nan, np.nan, np.nan], [0.75, 1.0, 0.25]])  # a tick unknown
    save_trace(pad, rows, device=device)
    assert pad.read_text().splitlines()[0] == "steer,throttle,brake,steer_device,throttle_device,brake_device"
    controls, kept = load_trace_and_device(pad)
    assert np.array_equal(controls, rows) and np.array_equal(load_trace(pad), rows)
    assert np.array_equal(kept, [[0.75, 1.0, 0.0], [0.5, 1.0, 0.0], [0.75, 1.0, 0.25]])  # unknown: the control's
    pad.write_text(pad.read_text().replace("0.75", "1.5", 1))
    with pytest.raises(TraceError, match="line 2"):
        load_trace(pad)  # out of range, as a control would be
