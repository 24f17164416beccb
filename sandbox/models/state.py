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
    | extra   |       | model-specific arrays of shape (n,), by name (see each model) |

    `display_heading`, when a model sets it in `extra`, is where the body is drawn
    pointing (the bicycle's drift illusions); slip angles are measured from it.
    """

    x: np.ndarray
    y: np.ndarray
    heading: np.ndarray
    vx: np.ndarray
    vy: np.ndarray
    wheel_angle: np.ndarray = field(default=None)  # type: ignore[assignment]
    traction_fast: np.ndarray = field(default=None)  # type: ignore[assignment]
    extra: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        n = len(self.x)
        if self.wheel_angle is None:
            self.wheel_angle = _zeros(n)
        if self.traction_fast is None:
            self.traction_fast = np.zeros(n, dtype=bool)

    def get(self, name: str, default: float = 0.0) -> np.ndarray:
        """Model-specific array `name`, or `default` for every car if not set yet."""
        value = self.extra.get(name)
        return np.full(len(self.x), default, dtype=np.float64) if value is None else value

    @classmethod
    def at_rest(cls, n: int = 1) -> "State":
        """`n` cars at the origin, heading 0, not moving."""
        return cls(_zeros(n), _zeros(n), _zeros(n), _zeros(n), _zeros(n))

    def __len__(self) -> int:
        return len(self.x)

    def copy(self) -> "State":
        arrays = {k: np.array(v, copy=True) for k, v in vars(self).items() if k != "extra"}
        return replace(self, **arrays, extra={k: np.array(v, copy=True) for k, v in self.extra.items()})

    def channel(self, key: str) -> np.ndarray:
        """A model's telemetry value by name: its extras first, then State's fields."""
        value = self.extra.get(key)
        return getattr(self, key) if value is None else value

    @property
    def display_heading(self) -> np.ndarray:
        """Where the body is drawn pointing (rad); the heading unless a model says otherwise."""
        return self.extra.get("display_heading", self.heading)

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
        hx, hy = np.cos(self.display_heading), np.sin(self.display_heading)
        return np.arctan2(hx * self.vy - hy * self.vx, hx * self.vx + hy * self.vy)


@dataclass
class Controls:
    """Driver input for one tick: each field a float or an array of shape (n,).

    steer in [-1, 1] (positive = right); throttle and brake in [0, 1] (the
    keyboard gives 0 or 1, as Godot's `is_action_pressed`). handbrake in [0, 1] and
    shift (+1 up, -1 down, this tick only) matter to the dynamic car only.
    """

    steer: np.ndarray | float = 0.0
    throttle: np.ndarray | float = 0.0
    brake: np.ndarray | float = 0.0
    handbrake: np.ndarray | float = 0.0
    shift: np.ndarray | float = 0.0
