"""`car-sandbox link` end to end: the command runs as its own process, and a peer
thread plays the game by the protocol (tests/link_peer.py), on a port the system
chooses (the command prints it)."""

from __future__ import annotations

import csv
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from link_peer import WAIT_S, Peer, wait_until

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "c0ffee42"
ARCADE_VALUES = {"engine_power": 800.0, "drag": -0.06, "rate_independent": False}


class Command:
    """`car-sandbox link ARGS` running; `peer` plays the game once the port is known."""

    def __init__(self, *args: str, values: dict | None = None):
        env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "sandbox", "link", "--port", "0", "--token", TOKEN, *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        )  # fmt: skip
        self.json = "--json" in args
        stream = self.process.stderr if self.json else self.process.stdout
        self.first = stream.readline()  # the address: its first line
        found = re.search(r"port (\d+), token (\w+)", self.first)
        assert found, f"no address in {self.first!r}"
        self.port = int(found.group(1))
        self.peer = Peer(self.port, TOKEN, values or ARCADE_VALUES)

    def finish(self) -> tuple[int, str, str]:
        """(exit code, stdout, stderr) once it ended; the peer closed."""
        try:
            out, err = self.process.communicate(timeout=60)
        finally:
            self.peer.close()
        if self.json:
            err = self.first + err
        else:
            out = self.first + out
        assert "Traceback" not in err, err
        return self.process.returncode, out, err


@pytest.fixture
def running():
    """Start commands; each is ended (and its peer closed) after the test."""
    started: list[Command] = []

    def start(*args: str, **kwargs) -> Command:
        started.append(Command(*args, **kwargs))
        return started[-1]

    yield start
    for command in started:
        if command.process.poll() is None:
            command.process.kill()
            command.process.communicate()
        command.peer.close()


def drive(peer: Peer, stop: threading.Event) -> threading.Thread:
    """Send telemetry, about 200 ticks a second, until `stop`."""

    def ticks() -> None:
        while not stop.wait(0.005):
            peer.telemetry(state={"omega": 0.5, "rpm": 3000.0})

    thread = threading.Thread(target=ticks, name="drive")
    thread.start()
    return thread


def test_no_game_is_a_clear_message_and_exit_1(running):
    code, out, err = running("--wait", "0.5").finish()
    assert code == 1
    assert "no game said hello within 0.5 s" in err and f"token {TOKEN}" in err
    assert "listening on 127.0.0.1" in out


def test_the_game_is_shown_and_values_set_are_acknowledged(running):
    command = running("--set", "engine_power=900", "drag=-0.05", "--json")
    command.peer.hello()
    code, out, err = command.finish()
    assert code == 0, err
    report = json.loads(out)
    assert report["game"] == {
        "name": "Test Game", "godot": "3.2.3", "model": "arcade", "format": 3, "hz": 60.0, "units": "px",
        "values": ARCADE_VALUES, "missing": ["slip_speed"],
    }  # fmt: skip
    assert report["set"]["sent"] == {"engine_power": 900.0, "drag": -0.05}
    assert report["set"]["applied"] == {"engine_power": 900.0, "drag": -0.05} and report["set"]["refused"] == {}
    assert command.peer.values["engine_power"] == 900.0  # what the game side holds now
    assert [s["params"] for s in command.peer.of_type("set")] == [{"engine_power": 900.0, "drag": -0.05}]
    assert report["messages"] >= 2 and report["token"] == TOKEN and report["port"] == command.port


def test_the_text_says_the_same_for_people(running):
    command = running("--set", "engine_power=900")
    command.peer.hello()
    code, out, err = command.finish()
    assert code == 0, err
    assert "game: Test Game (Godot 3.2.3), model arcade (format 3), 60 Hz, lengths in px" in out
    assert "missing in the game's car script: slip_speed" in out
    assert re.search(r"applied at tick \d+: engine_power 900", out)
    assert "messages received:" in out and "dropped: none" in out


@pytest.mark.parametrize(
    "setting, message",
    [
        ("engine_pwr=900", "the arcade model has no such parameter (did you mean engine_power?)"),
        ("engine_power=99999", "99999 is outside the allowed range 0 … 4000"),
        ("rate_independent=1", "is not true or false"),
        ("slip_speed=300", "the game's car script has no variable for it"),
        ("braking=-400", "the game's link node maps no such parameter"),
    ],
)
def test_a_bad_value_is_refused_before_anything_is_sent(running, setting, message):
    command = running("--set", setting)
    command.peer.hello()
    code, _, err = command.finish()
    assert code == 2 and message in err, err
    assert command.peer.of_type("set") == []


def test_a_value_the_game_refuses_is_reported_and_the_exit_code_says_so(running):
    command = running("--set", "drag=-0.5", "--json")
    command.peer.acks = False
    command.peer.hello()
    sent = command.peer.wait_for("set")[0]
    command.peer.send({"type": "ack", "seq": sent["seq"], "tick": 5, "applied": {}, "refused": {"drag": "too low"}})
    code, out, _ = command.finish()
    assert code == 1
    assert json.loads(out)["set"]["refused"] == {"drag": "too low"}


@pytest.mark.parametrize(
    "argv", [["--set", "drag"], ["--set", "drag=fast"], ["--set", "drag=nan"], ["--port", "70000"]]
)
def test_a_malformed_argument_is_refused_before_listening(argv):
    done = subprocess.run(
        [sys.executable, "-m", "sandbox", "link", *argv], capture_output=True, text=True, timeout=60,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )  # fmt: skip
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "listening" not in done.stdout


def test_a_drive_is_recorded_with_one_row_per_tick_and_bad_input_counted(running, tmp_path):
    out_csv = tmp_path / "drive.csv"
    command = running("--record", str(out_csv), "--seconds", "1", "--json")
    command.peer.hello()
    command.peer.send_raw(b"garbage")
    command.peer.send_raw(command.peer.raw({"type": "telemetry", "tick": 1, "x": float("nan")}))
    stop = threading.Event()
    driver = drive(command.peer, stop)
    try:
        code, out, err = command.finish()
    finally:
        stop.set()
        driver.join()
    assert code == 0, err
    report = json.loads(out)
    recording = report["recording"]
    with open(out_csv, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    assert rows[0] == "steer,throttle,brake,handbrake,shift,t,x,y,heading,vx,vy,omega,rpm".split(",")
    assert recording["rows"] == len(rows) - 1 > 0
    ticks = [round(float(row[5]) * 60) for row in rows[1:]]
    assert ticks == sorted(ticks)
    assert recording["lost_ticks"] == (ticks[-1] - ticks[0] + 1) - len(ticks)
    assert report["dropped"]["not JSON"] == 1 and report["dropped"]["bad field"] == 1


def test_the_switches_the_hello_states_head_the_recording_and_the_rest_are_counted(running, tmp_path):
    out_csv = tmp_path / "drive.csv"
    command = running("--record", str(out_csv), "--seconds", "1")
    command.peer.hello(switches={"analog_pedals": True, "recipe_2020": False, "abs": True, "rate_independent": 0})
    stop = threading.Event()
    driver = drive(command.peer, stop)
    try:
        code, out, err = command.finish()
    finally:
        stop.set()
        driver.join()
    assert code == 0, err
    assert "switches of the game's car script: analog_pedals on, recipe_2020 off (2 of its entries left out" in out
    first, header = out_csv.read_text().splitlines()[:2]
    assert first == "# switches: analog_pedals=1 recipe_2020=0" and header.startswith("steer,throttle,brake")


def test_a_recording_that_nothing_arrived_for_writes_nothing(running, tmp_path):
    out_csv = tmp_path / "drive.csv"
    command = running("--record", str(out_csv), "--seconds", "0.3")
    command.peer.hello()
    code, _, err = command.finish()
    assert code == 1 and "nothing written" in err
    assert not out_csv.exists()


def test_record_without_seconds_is_refused(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "sandbox", "link", "--record", str(tmp_path / "d.csv")], capture_output=True,
        text=True, timeout=60, env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )  # fmt: skip
    assert done.returncode == 2 and "--record needs --seconds" in done.stderr


def test_ctrl_c_ends_it_cleanly_while_linked(running, tmp_path):
    command = running("--record", str(tmp_path / "drive.csv"), "--seconds", "60")
    command.peer.hello()
    command.peer.telemetry()
    wait_until(lambda: command.peer.of_type("welcome"), "the welcome", WAIT_S)
    command.process.send_signal(signal.SIGINT)
    code, _, err = command.finish()
    assert code == 130 and "stopped (SIGINT)" in err
    assert not (tmp_path / "drive.csv").exists()


def test_ctrl_c_ends_it_cleanly_while_waiting_for_the_game(running):
    command = running("--wait", "60")
    command.process.send_signal(signal.SIGINT)
    code, _, err = command.finish()
    assert code == 130 and "stopped (SIGINT)" in err


def test_an_address_it_cannot_listen_on_is_named():
    holder = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    holder.bind(("127.0.0.1", 0))
    try:
        port = str(holder.getsockname()[1])
        for argv, message in (
            (["--port", port], f"cannot listen on 127.0.0.1 port {port}: Address already in use"),
            (["--host", "192.0.2.1", "--port", "0"], "cannot listen on 192.0.2.1 port 0"),  # no computer's address
        ):
            done = subprocess.run(
                [sys.executable, "-m", "sandbox", "link", *argv], capture_output=True, text=True, timeout=60,
                env=dict(os.environ, PYTHONPATH=str(ROOT)),
            )  # fmt: skip
            assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr
    finally:
        holder.close()
