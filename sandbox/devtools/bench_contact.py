"""What wall contact costs: nanoseconds per Godot 3 `move_and_slide` call of the recipe
car (its capsule, 600 px/s at 60 Hz) on the open field and on a ring circuit of
2 000 wall segments (1 000 per side, 9 px and 6 px long), in the middle of the track
and pushed against its outer wall, and at the built-in club circuit's start. Printed
by `python -m sandbox.devtools.bench_contact`.

The aim for later: a car on a circuit costs at most twice a car on the open field,
the whole tick (the arcade's is printed beside; a tick with contact is the model's
tick plus one of these calls).
"""

from __future__ import annotations

import math
import time

import numpy as np

from ..files.tracks import find_builtin_track, load_track
from ..physics.body_shape import RECIPE_CAPSULE_GODOT3
from ..physics.contact_godot3 import SAFE_MARGIN, move_and_slide
from ..physics.kernel import kernel
from ..physics.models import arcade
from ..physics.world import EMPTY, build_world, from_shapes
from .bench import tick_ns

SEGMENTS = 2000
CLUB = "club_circuit"
OUTER, INNER = 1500.0, 1000.0
"""px: the ring circuit's wall radii."""


def ring_circuit(segments: int = SEGMENTS):
    """A World: two circles of walls, `segments` in all."""
    walls = []
    for radius in (OUTER, INNER):
        a = np.linspace(0, 2 * math.pi, segments // 2 + 1)
        points = np.column_stack([radius * np.cos(a), radius * np.sin(a)])
        walls.append(np.hstack([points[:-1], points[1:]]))
    return from_shapes(np.vstack(walls), np.zeros((0, 3)), [])


@kernel
def _calls(world, shape, x, y, heading, vx, vy, dt, n):
    """`n` move_and_slide calls from the same state; a sum so none is left out."""
    total = 0.0
    for _ in range(n):
        rx, ry, rvx, rvy, slides, nx, ny = move_and_slide(world, shape, x, y, heading, vx, vy, dt, SAFE_MARGIN)
        total += rx + ry + rvx + rvy + slides
    return total


def call_ns(world, x: float, y: float, heading: float, vx: float, vy: float, calls: int = 200_000) -> float:
    """Nanoseconds per move_and_slide call in this state, best of 3."""
    args = (world, RECIPE_CAPSULE_GODOT3, x, y, heading, vx, vy, 1 / 60)
    _calls(*args, 10)  # compile or load first
    best = math.inf
    for _ in range(3):
        start = time.perf_counter()
        _calls(*args, calls)
        best = min(best, time.perf_counter() - start)
    return best / calls * 1e9


def contact_ns(calls: int = 200_000) -> dict:
    """ns per call: open field, mid-track and against the outer wall of the ring, and
    at the built-in club circuit's start (in px), heading down the track."""
    world = ring_circuit()
    mid = (OUTER + INNER) / 2
    beside = OUTER - 34 - 0.05  # the capsule lies along the track, 34 px to each side
    club = load_track(find_builtin_track(CLUB)).in_unit("px")
    spawn = club.spawn
    return {
        "open field": call_ns(EMPTY, 0.0, mid, 0.0, 600.0, 0.0, calls),
        "ring, mid-track": call_ns(world, 0.0, mid, 0.0, 600.0, 0.0, calls),
        "ring, against a wall": call_ns(world, 0.0, beside, 0.0, 600.0, 60.0, max(calls // 100, 100)),
        f"{CLUB}, at its start": call_ns(
            build_world(club),
            spawn.x,
            spawn.y,
            spawn.heading,
            600.0 * math.cos(spawn.heading),
            600.0 * math.sin(spawn.heading),
            calls,
        ),
    }


def report(figures: dict, tick: float) -> str:
    lines = [f"move_and_slide (Godot 3), the recipe car at 600 px/s (ring: {SEGMENTS} wall segments):"]
    lines += [f"  {name:26s} {value:9.1f} ns per call" for name, value in figures.items()]
    lines.append(f"  (the arcade's whole tick on the open field: {tick:.1f} ns)")
    return "\n".join(lines)


if __name__ == "__main__":
    print(report(contact_ns(), tick_ns(arcade, 500_000)))
