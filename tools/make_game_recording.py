"""Record a real drive of a game's car for the screenshots (needs godot3-server).

    python tools/make_game_recording.py [SECONDS] [--wall]

How tests/data/recordings/game_arcade.csv was made: the recipe's arcade car, exported as
a Godot 3 scene (`export_scene`, `export_script`) with values only the game knows
(GAME_VALUES, over the built-in recipe_defaults preset's), ran in the real Godot 3 engine with
the exported link node (`export_link_node`) as its child, in real time at 60 Hz
(`start_link_game`, fixed_fps off), driving the fit's scripted drive
(`fit_drives.arcade_drive`, 30 s: on 20 s of it a fit of every slider stopped short of
the game's values). A `LinkServer` on a free port linked to it, recorded every tick of
telemetry from the game's first (`start_recording` before the game started) and wrote
the recording (`stop_recording`) once the game had quit: 1 799 ticks, none lost, 142 KB.
Nothing in it is computed by the sandbox: it is what the engine drove.

With --wall, tests/data/recordings/game_arcade_wall.csv: the same drive with a wall
(WALL: a StaticBody2D the car's scene adds to the game's root) 10° across the car's
path where the car is at 25.5 s, long enough for about 15 ticks of glancing contact:
the engine's own collision (move_and_slide) pushes the car along it, something the
sandbox's model does not know.
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
WALL_OUT = ROOT / "tests" / "data" / "recordings" / "game_arcade_wall.csv"
WALL = {"x": 4018.017, "y": 6234.421, "rotation": 0.27958, "half_length": 152.5}
"""px, rad: the wall's centre and angle. Where the car is at 25.5 s (row 1530 of the
drive without it: 4017.4, 6193.8, heading 0.4541), a line 10° across its way from its
front left corner, 200 px back and 105 px on (about 15 ticks at 7 px a tick), 8 px thick."""
WALL_SCRIPT = """
[sub_resource type="GDScript" id=90]
script/source = "extends Node

func _ready():
	var wall = StaticBody2D.new()
	var shape = CollisionShape2D.new()
	var rect = RectangleShape2D.new()
	rect.extents = Vector2({half_length}, 4.0)
	shape.shape = rect
	wall.add_child(shape)
	wall.position = Vector2({x}, {y})
	wall.rotation = {rotation}
	get_tree().root.call_deferred(\\"add_child\\", wall)
"
"""
GAME_VALUES = {  # the game's own tuning; the sandbox's preset has the recipe's
    "engine_power": 1037.0,
    "steering_angle": 17.3,
    "friction": -47.3,
    "drag": -0.0713,
    "traction_fast": 3.17,
}


def with_wall(scene: str) -> str:
    """The car's scene with a node that adds WALL to the game's root when it starts."""
    head, rest = scene.split("\n", 1)
    steps = int(head.split("load_steps=")[1].split()[0])
    head = head.replace(f"load_steps={steps}", f"load_steps={steps + 1}")
    first = rest.index("[node ")
    wall = WALL_SCRIPT.format(**WALL).lstrip("\n")
    node = '\n[node name="WallMaker" type="Node" parent="."]\nscript = SubResource( 90 )\n'
    return head + "\n" + rest[:first] + wall + "\n" + rest[first:] + node


def main(seconds: float = SECONDS, wall: bool = False) -> int:
    preset = load_preset(BUILTIN_DIR / "recipe_defaults.json")
    game = replace(preset, tuning=Tuning(preset.model.PARAMS, {**dict(preset.tuning), **GAME_VALUES}))
    car = export_scene(game, 3, "car.gd")
    scene = {"car.tscn": with_wall(car) if wall else car, "car.gd": export_script(game, 3)}
    out = WALL_OUT if wall else OUT
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
        out.parent.mkdir(parents=True, exist_ok=True)
        done = server.stop_recording(out)
    finally:
        server.stop()
    print(
        f"{done.path.relative_to(ROOT)}: {done.rows} ticks, {done.seconds:.2f} s, {done.lost_ticks} lost, "
        f"{done.path.stat().st_size / 1024:.0f} KB; columns {','.join(done.columns)}"
    )
    return 0 if done.lost_ticks == 0 else 1


if __name__ == "__main__":
    numbers = [a for a in sys.argv[1:] if a != "--wall"]
    sys.exit(main(float(numbers[0]) if numbers else SECONDS, "--wall" in sys.argv[1:]))
