"""A recording keeps the switches the game's hello stated, as a comment line above its
header: the recorder writes it, the recording and the trace loaders read it (or skip
it), a bad one is refused by its line, and a recording written before has none."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sandbox.errors import TraceError
from sandbox.files.recordings import load_recording
from sandbox.files.traces import load_trace, parse_trace, trace_chunks
from sandbox.link.game import GameInfo, Telemetry
from sandbox.link.recorder import write_recording

OLD = Path(__file__).parent / "data" / "recordings" / "game_arcade.csv"


def hello(**extra) -> dict:
    message = {"game": "g", "godot": "3.2.3", "model": "arcade", "format": 4, "hz": 60.0, "units": "px",
               "params": {}, "missing": []}  # fmt: skip
    return {**message, **extra}


def telemetry(tick: int) -> Telemetry:
    return Telemetry(tick=tick, t=tick / 60, x=float(tick), y=0.0, heading=0.0, vx=60.0, vy=0.0,
                     controls=(0.0, 0.5, 0.0, 0.0, 0.0), state={}, applied=0, cost_us=1.0, received=0.0)  # fmt: skip


def test_a_recording_written_before_switches_loads_as_before_stating_none():
    recording = load_recording(OLD)
    assert recording.switches == {} and recording.hz == 60 and len(recording) == 1799
    assert len(load_trace(OLD)) == 1799


def test_the_games_switches_go_from_its_hello_into_the_recording_and_back(tmp_path):
    game = GameInfo.of(hello(switches={"analog_pedals": True, "recipe_2020": False}), ("127.0.0.1", 1))
    assert game.switches == {"analog_pedals": True, "recipe_2020": False} and game.switches_ignored == 0
    path = tmp_path / "drive.csv"
    write_recording(path, [telemetry(k) for k in range(180)], 0, 60.0, switches=game.switches)
    text = path.read_text()
    assert text.splitlines()[0] == "# switches: analog_pedals=1 recipe_2020=0"
    assert load_recording(path).switches == {"analog_pedals": True, "recipe_2020": False}
    # taken wherever a trace is: whole, and a chunk at a time
    trace = load_trace(path)
    assert trace.shape == (180, 5) and np.all(trace[:, 1] == 0.5)
    chunks = np.vstack([rows for rows, _ in trace_chunks(path, rows_per_chunk=50)])
    assert np.array_equal(chunks, trace)


@pytest.mark.parametrize(
    "given, kept, ignored",
    [
        ({"analog_pedals": 1, "recipe_2020": True}, {"recipe_2020": True}, 1),  # a number is no true/false
        ({"grip_load": True, "nonsense": False}, {}, 2),  # another model's option, no option at all
        (["analog_pedals"], {}, 1),
        ("analog_pedals=1", {}, 1),
        (None, {}, 0),
        ({"analog_pedals": None, "rate_independent": "true"}, {}, 2),
    ],
)
def test_a_hello_keeps_only_the_models_own_switches_and_counts_the_rest(given, kept, ignored):
    game = GameInfo.of(hello(switches=given), ("127.0.0.1", 1))
    assert game.switches == kept and game.switches_ignored == ignored


def test_a_hello_of_a_model_the_sandbox_does_not_know_keeps_no_switch():
    game = GameInfo.of(hello(model="hovercraft", switches={"analog_pedals": True}), ("127.0.0.1", 1))
    assert game.switches == {} and game.switches_ignored == 1


HEADER = "steer,throttle,brake,t,x,y,heading\n"
ROWS = "".join(f"0,1,0,{k / 60!r},{k!r},0,0\n" for k in range(180))


@pytest.mark.parametrize(
    "comment, expected",
    [
        ("# made on Tuesday\n", "line 1: '# made on Tuesday' is no comment a recording holds"),
        ("# switches: analog_pedals=yes\n", "line 1: 'analog_pedals=yes' is not NAME=1 or NAME=0"),
        ("# switches: warp_drive=1\n", "line 1: 'warp_drive' is not an on/off option of any model"),
        ("# switches: abs=1\n# switches: abs=0\n", "line 2: switch abs is given twice"),
    ],
)
def test_a_bad_comment_line_is_refused_naming_it_as_a_recording_and_as_a_trace(tmp_path, comment, expected):
    path = tmp_path / "bad.csv"
    path.write_text(comment + HEADER + ROWS)
    for load in (load_recording, load_trace, lambda p: list(trace_chunks(p))):
        with pytest.raises(TraceError, match=expected):
            load(path)


def test_after_comment_lines_a_bad_row_is_named_by_its_own_line(tmp_path):
    text = "# switches: abs=1\n" + HEADER + ROWS.replace("0,1,0,0.05,3,0,0", "0,1,x,0.05,3,0,0")
    with pytest.raises(TraceError, match="line 6: brake 'x' is not a number"):
        parse_trace(text)
    path = tmp_path / "rows.csv"
    path.write_text(text)
    with pytest.raises(TraceError, match="line 6: brake 'x' is not a number"):
        load_recording(path)
