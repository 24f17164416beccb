"""Cones a car knocks over: which cones its shape touched on a tick's swept path, and
the car's record of them (compiled code; the world's cones are `world.cones`).

A cone is not solid: the car is not stopped or turned by it; it is knocked, counted
once per car, and drawn knocked. The tick's swept path is the car's shape moved in a
straight line from where the tick started to where it ended, taken twice: turned to
the start heading and turned to the end heading (a car turns a few degrees a tick;
the arc a corner sweeps between the two lies within R·Δθ²/8 of them: 3 mm for a
corner 2.5 m out turning 0.1 rad in the tick). A cone touches when its disc and the
swept shape meet (distance 0 or less), so a car fast enough to jump over a cone
between two ticks still knocks it.

The car's record, in its state (state.WORLD, on every model):
- `cones_hit` (count): the cones this car has knocked since it was placed;
- `cones_knocked` (`WORDS` floats): which ones, a bit per cone by its number in the
  track (0, 1, …), `BITS` bits a float (whole numbers below 2^53 are exact in a
  float64): the first `RECORDED` cones of a track are each counted once by a car, and
  the window draws them knocked from it. A cone numbered `RECORDED` or more is beyond
  the record: it is counted on each tick that meets it when the tick's start pose was
  clear of it (a new touch), so driving into it again counts it again.
Placing a car (a reset, a new start) sets both back to 0: every cone stands again.
The record lives in the car's state row, so a batch car, the one-car tick and the
fit's shooting driver carry it the same way, and it costs nothing outside a track
with cones.
"""

from __future__ import annotations

import math

import numpy as np

from .body_shape import CAPSULE_SHAPE, COS, CX, CY, HALF_1, HALF_2, RADIUS, RECTANGLE_SHAPE, SIN, body_at, bounds
from .kernel import kernel
from .state import KNOCKED_WORDS as WORDS
from .world import F_CONE_REACH, F_CONES, N_CONES

BITS = 48
"""Cones recorded a float."""
RECORDED = WORDS * BITS
"""Cones numbered below this are each counted once by a car (384)."""


@kernel
def cone_count(world) -> int:
    """How many cones the world holds."""
    return world.ints[N_CONES]


@kernel
def cone(world, i: int, k: int) -> float:
    """The i-th cone by x (`World.cones`): its x, y, radius, number (k = 0 … 3)."""
    return world.floats[world.ints[F_CONES] + 4 * i + k]


@kernel
def cone_reach(world) -> float:
    """The largest cone's radius (0 without cones)."""
    return world.floats[world.ints[F_CONE_REACH]]


@kernel
def _segment_box_distance2(ax: float, ay: float, bx: float, by: float, hx: float, hy: float) -> float:
    """The squared distance between the segment (ax, ay)-(bx, by) and the box
    [-hx, hx] × [-hy, hy] (hx or hy 0: a segment or a point): 0 when they meet."""
    # the segment's part inside the box (Liang-Barsky): any part means they meet
    t0, t1 = 0.0, 1.0
    dx, dy = bx - ax, by - ay
    inside = True
    for p, q in ((-dx, ax + hx), (dx, hx - ax), (-dy, ay + hy), (dy, hy - ay)):
        if p == 0.0:
            if q < 0.0:
                inside = False
        else:
            t = q / p
            if p < 0.0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
    if inside and t0 <= t1:
        return 0.0
    # apart: the nearest points include an end of the segment or a corner of the box
    best = math.inf
    for px, py in ((ax, ay), (bx, by)):
        ex, ey = px - min(max(px, -hx), hx), py - min(max(py, -hy), hy)
        best = min(best, ex * ex + ey * ey)
    length2 = dx * dx + dy * dy
    for cx, cy in ((-hx, -hy), (hx, -hy), (hx, hy), (-hx, hy)):
        t = 0.0 if length2 == 0.0 else min(max(((cx - ax) * dx + (cy - ay) * dy) / length2, 0.0), 1.0)
        ex, ey = ax + t * dx - cx, ay + t * dy - cy
        best = min(best, ex * ex + ey * ey)
    return best


@kernel
def swept_touches(body, dx: float, dy: float, x: float, y: float, r: float) -> bool:
    """Whether the disc at (x, y) of radius `r` meets the shape `body` (body_shape's
    tuple) swept by (dx, dy)."""
    c, s = body[COS], body[SIN]
    # the disc's centre in the shape's frame, moving against the shape's motion
    ux, uy = x - body[CX], y - body[CY]
    ax, ay = ux * c + uy * s, -ux * s + uy * c
    mx, my = dx * c + dy * s, -dx * s + dy * c
    reach = r + body[RADIUS]
    return _segment_box_distance2(ax, ay, ax - mx, ay - my, body[HALF_1], body[HALF_2]) <= reach * reach


@kernel
def _first_from(world, left: float) -> int:
    """The first cone (by x) whose x is `left` or more (bisection)."""
    lo, hi = 0, cone_count(world)
    while lo < hi:
        mid = (lo + hi) // 2
        if cone(world, mid, 0) < left:
            lo = mid + 1
        else:
            hi = mid
    return lo


@kernel
def _any_near(world, shape, x0: float, y0: float, x1: float, y1: float) -> bool:
    """Whether any cone lies within the car's reach (the farthest its shape goes from
    its position) of the tick's motion's box: most ticks meet no cone, and this
    test needs no turned shape (a car's tick pays for the shapes only near a cone)."""
    if cone_count(world) == 0:
        return False
    offset = math.hypot(shape[3], shape[4])
    if shape[0] == RECTANGLE_SHAPE:
        reach = offset + math.hypot(shape[1], shape[2]) / 2
    elif shape[0] == CAPSULE_SHAPE:
        reach = offset + max(shape[2] / 2, shape[1])
    else:
        reach = offset + shape[1]
    reach += cone_reach(world)
    left, right = min(x0, x1) - reach, max(x0, x1) + reach
    top, bottom = min(y0, y1) - reach, max(y0, y1) + reach
    for i in range(_first_from(world, left), cone_count(world)):
        if cone(world, i, 0) > right:
            return False
        if top <= cone(world, i, 1) <= bottom:
            return True
    return False


@kernel
def _swept_box(start, end, dx: float, dy: float) -> tuple[float, float, float, float]:
    """The box around both shapes swept by (dx, dy)."""
    a, b = bounds(start, 0.0, 0.0, 0.0), bounds(start, dx, dy, 0.0)
    c, d = bounds(end, 0.0, 0.0, 0.0), bounds(end, -dx, -dy, 0.0)
    return (
        min(a[0], b[0], c[0], d[0]),
        min(a[1], b[1], c[1], d[1]),
        max(a[2], b[2], c[2], d[2]),
        max(a[3], b[3], c[3], d[3]),
    )


@kernel
def knock(
    world, shape, x0: float, y0: float, heading0: float, x1: float, y1: float, heading1: float, s, hit: int, first: int
):
    """Count the cones of `world` that the car's `shape` (body_shape's array, in the
    world's unit) touched on the tick from (x0, y0, heading0) to (x1, y1, heading1):
    state row `s` holds the count at column `hit` and the record from column `first`
    (`WORDS` floats; see the module's docstring)."""
    if not _any_near(world, shape, x0, y0, x1, y1):
        return
    start, end = body_at(shape, x0, y0, heading0), body_at(shape, x1, y1, heading1)
    dx, dy = x1 - x0, y1 - y0
    left, top, right, bottom = _swept_box(start, end, dx, dy)
    reach = cone_reach(world)
    for i in range(_first_from(world, left - reach), cone_count(world)):
        x, y, r = cone(world, i, 0), cone(world, i, 1), cone(world, i, 2)
        if x - r > right:
            break
        if y + r < top or y - r > bottom or x + r < left:
            continue
        if not (swept_touches(start, dx, dy, x, y, r) or swept_touches(end, -dx, -dy, x, y, r)):
            continue
        number = int(cone(world, i, 3))
        if number < RECORDED:
            word, bit = first + number // BITS, number % BITS
            bits = int(s[word])
            if (bits >> bit) & 1:
                continue
            s[word] = float(bits | (1 << bit))
        elif swept_touches(start, 0.0, 0.0, x, y, r):
            continue  # beyond the record: counted when a touch begins
        s[hit] += 1.0


def knocked_numbers(record: np.ndarray) -> np.ndarray:
    """The numbers of the cones a car's record (`WORDS` floats) holds as knocked."""
    words = np.asarray(record, dtype=np.float64).reshape(-1)[:WORDS].astype(np.int64)
    return np.flatnonzero((words[:, None] >> np.arange(BITS)) & 1)
