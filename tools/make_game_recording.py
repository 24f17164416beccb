"""Record a real drive of a game's car for the screenshots (needs godot3-server).

    python tools/make_game_recording.py [SECONDS]

How tests/data/recordings/game_arcade.csv was made: the recipe's arcade car, exported as
a Godot 3 scene (`export_scene`, `export_script`) with values only the game knows
(GAME_VALUES, over presets/recipe_defaults.json's), ran in the real Godot 3 engine with
the exported link node (`export_link_node`) as its child, in real time at 60 Hz
(`start_link_game`, fixed_fps off), driving the fit's scripted drive
(`fit_drives.arcade_drive`, 30 s: on 20 s of it a fit of every slider stopped short of
the game's values). A `LinkServer` on a free port linked to it, recorded every tick of
telemetry from the game's first (`start_recording` before the game started) and wrote
the recording (`stop_recording`) once the game had quit: 1 799 ticks, none lost, 142 KB.
Nothing in it is computed by the sandbox: it is what the engine drove.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sandbox.devtools.fit_drives import arcade_drive  # noqa: E402
from sandbox.devtools.link_game import start_link_game  # noqa: E402
from sandbox.files.godot import export_script  # noqa: E402
from sandbox.files.godot_link import export_link_node  # noqa: E402
from sandbox.files.godot_scene import export_scene  # noqa: E402
from sandbox.files.presets import BUILTIN_DIR, load_preset  # noqa: E402
from sandbox.link.server import LinkServer  # noqa: E402
from sandbox.physics.params import Tuning  # noqa: E402

HZ = 60
SECONDS = 30.0
OUT = ROOT / "tests" / "data" / "recordings" / "game_arcade.csv"
GAME_VALUES = {  # the game's own tuning; the sandbox's preset has the recipe's
    "engine_power": 1037.0,
    "steering_angle": 17.3,
    "friction": -47.3,
    "drag": -0.0713,
    "traction_fast": 3.17,
}


def main(seconds: float = SECONDS) -> int:
    preset = load_preset(BUILTIN_DIR / "recipe_defaults.json")
    game = replace(preset, tuning=Tuning(preset.model.PARAMS, {**dict(preset.tuning), **GAME_VALUES}))
    scene = {"car.tscn": export_scene(game, 3, "car.gd"), "car.gd": export_script(game, 3)}
    server = LinkServer(port=0)
    server.start()
    server.start_recording()
    try:
        with start_link_game(
            export_link_node(preset.model, 3),
            server.port,
            arcade_drive(seconds, HZ),
            token=server.token,
            scene=scene,
            hz=HZ,
            fixed_fps=False,
            timeout=seconds + 40,
        ) as running:
            if server.wait_for_game(30) is None:
                print(f"the game never linked:\n{running.log()}", file=sys.stderr)
                return 1
            code = running.wait(seconds + 40)
            if code != 0:
                print(f"the game quit with {code}:\n{running.log()}", file=sys.stderr)
                return 1
        OUT.parent.mkdir(parents=True, exist_ok=True)
        done = server.stop_recording(OUT)
    finally:
        server.stop()
    print(
        f"{done.path.relative_to(ROOT)}: {done.rows} ticks, {done.seconds:.2f} s, {done.lost_ticks} lost, "
        f"{done.path.stat().st_size / 1024:.0f} KB; columns {','.join(done.columns)}"
    )
    return 0 if done.lost_ticks == 0 else 1


if __name__ == "__main__":
    sys.exit(main(float(sys.argv[1]) if len(sys.argv) > 1 else SECONDS))
