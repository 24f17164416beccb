"""The game's level as it comes over the link (docs/link.md, `get_level` and `level`): in
parts, each under a datagram's size, asked for a few at a time and again when one is
lost. `LevelParts` gathers the parts of one level; `GameLevel` is the level whole, as the
game's node collected it (its shapes are checked where they become walls:
level_track.py)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

LEVEL_TIMEOUT_S = 5.0
"""s the game may send nothing of its level before the pull is given up."""
RESEND_S = 0.5
"""s after which a part asked for and not come is asked for again..."""
FIRST_RESEND_S = 2.0
"""...but part 0 only after this long: the node collects the level for it, in one physics
tick (10 000 shapes take Godot 3 a few tenths of a second), and collects it anew each time."""
WINDOW = 4
"""parts asked for at once (each up to 64 KB: the sandbox's receive buffer holds them)."""


@dataclass(frozen=True)
class GameLevel:
    """The level the game's node sent: its shapes (plain JSON objects, in px, the game's
    global coordinates), how many it left out beyond its bound, what it did not read
    (`{"why", "nodes", "count"}` each), the car's pose in px and rad when it said it,
    the game's name and Godot version (from its hello) and the parts it came in; the
    car's `pixels_per_metre` (px/m) and the first Path2D's curve (`centre_line`: its
    node, global transform and (in, out, position) points, as docs/link.md says) as the
    game sent them, None when it did not (a node from before them; a car without the
    variable; a level without a Path2D); a scale sent as null (NaN or infinite in the
    game) is NaN."""

    shapes: tuple[dict, ...]
    left_out: int = 0
    not_read: tuple[dict, ...] = ()
    car: dict | None = None
    game: str = ""
    godot: str = ""
    parts: int = 1
    pixels_per_metre: object = None
    centre_line: object = None


@dataclass
class LevelParts:
    """The parts of one level as they arrive: the newest level the node collected (a part
    0 with a higher `level` starts it over: the node answers later parts from its newest
    collection), and which parts are still missing."""

    level: int = -1
    parts: int = 0
    first: dict | None = None
    got: dict[int, list] = field(default_factory=dict)

    def add(self, message: dict) -> bool:
        """Take a decoded `level` part; True when it was one still missing."""
        if message["part"] == 0 and message["level"] > self.level:
            self.level, self.parts, self.first, self.got = message["level"], message["parts"], message, {}
        if message["level"] != self.level or message["parts"] != self.parts or message["part"] in self.got:
            return False
        self.got[message["part"]] = message["shapes"]
        return True

    def missing(self) -> list[int]:
        return [part for part in range(self.parts) if part not in self.got]

    @property
    def complete(self) -> bool:
        return self.first is not None and len(self.got) == self.parts

    def whole(self, game: str, godot: str) -> GameLevel:
        first = self.first
        shapes = tuple(shape for part in range(self.parts) for shape in self.got[part])
        scale = first.get("pixels_per_metre")
        scale = math.nan if scale is None and "pixels_per_metre" in first else scale
        return GameLevel(
            shapes, first.get("left_out", 0), tuple(first.get("not_read", ())), first.get("car"), game, godot,
            self.parts, scale, first.get("centre_line"),
        )  # fmt: skip
