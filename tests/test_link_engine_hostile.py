"""Datagrams made to harm the game, sent to the link node in the real engine (Godot 3,
headless): the node refuses them before reading them as JSON, and the game keeps
ticking. Godot 3's JSON parser recurses once per bracket without a limit: 30 000
nested arrays in one datagram crashed the game (SIGSEGV) when the node parsed every
datagram it got."""

from __future__ import annotations

import json

import pytest

from link_engine_end import TOKEN, arcade_scene, drive, sandbox_end  # noqa: F401
from link_peer import wait_until
from sandbox.devtools.link_game import start_link_game
from sandbox.devtools.oracle import godot_binary
from sandbox.files.godot_link import export_link_node

pytestmark = pytest.mark.skipif(godot_binary() is None, reason="godot3-server is not installed")

DEEP = 30_000
"""Levels of the array bomb: 60 000 bytes, within a UDP datagram."""
WARNING = "car-sandbox link: a message"
"""The start of the node's warning on a message it drops."""
OBJECTS = 10_000
"""Levels of the object bomb (`{"a":` each): 60 000 bytes and more."""


def bombs(token: str | None) -> dict[str, bytes]:
    """Deeply nested datagrams by name: with `token`, as members of a message that has it."""
    array = b"[" * DEEP + b"]" * DEEP
    objects = b'{"a":' * OBJECTS + b"1" + b"}" * OBJECTS
    if token is None:
        return {"array": array, "object": objects}
    head = json.dumps({"v": 1, "type": "set", "token": token, "seq": 1})[:-1].encode()
    return {
        "array with the token": head + b',"params":' + array + b"}",
        "object with the token": head + b',"params":' + objects + b"}",
    }


def refused(sandbox, game, data: bytes) -> None:
    """Send `data` and wait for the node's warning that it dropped it (or for the game's end)."""
    before = game.log().count(WARNING)
    sandbox.send_raw(data)
    wait_until(lambda: game.log().count(WARNING) > before or not game.running(), "the node's warning")


def still_ticking(sandbox, game) -> None:
    """The game runs on: telemetry goes on a second past now and a ping is answered."""
    now = max(sandbox.telemetry, default=0)
    sandbox.until(lambda m: m["type"] == "telemetry" and m["tick"] > now + 60)
    sandbox.send("ping", seq=99)
    assert sandbox.until(lambda m: m["type"] == "pong")["seq"] == 99
    assert game.running()


@pytest.mark.parametrize("welcomed", (False, True), ids=("before welcome", "after welcome"))
def test_deeply_nested_datagrams_are_refused_unread_and_the_game_runs_on(sandbox, welcomed):
    scene, preset = arcade_scene()
    node = export_link_node(preset.model, 3, tuning=preset.tuning)
    sent = {**bombs(None), **bombs(TOKEN)}
    assert all(len(data) <= 65_507 for data in sent.values())  # each one datagram
    with start_link_game(node, sandbox.port, drive(3600), TOKEN, scene=scene, fixed_fps=False, timeout=60) as game:
        if welcomed:
            sandbox.welcome()
            sandbox.until(lambda m: m["type"] == "telemetry")
        else:
            sandbox.until(lambda m: m["type"] == "hello")
        for data in sent.values():  # one by one: the engine's buffer holds one such datagram
            refused(sandbox, game, data)
        if not welcomed:
            sandbox.until(lambda m: m["type"] == "hello")  # the game still says hello
            sandbox.send("welcome", sandbox="test")
        still_ticking(sandbox, game)
        game.stop()
    log = game.log()
    assert log.count("nest deeper than 2 brackets was dropped unread") == 2, log[-2000:]  # the two with the token
    assert "with another token" in log  # the two without


BAD_SEQS = ("7", 1.5, -1, 2**53, 2**53 + 2, 1e19, 1e300, True, None)
"""Not a whole number 0 … 2^53 - 1: text, a fraction, negative, too large to be one
whole number (Godot's int() of 1e19 is -9223372036854775808), true, null."""


def test_a_seq_that_is_not_a_whole_number_in_range_is_refused(sandbox):
    scene, preset = arcade_scene()
    node = export_link_node(preset.model, 3, tuning=preset.tuning)
    with start_link_game(node, sandbox.port, drive(3600), TOKEN, scene=scene, fixed_fps=False, timeout=60) as game:
        old = sandbox.welcome()["params"]
        sandbox.until(lambda m: m["type"] == "telemetry")
        for seq in BAD_SEQS:
            sandbox.send("ping", seq=seq)
            sandbox.send("get", seq=seq)
            sandbox.send("set", seq=seq, params={"engine_power": 950})
        sandbox.send("ping", seq=2**53 - 1)  # the largest: answered with it exactly
        pong = sandbox.until(lambda m: m["type"] == "pong")
        sandbox.send("get", seq=5)
        values = sandbox.until(lambda m: m["type"] == "values")
        game.stop()
    assert pong["seq"] == 2**53 - 1
    answers = [m for m in sandbox.messages if m["type"] in ("pong", "values", "ack")]
    assert [m["seq"] for m in answers] == [2**53 - 1, 5]  # none to a bad seq
    assert values["params"] == old  # no set was applied
    assert "message without a seq (a whole number 0 … 9007199254740991) was dropped" in game.log()


def test_brackets_and_a_token_inside_a_string_are_only_text(sandbox):
    """Brackets in a string do not count as nesting (nor after an escaped quote); the
    token quoted inside a string is not the message's token."""
    scene, preset = arcade_scene()
    node = export_link_node(preset.model, 3, tuning=preset.tuning)
    with start_link_game(node, sandbox.port, drive(3600), TOKEN, scene=scene, fixed_fps=False, timeout=60) as game:
        sandbox.welcome()
        sandbox.until(lambda m: m["type"] == "telemetry")
        sandbox.send("ping", seq=8, note='[[[{{{ \\" [[[ \\\\')
        assert sandbox.until(lambda m: m["type"] == "pong")["seq"] == 8
        quoted = {"v": 1, "type": "ping", "token": "another", "seq": 9, "note": f'"token":"{TOKEN}"', "x": [[[1]]]}
        refused(sandbox, game, json.dumps(quoted, separators=(",", ":")).encode())
        assert "nested deeper" not in game.log()
        sandbox.send("ping", seq=10, x=[[1]])  # a third bracket, outside strings
        sandbox.send("ping", seq=11, note="[[[", x=[1])
        sandbox.until(lambda m: m["type"] == "pong" and m["seq"] == 11)
        game.stop()
    assert [m["seq"] for m in sandbox.messages if m["type"] == "pong"] == [8, 11]
    log = game.log()
    assert "with another token" in log and "nested deeper than 2 brackets was dropped unread" in log
