"""The link's socket: one UDP socket on one daemon thread, drained in rounds. A round
reads everything the socket holds (up to DRAIN datagrams) and sorts it by where it came
from before anything is parsed: the linked game's datagrams are kept (up to the game's
own allowance, GAME_RATE a second and GAME_BURST at once: a backlog of telemetry after
a hitch passes whole; a game that floods is thinned, and the thread pauses between its
rounds so that the window's thread gets the interpreter); every other address has a small
allowance of its own (PEER_RATE, so a new game's hello still gets through) within one
shared by all of them (OTHERS_RATE). What is over an allowance is counted and discarded
unread. While other addresses send more than SHIELD_RATE a second and a game is linked,
the shield (shield.py) has the system itself keep all but a sample of them out, so a
flood cannot crowd the game's datagrams out of the system's buffer even when this
thread gets little of the processor. On Linux the linked game's datagrams come on a
socket of its own (game_socket.py), with a buffer no flood shares. What a buffer cannot
hold the system drops, and counts (Linux)."""

from __future__ import annotations

import errno
import select
import socket
import sys
import threading
import time
from collections import Counter, OrderedDict
from typing import Callable

from .failures import NOT_HANDLED, Failures
from .game_socket import open_game_socket
from .protocol import MAX_BYTES, LinkError, check_host
from .shield import SAMPLE, lower_shield, raise_shield

DRAIN = 8192
"""datagrams read in a round at most: a flood faster than the thread reads still lets it
hand on what it read (and stop) between rounds."""
GAME_RATE = 4000.0
"""the linked game's datagrams parsed a second at most, over time (telemetry at 240 Hz is 240)."""
GAME_BURST = 2000.0
"""the game's datagrams parsed at once at most after a quiet while (8 s of telemetry at 240 Hz)."""
PEER_RATE = 20.0
"""datagrams parsed a second at most from any other address (a game not yet linked says
hello once a second)."""
PEER_BURST = 20.0
"""datagrams parsed at once at most from any other address."""
OTHERS_RATE = 500.0
"""datagrams parsed a second at most from all other addresses together (a flood from many
ports costs the parser no more)."""
OTHERS_BURST = 500.0
PEERS = 1024
"""other addresses whose allowance is remembered (the longest unheard forgotten first)."""
SHIELD_RATE = 2000.0
"""datagrams a second from other addresses than the linked game's above which the shield
goes up (shield.py: the system lets only the game's through, and a sample of the rest)..."""
SHIELD_DOWN_RATE = 500.0
"""...and below which it comes down again."""
METER_S = 0.25
"""s over which the rate of the other addresses' datagrams is measured."""
PARSE_BYTES = 1_000_000
"""bytes of a round handed on at most (more would hold the thread for a while)."""
POLL_BUSY_S = 0.001
"""s between looks at the socket while datagrams are coming (a game linked)."""
BUSY_S = 1.0
"""s after the last datagram that the thread keeps looking every POLL_BUSY_S; then it
waits on the socket again (a window listening with no game costs nothing)."""
POLL_S = 0.05
"""s the thread waits for a datagram before it runs its idle work and looks at stop()."""
GAME_FLOOD_PAUSE_S = 0.010
"""s the thread sleeps after a round in which the game itself sent more than its allowance
(a game that floods): the caller's thread (the window's frames) gets the interpreter."""
RECEIVE_BUFFER = 4 * 1024 * 1024
"""bytes of the socket's receive buffer asked for: a burst of telemetry waits there, not
lost (the system may give less: Linux at most net.core.rmem_max)."""

SO_MEMINFO, MEMINFO_DROPS = 55, 8
"""Linux: a socket's memory figures (u32 each), the count of datagrams it dropped ninth."""

Datagram = tuple[bytes, tuple[str, int]]
Address = tuple[str, int]


class Allowance:
    """A token bucket: `rate` datagrams a second, at most `burst` at once."""

    __slots__ = ("rate", "burst", "left", "at")

    def __init__(self, rate: float, burst: float, now: float):
        self.rate, self.burst, self.left, self.at = rate, burst, burst, now

    def refill(self, now: float) -> float:
        """What is left at `now` (s, time.perf_counter())."""
        self.left = min(self.burst, self.left + (now - self.at) * self.rate)
        self.at = now
        return self.left

    def take(self, now: float) -> bool:
        """One datagram taken from the allowance, if it holds one."""
        if self.refill(now) < 1.0:
            return False
        self.left -= 1.0
        return True


class _Take:
    """One round's sorting: the game's address and the datagrams of its allowance left,
    the bytes still to hand on (PARSE_BYTES a round), the datagrams kept (oldest
    first), the game's seen and kept, and how many were discarded unread."""

    __slots__ = ("game", "game_left", "budget", "kept", "muted", "game_seen", "game_kept", "discarded")

    def __init__(self, game: Address | None, game_left: int):
        self.game, self.game_left, self.budget = game, game_left, PARSE_BYTES
        self.kept: list[Datagram] = []
        self.muted: set[Address] = set()  # addresses out of their allowance this round
        self.game_seen = self.game_kept = self.discarded = 0


class Receiver:
    """Binds `host`:`port` (0: any free port) and, on its thread, calls
    `on_round(datagrams, discarded)` with the datagrams of each round kept for parsing
    (oldest first) and the number discarded unread, and `on_idle()` after each round or
    POLL_S without one. `game()` is the linked game's address (None: no game yet)."""

    def __init__(
        self,
        host: str,
        port: int,
        on_round: Callable[[list[Datagram], int], None],
        on_idle: Callable[[], None],
        game: Callable[[], Address | None] = lambda: None,
    ):
        self.host, self.port = host, port
        self._on_round, self._on_idle, self._game = on_round, on_idle, game
        self._stopping = threading.Event()
        self._sock: socket.socket | None = None
        self._thread: threading.Thread | None = None
        self.address: tuple[str, int] = (host, port)
        # what this thread drops, by reason; every key there from the start, so that reading
        # it on another thread never meets a key being added ("not handled": a bug, logged once)
        self.failures: Counter[str] = Counter(dict.fromkeys(("system buffer full", "flood", NOT_HANDLED), 0))
        self.bugs = Failures()
        self._system_drops = 0
        self._game_sock: socket.socket | None = None  # the game's own socket (game_socket.py), when open...
        self._game_sock_for: Address | None = None  # ...for this game
        self._game_sock_drops = 0
        now = time.perf_counter()
        self._game_allowance = Allowance(GAME_RATE, GAME_BURST, now)
        self._others = Allowance(OTHERS_RATE, OTHERS_BURST, now)
        self._peers: OrderedDict[Address, Allowance] = OrderedDict()
        self._busy_until = 0.0
        self._game_floods = False  # the last round held more of the game's datagrams than its allowance
        self._shielded: Address | None = None  # the game whose datagrams alone pass the shield, when it is up
        self._strangers, self._metered_at = 0.0, now  # datagrams from other addresses since, and since when

    def start(self) -> None:
        """Bind and start the thread; LinkError names the address and why not."""
        if self._thread is not None:
            return
        where = f"{check_host(self.host)} port {self.port}"
        if not 0 <= self.port <= 65535:
            raise LinkError(f"cannot listen on {where}: a port is 0 … 65535")
        try:
            family, _, _, _, address = socket.getaddrinfo(self.host, self.port, type=socket.SOCK_DGRAM)[0]
            sock = socket.socket(family, socket.SOCK_DGRAM)
        except (OSError, UnicodeError) as exc:
            raise LinkError(f"cannot listen on {where}: {getattr(exc, 'strerror', None) or exc}") from None
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RECEIVE_BUFFER)
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
        full = False
        try:
            while not self._stopping.is_set():
                if full:  # the last round read DRAIN: more is waiting, read on at once
                    readable = True
                elif time.perf_counter() < self._busy_until:
                    # datagrams are coming: look every POLL_BUSY_S instead of waiting on the
                    # socket, whose every datagram would wake this thread from inside the
                    # game's send (measured: the link node's cost per tick 94-114 µs when
                    # woken, 64-68 µs polled, telemetry at 240 Hz)
                    time.sleep(POLL_BUSY_S)
                    readable = True
                else:
                    waiting = [sock] if self._game_sock is None else [sock, self._game_sock]
                    try:
                        readable = bool(select.select(waiting, [], [], POLL_S)[0])
                    except (OSError, ValueError):
                        break
                try:
                    full = self._round(sock, buffer) if readable else False
                    self._on_idle()
                except Exception:  # noqa: BLE001 (nothing may end the link's thread)
                    self.bugs.met("reading the socket", self.failures)
                    full = False
                if self._game_floods:
                    time.sleep(GAME_FLOOD_PAUSE_S)
        finally:
            sock.close()
            if self._game_sock is not None:
                self._game_sock.close()

    def _count_system_drops(self, sock: socket.socket) -> None:
        """The datagrams the system dropped since the last look (its buffers full, or
        kept out by the shield), added to the failures."""
        dropped = _system_drops(sock)
        if dropped > self._system_drops:  # with the shield up, mostly those it kept out
            self.failures["flood" if self._shielded else "system buffer full"] += dropped - self._system_drops
            self._system_drops = dropped
        if self._game_sock is not None:
            dropped = _system_drops(self._game_sock)
            self.failures["system buffer full"] += max(0, dropped - self._game_sock_drops)
            self._game_sock_drops = max(dropped, self._game_sock_drops)

    def _follow_game(self, sock: socket.socket, game: Address | None) -> None:
        """The game's own socket opened for `game` (closed when the game is another, or none)."""
        if game == self._game_sock_for:
            return
        if self._game_sock is not None:
            self._game_sock.close()
        self._game_sock, self._game_sock_for, self._game_sock_drops = None, game, 0
        if game is not None:
            self._game_sock = open_game_socket(sock, game, RECEIVE_BUFFER)

    def _round(self, sock: socket.socket, buffer: bytearray) -> bool:
        """Read what the listening socket holds (up to DRAIN datagrams), then what the
        game's own socket holds; hand on those the allowances hold, by source address
        before any parse. True when it read DRAIN (more may be waiting)."""
        now, game = time.perf_counter(), self._game()
        self._follow_game(sock, game)
        take = _Take(game, int(self._game_allowance.refill(now)))
        listened = self._drain(sock, buffer, take, now)
        strangers = listened - take.game_seen
        if self._game_sock is not None:  # after the listening socket: it may hold the game's older ones
            self._drain(self._game_sock, buffer, take, now)
        if take.kept or take.discarded:
            self._busy_until = time.perf_counter() + BUSY_S
        self._game_allowance.left -= take.game_kept
        self._game_floods = take.game_seen > take.game_kept
        self._strangers += strangers * (SAMPLE if self._shielded else 1)
        self._count_system_drops(sock)
        self._guard(sock, game, now)
        self._on_round(take.kept, take.discarded)
        return listened >= DRAIN

    def _drain(self, reader: socket.socket, buffer: bytearray, take: _Take, now: float) -> int:
        """Read up to DRAIN datagrams of `reader` into `take`, each sorted by where it
        came from before any parse: how many were read."""
        view, receive, game, muted = memoryview(buffer), reader.recvfrom_into, take.game, take.muted
        for count in range(DRAIN):
            try:
                size, address = receive(buffer)
            except ConnectionRefusedError:  # an earlier send's "port unreachable" (or the game's port closed)
                continue
            except OSError:  # nothing more waiting (or the socket is gone)
                return count
            source = address[:2]
            if source in muted:  # first: in a flood, nearly every datagram
                take.discarded += 1
                continue
            if source == game:
                take.game_seen += 1
                if take.game_kept >= take.game_left or size > take.budget:
                    take.discarded += 1
                    continue
                take.game_kept += 1
            elif size > take.budget or not self._admit(source, now):
                muted.add(source)  # out of its allowance: the rest of the round discarded at once
                take.discarded += 1
                continue
            take.budget -= size
            take.kept.append((bytes(view[:size]), source))
        return DRAIN

    def _guard(self, sock: socket.socket, game: Address | None, now: float) -> None:
        """Raise the shield for `game` when the other addresses flood, lower it when they
        have stopped or the game is another (every METER_S)."""
        if self._shielded is not None and self._shielded != game:
            lower_shield(sock)
            self._shielded = None
        if now - self._metered_at < METER_S:
            return
        rate = self._strangers / (now - self._metered_at)
        self._strangers, self._metered_at = 0.0, now
        if self._shielded is None and game is not None and rate >= SHIELD_RATE:
            self._shielded = game if raise_shield(sock, game) else None
        elif self._shielded is not None and rate < SHIELD_DOWN_RATE:
            lower_shield(sock)
            self._shielded = None

    def _admit(self, source: Address, now: float) -> bool:
        """Whether a datagram from `source`, not the game, may be parsed: its own
        allowance and the one all other addresses share both hold one."""
        allowance = self._peers.get(source)
        if allowance is None:
            allowance = self._peers[source] = Allowance(PEER_RATE, PEER_BURST, now)
            if len(self._peers) > PEERS:
                self._peers.popitem(last=False)
        else:
            self._peers.move_to_end(source)
        return allowance.take(now) and self._others.take(now)


def _system_drops(sock: socket.socket) -> int:
    """The datagrams the system dropped for `sock` so far (0 where it does not say: not Linux)."""
    if not sys.platform.startswith("linux"):
        return 0
    try:
        return int.from_bytes(sock.getsockopt(socket.SOL_SOCKET, SO_MEMINFO, 36)[4 * MEMINFO_DROPS :], sys.byteorder)
    except OSError:
        return 0
