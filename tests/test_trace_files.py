"""Control trace files that are not traces: each refused with a message naming the
file and the problem, quickly, and (from the command line) exit code 2."""

import subprocess
import sys

import pytest

from sandbox.files.traces import TRACE_LIMIT, load_trace
from sandbox.errors import TraceError
from sandbox.files.presets import BUILTIN_DIR


def _write(path, data):
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("name, make, expected", [
    ("garbage.csv", lambda p: _write(p, bytes(range(256)) * 4), "not UTF-8 text"),
    ("utf16.csv", lambda p: _write(p, "steer,throttle,brake\n0,1,0\n".encode("utf-16")), "not UTF-8 text"),
    ("truncated.csv", lambda p: _write(p, b"steer,throttle,brake\n0,1,0\n0,1"), "line 3: 2 values, expected 3"),
    ("words.csv", lambda p: _write(p, b"steer,throttle,brake\nleft,full,none\n"), "line 2: steer 'left' is not a number"),
    ("huge_number.csv", lambda p: _write(p, b"steer,throttle,brake\n0,1e308,0\n"), "line 2: throttle 1e308 is outside 0"),
    ("empty.csv", lambda p: _write(p, b""), "empty file"),
    ("folder.csv", lambda p: p.mkdir() or p, "is a directory"),
])
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
    result = subprocess.run([sys.executable, "-m", "sandbox", "simulate", "--preset",
                             str(BUILTIN_DIR / "recipe_defaults.json"), "--controls", str(path), "--out", str(out)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and f"{path}: file is larger than" in result.stderr
    assert "Traceback" not in result.stderr and not out.exists()
