"""docs/link.md's rule for a script that presses the input actions (an AI driver, a test
harness), in the real engine (Godot 3): pressed before the link node reads the controls
(a process_priority below its -1000), the telemetry's controls are those the car drove
each tick with; pressed between the node and the car, they are a tick late."""

from __future__ import annotations

import numpy as np
import pytest

from link_engine_end import FLOAT32_GAP, TOKEN, arcade_scene, gap, sandbox_end, step_arcade  # noqa: F401
from sandbox.devtools.link_game import start_link_game
from sandbox.devtools.oracle import godot_binary
from sandbox.files.godot_link import export_link_node

pytestmark = pytest.mark.skipif(godot_binary() is None, reason="godot3-server is not installed")

TICKS = 300


def changing_controls(ticks: int) -> np.ndarray:
    """Rows of steer, throttle, brake, handbrake, shift that change from tick to tick
    (the throttle mostly held, so the car keeps moving)."""
    rng = np.random.default_rng(7)
    trace = np.zeros((ticks, 5))
    trace[:, 0] = rng.choice([-1.0, -0.5, 0.0, 0.5, 1.0], ticks)
    trace[:, 1] = rng.random(ticks) < 0.8
    trace[:, 2] = rng.random(ticks) < 0.1
    return trace


def explained_share(sandbox, driver_priority: int) -> float:
    """The share of ticks the sandbox's arcade, stepped from the telemetry before with
    the controls the telemetry reports, reproduces (the car drove with those controls)."""
    scene, preset = arcade_scene()
    node = export_link_node(preset.model, 3, tuning=preset.tuning)
    trace = changing_controls(TICKS)
    with start_link_game(
        node, sandbox.port, trace, TOKEN, scene=scene, fixed_fps=False, timeout=60, driver_priority=driver_priority
    ) as game:
        hello = sandbox.welcome()
        sandbox.until(lambda m: m["type"] == "bye", timeout=60)  # the game quits after its trace
        assert game.wait(30) == 0
    tuning = {**hello["params"], **hello["switches"]}
    telemetry = sandbox.telemetry
    ticks = [k for k in sorted(telemetry) if k - 1 in telemetry and k > 2]
    assert len(ticks) > TICKS // 2
    fits = [gap(step_arcade(telemetry[k - 1], telemetry[k], tuning), telemetry[k]) < FLOAT32_GAP for k in ticks]
    return sum(fits) / len(fits)


def test_pressed_before_the_link_node_the_telemetry_has_the_controls_the_car_drove_with(sandbox):
    assert explained_share(sandbox, -2000) == 1.0


def test_pressed_between_the_link_node_and_the_car_the_telemetry_is_a_tick_late(sandbox):
    assert explained_share(sandbox, -500) < 0.5
