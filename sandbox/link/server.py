"""The sandbox's end of the link (docs/link.md): it takes the game's messages on the
socket's thread (receiver.py), keeps the telemetry in a bounded queue (newest kept),
pings the game once a second, and sends the values set, at most one `set` per physics
tick of the game, again until acknowledged. Bad input is counted by reason, never
raised on the link's thread; each datagram is handled on its own, and a bug met is
counted and logged once per kind (failures.py)."""

from __future__ import annotations

import ipaddress
import math
import threading
import time
from collections import Counter, OrderedDict, deque
from dataclasses import replace
from typing import Callable

from .. import __version__
from . import recorder
from .failures import Failures
from .game import GameInfo, LinkStatus, RecordingSummary, Telemetry
from .level_parts import FIRST_RESEND_S, LEVEL_TIMEOUT_S, RESEND_S, WINDOW, GameLevel, LevelParts
from .protocol import (
    DEFAULT_PORT,
    FROM_GAME,
    LEVEL_VERSION,
    LinkError,
    ProtocolError,
    check_token,
    decode,
    encode,
    new_token,
)
from .receiver import Datagram, Receiver

__all__ = ["GameInfo", "GameLevel", "LinkServer", "LinkStatus", "RecordingSummary", "Telemetry"]

PING_S = 1.0
RESEND_TICKS = 3
"""game ticks without an ack after which the newest values are sent again."""
RECORD_ROWS = 1_000_000
"""ticks a recording keeps at most (over an hour at 240 Hz); later ones are counted, not kept."""
JUMP_S = 10.0
"""s of the game's ticks a telemetry may run ahead of the last one taken: a tick further
ahead is refused ("bad field"), not taken as the game's clock..."""
JUMP_CONFIRMED = 10
"""...unless this many ticks in a row continue from it: then the game's clock did move
(the ticks between count as lost)."""
HANDOVER_S = 1.0
"""s the linked game must have been silent before a hello from another address takes
its place (at once after its bye); until then such a hello is dropped, counted as
ANOTHER_GAME."""
ANOTHER_GAME = "hello from another game"
"""The reason a hello from another address is dropped while the linked game is alive."""


class LinkServer:
    """Listens on `host`:`port` (port 0: any free one) for one game with `token`; see
    docs/link.md for the messages. Every method may be called from any thread."""

    def __init__(self, port: int = DEFAULT_PORT, host: str = "127.0.0.1", token: str | None = None, queue: int = 4096):
        self.host = host
        self.token = new_token() if token is None else check_token(token)
        self.warning = None if _loopback(host) else (
            f"listening on {host}: other computers that can reach this address can talk to the link "
            "(each message still needs the token)"
        )  # fmt: skip
        self.on_ack: Callable[[dict], None] | None = None
        self._cond = threading.Condition()
        self._stopping = threading.Event()
        self._receiver = Receiver(host, port, self._round, self._timers, self._game_address)
        self._queue: deque[Telemetry] = deque(maxlen=max(1, queue))
        self._dropped: Counter[str] = Counter()
        self._tally: deque[tuple[float, int]] = deque()  # (time, accepted messages) per round
        self._received = self._lost = self._last_applied = self._ticks = 0
        self._game: GameInfo | None = None
        self._latest: Telemetry | None = None
        self._last_tick: int | None = None
        self._rtt_ms: float | None = None
        self._values: dict[str, float | bool] = {}
        self._refused: dict[str, str] = {}
        self._seq = 0
        self._pending: dict[str, float | bool] = {}
        self._pending_seq = 0
        self._in_flight: tuple[int, dict, int] | None = None  # (seq, values, tick count when sent)
        self._slot = True  # a set may go out before the next telemetry
        self._acks: OrderedDict[int, dict] = OrderedDict()
        self._level: LevelParts | None = None  # the level being pulled
        self._answers: OrderedDict[int, dict] = OrderedDict()
        self._pings: OrderedDict[int, float] = OrderedDict()
        self._last_ping = -math.inf
        self._recording: list[Telemetry] | None = None
        self._recording_lost = 0
        self._ahead: tuple[int, int] | None = None  # (first, last) of the ticks in a row refused as too far ahead
        self._bugs = Failures()
        self._recording_hz: float | None = None  # the tick rate of the game whose ticks it holds
        self._recording_switches: dict[str, bool] = {}  # and that game's switches
        self._recording_car: tuple[str, str] = ("", "")  # and its car's model and unit of length
        self._recording_held = False  # stopped by the user, not yet written: no tick more is kept
        self._recording_ended: str | None = None  # why it ended before it was stopped (a new hello)
        self._heard_at = -math.inf  # when the linked game last sent something accepted
        self._games = 0  # games linked since listening (GameInfo.number)

    # -- the socket's life -------------------------------------------------------
    def start(self) -> None:
        """Bind and start the link's thread; LinkError names the address and why not."""
        self._receiver.start()

    def stop(self) -> None:
        """Stop listening; the thread ends within about 0.05 s. Idempotent."""
        self._stopping.set()
        self._receiver.stop()
        with self._cond:
            self._cond.notify_all()

    @property
    def port(self) -> int:
        return self._receiver.address[1]

    def _game_address(self) -> tuple[str, int] | None:
        """Where the linked game sends from (read on the link's thread, lock-free)."""
        game = self._game
        return None if game is None else game.address

    def _round(self, datagrams: list[Datagram], discarded: int) -> None:
        """Handle one round of datagrams (on the link's thread), each on its own: one
        that is bad, or meets a bug, is dropped and counted and the others are handled."""
        now, accepted = time.perf_counter(), 0
        for data, address in datagrams:
            try:
                message = decode(data, self.token)
            except ProtocolError as exc:
                with self._cond:
                    self._dropped[exc.reason] += 1
                continue
            except Exception:  # noqa: BLE001 (a bug in the decoding: logged once, counted)
                with self._cond:
                    self._bugs.met("reading a message", self._dropped)
                continue
            accepted += self._take(message, address, now)
        with self._cond:
            if discarded:
                self._dropped["flood"] += discarded
            self._tally.append((now, accepted))
            while self._tally and self._tally[0][0] < now - 1.0:
                self._tally.popleft()

    # -- the messages ---------------------------------------------------------------
    def _take(self, message: dict, address: tuple[str, int], now: float) -> int:
        """Handle one decoded message; 1 when accepted, 0 when dropped (counted; a bug
        met is logged once)."""
        kind, hook = message["type"], None
        with self._cond:
            try:
                if kind not in FROM_GAME:
                    self._dropped["unexpected type"] += 1
                    return 0
                if kind != "hello" and (self._game is None or address != self._game.address):
                    self._dropped["not the game"] += 1
                    return 0
                if kind == "hello" and not self._may_link(address, now):
                    self._dropped[ANOTHER_GAME] += 1
                    return 0
                self._heard_at = now
                self._received += 1
                getattr(self, f"_on_{kind}")(message, address, now)
                hook = self.on_ack if kind == "ack" else None
                self._cond.notify_all()
            except Exception:  # noqa: BLE001 (a bug here must not end the link: logged once, counted)
                self._bugs.met(f"handling a {kind}", self._dropped)
                return 0
        if hook is not None:
            try:
                hook(message)
            except Exception:  # noqa: BLE001
                with self._cond:
                    self._bugs.met("in the handler of the game's ack", self._dropped)
        return 1

    def _may_link(self, address, now: float) -> bool:
        """Whether a hello from `address` may be taken: no game is linked (or it said
        bye), it is the linked game's own address (a restart), or the linked game has
        been silent HANDOVER_S (lock held)."""
        game = self._game
        return game is None or address == game.address or now - self._heard_at >= HANDOVER_S

    def _on_hello(self, message: dict, address, now: float) -> None:
        old = self._game
        # the same hello again before any telemetry: its welcome was lost (the node says
        # hello until welcomed); any other hello is a new game, or the game restarted
        again = old is not None and address == old.address and self._last_tick is None
        if not again:
            self._games += 1
            self._end_recording_part(old, address)
        self._game = replace(GameInfo.of(message, address), number=self._games)
        self._values = dict(self._game.params)
        self._last_tick, self._slot = None, True
        self._send({"type": "welcome", "sandbox": __version__})
        self._flush()

    def _on_telemetry(self, message: dict, address, now: float) -> None:
        telemetry = Telemetry.of(message, now)
        gap = 0 if self._last_tick is None else telemetry.tick - self._last_tick - 1
        if gap > JUMP_S * self._game.hz and not self._jump_confirmed(telemetry.tick):
            self._dropped["bad field"] += 1  # a tick from far in the future: not the game's clock
            return
        self._ahead = None
        if gap < 0:  # older than one already taken (reordered): the path must not step back
            self._dropped["out of order"] += 1
            return
        self._lost += gap
        self._last_tick, self._latest = telemetry.tick, telemetry
        if len(self._queue) == self._queue.maxlen:
            self._dropped["queue full"] += 1
        self._queue.append(telemetry)
        if self._recording is None or self._recording_ended is not None or self._recording_held:
            pass  # not recording, ended at a new hello (its ticks are not this game's), or stopped
        elif len(self._recording) >= RECORD_ROWS:
            self._dropped["recording full"] += 1
        else:
            self._recording_lost += gap if self._recording else 0
            if self._recording_hz is None:
                self._recording_hz, self._recording_switches = self._game.hz, dict(self._game.switches)
                self._recording_car = (self._game.model, self._game.units)
            self._recording.append(telemetry)
        self._ticks, self._slot = self._ticks + 1, True  # the game's tick is the clock of the sets
        self._flush()

    def _jump_confirmed(self, tick: int) -> bool:
        """Whether `tick`, too far ahead of the last one taken, is the JUMP_CONFIRMED-th
        of a row of such ticks, each one after the other (lock held)."""
        first, last = self._ahead if self._ahead is not None and tick == self._ahead[1] + 1 else (tick, tick)
        self._ahead = (first, tick)
        return tick - first + 1 >= JUMP_CONFIRMED

    def _on_ack(self, message: dict, address, now: float) -> None:
        seq = message["seq"]
        if self._in_flight is not None and seq >= self._in_flight[0]:
            self._in_flight = None
        _bounded(self._acks, seq, message)
        self._values.update(message["applied"])
        if message["refused"]:
            self._refused = dict(message["refused"])
        self._last_applied = max(self._last_applied, seq)

    def _on_values(self, message: dict, address, now: float) -> None:
        self._values.update(message["params"])
        _bounded(self._answers, message["seq"], message["params"])

    def _on_pong(self, message: dict, address, now: float) -> None:
        sent = self._pings.pop(message["seq"], None)
        if sent is not None:
            self._rtt_ms = (now - sent) * 1000.0

    def _on_level(self, message: dict, address, now: float) -> None:
        if self._level is not None and self._level.add(message):
            self._level_heard = now

    def _on_bye(self, message: dict, address, now: float) -> None:
        self._game = None

    def _end_recording_part(self, old: GameInfo | None, address) -> None:
        """A new hello while recording: the ticks recorded so far are one drive, and the
        new game's (or the restarted game's, whose ticks count from 1 again) are another;
        they are never written as one. The recording ends here (lock held)."""
        rows = self._recording
        if not rows or self._recording_ended is not None or self._recording_held:
            return  # nothing recorded, or the recording ended already
        if old is not None and old.address == address:
            why = "the game restarted (a new hello from it)"
        elif old is not None:
            why = f"another game linked (a hello from {address[0]}:{address[1]})"
        else:
            why = "the game said bye, and then a game said hello"
        seconds = (rows[-1].tick - rows[0].tick + 1) / self._recording_hz
        self._recording_ended = (
            f"{why}: the recording ended there, with the {len(rows):,d} ticks ({seconds:.2f} s) before it; "
            "nothing after it is recorded"
        )

    def _send(self, message: dict) -> None:
        """Send to the game (lock held); a failed send is counted, not raised."""
        try:
            data = encode({**message, "token": self.token}, self._game.protocol)
            self._receiver.send(data, self._game.address)
        except (OSError, ValueError, AttributeError):
            self._dropped["not sent"] += 1

    def _next_seq(self) -> int:
        self._seq += 1
        return self._seq

    def _flush(self) -> None:
        """Send the pending values, or the unacknowledged ones again after RESEND_TICKS,
        when this tick's slot is still free (lock held)."""
        if self._game is None or not self._slot:
            return
        if self._pending:
            values = {**(self._in_flight[1] if self._in_flight else {}), **self._pending}
            self._in_flight, self._pending = (self._pending_seq, values, self._ticks), {}
        elif self._in_flight is None or self._ticks - self._in_flight[2] < RESEND_TICKS:
            return
        seq, values, _ = self._in_flight
        self._in_flight, self._slot = (seq, values, self._ticks), False
        self._send({"type": "set", "seq": seq, "params": values})

    def _timers(self) -> None:
        now = time.perf_counter()
        with self._cond:
            if self._game is not None and now - self._last_ping >= PING_S:
                self._last_ping = now
                seq = self._next_seq()
                _bounded(self._pings, seq, now)
                self._send({"type": "ping", "seq": seq})

    # -- the caller's side ------------------------------------------------------------
    def status(self) -> LinkStatus:
        with self._cond:
            now = time.perf_counter()
            per_second = sum(count for when, count in self._tally if when >= now - 1.0)
            return LinkStatus(
                listening=self._receiver.alive, address=self._receiver.address, token=self.token, game=self._game,
                messages_per_second=float(per_second),
                received=self._received, dropped=dict(self._dropped + self._receiver.failures),
                lost_ticks=self._lost, rtt_ms=self._rtt_ms,
                values=dict(self._values), refused=dict(self._refused), last_applied=self._last_applied,
                recording_ended=self._recording_ended,
            )  # fmt: skip

    def take(self) -> list[Telemetry]:
        """Every telemetry since the last call, oldest first."""
        with self._cond:
            taken = list(self._queue)
            self._queue.clear()
            return taken

    def latest(self) -> Telemetry | None:
        return self._latest

    def wait_for_game(self, timeout: float) -> GameInfo | None:
        """The game, once its hello arrived; None after `timeout` s without one."""
        with self._cond:
            self._cond.wait_for(lambda: self._game is not None or self._stopping.is_set(), timeout)
            return self._game

    def send_set(self, values: dict[str, float | bool]) -> int:
        """Merge `values` into those waiting to be sent; returns the seq they go out
        under (no values: nothing is sent, and the newest seq already handed out is
        returned). ValueError for a value neither a finite number nor true/false."""
        for name, value in values.items():
            if not isinstance(value, bool) and not (isinstance(value, (int, float)) and math.isfinite(value)):
                raise ValueError(f"{name}: {value!r} is not a finite number or true/false")
        with self._cond:
            if not values:
                return self._pending_seq  # the newest seq handed out for values, sent or not (0: none yet)
            if not self._pending:
                self._pending_seq = self._next_seq()
            self._pending.update({n: v if isinstance(v, bool) else float(v) for n, v in values.items()})
            self._flush()
            return self._pending_seq

    def wait_applied(self, seq: int, timeout: float) -> dict | None:
        """The game's ack of the set `seq` (or of a later one, which carried its values
        too): {"seq", "tick", "applied", "refused"}; None after `timeout` s."""

        def found() -> dict | None:
            later = [ack for number, ack in self._acks.items() if number >= seq]
            return min(later, key=lambda ack: ack["seq"]) if later else None

        with self._cond:
            ack = self._cond.wait_for(lambda: found() or self._stopping.is_set(), timeout)
            return dict(ack) if isinstance(ack, dict) else None

    def request_values(self, timeout: float) -> dict[str, float | bool] | None:
        """The game's current values (a get, answered by values); None when there is
        no game or no answer within `timeout` s."""
        with self._cond:
            if self._game is None:
                return None
            seq = self._next_seq()
            self._send({"type": "get", "seq": seq})
            self._cond.wait_for(lambda: seq in self._answers or self._stopping.is_set(), timeout)
            answer = self._answers.get(seq)
            return dict(answer) if answer is not None else None

    def request_level(self, timeout: float = LEVEL_TIMEOUT_S) -> GameLevel:
        """The static collision shapes of the running game (docs/link.md, `get_level`),
        asked for in parts, WINDOW at a time, each asked again when lost; LinkError
        when no game is linked, its node does not send levels (an older one), the game
        changes, or nothing of the level comes for `timeout` s."""
        with self._cond:
            game = self._game
            if game is None:
                raise LinkError("No game is linked: Listen, then run the game with the token")
            if game.protocol < LEVEL_VERSION:
                raise LinkError(
                    f"The game's link node speaks the link's version {game.protocol}, which does not send the "
                    "level: export the link node again (File → Export → Godot link node) and put it in the game"
                )
            parts = self._level = LevelParts()
            self._level_heard = start = time.perf_counter()
            asked: dict[int, float] = {}  # part -> when it was last asked for
            try:
                while not parts.complete:
                    now = time.perf_counter()
                    if self._game is not game or self._stopping.is_set():
                        raise LinkError("The game left the link while its level was coming")
                    if now - max(self._level_heard, start) > timeout:
                        got = f" ({len(parts.got)} of its {parts.parts} parts came)" if parts.parts else ""
                        raise LinkError(f"The game did not send its level within {timeout:g} s{got}")
                    self._ask_level(parts, asked, now)
                    self._cond.wait(RESEND_S / 4)
            finally:
                self._level = None
            return parts.whole(game.game, game.godot)

    def _ask_level(self, parts: LevelParts, asked: dict[int, float], now: float) -> None:
        """Ask for part 0 until it comes (again after FIRST_RESEND_S), then for the
        missing parts, WINDOW at a time, each again after RESEND_S (lock held)."""
        wanted = [0] if parts.first is None else parts.missing()[:WINDOW]
        for part in wanted:
            wait = FIRST_RESEND_S if part == 0 else RESEND_S
            if now - asked.get(part, -wait) >= wait:
                asked[part] = now
                level = {} if part == 0 else {"level": parts.level}
                self._send({"type": "get_level", "seq": self._next_seq(), "part": part, **level})

    def start_recording(self) -> None:
        """Keep every telemetry from now on for stop_recording."""
        with self._cond:
            self._recording, self._recording_lost, self._recording_held = [], 0, False
            self._recording_hz = self._recording_ended = None

    def hold_recording(self) -> None:
        """End the recording here without writing it yet (the user pressed Stop and is
        choosing where to save it): no tick that arrives later is kept; stop_recording
        writes what was kept, discard_recording drops it."""
        with self._cond:
            self._recording_held = self._recording is not None

    def stop_recording(self, path) -> RecordingSummary:
        """Write the telemetry since start_recording (up to a new hello, which ends the
        recording: see `_end_recording_part`) to `path` (docs/link.md's recording
        format, atomically; an older recording there kept as .bak) and end the
        recording; LinkError when none arrived, the file there is not a recording, or it
        cannot be written: then nothing is written and the drive is kept (and goes on
        being recorded unless held), so it can still be saved elsewhere."""
        with self._cond:
            rows, lost = list(self._recording or []), self._recording_lost
            hz, ended, switches = self._recording_hz, self._recording_ended, self._recording_switches
            model, units = self._recording_car
        summary = recorder.write_recording(
            path, rows, lost, hz, ended=ended, switches=switches, model=model, units=units
        )
        self.discard_recording()
        return summary

    def discard_recording(self) -> None:
        """End the recording without writing it."""
        with self._cond:
            self._recording, self._recording_lost, self._recording_held = None, 0, False
            self._recording_hz = self._recording_ended = None

    @property
    def recording(self) -> bool:
        with self._cond:
            return self._recording is not None


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def _bounded(table: OrderedDict, key, value, size: int = 64) -> None:
    """Keep the newest `size` entries only (answers nobody waits for must not pile up)."""
    table[key] = value
    while len(table) > size:
        table.popitem(last=False)
