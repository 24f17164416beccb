"""Run a car in Godot 3 with the sandbox's link node, headless, for the link's engine
tests and figures: a temporary copy of the oracle project (tools/godot_oracle) whose
driver (link_driver.gd) instances the car (an exported scene, or a car script with
values set on it the sandbox is not told), adds the link node as the car's child and
replays a control trace through the input actions, then quits.

Needs `godot3-server` (oracle.godot_binary); the test side talks to the node over UDP.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path
from typing import Mapping

import numpy as np

from .oracle import copy_project, required_binary

DRIVER_SCENE = """[gd_scene load_steps=2 format=2]

[ext_resource path="res://link_driver.gd" type="Script" id=1]

[node name="Driver" type="Node"]
script = ExtResource( 1 )
"""


class LinkGame:
    """A running game (`process`, a Popen) and its temporary project; `stop()` ends it
    and removes the project. Use it as a context manager."""

    def __init__(self, process: subprocess.Popen, folder: tempfile.TemporaryDirectory, log: Path):
        self.process = process
        self._folder = folder
        self._log = log
        self._kept = ""

    def running(self) -> bool:
        return self.process.poll() is None

    def wait(self, timeout: float) -> int:
        """The game's exit code once it has quit by itself (it does after its trace)."""
        return self.process.wait(timeout=timeout)

    def log(self) -> str:
        """What the game printed so far (stdout and stderr; after `stop`, all it printed)."""
        try:
            return self._log.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return self._kept

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self._kept = self.log()
        self._folder.cleanup()

    def __enter__(self) -> "LinkGame":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def start_link_game(
    link_node: str,
    port: int,
    trace: np.ndarray,
    token: str = "",
    scene: Mapping[str, str] | None = None,
    script_text: str | None = None,
    params: Mapping[str, float | bool] | None = None,
    hz: int = 60,
    fixed_fps: bool = True,
    timeout: float = 60.0,
    car_adds_actions: bool = False,
    link_before_car: bool = False,
    frame_sleep_us: int | None = None,
    driver_priority: int = -2000,
    level: Mapping[str, str] | None = None,
) -> LinkGame:
    """Start the game: the link node (`link_node`, its GDScript) talks to 127.0.0.1
    `port` with `token`; the car is `scene` (files name -> text, the first a .tscn),
    else `script_text` (a car script on a KinematicBody2D), else the oracle's recipe
    car; `params` are set on the car before it starts. `trace`: rows of steer,
    throttle, brake[, handbrake, shift], one per tick at `hz`. `fixed_fps`: every
    main-loop iteration one physics tick, as fast as the machine goes; else in real
    time. The game quits after its trace, or after `timeout` seconds of wall-clock time.
    `frame_sleep_us`: what the headless engine sleeps between frames (it cannot draw, so
    by default 6 900 µs, and a physics tick starts up to that much late).
    `link_before_car`: the node is not the car's child but enters the tree before it (as
    an autoload does) and finds it by its path. `driver_priority`: the process_priority of
    the node that presses the trace's input actions (the link node's is -1000, the car's 0).
    `level`: a level's files (path in the project -> text, the first its .tscn), instanced
    beside the car."""
    binary = required_binary()
    folder = tempfile.TemporaryDirectory(prefix="car-link-game-")
    try:
        project = Path(folder.name) / "project"
        script = copy_project(project, script_text, scene)
        (project / "main.tscn").write_text(DRIVER_SCENE, encoding="utf-8")
        (project / "sandbox_link.gd").write_text(link_node, encoding="utf-8")
        for name, text in (level or {}).items():
            (project / name).parent.mkdir(parents=True, exist_ok=True)
            (project / name).write_text(text, encoding="utf-8")
        rows = np.asarray(trace, dtype=np.float64).reshape(len(trace), -1)
        trace_csv = Path(folder.name) / "trace.csv"
        lines = ["steer,throttle,brake,handbrake,shift"] + [",".join(repr(float(v)) for v in row) for row in rows]
        trace_csv.write_text("\n".join(lines) + "\n", encoding="utf-8")
        env = {
            **os.environ,
            "LC_ALL": "C.UTF-8",
            "LANG": "C.UTF-8",
            "LINK_TRACE": str(trace_csv),
            "LINK_NODE": "res://sandbox_link.gd",
            "LINK_PORT": str(int(port)),
            "LINK_TOKEN": token,
            "LINK_HZ": str(int(hz)),
            "LINK_SCRIPT": script,
            "LINK_SCENE": f"res://{next(iter(scene))}" if scene else "",
            "LINK_PARAMS": ";".join(f"{k}={_literal(v)}" for k, v in (params or {}).items()),
            "LINK_CAR_ADDS_ACTIONS": "1" if car_adds_actions else "",
            "LINK_TIMEOUT": repr(float(timeout)),
            "LINK_FRAME_SLEEP_US": "" if frame_sleep_us is None else str(int(frame_sleep_us)),
            "LINK_BEFORE_CAR": "1" if link_before_car else "",
            "LINK_DRIVER_PRIORITY": str(int(driver_priority)),
            "LINK_LEVEL": f"res://{next(iter(level))}" if level else "",
        }
        command = [binary, "--path", str(project)] + (["--fixed-fps", str(int(hz))] if fixed_fps else [])
        log = Path(folder.name) / "game.log"
        with open(log, "wb") as out:
            process = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
    except BaseException:
        folder.cleanup()
        raise
    return LinkGame(process, folder, log)


def _literal(value: float | bool) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(float(value))
