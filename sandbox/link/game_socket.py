"""A socket of the linked game's own (Linux): bound to the link's port beside the
listening socket and connected to the game's address, so that the system hands it the
game's datagrams and nothing else. The game's datagrams then wait in a buffer of their
own, which another program's flood cannot fill however little of the processor the
sandbox gets; the listening socket keeps everything else.

Two sockets may share a port only when both ask to (SO_REUSEPORT); the listening socket
asks only while the game's socket binds, so another program, or another sandbox, that
binds the port without asking is still refused."""

from __future__ import annotations

import socket
import sys


def open_game_socket(listening: socket.socket, game: tuple[str, int], buffer_bytes: int) -> socket.socket | None:
    """A non-blocking socket on `listening`'s address that receives `game`'s datagrams
    only (asking for `buffer_bytes` of receive buffer); None where the system cannot
    (not Linux, or it refuses): the listening socket then keeps receiving them."""
    reuse = getattr(socket, "SO_REUSEPORT", None)
    if not sys.platform.startswith("linux") or reuse is None:
        return None
    try:
        listening.setsockopt(socket.SOL_SOCKET, reuse, 1)
    except OSError:
        return None
    sock = None
    try:
        sock = socket.socket(listening.family, socket.SOCK_DGRAM)
        sock.setsockopt(socket.SOL_SOCKET, reuse, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, buffer_bytes)
        sock.bind(listening.getsockname())
        sock.connect(game)
        sock.setblocking(False)
        return sock
    except (OSError, ValueError, OverflowError):
        if sock is not None:
            sock.close()
        return None
    finally:
        try:
            listening.setsockopt(socket.SOL_SOCKET, reuse, 0)
        except OSError:
            pass
