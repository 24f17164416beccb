"""The link's socket: one UDP socket on one daemon thread, drained in rounds so that a
peer that floods cannot stall anyone. A round reads at most ROUND datagrams and hands on
the newest of them that the parse allowance holds (PARSE_RATE a second, up to BURST at
once, and no more than PARSE_BYTES), the rest counted unread; when the allowance runs
out the thread sleeps a moment, giving the interpreter to the caller's thread (the
window's frame loop). A backlog of a game's telemetry (a hitch) passes whole; only a
flood is thinned. What the system's buffer cannot hold it drops, and counts (Linux)."""

from __future__ import annotations

import errno
import select
import socket
import sys
import threading
import time
from collections import Counter, deque
from typing import Callable

from .protocol import MAX_BYTES, LinkError

ROUND = 256
"""datagrams read from the socket at most before they are handled."""
PARSE_RATE = 4000.0
"""datagrams parsed a second at most, over time (telemetry at 240 Hz is 240)."""
BURST = 2000.0
"""datagrams parsed at once at most after a quiet while (8 s of telemetry at 240 Hz)."""
"""the newest datagrams of a round that are handed on; the older ones are counted, unread."""
PARSE_BYTES = 1_000_000
"""bytes of a round handed on at most (KEEP datagrams of 64 KB would hold the thread ~10 ms)."""
POLL_BUSY_S = 0.001
"""s between looks at the socket while datagrams are coming (a game linked)."""
BUSY_S = 1.0
"""s after the last datagram that the thread keeps looking every POLL_BUSY_S; then it
waits on the socket again (a window listening with no game costs nothing)."""
POLL_S = 0.05
"""s the thread waits for a datagram before it runs its idle work and looks at stop()."""
FLOOD_PAUSE_S = 0.010
"""s the thread sleeps when the allowance has run out: at most ROUND / FLOOD_PAUSE_S
datagrams a second are read in a flood (25 600)."""
RECEIVE_BUFFER = 4 * 1024 * 1024
"""bytes of the socket's receive buffer: a burst of telemetry waits there, not lost."""

SO_RXQ_OVFL = getattr(socket, "SO_RXQ_OVFL", 40)
"""Linux: each datagram comes with the count of those the system dropped, its buffer full."""

Datagram = tuple[bytes, tuple[str, int]]


class Receiver:
    """Binds `host`:`port` (0: any free port) and, on its thread, calls
    `on_round(datagrams, unread)` with the newest datagrams of each round (oldest first)
    and the number left unread, and `on_idle()` after each round or POLL_S without one."""

    def __init__(
        self, host: str, port: int, on_round: Callable[[list[Datagram], int], None], on_idle: Callable[[], None]
    ):
        self.host, self.port = host, port
        self._on_round, self._on_idle = on_round, on_idle
        self._stopping = threading.Event()
        self._sock: socket.socket | None = None
        self._thread: threading.Thread | None = None
        self.address: tuple[str, int] = (host, port)
        self.failures: Counter[str] = Counter()  # "not handled": a bug met on the thread, counted, not raised
        self._counts_system_drops = False
        self._system_drops = 0
        self._allowance, self._allowed_at = BURST, time.perf_counter()
        self._busy_until = 0.0

    def start(self) -> None:
        """Bind and start the thread; LinkError names the address and why not."""
        if self._thread is not None:
            return
        where = f"{self.host} port {self.port}"
        if not 0 <= self.port <= 65535:
            raise LinkError(f"cannot listen on {where}: a port is 0 … 65535")
        try:
            family, _, _, _, address = socket.getaddrinfo(self.host, self.port, type=socket.SOCK_DGRAM)[0]
            sock = socket.socket(family, socket.SOCK_DGRAM)
        except OSError as exc:
            raise LinkError(f"cannot listen on {where}: {exc.strerror or exc}") from None
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RECEIVE_BUFFER)
            self._counts_system_drops = _ask_for_system_drops(sock)
            sock.bind(address)
            sock.setblocking(False)
        except OSError as exc:
            sock.close()
            taken = " (another program, or another sandbox, listens there: choose another port)"
            taken *= exc.errno == errno.EADDRINUSE
            raise LinkError(f"cannot listen on {where}: {exc.strerror or exc}{taken}") from None
        self._sock, self.address = sock, sock.getsockname()[:2]
        self._thread = threading.Thread(target=self._run, name="link", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """End the thread (within about POLL_S) and close the socket. Idempotent."""
        self._stopping.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2.0)

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive() and not self._stopping.is_set()

    def send(self, data: bytes, address: tuple[str, int]) -> None:
        """Send one datagram; OSError when it cannot go (the socket closed, the buffer full)."""
        if self._sock is None:
            raise OSError("not listening")
        self._sock.sendto(data, address)

    def _run(self) -> None:
        sock, buffer = self._sock, bytearray(MAX_BYTES + 1)  # one byte more: an oversized datagram shows
        try:
            while not self._stopping.is_set():
                if time.perf_counter() < self._busy_until:
                    # datagrams are coming: look every POLL_BUSY_S instead of waiting on the
                    # socket, whose every datagram would wake this thread from inside the
                    # game's send (measured: the link node's cost per tick 94-114 µs when
                    # woken, 64-68 µs polled, telemetry at 240 Hz)
                    time.sleep(POLL_BUSY_S)
                    readable = True
                else:
                    try:
                        readable = bool(select.select([sock], [], [], POLL_S)[0])
                    except (OSError, ValueError):
                        break
                try:
                    full = self._round(sock, buffer) if readable else False
                    self._on_idle()
                except Exception:  # noqa: BLE001 (nothing may end the link's thread)
                    self.failures["not handled"] += 1
                    full = False
                if full:
                    # a flood: the caller's thread gets the interpreter for a while (reading and
                    # parsing everything, with 1 ms between rounds, the window's frames took
                    # 11 ms at the median under 100 000 datagrams a second)
                    time.sleep(FLOOD_PAUSE_S)
        finally:
            sock.close()

    def _read_counting_drops(self, sock: socket.socket, buffer: bytearray) -> tuple[int, tuple]:
        """One datagram, and the system's count of those it dropped so far (its buffer
        full), added to the failures as "system buffer full"."""
        size, ancillary, _, address = sock.recvmsg_into([buffer], socket.CMSG_SPACE(4))
        for level, kind, data in ancillary:
            if level == socket.SOL_SOCKET and kind == SO_RXQ_OVFL and len(data) >= 4:
                total = int.from_bytes(data[:4], sys.byteorder)
                if total > self._system_drops:
                    self.failures["system buffer full"] += total - self._system_drops
                    self._system_drops = total
        return size, address

    def _round(self, sock: socket.socket, buffer: bytearray) -> bool:
        """Read up to ROUND datagrams, hand on the newest the allowance holds; True when
        it ran out (a flood)."""
        now = time.perf_counter()
        self._allowance = min(BURST, self._allowance + (now - self._allowed_at) * PARSE_RATE)
        self._allowed_at = now
        kept: deque[Datagram] = deque(maxlen=max(int(self._allowance), 1))
        view, count = memoryview(buffer), 0
        for _ in range(ROUND):
            try:
                if self._counts_system_drops:  # each datagram carries the count when it came
                    size, address = self._read_counting_drops(sock, buffer)
                else:
                    size, address = sock.recvfrom_into(buffer)
            except ConnectionRefusedError:  # an earlier send's "port unreachable", reported here
                continue
            except OSError:  # nothing more waiting (or the socket is gone)
                break
            count += 1
            kept.append((bytes(view[:size]), address[:2]))
        budget, chosen = PARSE_BYTES, []
        for datagram in reversed(kept):
            budget -= len(datagram[0])
            if budget < 0:
                break
            chosen.append(datagram)
        chosen.reverse()
        if count:
            self._busy_until = time.perf_counter() + BUSY_S
        self._on_round(chosen, count - len(chosen))
        self._allowance -= len(chosen)
        return self._allowance < 1 or count > len(chosen)


def _ask_for_system_drops(sock: socket.socket) -> bool:
    """True when the system will tell the count of datagrams it dropped (Linux)."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, SO_RXQ_OVFL, 1)
    except OSError:
        return False
    return hasattr(sock, "recvmsg_into")
