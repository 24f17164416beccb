"""The recipe's arcade tick for one car in plain Python (the `math` module only).

The benchmark's baseline: the batch engine must be at least 20 times a
plain-Python per-car loop of the same model, measured in the same run. It follows
the recipe's `_physics_process` line by line (recipe mode, no `rate_independent`);
the tests hold it to `models.arcade` on a drive, so the comparison is like for like.
It is never used to simulate anything in the sandbox itself.
"""

from __future__ import annotations

import math
from typing import Mapping


def tick(car: list[float], steer: float, throttle: float, brake: float, p: Mapping[str, float], dt: float) -> None:
    """Advance one car, `car` = [x, y, rotation, vx, vy], in place by one tick."""
    x, y, rotation, vx, vy = car
    hx, hy = math.cos(rotation), math.sin(rotation)
    # get_input: the brake overwrites the throttle
    steer_direction = steer * math.radians(p["steering_angle"])
    ax = ay = 0.0
    if throttle > 0:
        ax, ay = hx * p["engine_power"] * throttle, hy * p["engine_power"] * throttle
    if brake > 0:
        ax, ay = hx * p["braking"] * brake, hy * p["braking"] * brake
    # apply_friction
    speed = math.sqrt(vx * vx + vy * vy)
    if ax == 0 and ay == 0 and speed < 50:
        vx = vy = speed = 0.0
    resist = max(p["friction"] * dt + p["drag"] * dt * speed, -1.0 / dt)
    ax, ay = ax + vx * resist, ay + vy * resist
    # calculate_steering: front wheel minus rear wheel after both moved
    c, s = math.cos(steer_direction), math.sin(steer_direction)
    dx = p["wheel_base"] * hx + (vx * c - vy * s - vx) * dt
    dy = p["wheel_base"] * hy + (vx * s + vy * c - vy) * dt
    length = math.sqrt(dx * dx + dy * dy)
    if length > 0:
        hx, hy = dx / length, dy / length
    traction = p["traction_fast"] if speed > p["slip_speed"] else p["traction_slow"]
    along = hx * vx + hy * vy
    if along > 0:
        weight = min(traction * dt, 1.0)
        vx, vy = vx + (hx * speed - vx) * weight, vy + (hy * speed - vy) * weight
    elif along < 0:
        back = min(speed, p["max_speed_reverse"])
        vx, vy = -hx * back, -hy * back
    rotation = math.atan2(hy, hx)
    # velocity += acceleration * delta; move_and_slide
    vx, vy = vx + ax * dt, vy + ay * dt
    car[:] = [x + vx * dt, y + vy * dt, rotation, vx, vy]
