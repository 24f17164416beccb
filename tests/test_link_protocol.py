"""The link's messages as docs/link.md writes them: each example there decodes, and
every way a datagram can break the protocol is refused with the reason it is counted
under."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

from sandbox.link.protocol import (
    FROM_GAME,
    FROM_SANDBOX,
    MAX_BYTES,
    VERSION,
    ProtocolError,
    check_token,
    decode,
    encode,
    new_token,
)

TOKEN = "0123abcd"
DOCS = Path(__file__).resolve().parent.parent / "docs" / "link.md"

TELEMETRY = {
    "type": "telemetry",
    "token": TOKEN,
    "tick": 120,
    "t": 2.0,
    "x": 10.5,
    "y": -3.0,
    "heading": 0.25,
    "vx": 100.0,
    "vy": 0.0,
    "controls": {"steer": 0, "throttle": 1, "brake": 0, "handbrake": 0, "shift": 0},
    "state": {"omega": 0.5},
    "applied": 7,
    "cost_us": 18,
}


def raw(message: dict) -> bytes:
    return json.dumps({"v": VERSION, **message}).encode()


def reason_of(data: bytes) -> str:
    with pytest.raises(ProtocolError) as caught:
        decode(data, TOKEN)
    return caught.value.reason


def test_every_example_in_the_docs_decodes_with_its_type():
    """The examples of docs/link.md (with "…" filled in) are messages the code takes."""
    text = DOCS.read_text(encoding="utf-8")
    examples = re.findall(r"`(\{\"v\":2,\"type\":\"\w+\".*?\})`", text)
    kinds = set()
    for example in examples:
        filled = example.replace("{…}", '{"mu":1.5}').replace(",…", "").replace("…", "1.5")
        filled = filled.replace('"token":T', f'"token":"{TOKEN}"')
        message = decode(filled.encode(), TOKEN)
        kinds.add(message["type"])
    assert kinds == set(FROM_GAME + FROM_SANDBOX) - {"bye"}  # bye has no example: it has no fields


def test_a_message_goes_through_encode_and_decode_unchanged():
    message = decode(encode(TELEMETRY), TOKEN)
    assert message["tick"] == 120 and isinstance(message["tick"], int)
    assert message["controls"]["throttle"] == 1.0
    assert message["state"] == {"omega": 0.5}
    assert message["v"] == VERSION


def test_godots_floats_for_whole_numbers_are_taken():
    """Godot's JSON has only floats: tick 120.0 is tick 120."""
    message = decode(raw({**TELEMETRY, "tick": 120.0, "applied": 7.0}), TOKEN)
    assert message["tick"] == 120 and message["applied"] == 7


def test_the_token_holds_64_random_bits_and_differs_each_time():
    tokens = {new_token() for _ in range(20)}
    assert len(tokens) == 20
    assert all(re.fullmatch(r"[0-9a-f]{16}", token) for token in tokens)  # 16 hex digits: 64 bits
    assert check_token(new_token())  # one the sandbox makes is one the user may give back


@pytest.mark.parametrize(
    "data, reason",
    [
        (b"x" * (MAX_BYTES + 1), "oversized"),
        (b"garbage \x00\xff", "not JSON"),
        (b'{"v":1,', "not JSON"),
        (b"[" * 30_000 + b"]" * 30_000, "not JSON"),  # deeper than the parser goes
        (b"[1,2]", "not an object"),
        (json.dumps({**TELEMETRY, "v": 3}).encode(), "version"),
        (json.dumps(TELEMETRY).encode(), "version"),  # no version at all
        (raw({**TELEMETRY, "token": "ffffffff"}), "token"),
        (raw({k: v for k, v in TELEMETRY.items() if k != "token"}), "token"),
        (raw({**TELEMETRY, "type": "shutdown"}), "unknown type"),
        (raw({**TELEMETRY, "x": math.nan}), "bad field"),
        (raw({**TELEMETRY, "y": math.inf}), "bad field"),
        (raw({**TELEMETRY, "x": "3"}), "bad field"),
        (raw({**TELEMETRY, "x": True}), "bad field"),
        (raw({**TELEMETRY, "tick": 1.5}), "bad field"),
        (raw({**TELEMETRY, "tick": -1}), "bad field"),
        (raw({**TELEMETRY, "controls": {"steer": 0}}), "bad field"),
        (raw({**TELEMETRY, "state": {"omega": "fast"}}), "bad field"),
        (raw({"type": "set", "token": TOKEN, "seq": 1, "params": {"drag": math.nan}}), "bad field"),
        (raw({"type": "ack", "token": TOKEN, "seq": 1, "tick": 3, "applied": {}, "refused": {"drag": 5}}), "bad field"),
        (raw({"type": "hello", "token": TOKEN, "game": "g", "godot": "3", "model": "", "format": None,
              "hz": 0, "units": "px", "params": {}, "missing": []}), "bad field"),
        (raw(TELEMETRY).replace(b'"x": 10.5', b'"x": ' + b"7" * 400), "bad field"),  # beyond a double
        (raw(TELEMETRY).replace(b'"tick": 120', b'"tick": ' + b"1" * 309), "bad field"),
        (raw({**TELEMETRY, "tick": 2**53 + 2}), "bad field"),  # a whole number no double holds exactly
        (raw({**TELEMETRY, "state": {f"v{k}": 1 for k in range(65)}}), "bad field"),  # too many entries
        (raw({**TELEMETRY, "state": {f"v{k}": 1 for k in range(3000)}}), "oversized"),  # over a telemetry's bytes
    ],
)  # fmt: skip
def test_a_broken_datagram_is_refused_with_its_reason(data, reason):
    assert reason_of(data) == reason


def test_a_bad_field_is_named():
    with pytest.raises(ProtocolError, match=r"telemetry\.x is not a finite number"):
        decode(raw({**TELEMETRY, "x": math.nan}), TOKEN)
    with pytest.raises(ProtocolError, match=r"telemetry\.controls\.brake is missing"):
        decode(raw({**TELEMETRY, "controls": {"steer": 0, "throttle": 1}}), TOKEN)


@pytest.mark.parametrize("hz", [9.5, 1001, 100_000, 1e300])
def test_a_tick_rate_the_sandbox_does_not_take_is_refused_naming_it(hz):
    hello = {"type": "hello", "token": TOKEN, "game": "g", "godot": "3", "model": "", "format": None, "hz": hz}
    hello.update(units="px", params={}, missing=[])
    with pytest.raises(ProtocolError, match=r"hello\.hz .* is not a tick rate the sandbox takes \(10 … 1000 Hz\)"):
        decode(raw(hello), TOKEN)
    assert decode(raw({**hello, "hz": 1000}), TOKEN)["hz"] == 1000.0


def test_a_number_beyond_a_double_is_named():
    with pytest.raises(ProtocolError, match=r"telemetry\.x is too large for a number"):
        decode(raw(TELEMETRY).replace(b'"x": 10.5', b'"x": -' + b"7" * 400), TOKEN)


def test_options_are_true_or_false_and_other_values_numbers():
    message = decode(raw({"type": "values", "token": TOKEN, "seq": 3, "params": {"abs": True, "mu": 1}}), TOKEN)
    assert message["params"] == {"abs": True, "mu": 1.0}


def test_encode_refuses_what_decode_would():
    with pytest.raises(ValueError):
        encode({"type": "set", "token": TOKEN, "seq": 1, "params": {"drag": math.nan}})
    with pytest.raises(ValueError):
        encode({"type": "nonsense", "token": TOKEN})
    with pytest.raises(ValueError, match="oversized"):
        encode({"type": "set", "token": TOKEN, "seq": 1, "params": {f"p{i}": 1.0 for i in range(10_000)}})


def test_a_datagram_at_the_limit_is_taken():
    message = {"type": "hello", "token": TOKEN, "godot": "3.2.3", "model": "", "format": None, "hz": 60}
    message.update(units="px", params={}, missing=[], game="")
    filler = MAX_BYTES - len(encode(message))
    data = encode({**message, "game": "g" * filler})
    assert len(data) == MAX_BYTES
    assert decode(data, TOKEN)["game"] == "g" * filler


def test_a_value_the_game_cannot_give_is_null_and_left_out():
    """docs/link.md: null stands for a number the game cannot give; in params and state
    it is left out (true/false in the state is 1/0), in the pose it drops the message."""
    state = {"omega": 0.5, "drifting": True, "rpm": None}
    assert decode(raw({**TELEMETRY, "state": state}), TOKEN)["state"] == {"omega": 0.5, "drifting": 1.0}
    values = decode(raw({"type": "values", "token": TOKEN, "seq": 1, "params": {"mu": None, "abs": False}}), TOKEN)
    assert values["params"] == {"abs": False}
    assert reason_of(raw({**TELEMETRY, "x": None})) == "bad field"
