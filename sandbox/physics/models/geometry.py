"""Plane geometry and small arithmetic shared by the models' kernels (y down: a
positive angle turns clockwise on screen, like the heading)."""

from __future__ import annotations

import math

from ..kernel import kernel

DEGREES = 180 / math.pi
"""Degrees per radian (telemetry shows angles in degrees)."""
RADIANS = math.pi / 180
"""Radians per degree (the sliders' angles into the kernels' radians)."""


@kernel
def rotate(x: float, y: float, c: float, s: float) -> tuple[float, float]:
    """Vector (x, y) rotated by the angle whose cosine and sine are c and s."""
    return x * c - y * s, x * s + y * c


@kernel
def rotate_about(x: float, y: float, cx: float, cy: float, angle: float) -> tuple[float, float]:
    """Point (x, y) rotated by `angle` (rad) about the centre (cx, cy)."""
    c, s = math.cos(angle), math.sin(angle)
    return cx + c * (x - cx) - s * (y - cy), cy + s * (x - cx) + c * (y - cy)


@kernel
def wrap(angle: float) -> float:
    """The same angle in (-π, π]."""
    return math.atan2(math.sin(angle), math.cos(angle))


@kernel
def sign(x: float) -> float:
    """np.sign: -1, 0 or 1 (0 for both zeros), NaN for NaN."""
    if x > 0:
        return 1.0
    if x < 0:
        return -1.0
    return 0.0 if x == 0 else x
