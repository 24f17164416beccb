"""A shield for the link's socket while another program floods it (Linux, IPv4): a
socket filter, run by the system as each datagram arrives, that lets every datagram of
the linked game through and only one in SAMPLE of the others, at random. The rest never
reaches the socket's buffer, so the flood cannot crowd the game's datagrams out of it
even when the sandbox gets little of the processor; the sample keeps a new game's hello
getting through (and shows when the flood has ended)."""

from __future__ import annotations

import ctypes
import socket
import struct
import sys

SAMPLE = 16
"""one datagram in SAMPLE from other addresses passes the shield (a power of two)."""

SO_ATTACH_FILTER, SO_DETACH_FILTER = 26, 27  # Linux's socket options (not in Python's socket module)
_LD_W_ABS, _LD_H_ABS, _JEQ_K, _AND_K, _RET_K = 0x20, 0x28, 0x15, 0x54, 0x06  # classic BPF opcodes
_NET_OFF = -0x100000  # a load relative to the IP header (a UDP socket's filter starts at the UDP header)
_RANDOM = -0x1000 + 56  # the ancillary load of a random number
_ACCEPT, _DROP = 0xFFFFFFFF, 0


def _program(address: tuple[str, int]) -> list[tuple[int, int, int, int]]:
    """The filter's instructions (code, jump if true, jump if false, k): the game's
    source address and port pass, one in SAMPLE of the others."""
    ip = int.from_bytes(socket.inet_aton(address[0]), "big")
    return [
        (_LD_H_ABS, 0, 0, 0),  # the UDP header's source port
        (_JEQ_K, 0, 3, address[1]),
        (_LD_W_ABS, 0, 0, (_NET_OFF + 12) & 0xFFFFFFFF),  # the IP header's source address
        (_JEQ_K, 0, 1, ip),
        (_RET_K, 0, 0, _ACCEPT),
        (_LD_W_ABS, 0, 0, _RANDOM & 0xFFFFFFFF),
        (_AND_K, 0, 0, SAMPLE - 1),
        (_JEQ_K, 0, 1, 0),
        (_RET_K, 0, 0, _ACCEPT),
        (_RET_K, 0, 0, _DROP),
    ]


def raise_shield(sock: socket.socket, game: tuple[str, int]) -> bool:
    """Let through `sock` only `game`'s datagrams and a sample of the others; False
    where the system has no such filter (not Linux, not IPv4): then nothing changes."""
    if not sys.platform.startswith("linux") or sock.family != socket.AF_INET:
        return False
    try:
        code = b"".join(struct.pack("=HBBI", *instruction) for instruction in _program(game))
    except (OSError, ValueError, struct.error):  # an address that is no IPv4 address
        return False
    instructions = ctypes.create_string_buffer(code, len(code))
    program = struct.pack("@HP", len(code) // 8, ctypes.addressof(instructions))
    try:
        sock.setsockopt(socket.SOL_SOCKET, SO_ATTACH_FILTER, program)
    except OSError:
        return False
    return True


def lower_shield(sock: socket.socket) -> None:
    """Every datagram reaches `sock` again."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, SO_DETACH_FILTER, 0)
    except OSError:
        pass
