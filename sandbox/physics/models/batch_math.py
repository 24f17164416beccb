"""numpy helpers that keep the cost of a tick low for batches of any size.

A tick is some 50-300 array operations; on 100 000 cars each costs about 1 ns a car,
but trig costs 5-15 ns and np.hypot 20 ns, and on one car every call costs ~1 µs of
overhead whatever it computes. So: no hypot, trig only when its input changed, and
work that a uniform batch does not need is skipped (callers test `any_`).
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from ..state import State


IN_PLACE_FROM = 64
"""cars: from this many, `norm` works in place (fewer temporary arrays); below it the
in-place calls cost more than the arrays they save."""


def norm(x, y):
    """|(x, y)| as sqrt(x² + y²): several times faster than np.hypot, and the values
    here are nowhere near overflow. In place for big float arrays (the same bits)."""
    squares = x * x
    if isinstance(squares, np.ndarray) and squares.size >= IN_PLACE_FROM and squares.dtype == np.float64:
        squares += y * y
        return np.sqrt(squares, out=squares)
    return np.sqrt(squares + y * y)


def any_(mask) -> bool:
    """mask.any() for an array or a scalar (the ndarray method is twice as fast as np.any)."""
    return bool(mask.any()) if isinstance(mask, np.ndarray) else bool(mask)


def per_car(value, shape: tuple[int]) -> np.ndarray:
    """`value` as an array of `shape`."""
    if np.shape(value) == shape:
        return value
    # np.full for one value: np.broadcast_to costs ~7 µs a call, a lot on a batch of one
    return np.full(shape, value) if np.ndim(value) == 0 else np.broadcast_to(value, shape)


def heading_vector(state: State) -> tuple[np.ndarray, np.ndarray]:
    """(cos, sin) of the heading: the unit vector a model's last tick left in
    `extra` ("heading_x", "heading_y"), else computed from the angle."""
    hx, hy = state.extra.get("heading_x"), state.extra.get("heading_y")
    if hx is None or hy is None:
        return np.cos(state.heading), np.sin(state.heading)
    return hx, hy


def held(state: State, names: tuple[str, ...], angle, last_angle,
         compute: Callable[[np.ndarray], tuple[np.ndarray, ...]]) -> tuple[np.ndarray, ...]:
    """compute(angle), or the arrays `names` from the state's `extra` when `angle`
    equals `last_angle` car for car (held steering: the standard manoeuvres and most
    ticks of a drive). The caller stores the result under `names` for the next tick."""
    last = tuple(state.extra.get(k) for k in names)
    if (np.ndim(angle) == 1 and all(v is not None for v in last) and np.shape(last_angle) == np.shape(angle)
            and (angle == last_angle).all()):
        return last
    return compute(angle)


SPEED_LIMIT = {"px": 20_000.0, "m": 500.0}
"""Units/s, by a model's LENGTH_UNIT: the one guard every model with an engine shares.
Some sources have no limit at all when nothing resists (the rigid body's seed has no
drag; the recipe with zero friction and drag), so a held throttle would otherwise
leave the world at an absurd speed; 20 000 px/s is 34 times the recipe's top speed,
500 m/s is 1800 km/h. No preset comes near it."""


def limit_speed(vx, vy, unit: str):
    """(vx, vy) scaled down to SPEED_LIMIT[unit] where faster, unchanged elsewhere."""
    limit = SPEED_LIMIT[unit]
    speed = norm(vx, vy)
    over = speed > limit
    if not any_(over):
        return vx, vy
    scale = np.where(over, limit / np.where(over, speed, 1.0), 1.0)
    return vx * scale, vy * scale
