"""Scripted drives that show a fit what a car does: throttle, brakes, coasting, steering
both ways by different amounts, slow and fast (both of the arcade's traction regimes),
never reversing. Used by `car-sandbox bench` and the fit's tests."""

from __future__ import annotations

import numpy as np

LAP = (
    # seconds, steer, throttle, brake
    (0.5, 0.0, 0.0, 0.0),  # at rest
    (1.5, 0.0, 1.0, 0.0),
    (0.8, 0.3, 1.0, 0.0),
    (0.8, -0.6, 1.0, 0.0),
    (1.2, 1.0, 1.0, 0.0),
    (0.3, 0.0, 0.0, 1.0),
    (1.0, -1.0, 0.0, 0.0),
    (0.8, 0.5, 1.0, 0.0),
    (1.5, -0.4, 1.0, 0.0),
    (0.5, 0.8, 0.0, 1.0),
    (1.1, 0.0, 0.0, 0.0),
    (1.0, -0.8, 0.0, 0.0),
    (0.7, 0.6, 1.0, 0.0),
    (0.6, 0.0, 0.0, 0.0),
)
"""One lap of the arcade drive: (seconds, steer, throttle, brake) held."""


def held_drive(steps, seconds: float, hz: float) -> np.ndarray:
    """(n, 5) control rows of `steps` ((seconds, steer, throttle, brake) held) repeated
    to `seconds` s at `hz` Hz, each repeat's steering a little different (the steps'
    steer scaled by 1, 0.7, 0.85, …), so the drive shows more than a few angles."""
    rows = []
    scales = (1.0, 0.7, 0.85, 0.55, 0.95)
    lap = 0
    while len(rows) < round(seconds * hz):
        for duration, steer, throttle, brake in steps:
            sign = -1.0 if lap % 2 else 1.0  # every other lap the other way round
            rows += [[sign * steer * scales[lap % len(scales)], throttle, brake, 0.0, 0.0]] * round(duration * hz)
        lap += 1
    return np.array(rows[: round(seconds * hz)], dtype=np.float64)


def arcade_drive(seconds: float = 30.0, hz: float = 60.0) -> np.ndarray:
    """The arcade's drive (LAP repeated)."""
    return held_drive(LAP, seconds, hz)


CORVETTE_LAP = (
    (0.5, 0.0, 0.0, 0.0),
    (3.0, 0.0, 1.0, 0.0),  # first gear's wheelspin, then up the gears
    (1.5, 0.15, 1.0, 0.0),
    (1.5, -0.3, 0.6, 0.0),
    (0.8, 0.0, 0.0, 0.8),
    (1.5, 0.5, 0.4, 0.0),
    (1.0, -0.2, 0.0, 0.0),
    (1.2, 0.0, 1.0, 0.0),
    (1.0, 0.6, 0.0, 0.0),
    (0.8, -0.1, 0.0, 1.0),
    (1.5, -0.4, 0.7, 0.0),
)
"""One lap of the Corvette's drive."""


def corvette_drive(seconds: float = 30.0, hz: float = 60.0) -> np.ndarray:
    """The dynamic car's drive (CORVETTE_LAP repeated)."""
    return held_drive(CORVETTE_LAP, seconds, hz)


def wall_contact(model, tuning, controls: np.ndarray, hz: float, at, ticks: int, angle: float = 10.0):
    """A recording (files.recordings.Recording, with velocities) of `model`'s car under
    `tuning` driving `controls` as drive_recording makes it, but for `ticks` ticks
    centred on `at` s (a time, or several) a wall glances it: a wall `angle` degrees
    across the car's path, met where the car is as the contact starts, that pushes the
    car back onto it and takes away its velocity into it each tick (what the sandbox's
    model cannot know)."""
    from ..files.recordings import drive_recording
    from ..physics.sim import step
    from ..physics.state import Controls, State

    plain = drive_recording(model, tuning, controls, hz)
    layout = model.STATE
    state = State.at_rest(1, layout)
    firsts = {round(t * hz) - ticks // 2 for t in np.atleast_1d(at)}  # the rows (= ticks) of first contact
    x, y, vx, vy, heading = (layout.offset[n] for n in ("x", "y", "vx", "vy", "heading"))
    pose, velocity = plain.pose.copy(), plain.velocity.copy()
    first = -ticks
    for k, c in enumerate(plain.controls[1:], start=1):
        state = step(model, state, Controls(*c), tuning, 1.0 / hz)
        row = state.data[0]
        if k in firsts:  # the wall: through the car, `angle` across its way, on its left
            first = k
            way = np.array([row[vx], row[vy]]) / np.hypot(row[vx], row[vy])
            turn = np.radians(angle)
            along = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]]) @ way
            normal, origin = np.array([-along[1], along[0]]), np.array([row[x], row[y]])
        if first <= k < first + ticks:
            inside = float((np.array([row[x], row[y]]) - origin) @ normal)
            if inside < 0:  # pushed back out onto the wall
                row[x], row[y] = np.array([row[x], row[y]]) - inside * normal
            into = float(np.array([row[vx], row[vy]]) @ normal)
            if into < 0:
                row[vx], row[vy] = np.array([row[vx], row[vy]]) - into * normal
        pose[k] = row[x], row[y], row[heading]
        velocity[k] = row[vx], row[vy]
    return type(plain)(
        controls=plain.controls, pose=pose, velocity=velocity, hz=plain.hz, t=plain.t, source="wall contact"
    )


PARKING_LOT_START = (250.0, 1500.0, 45.0)
"""px, px, °: where `parking_lot_drive` starts on the parking lot (heading down-right,
towards its bottom wall)."""


def parking_lot_drive(hz: float = 60.0, seconds: float = 16.0) -> np.ndarray:
    """`seconds` of controls (n, 5) for the recipe car on the built-in parking lot from
    PARKING_LOT_START: full throttle into the bottom wall at 45° (a hit, then a slide
    along it), reverse away with the wheel turned, a weave that grazes the wall again
    at speed, then out through the wall's gap, a brake and a weave on the open ground
    beyond. With the recipe's defaults the car meets the wall in about 70 ticks
    (0.85–1.6 s and 3.9–4.35 s), none after 5 s."""
    t = np.arange(int(round(seconds * hz))) / hz
    c = np.zeros((len(t), 5))
    c[:, 1] = 1.0
    back = (t >= 1.5) & (t < 2.6)
    c[back, 1], c[back, 2], c[back, 0] = 0.0, 1.0, 0.8
    c[(t >= 2.6) & (t < 3.4), 0] = -1.0
    weave = t >= 3.4
    c[weave, 0] = 0.6 * np.sin(1.8 * (t[weave] - 3.4))
    brake = (t >= 7.0) & (t < 7.5)
    c[brake, 1], c[brake, 2] = 0.0, 1.0
    return c
