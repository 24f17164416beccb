"""The speed guard every model with an engine shares.

Some sources have no limit at all when nothing resists (the rigid body's seed has no
drag; the recipe with zero friction and drag), so a held throttle would otherwise
leave the world at an absurd speed; 20 000 px/s is 34 times the recipe's top speed,
500 m/s is 1800 km/h. No preset comes near it.
"""

from __future__ import annotations

import math

from ..kernel import kernel

SPEED_LIMIT_PX = 20_000.0
SPEED_LIMIT_M = 500.0
SPEED_LIMIT = {"px": SPEED_LIMIT_PX, "m": SPEED_LIMIT_M}
"""Units/s, by a model's LENGTH_UNIT."""


@kernel
def limit_speed(vx: float, vy: float, limit: float) -> tuple[float, float]:
    """(vx, vy) scaled down to `limit` if faster, else unchanged. Compared squared (no
    square root on the usual path, once a tick in every model); the limits' squares
    are exact, so the same cars are scaled, by the same factor."""
    squared = vx * vx + vy * vy
    if squared > limit * limit:
        scale = limit / math.sqrt(squared)
        return vx * scale, vy * scale
    return vx, vy
