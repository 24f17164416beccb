"""`car-sandbox link` end to end: the command runs as its own process, and a peer
thread plays the game by the protocol (tests/link_peer.py), on a port the system
chooses (the command prints it)."""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from link_peer import WAIT_S, Peer, wait_until
from sandbox.files.presets import BUILTIN_DIR

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "c0ffee42c0ffee42"
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

    def wait_line(self, text: str) -> str:
        """Read the lines for the person at the terminal until one holding `text` (returned)."""
        stream = self.process.stderr if self.json else self.process.stdout
        while True:
            line = stream.readline()
            assert line, f"the command ended before saying {text!r}: {self.first!r}"
            self.first += line
            if text in line:
                return line

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
    game_port = command.peer.sock.getsockname()[1]
    code, out, err = command.finish()
    assert code == 0, err
    report = json.loads(out)
    assert report["game"] == {
        "name": "Test Game", "godot": "3.2.3", "model": "arcade", "format": 3, "hz": 60.0, "units": "px",
        "values": ARCADE_VALUES, "missing": ["slip_speed"],
        "address": f"127.0.0.1:{game_port}",
    }  # fmt: skip
    assert report["changes"] == []
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
    "argv",
    [["--set", "drag"], ["--set", "drag=fast"], ["--set", "drag=nan"], ["--port", "70000"], ["--token", "c0ffee42"]],
)
def test_a_malformed_argument_is_refused_before_listening(argv):
    done = subprocess.run(
        [sys.executable, "-m", "sandbox", "link", *argv], capture_output=True, text=True, timeout=60,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )  # fmt: skip
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "listening" not in done.stdout


@pytest.mark.parametrize(
    "host, message",
    [
        ("h" * 300, "is too long for a host name (at most 253 characters)"),
        ("", "host '' is empty: give the address to listen on"),
        ("my host", "host 'my host' is not an address or a host name: it holds a space"),
        ("a..b", "host 'a..b' is not an address or a host name: each part between dots is 1 … 63 characters"),
        ("x" * 64 + ".example", "each part between dots is 1 … 63 characters"),
        ("tab\there", "it holds a space or a control character"),
    ],
)
def test_a_host_that_is_no_address_or_name_is_refused_naming_it(host, message):
    done = subprocess.run(
        [sys.executable, "-m", "sandbox", "link", f"--host={host}", "--port", "0", "--wait", "0.1"],
        capture_output=True, text=True, timeout=60, env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )  # fmt: skip
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "argument --host: " in done.stderr and message in done.stderr and "listening" not in done.stdout


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
    assert rows[0][:13] == "steer,throttle,brake,handbrake,shift,t,x,y,heading,vx,vy,omega,rpm".split(",")
    assert rows[0][13:] == ["speed[px/s]", "sideslip[deg]", "accel_long[px/s^2]", "accel_lat[px/s^2]"]  # its pose's
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


def _link(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "sandbox", "link", *argv], capture_output=True, text=True, timeout=60,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )  # fmt: skip


def test_record_over_a_file_that_is_not_a_recording_is_refused_before_linking(tmp_path):
    preset = tmp_path / "drift.json"  # a copy of a built-in preset: the real one must never be at risk here
    shutil.copy(BUILTIN_DIR / "drift.json", preset)
    before = preset.read_bytes()
    done = _link("--record", str(preset), "--seconds", "1", "--wait", "0.5", "--port", "0")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "is a preset (“Drift”), not a recording: nothing was written" in done.stderr
    assert "listening" not in done.stdout  # refused at the start, not after a drive
    assert preset.read_bytes() == before and not (tmp_path / "drift.json.bak").exists()


def test_record_over_an_older_recording_keeps_it_as_bak_and_says_so(running, tmp_path):
    out_csv = tmp_path / "drive.csv"
    older = "steer,throttle,brake,handbrake,shift,t,x,y,heading\n" + "".join(
        f"0,1,0,0,0,{k / 60!r},{k},0,0\n" for k in range(3)
    )
    out_csv.write_text(older, encoding="utf-8")
    command = running("--record", str(out_csv), "--seconds", "0.5")
    command.wait_line("waiting")
    command.peer.hello()
    stop = threading.Event()
    driver = drive(command.peer, stop)
    try:
        code, out, err = command.finish()
    finally:
        stop.set()
        driver.join()
    assert code == 0, err
    bak = tmp_path / "drive.csv.bak"
    assert f"(the recording there now is kept as {bak})" in out and f"the older recording is kept as {bak}" in out
    assert bak.read_text(encoding="utf-8") == older and out_csv.read_text(encoding="utf-8") != older


def test_a_game_restarted_while_recording_ends_the_recording_with_the_drive_before_it(running, tmp_path):
    out_csv = tmp_path / "drive.csv"
    command = running("--record", str(out_csv), "--seconds", "60", "--json")
    command.peer.hello()
    command.wait_line("recording 60 s")
    stop = threading.Event()
    driver = drive(command.peer, stop)
    wait_until(lambda: command.peer.tick >= 100, "100 ticks sent")
    stop.set()
    driver.join()
    first = command.peer.tick
    command.peer.tick = 0  # the game restarted: its ticks count from 1 again
    command.peer.hello(game="Test Game")
    stop = threading.Event()
    driver = drive(command.peer, stop)
    try:
        assert "The game restarted" in command.wait_line("The game restarted")
        assert "recording: the game restarted" in command.wait_line("recording:")
        code, out, err = command.finish()  # it ends at once, long before 60 s
    finally:
        stop.set()
        driver.join()
    assert code == 1 and "the recording is shorter than asked" in err, err
    report = json.loads(out)
    recording = report["recording"]
    with open(out_csv, newline="", encoding="utf-8") as f:
        ticks = [round(float(row["t"]) * 60) for row in csv.DictReader(f)]
    assert ticks == list(range(ticks[0], first + 1))  # the drive before the restart, whole, t never back
    assert recording["rows"] == len(ticks) and recording["lost_ticks"] == 0
    assert recording["seconds"] == pytest.approx(len(ticks) / 60) and "restarted" in recording["ended"]
    assert [change["game"]["name"] for change in report["changes"]] == ["Test Game"]


def test_another_game_is_refused_while_the_game_runs_and_named_when_it_takes_over(running):
    command = running("--seconds", "4", "--json")
    command.peer.hello()
    command.wait_line("game: Test Game")
    other = Peer(command.port, TOKEN, ARCADE_VALUES)
    try:
        command.peer.telemetry()  # the game runs: it sends every tick
        other.hello(game="Another Game")  # refused
        command.peer.send({"type": "bye"})
        wait_until(lambda: other.hello(game="Another Game") or other.of_type("welcome"), "the other game welcomed")
        line = command.wait_line("The game changed")
        code, out, err = command.finish()
    finally:
        other.close()
    assert code == 0, err
    assert "linked with “Another Game” (Godot 3.2.3) at 127.0.0.1:" in line and "in place of “Test Game”" in line
    report = json.loads(out)
    assert [change["game"]["name"] for change in report["changes"]] == ["Another Game"]
    assert report["dropped"].get("hello from another game", 0) >= 1


def test_the_games_texts_print_on_their_own_line_with_control_characters_escaped(running):
    command = running("--set", "drag=-0.5")
    command.peer.acks = False
    command.peer.hello(game="Evil\nGame\r", godot="3.2\x1b[2J", missing=["slip\nspeed"])
    sent = command.peer.wait_for("set")[0]
    refused = {"drag": "too low\nrefused by the game: engine_power: faked"}
    command.peer.send({"type": "ack", "seq": sent["seq"], "tick": 5, "applied": {}, "refused": refused})
    code, out, _ = command.finish()
    assert code == 1
    assert "game: Evil\\x0aGame\\x0d (Godot 3.2\\x1b[2J)" in out
    assert "missing in the game's car script: slip\\x0aspeed" in out
    assert "refused by the game: drag: too low\\x0arefused by the game: engine_power: faked" in out
    assert not any(line.startswith(("Game", "speed", "refused by the game: engine")) for line in out.splitlines())


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
