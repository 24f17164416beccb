"""The sandbox's end of the link against a peer that plays the game by the protocol
(tests/link_peer.py): everything on 127.0.0.1, on ports the system chooses, every
socket closed and every thread stopped after each test."""

from __future__ import annotations

import csv
import math
import socket
import threading
from dataclasses import replace

import pytest

import sandbox.link.server as server_module
from link_peer import Peer, wait_until
from sandbox.files.recordings import load_recording
from sandbox.link.game import change_text, from_game, names_from_game
from sandbox.link.protocol import CONTROLS, MAX_BYTES, LinkError, encode
from sandbox.link.server import LinkServer

TOKEN = "5eed0123abcdef45"


@pytest.fixture
def linked(server, peer):
    """A server with the peer's hello taken."""
    peer.hello()
    assert server.wait_for_game(20) is not None
    return server


def taken(server: LinkServer, count: int) -> list:
    """Wait until `count` telemetries arrived; returns them."""
    got: list = []
    wait_until(lambda: got.extend(server.take()) or len(got) >= count, f"{count} telemetry")
    return got


def test_a_hello_with_the_token_is_welcomed_and_describes_the_game(server, peer):
    peer.hello()
    game = server.wait_for_game(20)
    assert (game.game, game.godot, game.model, game.format, game.hz, game.units) == (
        "Test Game", "3.2.3", "arcade", 3, 60.0, "px"
    )  # fmt: skip
    assert game.params == {"engine_power": 800.0, "drag": -0.001} and game.missing == ("slip_speed",)
    assert game.address == peer.sock.getsockname()
    welcome = peer.wait_for("welcome")[0]
    assert welcome["token"] == TOKEN and welcome["sandbox"]
    status = server.status()
    assert status.listening and status.address == ("127.0.0.1", server.port) and status.token == TOKEN
    assert status.values == game.params and status.received >= 1  # the hello (and maybe a pong)


def test_a_hello_with_another_token_is_ignored_and_counted(server, peer):
    peer.token = "ffffffff"
    peer.hello()
    peer.token = TOKEN
    peer.hello(game="The Real Game")
    assert server.wait_for_game(20).game == "The Real Game"
    assert server.status().dropped == {"token": 1}
    assert len(peer.wait_for("welcome")) == 1


def test_bad_datagrams_are_counted_by_reason_and_the_game_still_served(linked, peer):
    bad = [
        (b"\x00\xffgarbage", "not JSON"),
        (b"[1, 2, 3]", "not an object"),
        (peer.raw({"type": "telemetry", "tick": 1}) .replace(b'"v": 2', b'"v": 3'), "version"),
        (peer.raw({"type": "reboot"}), "unknown type"),
        (peer.raw({"type": "pong", "seq": math.nan}), "bad field"),
        (peer.raw({"type": "ack", "seq": 1, "tick": 1, "applied": {"drag": math.inf}, "refused": {}}), "bad field"),
        (peer.raw({"type": "set", "seq": 1, "params": {}}), "unexpected type"),  # the sandbox's own message
    ]  # fmt: skip
    for data, _ in bad:
        peer.send_raw(data)
    peer.send_raw(b"{" * 65507)  # the largest datagram UDP carries: not JSON either
    tick = peer.telemetry()
    assert [t.tick for t in taken(linked, 1)] == [tick]
    expected: dict[str, int] = {}
    for _, reason in bad + [(b"", "not JSON")]:
        expected[reason] = expected.get(reason, 0) + 1
    assert linked.status().dropped == expected
    assert linked.status().values["engine_power"] == 800.0  # the NaN and inf changed nothing


def test_a_datagram_over_64_kb_cannot_reach_the_link_and_the_limit_is_checked_where_it_could():
    """No 1 MB datagram reaches the link at all: the system refuses to send UDP over
    65 507 bytes on IPv4. The link's own limit (65 536) is checked on whatever is read."""
    sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        with pytest.raises(OSError):
            sender.sendto(b"x" * 1_000_000, ("127.0.0.1", 9))
    finally:
        sender.close()
    assert MAX_BYTES == 65536


def test_a_flood_does_not_stall_the_caller_and_the_game_gets_through_afterwards(linked, peer):
    """100 000 datagrams from a peer thread, as fast as it can send them (about a
    second), while this thread keeps polling like the window's frame loop."""
    flood_done = threading.Event()
    sent = [0]

    def flood() -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        garbage, wrong_token = b"not json at all", peer.raw({"type": "pong", "seq": 1}).replace(TOKEN.encode(), b"x")
        try:
            for i in range(100_000):
                try:
                    sock.sendto(garbage if i % 2 else wrong_token, ("127.0.0.1", linked.port))
                    sent[0] += 1
                except OSError:  # the system's buffer full: the flood goes on
                    pass
        finally:
            sock.close()
            flood_done.set()

    flooder = threading.Thread(target=flood, name="flood")
    flooder.start()
    polls, counts = 0, []
    while not flood_done.is_set():
        linked.take()
        counts.append(sum(linked.status().dropped.values()))
        polls += 1
    flooder.join()
    assert polls > 0 and sent[0] > 0
    assert counts == sorted(counts)  # the count only grows
    # the game after the flood, a tick at a time as a game sends them (a datagram sent while
    # the system's buffer was still full of the flood is lost before the link sees it)
    got = wait_until(lambda: peer.telemetry() and linked.take(), "the game's telemetry after the flood")
    assert got[-1].x == 2.0 * got[-1].tick
    # the system's count of what it dropped comes with a later datagram: the game's answer
    # to a get, sent after all of it
    wait_until(lambda: linked.request_values(1.0) is not None, "the game's answer to a get")
    dropped = linked.status().dropped
    assert set(dropped) <= {"not JSON", "token", "flood", "system buffer full"} and sum(dropped.values()) > 0
    # every datagram of the flood is counted once: by the link, or by the system whose buffer
    # it found full (the game's telemetry sent while the buffer was still full may add to that)
    assert sent[0] <= sum(dropped.values()) <= sent[0] + got[-1].tick


def test_telemetry_arrives_in_order_with_the_controls_and_state(linked, peer):
    for _ in range(5):
        peer.telemetry()
    got = taken(linked, 5)
    assert [t.tick for t in got] == [1, 2, 3, 4, 5]
    assert got[2].x == 6.0 and got[2].controls == (0.5, 1.0, 0.0, 0.0, 0.0) and got[2].state == {"omega": 0.25}
    assert linked.latest() == got[-1] and linked.take() == []
    assert linked.status().lost_ticks == 0


def test_gaps_in_the_tick_numbers_are_counted_as_lost_ticks(linked, peer):
    for tick in (1, 2, 3, 7, 8, 12):
        peer.telemetry(tick)
    taken(linked, 6)
    assert linked.status().lost_ticks == 3 + 3  # 4, 5, 6 and 9, 10, 11


def test_a_tick_older_than_one_taken_is_dropped_so_the_path_never_steps_back(linked, peer):
    for tick in (5, 3, 6):
        peer.telemetry(tick)
    assert [t.tick for t in taken(linked, 2)] == [5, 6]
    assert linked.status().dropped == {"out of order": 1} and linked.status().lost_ticks == 0


def test_values_set_before_the_game_said_hello_go_out_when_it_does(server, peer):
    seq = server.send_set({"engine_power": 1500})
    peer.hello()
    sent = peer.wait_for("set")[0]
    assert (sent["seq"], sent["params"]) == (seq, {"engine_power": 1500.0})
    assert server.wait_applied(seq, 20)["applied"] == {"engine_power": 1500.0}


def test_the_queue_keeps_the_newest_and_counts_what_it_let_go():
    link = LinkServer(port=0, token=TOKEN, queue=4)
    link.start()
    try:
        game = Peer(link.port, TOKEN)
        try:
            game.hello()
            link.wait_for_game(20)
            for _ in range(10):
                game.telemetry()
            wait_until(lambda: link.latest() is not None and link.latest().tick == 10, "tick 10")
            assert [t.tick for t in link.take()] == [7, 8, 9, 10]
            assert link.status().dropped == {"queue full": 6}
        finally:
            game.close()
    finally:
        link.stop()


def test_many_sets_between_two_ticks_go_out_as_one_with_the_newest_values(linked, peer):
    peer.acks = False
    peer.telemetry()
    taken(linked, 1)
    first = linked.send_set({"engine_power": 900})  # the tick's slot is free: sent at once
    peer.wait_for("set")
    seqs = {linked.send_set({"engine_power": 900 + k}) for k in range(1, 101)}
    assert len(seqs) == 1 and first not in seqs
    second = linked.send_set({"drag": -0.002})
    assert seqs == {second}
    peer.telemetry()  # the next tick: one set with everything unacknowledged, the newest values
    sets = peer.wait_for("set", 2)
    assert [(s["seq"], s["params"]) for s in sets] == [
        (first, {"engine_power": 900.0}),
        (second, {"engine_power": 1000.0, "drag": -0.002}),
    ]
    peer.acks = True
    peer.send({"type": "ack", "seq": second, "tick": 3, "applied": sets[1]["params"], "refused": {}})
    assert linked.wait_applied(first, 20)["seq"] == second  # the later set carried the first one's values
    peer.telemetry()
    third = linked.send_set({"drag": -0.003})
    sets = peer.wait_for("set", 3)
    assert [s["seq"] for s in sets] == [first, second, third]  # nothing in between: no resend after the ack
    assert linked.wait_applied(third, 20)["applied"] == {"drag": -0.003}
    assert linked.status().values == {"engine_power": 1000.0, "drag": -0.003}
    assert linked.status().last_applied == third


@pytest.mark.parametrize("values", [{"drag": math.nan}, {"drag": math.inf}, {"drag": "fast"}])
def test_send_set_refuses_what_the_protocol_cannot_carry(linked, values):
    with pytest.raises(ValueError):
        linked.send_set(values)


def test_an_empty_set_sends_nothing_and_names_the_newest_seq(linked, peer):
    assert linked.send_set({}) == 0
    seq = linked.send_set({"drag": -0.002})
    assert linked.send_set({}) == seq
    linked.wait_applied(seq, 20)
    peer.telemetry()
    final = linked.send_set({"drag": -0.003})
    assert [s["seq"] for s in peer.wait_for("set", 2)] == [seq, final]


def test_a_set_that_is_lost_is_sent_again_until_acknowledged(linked, peer):
    peer.acks = False
    seq = linked.send_set({"engine_power": 950})
    peer.wait_for("set")
    wait_until(lambda: peer.telemetry() and len(peer.of_type("set")) >= 3, "the set sent twice more")
    assert {(s["seq"], s["params"]["engine_power"]) for s in peer.of_type("set")} == {(seq, 950.0)}
    peer.send({"type": "ack", "seq": seq, "tick": peer.tick, "applied": {"engine_power": 950.0}, "refused": {}})
    assert linked.wait_applied(seq, 20)["applied"] == {"engine_power": 950.0}
    assert linked.request_values(20) is not None  # its get marks the moment the ack was taken
    resent_until_get = len(peer.of_type("set"))
    for _ in range(10):
        peer.telemetry()
    taken(linked, peer.tick)
    peer.acks = True
    final = linked.send_set({"drag": -0.004})
    sets = peer.wait_for("set", resent_until_get + 1)
    assert [s["seq"] for s in sets[resent_until_get:]] == [final]


def test_refusals_of_the_game_are_kept_until_the_next_refusal(linked, peer):
    peer.acks = False
    seq = linked.send_set({"drag": -5})
    peer.wait_for("set")
    peer.send({"type": "ack", "seq": seq, "tick": 1, "applied": {}, "refused": {"drag": "-5 is outside -0.01 … 0"}})
    ack = linked.wait_applied(seq, 20)
    assert ack["refused"] == {"drag": "-5 is outside -0.01 … 0"}
    assert linked.status().refused == ack["refused"] and linked.status().values["drag"] == -0.001


def test_the_games_values_on_request(linked, peer):
    peer.values["engine_power"] = 1234.5
    assert linked.request_values(20) == {"engine_power": 1234.5, "drag": -0.001}
    assert linked.status().values["engine_power"] == 1234.5


def test_a_ping_measures_the_round_trip(linked, peer):
    rtt = wait_until(lambda: linked.status().rtt_ms, "a pong")
    assert rtt > 0 and peer.of_type("ping")


def test_another_game_takes_the_link_at_once_after_the_games_bye(linked, peer):
    peer.send({"type": "bye"})
    wait_until(lambda: linked.status().game is None, "the bye")
    other = Peer(linked.port, TOKEN, {"engine_power": 700.0})
    try:
        other.hello(game="Another")
        wait_until(lambda: linked.status().game is not None, "the other game's hello")
        game = linked.status().game
        assert (game.game, game.address, game.number) == ("Another", other.sock.getsockname(), 2)
        assert linked.status().values == {"engine_power": 700.0}
        peer.telemetry(50)  # the old game's address is no longer the game
        wait_until(lambda: linked.status().dropped.get("not the game"), "the old game's telemetry dropped")
        other.telemetry(1)
        assert [t.tick for t in taken(linked, 1)] == [1]
        assert set(linked.status().dropped) == {"not the game"}
    finally:
        other.close()


def test_a_hello_from_another_address_waits_until_the_game_was_silent_a_second(monkeypatch):
    """The link's clock is a fake here (rounds handed in as the thread would), so the
    second of silence is exact: a hello from another address is refused, and counted,
    while the linked game spoke less than HANDOVER_S ago."""
    clock = [100.0]
    monkeypatch.setattr(server_module.time, "perf_counter", lambda: clock[0])
    link = LinkServer(port=0, token=TOKEN)  # not started: nothing is sent
    game, other = ("127.0.0.1", 5555), ("127.0.0.1", 6666)
    link._round([(encode(_hello("The Game")), game), (encode(_telemetry(1)), game)], 0)
    clock[0] = 100.0 + server_module.HANDOVER_S - 0.01
    link._round([(encode(_hello("Intruder")), other)], 0)
    status = link.status()
    assert (status.game.game, status.game.number) == ("The Game", 1)
    assert status.dropped.get(server_module.ANOTHER_GAME) == 1
    link._round([(encode(_telemetry(2)), game)], 0)  # the game speaks: the second starts again
    clock[0] += server_module.HANDOVER_S - 0.01
    link._round([(encode(_hello("Intruder")), other)], 0)
    assert link.status().game.game == "The Game" and link.status().dropped.get(server_module.ANOTHER_GAME) == 2
    clock[0] += 0.02  # silent HANDOVER_S: the next hello from elsewhere is a new game
    link._round([(encode(_hello("Restarted elsewhere")), other)], 0)
    game_now = link.status().game
    assert (game_now.game, game_now.address, game_now.number) == ("Restarted elsewhere", other, 2)


def test_a_game_fallen_silent_is_replaced_by_a_new_one(linked, peer):
    """A game killed (no bye, no pong any more): the new game's hellos are refused
    until the old one was silent HANDOVER_S, then it is linked."""
    other = Peer(linked.port, TOKEN)
    try:
        peer.telemetry(1)  # the game runs: it sends every tick
        other.hello(game="Started again")
        wait_until(lambda: linked.status().dropped.get(server_module.ANOTHER_GAME), "the hello refused")
        assert linked.status().game.game == "Test Game"
        peer.close()  # the game ends: it says nothing more

        def linked_again() -> bool:
            other.hello(game="Started again")  # as the node does until welcomed
            return linked.status().game.number == 2

        wait_until(linked_again, "the new game linked")
        assert linked.status().game.game == "Started again"
        assert linked.status().game.address == other.sock.getsockname()
    finally:
        other.close()


def test_a_restart_at_the_same_address_is_a_new_game_but_a_hello_repeated_before_any_tick_is_not(linked, peer):
    peer.hello()  # the welcome was lost, say: the node says hello again
    peer.wait_for("welcome", 2)
    assert linked.status().game.number == 1
    peer.telemetry(1)
    taken(linked, 1)
    peer.hello(game="Test Game, restarted")
    wait_until(lambda: linked.status().game.number == 2, "the restart")
    assert linked.status().game.game == "Test Game, restarted"
    assert change_text(None, linked.status().game).startswith("The game changed")
    restarted = linked.status().game
    assert change_text(replace(restarted, number=1, game="Test Game"), restarted).startswith("The game restarted")


def test_a_text_of_the_games_is_shown_on_one_line_escaped_and_cut():
    assert from_game("My Game") == "My Game"
    assert from_game("a\nb\r\x1b[2Jc\u202e") == "a\\x0ab\\x0d\\x1b[2Jc\\u202e"  # as errors.printable escapes
    long = from_game("x" * 1000)
    assert len(long) <= 80 and long.endswith("… (1,000 characters)") and "\n" not in long
    assert names_from_game(["drag", "slip\nspeed"]) == "drag, slip\\x0aspeed"


def test_bye_forgets_the_game(linked, peer):
    peer.send({"type": "bye"})
    wait_until(lambda: linked.status().game is None, "the game gone")


def test_a_hook_that_fails_is_counted_and_the_link_goes_on(linked, peer):
    linked.on_ack = lambda ack: 1 / 0
    seq = linked.send_set({"engine_power": 901})
    assert linked.wait_applied(seq, 20) is not None
    wait_until(lambda: linked.status().dropped.get("not handled") == 1, "the hook's failure counted")
    peer.telemetry()
    assert taken(linked, 1)


def test_a_recording_holds_one_row_per_tick_with_the_pose_and_the_lost_ticks(linked, peer, tmp_path):
    peer.telemetry(1)
    taken(linked, 1)
    linked.start_recording()
    for tick in (2, 3, 4, 6):  # t as a game may round it: the recording's is tick / hz, exact
        peer.telemetry(tick, t=round(tick / 60, 2), state={"omega": 0.1 * tick, "rpm": 1000.0 + tick})
    taken(linked, 4)
    summary = linked.stop_recording(tmp_path / "drive.csv")
    assert (summary.rows, summary.lost_ticks) == (4, 1)
    assert summary.seconds == pytest.approx((6 - 2 + 1) / 60)
    with open(summary.path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    assert rows[0][:13] == "steer,throttle,brake,handbrake,shift,t,x,y,heading,vx,vy,omega,rpm".split(",")
    # then what the pose gives (the game sends its yaw rate, omega): nothing over a tick after a lost one
    assert rows[0][13:] == ["speed[px/s]", "sideslip[deg]", "accel_long[px/s^2]", "accel_lat[px/s^2]"]
    assert [r[rows[0].index("accel_long[px/s^2]")] == "nan" for r in rows[1:]] == [True, False, False, True]
    assert [float(r[rows[0].index("t")]) for r in rows[1:]] == [2 / 60, 3 / 60, 4 / 60, 6 / 60]
    assert [float(r[rows[0].index("x")]) for r in rows[1:]] == [4.0, 6.0, 8.0, 12.0]  # the peer's x = 2 tick
    assert [float(r[rows[0].index("rpm")]) for r in rows[1:]] == [1002.0, 1003.0, 1004.0, 1006.0]
    assert all(r[:5] == ["0.5", "1.0", "0.0", "0.0", "0.0"] for r in rows[1:])


def test_a_state_named_like_a_control_is_not_written_twice(linked, peer, tmp_path):
    """The bicycle's state has a `steer` (its wheels' angle): the recording keeps the
    control's column, once, and loads; a variable no model's state has is left out."""
    linked.start_recording()
    for tick in range(1, 200):
        peer.telemetry(tick, state={"steer": 0.01 * tick, "speed": 3.0, "no_models_state": 1.0})
    taken(linked, 199)
    summary = linked.stop_recording(tmp_path / "drive.csv")
    assert summary.columns.count("steer") == 1 and "speed" in summary.columns
    assert "no_models_state" not in summary.columns  # a column no recording holds would be refused
    recording = load_recording(summary.path)
    assert len(recording) == 199 and "steer" not in recording.states


def test_a_recording_without_telemetry_writes_nothing(linked, tmp_path):
    linked.start_recording()
    with pytest.raises(LinkError, match="nothing written"):
        linked.stop_recording(tmp_path / "empty.csv")
    assert not (tmp_path / "empty.csv").exists()


def test_a_recording_that_cannot_be_written_goes_on_and_saves_elsewhere(linked, peer, tmp_path):
    linked.start_recording()
    for tick in (1, 2, 3):
        peer.telemetry(tick)
    taken(linked, 3)
    blocked = tmp_path / "a file, not a folder"
    blocked.write_text("", encoding="utf-8")
    with pytest.raises(LinkError):
        linked.stop_recording(blocked / "drive.csv")
    assert linked.recording  # the drive is kept for another place
    peer.telemetry(4)
    taken(linked, 1)
    summary = linked.stop_recording(tmp_path / "drive.csv")
    assert summary.rows == 4 and not linked.recording


def test_a_discarded_recording_writes_nothing(linked, peer, tmp_path):
    linked.start_recording()
    peer.telemetry(1)
    taken(linked, 1)
    linked.discard_recording()
    assert not linked.recording
    with pytest.raises(LinkError, match="nothing written"):
        linked.stop_recording(tmp_path / "drive.csv")
    assert not (tmp_path / "drive.csv").exists()


def test_a_taken_port_is_refused_with_the_address_named():
    holder = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    holder.bind(("127.0.0.1", 0))
    try:
        port = holder.getsockname()[1]
        with pytest.raises(LinkError, match=f"127.0.0.1 port {port}.*choose another port"):
            LinkServer(port=port).start()
    finally:
        holder.close()


@pytest.mark.parametrize("token", ["", "a b" * 6, "x" * 65, "tok\u00e9n" * 4, "5eed0123", "x" * 15])
def test_a_token_that_is_empty_short_or_odd_is_refused(token):
    with pytest.raises(LinkError, match="is not 16 … 64 letters.*could be guessed"):
        LinkServer(port=0, token=token)


def test_listening_beyond_this_computer_says_so():
    assert LinkServer(host="127.0.0.1").warning is None
    assert "other computers" in LinkServer(host="0.0.0.0").warning


def test_stop_is_prompt_and_may_be_called_twice(server):
    server.stop()
    server.stop()
    assert not server.status().listening


def _hello(name: str, hz: float = 60) -> dict:
    return {"type": "hello", "token": TOKEN, "game": name, "godot": "3.2.3", "model": "", "format": None,
            "hz": hz, "units": "px", "params": {}, "missing": []}  # fmt: skip


def _telemetry(tick: int) -> dict:
    message = {"type": "telemetry", "token": TOKEN, "tick": tick, "t": tick / 60, "x": 0.0, "y": 0.0}
    message.update(heading=0.0, vx=0.0, vy=0.0, applied=0, cost_us=1.0, controls=dict.fromkeys(CONTROLS, 0.0))
    return message


def test_messages_per_second_counts_the_last_second_only(monkeypatch):
    """The link's clock stands still here (a fake perf_counter), so the count is exact."""
    clock = [100.0]
    monkeypatch.setattr(server_module.time, "perf_counter", lambda: clock[0])
    link = LinkServer(port=0, token=TOKEN)  # not started: the rounds are handed in as the thread would
    game = ("127.0.0.1", 5555)
    hello = {"type": "hello", "token": TOKEN, "game": "g", "godot": "3.2.3", "model": "", "format": None}
    hello.update(hz=60, units="px", params={}, missing=[])
    telemetry = {"type": "telemetry", "token": TOKEN, "t": 0.0, "x": 0.0, "y": 0.0, "heading": 0.0, "vx": 0.0}
    telemetry.update(vy=0.0, applied=0, cost_us=1.0, controls=dict.fromkeys(CONTROLS, 0.0))
    link._round([(encode(hello), game)] + [(encode({**telemetry, "tick": k}), game) for k in range(30)], 0)
    clock[0] = 100.5
    link._round([(encode({**telemetry, "tick": 30}), game), (b"junk", game)], 5)
    assert link.status().messages_per_second == 32.0  # the hello and 31 telemetry; junk and flood are drops
    clock[0] = 101.2
    assert link.status().messages_per_second == 1.0  # the first round is over a second old
    clock[0] = 102.0
    assert link.status().messages_per_second == 0.0
    assert link.status().received == 32 and link.status().dropped["flood"] == 5
