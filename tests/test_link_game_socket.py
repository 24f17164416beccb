"""The linked game's datagrams wait in a buffer of their own (Linux): another program's
flood that fills the listening socket's buffer while the link's thread is held up loses
none of them. Real sockets on 127.0.0.1, the link's real receiving thread."""

from __future__ import annotations

import socket
import sys
import threading

import pytest

from link_peer import wait_until
from sandbox.link.game_socket import open_game_socket
from sandbox.link.receiver import Receiver

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the game's own socket is Linux's")

GAME_TICKS = 300
FLOOD = 60_000
"""tiny datagrams: more than any receive buffer of 4 MB holds (each costs the system
several hundred bytes of it)."""


def udp(bound: bool = True) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    if bound:
        sock.bind(("127.0.0.1", 0))
    return sock


def test_the_game_socket_takes_the_games_datagrams_and_the_port_stays_the_links():
    listening, game, other = udp(), udp(), udp()
    own = open_game_socket(listening, game.getsockname(), 1 << 20)
    try:
        assert own is not None and own.getsockname() == listening.getsockname()
        game.sendto(b"from the game", listening.getsockname())
        other.sendto(b"from another", listening.getsockname())
        own.settimeout(10)
        listening.settimeout(10)
        assert own.recvfrom(100) == (b"from the game", game.getsockname())
        assert listening.recvfrom(100) == (b"from another", other.getsockname())
        # another program (or sandbox) that binds the port without asking to share it is refused
        with pytest.raises(OSError), udp(bound=False) as intruder:
            intruder.bind(listening.getsockname())
    finally:
        for sock in (own, listening, game, other):
            if sock is not None:
                sock.close()


def test_a_flood_while_the_link_is_held_up_loses_none_of_the_games_datagrams():
    """The link's thread is held (its round handler waits, as a starved thread would)
    while another program sends more than the listening buffer holds and the game sends
    its 300 ticks: once the thread goes on, every tick is read, and the system's drops
    are counted."""
    game, flooder = udp(), udp()
    first_round, go_on = threading.Event(), threading.Event()
    from_game: list[bytes] = []

    def on_round(datagrams, discarded):
        from_game.extend(data for data, address in datagrams if address == game.getsockname())
        first_round.set()
        go_on.wait(30)

    receiver = Receiver("127.0.0.1", 0, on_round, lambda: None, game=game.getsockname)
    receiver.start()
    try:
        game.sendto(b"hello", receiver.address)
        wait_until(first_round.is_set, "the link's first round")  # the game's socket is open from here
        flooder.setblocking(False)
        for _ in range(FLOOD):
            try:
                flooder.sendto(b"x", receiver.address)
            except BlockingIOError:
                pass
        for tick in range(GAME_TICKS):
            game.sendto(b"tick %d" % tick, receiver.address)
        go_on.set()
        wait_until(lambda: len(from_game) == GAME_TICKS + 1, f"the game's {GAME_TICKS} ticks read")
        assert from_game[1:] == [b"tick %d" % tick for tick in range(GAME_TICKS)]
        wait_until(lambda: receiver.failures["system buffer full"] > 0, "the flood's drops counted")
    finally:
        go_on.set()
        receiver.stop()
        game.close()
        flooder.close()
