"""Which tuning is the car in the game? End to end with the real engine: an exported car
runs in Godot 3 with values only the game knows, the sandbox links to it, changes two
values through the link, records a 30-s scripted drive from the game's telemetry, and
`fit` finds the values from the recording alone (the independent reason: the values the
game was given). Both games run at once, in real time, so this takes about 35 s."""

import math
from dataclasses import replace

import numpy as np
import pytest

from conftest import ENGINE_REASON
from sandbox.analysis.fit import fit, summary
from sandbox.analysis.fit_objective import Objective
from sandbox.analysis.tune_space import free_names
from sandbox.devtools.fit_drives import arcade_drive, corvette_drive
from sandbox.devtools.link_game import start_link_game
from sandbox.devtools.oracle import godot_binary
from sandbox.files.godot import export_script
from sandbox.files.godot_link import export_link_node
from sandbox.files.godot_scene import export_scene
from sandbox.files.presets import BUILTIN_DIR, load_preset
from sandbox.files.recordings import load_recording
from sandbox.link.server import LinkServer
from sandbox.physics.params import Tuning

pytestmark = pytest.mark.skipif(godot_binary() is None, reason=ENGINE_REASON)

HZ = 60
SECONDS = 30.0
ARCADE_HIDDEN = {  # the game's values; the sandbox starts from the recipe's
    "wheel_base": 82.0,
    "friction": -47.3,
    "drag": -0.0713,
    "braking": -612.0,
    "slip_speed": 353.0,
    "traction_fast": 3.17,
    "traction_slow": 8.43,
}
ARCADE_SET = {"engine_power": 1037.0, "steering_angle": 17.3}
"""Sent through the link once the game is linked: the recorded drive runs on them."""
CORVETTE_HIDDEN = {"c_drag": 0.4768, "mu": 1.07, "cornering_front": 4.7, "yaw_inertia": 2700.0}
CORVETTE_SET = {"brake_force": 9000.0}


def game_files(preset_name: str, hidden: dict) -> tuple[dict[str, str], object]:
    """An exported car scene and script holding `hidden` (the preset's other values)."""
    preset = load_preset(BUILTIN_DIR / preset_name)
    tuning = Tuning(preset.model.PARAMS, {**dict(preset.tuning), **hidden})
    # the game holds these numbers exactly, not rounded to the sliders' steps as an export of a tuning is
    game = replace(preset, tuning=tuning, precision={name: 1e-9 for name in hidden})
    return {"car.tscn": export_scene(game, 3, "car.gd"), "car.gd": export_script(game, 3)}, preset


class LinkedDrive:
    """A game running `drive` in real time, linked to a sandbox that records it from its
    first telemetry and sends `values` once the game has said hello."""

    def __init__(self, preset_name: str, hidden: dict, values: dict, drive: np.ndarray, folder):
        self.scene, self.preset = game_files(preset_name, hidden)
        self.values, self.path = values, folder / f"{self.preset.model.NAME}.csv"
        self.server = LinkServer(port=0)
        self.server.start()
        self.server.start_recording()
        # a second at rest first: the link is up and the values are in before the drive
        rest = np.zeros((HZ, 5))
        self.game = start_link_game(
            export_link_node(self.preset.model, 3),
            self.server.port,
            np.vstack([rest, drive]),
            token=self.server.token,
            scene=self.scene,
            hz=HZ,
            fixed_fps=False,
            timeout=SECONDS + 40,
        )

    def link(self) -> dict:
        hello = self.server.wait_for_game(30)
        assert hello is not None, self.game.log()
        ack = self.server.wait_applied(self.server.send_set(self.values), 10)
        assert ack is not None and not ack.get("refused"), (ack, self.game.log())
        return ack

    def finish(self):
        assert self.game.wait(SECONDS + 40) == 0, self.game.log()
        summary = self.server.stop_recording(self.path)
        self.server.stop()
        self.game.stop()
        return summary


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """Both games driven at once; (arcade, Corvette) as (LinkedDrive, ack, summary)."""
    folder = tmp_path_factory.mktemp("game-drives")
    runs = [
        LinkedDrive("recipe_defaults.json", ARCADE_HIDDEN, ARCADE_SET, arcade_drive(SECONDS, HZ), folder),
        LinkedDrive("monster_corvette_c5.json", CORVETTE_HIDDEN, CORVETTE_SET, corvette_drive(SECONDS, HZ), folder),
    ]
    try:
        acks = [run.link() for run in runs]
        return [(run, ack, run.finish()) for run, ack in zip(runs, acks)]
    finally:
        for run in runs:
            run.server.stop()
            run.game.stop()


def check_fit(run: LinkedDrive, truth: dict, free: list[str]):
    recording = load_recording(run.path)
    assert recording.hz == pytest.approx(HZ)
    start = dict(run.preset.tuning)
    result = fit(run.preset.model, recording, start, free, HZ)
    for name, value in truth.items():
        error = abs(result.params[name] - value)
        assert error <= max(0.01 * abs(value), result.uncertainty[name]), (name, result.params[name], value, result)
    assert result.verdict == "good", result
    # the fitted tuning replays the whole recording from its first tick, never re-anchored
    whole = Objective(run.preset.model, recording, HZ, result.tuning, segment=len(recording) - 2)
    replay = summary(whole, result.tuning, [])
    worst = max(truth, key=lambda n: abs(result.params[n] / truth[n] - 1))
    print(
        f"\n{run.preset.model.NAME}: worst value {worst} {result.params[worst]:.6g} for {truth[worst]:g} "
        f"(± {result.uncertainty[worst]:.2g}); residual RMS {result.rms_position:.3g}, the whole drive replayed "
        f"within {replay.max_position:.3g} (model units)"
    )
    return result, replay


def test_the_recorded_drive_holds_every_tick(recorded):
    for run, ack, done in recorded:
        assert done.lost_ticks == 0 and done.seconds >= SECONDS
        assert {"x", "y", "heading", "vx", "vy"} <= set(done.columns)
        assert set(ack["applied"]) == set(run.values)


def test_the_arcade_in_the_game_is_found_from_its_recording(recorded):
    run = recorded[0][0]
    truth = {**ARCADE_HIDDEN, **ARCADE_SET}
    result, replay = check_fit(run, truth, free_names(run.preset.model))
    assert result.undetermined == ["max_speed_reverse"]  # the drive never reverses
    assert result.params["max_speed_reverse"] == run.preset.tuning["max_speed_reverse"]
    assert replay.max_position <= 1.0, replay  # px, over the whole 30 s


def test_the_corvette_in_the_game_is_found_from_its_recording(recorded):
    run = recorded[1][0]
    truth = {**CORVETTE_HIDDEN, **CORVETTE_SET}
    result, replay = check_fit(run, truth, list(truth))
    # the model's units are metres: 1 px at the exported scale of 25 px a metre
    assert replay.max_position * 25.0 <= 1.0, replay


def test_the_bicycle_explains_the_corvettes_drive_poorly(recorded):
    run = recorded[1][0]
    recording = load_recording(run.path)
    bicycle = load_preset(BUILTIN_DIR / "bicycle_blog.json")
    corvette, _ = check_fit(run, {**CORVETTE_HIDDEN, **CORVETTE_SET}, list({**CORVETTE_HIDDEN, **CORVETTE_SET}))
    rough = fit(bicycle.model, recording, dict(bicycle.tuning), free_names(bicycle.model), HZ)
    assert rough.verdict != "good" and corvette.verdict == "good"
    assert rough.rms_position > 10 * corvette.rms_position and math.isfinite(rough.rms_position)
