"""Plane geometry shared by the models (y down: a positive angle turns clockwise on
screen, like the heading)."""

from __future__ import annotations

import math

import numpy as np

DEGREES = 180 / math.pi
"""Degrees per radian (telemetry shows angles in degrees)."""


def rotate(x, y, c, s):
    """Vector (x, y) rotated by the angle whose cosine and sine are c and s."""
    return x * c - y * s, x * s + y * c


def rotate_about(x, y, cx, cy, angle):
    """Point (x, y) rotated by `angle` (rad) about the centre (cx, cy)."""
    c, s = np.cos(angle), np.sin(angle)
    return cx + c * (x - cx) - s * (y - cy), cy + s * (x - cx) + c * (y - cy)


def wrap(angle):
    """The same angle in (-π, π]."""
    return np.arctan2(np.sin(angle), np.cos(angle))
