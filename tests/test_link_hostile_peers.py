"""The sandbox's end of the link against what other programs and odd games send: a
flood from another local program, a datagram that breaks a handler, oversized `state`
objects, a tick far in the future. A peer plays the game by the protocol
(tests/link_peer.py); everything on 127.0.0.1, stopped after each test."""

from __future__ import annotations

import json
import logging
import threading

import pytest

import sandbox.link.server as server_module
from link_peer import WAIT_S, Peer, wait_until
from sandbox.devtools.link_flood import flooding
from sandbox.files.recording_columns import STATE_COLUMNS
from sandbox.link.protocol import CONTROLS, STATE_ENTRIES, TELEMETRY_BYTES, LinkError, encode
from sandbox.link.server import JUMP_CONFIRMED, JUMP_S, LinkServer

TOKEN = "b1ade5ed0f100d42"


@pytest.fixture
def link_token():
    """This file's token (the `server` and `peer` fixtures, conftest.py)."""
    return TOKEN


HZ = 60
FLOODED_TICKS = 300
"""the game's ticks sent while the flood runs (5 s at 60 Hz): at most 1 % may be lost."""


@pytest.fixture
def linked(server, peer):
    peer.hello(hz=HZ)
    assert server.wait_for_game(20) is not None
    return server


def handled_up_to_now(server: LinkServer) -> None:
    """Wait until everything the peer sent so far was handled: its answer to a get
    comes after it on the same socket (tried again if the get or its answer was lost)."""
    wait_until(lambda: server.request_values(1.0) is not None, "the game's answer to a get")


def test_a_flood_without_the_token_leaves_the_games_ticks_recorded(linked, peer, tmp_path):
    """Another local program floods the port with tiny datagrams as fast as it can while
    the game sends its telemetry at its tick rate: at least 99 % of the game's ticks are
    recorded, and the flood is counted, not parsed."""
    with flooding(linked.port) as flood:
        wait_until(lambda: sum(linked.status().dropped.values()) > 10_000, "the flood under way")
        linked.start_recording()
        stop = threading.Event()
        for _ in range(FLOODED_TICKS):  # at the game's tick rate, as a game sends them
            peer.telemetry()
            stop.wait(1 / HZ)
        during = sum(linked.status().dropped.values())
    handled_up_to_now(linked)
    summary = linked.stop_recording(tmp_path / "flooded.csv")
    assert flood.sent > during > 10_000  # the flood ran the whole time
    assert summary.rows + summary.lost_ticks <= FLOODED_TICKS
    dropped = linked.status().dropped
    assert summary.rows >= 0.99 * FLOODED_TICKS, f"{summary.rows} of {FLOODED_TICKS} ticks recorded; {dropped}"
    assert set(dropped) <= {"not JSON", "flood", "system buffer full"}
    assert dropped.get("not JSON", 0) < dropped["flood"]  # discarded by its address, not parsed


# -- one datagram, one outcome: a bad one or a bug is dropped alone --------------------------
GAME = ("127.0.0.1", 5555)


def hello(**fields) -> bytes:
    message = {"type": "hello", "token": TOKEN, "game": "g", "godot": "3.2.3", "model": "arcade", "format": 3}
    message.update(hz=HZ, units="px", params={}, missing=[])
    return encode({**message, **fields})


def telemetry(tick: int, **fields) -> bytes:
    """A telemetry as text, so a test can put in what encode would refuse."""
    message = {"v": 1, "type": "telemetry", "token": TOKEN, "tick": tick, "t": tick / HZ, "x": 2.0 * tick, "y": 0.0}
    message.update(heading=0.0, vx=1.0, vy=0.0, applied=0, cost_us=1.0, controls=dict.fromkeys(CONTROLS, 0.0))
    message.update(state={"omega": 0.5})
    return json.dumps({**message, **fields}).encode()


@pytest.fixture
def unstarted():
    """A link not listening: the test hands in its rounds as the link's thread would."""
    link = LinkServer(port=0, token=TOKEN)
    link._round([(hello(), GAME)], 0)
    assert link.status().game is not None
    return link


def test_a_number_too_large_for_a_double_drops_its_datagram_only(unstarted):
    """A whole number of 400 digits (JSON allows it; no double holds it) in the middle of
    a round: that telemetry is refused as a bad field, the round's others are taken and
    its tick is counted lost."""
    big = telemetry(2).replace(b'"x": 4.0', b'"x": ' + b"9" * 400)
    assert big != telemetry(2)
    unstarted._round([(telemetry(1), GAME), (big, GAME), (telemetry(3), GAME)], 0)
    assert [t.tick for t in unstarted.take()] == [1, 3]
    status = unstarted.status()
    assert status.dropped.get("bad field") == 1 and "not handled" not in status.dropped
    assert status.lost_ticks == 1


def test_a_handler_that_fails_is_logged_once_with_its_traceback_and_the_round_goes_on(unstarted, caplog):
    def broken(message, address, now):
        raise ZeroDivisionError("a bug in the handler")

    unstarted._on_values = broken
    values = encode({"type": "values", "token": TOKEN, "seq": 1, "params": {"drag": -0.1}})
    with caplog.at_level(logging.ERROR, logger="sandbox.link"):
        unstarted._round([(telemetry(1), GAME), (values, GAME), (telemetry(2), GAME)], 0)
        unstarted._round([(values, GAME), (telemetry(3), GAME)], 0)
    assert [t.tick for t in unstarted.take()] == [1, 2, 3]  # every other datagram of both rounds
    assert unstarted.status().dropped == {"not handled": 2, "not sent": 1}  # the welcome: not listening
    assert len(caplog.records) == 1, "a second failure of the same kind is counted, not logged again"
    record = caplog.records[0]
    assert "handling a values" in record.getMessage() and record.exc_info is not None
    assert "ZeroDivisionError: a bug in the handler" in caplog.text and "in broken" in caplog.text


def test_a_bug_in_the_decoding_is_logged_and_the_rest_of_the_round_taken(unstarted, caplog, monkeypatch):
    real = server_module.decode

    def decode(data: bytes, token: str) -> dict:
        if b'"tick": 2,' in data:
            raise KeyError("a bug in the decoding")
        return real(data, token)

    monkeypatch.setattr(server_module, "decode", decode)
    with caplog.at_level(logging.ERROR, logger="sandbox.link"):
        unstarted._round([(telemetry(1), GAME), (telemetry(2), GAME), (telemetry(3), GAME)], 0)
    assert [t.tick for t in unstarted.take()] == [1, 3] and unstarted.status().lost_ticks == 1
    assert unstarted.status().dropped["not handled"] == 1
    assert len(caplog.records) == 1 and "reading a message" in caplog.records[0].getMessage()
    assert "KeyError: 'a bug in the decoding'" in caplog.text


# -- state: what a row keeps, and the caps ----------------------------------------------------
def test_a_row_keeps_only_the_state_a_recording_can_hold(unstarted):
    state = {"omega": 0.5, "rpm": 3000.0, "steer": 0.1, **{f"mine_{k}": float(k) for k in range(40)}}
    unstarted._round([(telemetry(1, state=state), GAME)], 0)
    (row,) = unstarted.take()
    assert row.state == {"omega": 0.5, "rpm": 3000.0}  # steer: the control's column, not a state column
    assert set(row.state) <= set(STATE_COLUMNS)


def test_a_state_of_3000_entries_is_refused_and_the_next_ticks_taken(unstarted):
    """3 000 entries (0.4 MB a row when kept whole) are over both caps: the bytes of a
    telemetry, then the entries of its state."""
    huge = {f"s{k}": 1.0 for k in range(3000)}
    assert len(telemetry(2, state=huge)) > TELEMETRY_BYTES
    many = {f"s{k}": 1 for k in range(STATE_ENTRIES + 1)}  # short enough, too many
    assert len(telemetry(3, state=many)) <= TELEMETRY_BYTES
    unstarted._round([(telemetry(1), GAME), (telemetry(2, state=huge), GAME), (telemetry(3, state=many), GAME)], 0)
    unstarted._round([(telemetry(4), GAME)], 0)
    assert [t.tick for t in unstarted.take()] == [1, 4]
    assert unstarted.status().dropped == {"not sent": 1, "oversized": 1, "bad field": 1}
    assert unstarted.status().lost_ticks == 2


# -- the game's clock ------------------------------------------------------------------------------
def test_a_tick_far_in_the_future_is_refused_and_later_ticks_keep_coming(unstarted):
    ticks = [1, 2, 3, 1_000_000_000, 4, 5, 6]
    unstarted._round([(telemetry(tick), GAME) for tick in ticks], 0)
    assert [t.tick for t in unstarted.take()] == [1, 2, 3, 4, 5, 6]
    assert unstarted.status().lost_ticks == 0 and unstarted.status().dropped["bad field"] == 1


def test_a_jump_within_the_bound_is_taken_with_its_lost_ticks(unstarted):
    bound = int(JUMP_S * HZ)  # ticks: the game's tick rate times the bound's seconds
    unstarted._round([(telemetry(1), GAME), (telemetry(2 + bound), GAME)], 0)
    assert [t.tick for t in unstarted.take()] == [1, 2 + bound]
    assert unstarted.status().lost_ticks == bound and "bad field" not in unstarted.status().dropped


def test_a_clock_that_did_jump_is_taken_once_ticks_continue_from_it(unstarted):
    """The game's ticks really went on far ahead (its datagrams lost for a long while):
    after JUMP_CONFIRMED ticks in a row from there, the clock moves and the ticks
    between count as lost."""
    far = 2 + int(JUMP_S * HZ) + 1000
    ahead = list(range(far, far + JUMP_CONFIRMED + 2))
    unstarted._round([(telemetry(1), GAME)] + [(telemetry(tick), GAME) for tick in ahead], 0)
    assert [t.tick for t in unstarted.take()] == [1] + ahead[JUMP_CONFIRMED - 1 :]
    status = unstarted.status()
    assert status.dropped["bad field"] == JUMP_CONFIRMED - 1 and status.lost_ticks == ahead[JUMP_CONFIRMED - 1] - 2


def test_a_bad_host_is_refused_by_the_link_itself():
    with pytest.raises(LinkError, match="too long for a host name"):
        LinkServer(port=0, host="h" * 300).start()


def burst_read_whole(link: LinkServer) -> bool:
    """Whether 20 datagrams (an address's allowance at once) from a new address, sent
    together, are all read (under the flood's shield only a sample would be)."""
    stranger = Peer(link.port, TOKEN)
    try:
        before = link.status().dropped.get("not JSON", 0)
        for _ in range(20):
            stranger.send_raw(b"junk")
        handled_up_to_now(link)
        return link.status().dropped.get("not JSON", 0) - before == 20
    finally:
        stranger.close()


def test_a_new_games_hello_gets_through_a_flood_and_after_it_every_address_is_heard(linked, peer):
    """Under the flood only a sample of another address's datagrams is read, yet a hello
    from an address never heard gets through (a game's node says hello once a second
    until welcomed; here faster, to wait less) once the old game has gone quiet; when
    the flood has ended every datagram of another address is read again."""
    newcomer = Peer(linked.port, TOKEN)
    try:
        with flooding(linked.port):
            wait_until(lambda: sum(linked.status().dropped.values()) > 10_000, "the flood under way")
            wait_until(lambda: not burst_read_whole(linked), "only a sample of another address read")
            peer.close()  # the old game stops: a game that still answers the pings is alive, and keeps the link
            said = lambda: newcomer.hello(game="Newcomer") or linked.status().game.game == "Newcomer"  # noqa: E731
            # one hello in SAMPLE passes the shield, and only once the old game was silent
            # a second: on a loaded machine that can take a while
            wait_until(said, "the new game's hello taken through the flood", timeout=4 * WAIT_S)
        wait_until(lambda: burst_read_whole(linked), "a burst from another address read whole again")
    finally:
        newcomer.close()
