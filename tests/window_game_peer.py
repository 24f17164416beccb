"""A stand-in for the game's link node in the window's tests: a thread that speaks the
protocol of docs/link.md from the game's side, written from the document (not from the
sandbox's code): hello until welcomed, telemetry at `hz`, ack for each set (refusing
what `limits` says is out of range), values for get, pong for ping, and (speaking
`version` 2, with a `level`) its level in one part for get_level. It keeps what it was
sent and the telemetry it sent, for the tests to compare."""

from __future__ import annotations

import json
import math
import socket
import threading
import time

GAME = "Peer Test Game"


class GamePeer(threading.Thread):
    """The game: `params` its values (the sandbox's names), `limits` name -> (low, high)
    it accepts, `pose` (x, y, heading, vx, vy) sent every tick."""

    def __init__(self, port: int, token: str, params: dict, model: str = "arcade", hz: float = 60.0):
        super().__init__(daemon=True)
        self.address = ("127.0.0.1", port)
        self.token = token
        self.params = dict(params)
        self.model = model
        self.name = GAME
        self.hz = hz
        self.units = "m" if model in ("bicycle", "ackermann", "rigid_body", "monster") else "px"
        self.limits: dict[str, tuple[float, float]] = {}
        self.pose = (0.0, 0.0, 0.0, 0.0, 0.0)
        self.missing: list[str] = []
        self.sets: list[dict] = []  # every set received, in order
        self.errors: list[bytes] = []  # messages from the sandbox that break the protocol
        self.sent: dict[int, dict] = {}  # tick -> the telemetry sent for it
        self.welcomed = threading.Event()
        self.version = 1  # the link's version the game's node speaks
        self.level: dict | None = None  # a level message's shapes, not_read, car: sent for get_level
        self.level_asked = 0
        self.applied = 0
        self.tick = 0
        self._pending: list[dict] = []  # sets to apply at the start of the next tick
        self._lock = threading.Lock()
        self._halt = threading.Event()
        self._restarting = threading.Event()
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.settimeout(0.0)

    def send(self, message: dict) -> None:
        data = json.dumps({"v": self.version, "token": self.token, **message}).encode()
        self.sock.sendto(data, self.address)

    def send_raw(self, data: bytes) -> None:
        self.sock.sendto(data, self.address)

    def stop(self) -> None:
        self._halt.set()
        self.join(2.0)
        self.sock.close()

    def restart(self) -> None:
        """Say hello again from the same address, as the game restarted does (its ticks
        from 1 again)."""
        self._restarting.set()  # done on the game's own thread, between two ticks

    def _hello(self) -> None:
        self.send(
            {
                "type": "hello",
                "game": self.name,
                "godot": "3.5.3",
                "model": self.model,
                "format": 3,
                "hz": self.hz,
                "units": self.units,
                "params": self.params,
                "missing": self.missing,
            }
        )

    def _read(self) -> None:
        while True:
            try:
                data, _ = self.sock.recvfrom(70000)
            except (BlockingIOError, OSError):
                return
            try:
                message = json.loads(data)
            except ValueError:
                message = None
            if not isinstance(message, dict) or message.get("v") != self.version or message.get("token") != self.token:
                self.errors.append(data[:200])  # the sandbox broke the protocol: the test says so
                continue
            kind = message["type"]
            if kind == "welcome":
                self.welcomed.set()
            elif kind == "set":
                with self._lock:
                    self.sets.append(message)
                    self._pending.append(message)
            elif kind == "get":
                with self._lock:
                    self.send({"type": "values", "seq": message["seq"], "params": dict(self.params)})
            elif kind == "ping":
                self.send({"type": "pong", "seq": message["seq"]})
            elif kind == "get_level" and self.version >= 2 and self.level is not None:
                self.level_asked += 1
                level = {"left_out": 0, "not_read": [], **self.level}
                self.send({"type": "level", "seq": message["seq"], "level": message["seq"], "part": 0, "parts": 1,
                           **level})  # fmt: skip

    def _apply(self) -> None:
        """The sets received, at the start of a physics tick: applied or refused, then ack."""
        with self._lock:
            pending, self._pending = self._pending, []
            for message in pending:
                applied, refused = {}, {}
                for name, value in message["params"].items():
                    low, high = self.limits.get(name, (-math.inf, math.inf))
                    if name not in self.params:
                        refused[name] = "not a parameter of this car"
                    elif not low <= value <= high:
                        refused[name] = f"{value:g} is outside {low:g} … {high:g}"
                    else:
                        applied[name] = self.params[name] = value
                self.applied = message["seq"]
                self.send(
                    {"type": "ack", "seq": message["seq"], "tick": self.tick, "applied": applied, "refused": refused}
                )

    def run(self) -> None:
        next_hello = 0.0
        while not self._halt.is_set():
            now = time.monotonic()
            if self._restarting.is_set():
                self._restarting.clear()
                self.tick, next_hello = 0, 0.0
                self.welcomed.clear()
            self._read()
            if not self.welcomed.is_set():
                if now >= next_hello:
                    self._hello()
                    next_hello = now + 0.2
                time.sleep(0.01)
                continue
            self._apply()
            self.tick += 1
            x, y, heading, vx, vy = self.pose
            telemetry = {
                "type": "telemetry",
                "tick": self.tick,
                "t": self.tick / self.hz,
                "x": x,
                "y": y,
                "heading": heading,
                "vx": vx,
                "vy": vy,
                "controls": {"steer": 0.25, "throttle": 1, "brake": 0, "handbrake": 0, "shift": 0},
                "state": {},
                "applied": self.applied,
                "cost_us": 12,
            }
            self.sent[self.tick] = telemetry
            self.send(telemetry)
            time.sleep(1.0 / self.hz)
