"""The sandbox's end of the link for the engine tests of the link node (docs/link.md,
written here on a plain socket), and what those tests share: a driven car, the
sandbox's arcade stepped from the node's telemetry."""

from __future__ import annotations

import json
import socket
import time

import numpy as np
import pytest

from sandbox.files.godot import export_script
from sandbox.files.godot_scene import export_scene
from sandbox.files.presets import BUILTIN_DIR, load_preset
from sandbox.link.protocol import VERSION
from sandbox.physics import sim
from sandbox.physics.models import arcade
from sandbox.physics.state import Controls, State

TOKEN = "test-token-5c1e-0042"
HZ = 60


class Sandbox:
    """The sandbox's end of the link: a UDP socket on 127.0.0.1 and what came in."""

    def __init__(self, token: str = TOKEN):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 22)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.token = token
        self.game = None  # the game's address, from its first message
        self.telemetry: dict[int, dict] = {}
        self.messages: list[dict] = []

    def close(self) -> None:
        self.sock.close()

    def receive(self, timeout: float = 15.0) -> dict:
        self.sock.settimeout(timeout)
        data, self.game = self.sock.recvfrom(70000)
        message = json.loads(data)
        assert message["v"] == VERSION and message["token"] == self.token, message
        self.messages.append(message)
        if message["type"] == "telemetry":
            self.telemetry[message["tick"]] = message
        return message

    def until(self, test, timeout: float = 60.0) -> dict:
        """The first message that passes `test` (the others are kept as they come)."""
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            assert left > 0, f"no such message within {timeout} s; last: {self.messages[-3:]}"
            message = self.receive(left)
            if test(message):
                return message

    def send(self, kind: str, **fields) -> None:
        self.send_raw(json.dumps({"v": VERSION, "type": kind, "token": self.token, **fields}).encode())

    def send_raw(self, data: bytes) -> None:
        self.sock.sendto(data, self.game)

    def welcome(self) -> dict:
        hello = self.until(lambda m: m["type"] == "hello")
        self.send("welcome", sandbox="test")
        return hello


@pytest.fixture(name="sandbox")
def sandbox_end():
    """The sandbox's end, closed after the test (the fixture `sandbox`)."""
    end = Sandbox()
    yield end
    end.close()


def drive(ticks: int, steer: float = 0.3, throttle: float = 1.0) -> np.ndarray:
    """Rows of steer, throttle, brake, handbrake, shift: a held throttle and turn."""
    trace = np.zeros((ticks, 5))
    trace[:, 0], trace[:, 1] = steer, throttle
    return trace


def arcade_scene(preset_name: str = "recipe_defaults.json") -> tuple[dict[str, str], object]:
    preset = load_preset(BUILTIN_DIR / preset_name)
    return {"car.tscn": export_scene(preset, 3, "car.gd"), "car.gd": export_script(preset, 3)}, preset


def step_arcade(before: dict, after: dict, tuning: dict) -> dict[str, float]:
    """The sandbox's arcade stepped one tick from the telemetry `before` with the
    controls `after` says the car read: the pose and velocity it gives."""
    state = State(before["x"], before["y"], before["heading"], before["vx"], before["vy"])
    c = after["controls"]
    controls = Controls(c["steer"], c["throttle"], c["brake"], c["handbrake"], c["shift"])
    out = sim.step(arcade, state, controls, tuning, 1.0 / HZ)
    return {k: float(getattr(out, k)[0]) for k in ("x", "y", "heading", "vx", "vy")}


def gap(one: dict, other: dict) -> float:
    """The largest difference of pose and velocity (px, px/s, rad) of two states."""
    return max(abs(one[k] - other[k]) for k in ("x", "y", "heading", "vx", "vy"))


FLOAT32_GAP = 1e-3
"""px, px/s, rad: one tick of the engine's 32-bit arithmetic against the sandbox's 64-bit
one, from the telemetry's six decimals (measured 3e-5; a value the engine did not use
moves the tick by 0.3 or more)."""
