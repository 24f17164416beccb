"""Car state and per-tick controls shared by every model, as arrays over cars.

Coordinates follow Godot 2D: x right, y down (pixels for the arcade model), heading
0 along +x and increasing clockwise on screen (turning right).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np


def _zeros(n: int) -> np.ndarray:
    return np.zeros(n, dtype=np.float64)


@dataclass
class State:
    """Pose and velocity of `n` cars, each field shape (n,).

    | field   | unit  | meaning                                              |
    |---------|-------|------------------------------------------------------|
    | x, y    | px    | centre of the car (Godot `position`)                 |
    | heading | rad   | Godot `rotation`, wrapped to (-pi, pi] by `angle()`  |
    | vx, vy  | px/s  | Godot `velocity`                                     |
    | wheel_angle | rad | front wheel angle used in the last tick (for drawing) |
    | traction_fast | bool | the last tick used `traction_fast` (drift regime) |
    """

    x: np.ndarray
    y: np.ndarray
    heading: np.ndarray
    vx: np.ndarray
    vy: np.ndarray
    wheel_angle: np.ndarray = field(default=None)  # type: ignore[assignment]
    traction_fast: np.ndarray = field(default=None)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        n = len(self.x)
        if self.wheel_angle is None:
            self.wheel_angle = _zeros(n)
        if self.traction_fast is None:
            self.traction_fast = np.zeros(n, dtype=bool)

    @classmethod
    def at_rest(cls, n: int = 1) -> "State":
        """`n` cars at the origin, heading 0, not moving."""
        return cls(_zeros(n), _zeros(n), _zeros(n), _zeros(n), _zeros(n))

    def __len__(self) -> int:
        return len(self.x)

    def copy(self) -> "State":
        return replace(self, **{k: np.array(v, copy=True) for k, v in vars(self).items()})

    @property
    def speed(self) -> np.ndarray:
        """|velocity| in px/s."""
        return np.hypot(self.vx, self.vy)

    @property
    def slip_angle(self) -> np.ndarray:
        """Signed angle from heading to velocity in rad, (-pi, pi]; 0 at rest.

        Positive when the car moves to the right of where it points (y down). A car
        reversing straight back reads pi: the angle is not folded.
        """
        hx, hy = np.cos(self.heading), np.sin(self.heading)
        return np.arctan2(hx * self.vy - hy * self.vx, hx * self.vx + hy * self.vy)


@dataclass
class Controls:
    """Driver input for one tick: each field a float or an array of shape (n,).

    steer in [-1, 1] (positive = right); throttle and brake in [0, 1] (the
    keyboard gives 0 or 1, as Godot's `is_action_pressed`).
    """

    steer: np.ndarray | float = 0.0
    throttle: np.ndarray | float = 0.0
    brake: np.ndarray | float = 0.0
