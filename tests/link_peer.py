"""A test tool that plays the game's side of the link by the protocol of docs/link.md
(it is the protocol's peer for the tests of the sandbox's end, not the engine: the
link node itself is tested in Godot). It sends what a test tells it, answers ping,
get, (when `acks` is on) set and (when it has `level_parts`) get_level on its own
thread, and keeps every message received."""

from __future__ import annotations

import json
import socket
import threading
import time

from sandbox.link.protocol import VERSION, ProtocolError, decode, encode

WAIT_S = 60.0
"""s a test waits for something that arrives within milliseconds on a loaded machine."""


def wait_until(condition, what: str, timeout: float = WAIT_S):
    """Poll `condition` until it is true (returns it); fails the test naming `what`."""
    end = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"waited {timeout:g} s for {what}")
        time.sleep(0.005)


class Peer:
    """The game's side: one UDP socket on 127.0.0.1 sending to the sandbox's `port`."""

    def __init__(self, port: int, token: str, values: dict | None = None):
        self.port, self.token = port, token
        self.values = dict(values or {"engine_power": 800.0, "drag": -0.001})
        self.acks, self.tick = True, 0
        self.level_parts: list[list[dict]] | None = None  # the level's shapes, part by part
        self.level_first: dict = {}  # part 0's other fields (left_out, not_read, car)
        self.level_id = -1
        self.spoil: dict[int, bytes] = {}  # part -> what is sent instead of it, the first time it is asked for
        self.received: list[dict] = []
        self.lock = threading.Lock()
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.settimeout(0.05)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._listen, name="test peer", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self.sock.close()

    def send(self, message: dict) -> None:
        self.sock.sendto(encode({"token": self.token, **message}), ("127.0.0.1", self.port))

    def send_raw(self, data: bytes) -> None:
        self.sock.sendto(data, ("127.0.0.1", self.port))

    def raw(self, message: dict) -> bytes:
        """A message as JSON without encode's checks (NaN and all)."""
        return json.dumps({"v": VERSION, "token": self.token, **message}).encode()

    def hello(self, **fields) -> None:
        message = {"type": "hello", "game": "Test Game", "godot": "3.2.3", "model": "arcade", "format": 3}
        message.update(hz=60, units="px", params=dict(self.values), missing=["slip_speed"])
        self.send({**message, **fields})

    def telemetry(self, tick: int | None = None, **fields) -> int:
        """Send the telemetry of tick `tick` (default: the next); returns the tick."""
        self.tick = self.tick + 1 if tick is None else tick
        message = {"type": "telemetry", "tick": self.tick, "t": self.tick / 60, "x": 2.0 * self.tick, "y": -1.0}
        message.update(heading=0.01 * self.tick, vx=120.0, vy=0.5, applied=0, cost_us=12.5, state={"omega": 0.25})
        message["controls"] = {"steer": 0.5, "throttle": 1.0, "brake": 0.0, "handbrake": 0.0, "shift": 0.0}
        self.send({**message, **fields})
        return self.tick

    def _level_part(self, message: dict) -> None:
        """Answer a get_level as docs/link.md says: part 0 collects the level anew."""
        part = message["part"]
        if part == 0:
            self.level_id = message["seq"]
        elif message["level"] != self.level_id or part >= len(self.level_parts):
            return
        spoiled = self.spoil.pop(part, None)
        if spoiled is not None:
            self.send_raw(spoiled)
            return
        first = dict(self.level_first, left_out=self.level_first.get("left_out", 0)) if part == 0 else {}
        self.send({"type": "level", "seq": message["seq"], "level": self.level_id, "part": part,
                   "parts": len(self.level_parts), "shapes": self.level_parts[part], **first})  # fmt: skip

    def of_type(self, kind: str) -> list[dict]:
        with self.lock:
            return [m for m in self.received if m["type"] == kind]

    def wait_for(self, kind: str, count: int = 1) -> list[dict]:
        return wait_until(lambda: len(self.of_type(kind)) >= count and self.of_type(kind), f"{count} {kind}")

    def _listen(self) -> None:
        while not self._stop.is_set():
            try:
                data, _ = self.sock.recvfrom(70_000)
                message = decode(data, self.token)
            except (TimeoutError, socket.timeout, ProtocolError):
                continue
            with self.lock:
                self.received.append(message)
            kind = message["type"]
            if kind == "ping":
                self.send({"type": "pong", "seq": message["seq"]})
            elif kind == "get":
                self.send({"type": "values", "seq": message["seq"], "params": dict(self.values)})
            elif kind == "get_level" and self.level_parts is not None:
                self._level_part(message)
            elif kind == "set" and self.acks:
                self.values.update(message["params"])
                self.send({"type": "ack", "seq": message["seq"], "tick": self.tick + 1,
                           "applied": message["params"], "refused": {}})  # fmt: skip
