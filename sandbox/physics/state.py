"""Car state and per-tick controls: one float row per car, laid out from a declaration.

Coordinates follow Godot 2D: x right, y down (pixels for the arcade model, metres for
the others), heading 0 along +x and increasing clockwise on screen (turning right).

A model declares its state once, as `Slot`s after the common ones (`COMMON`); the
`Layout` built from that declaration gives each slot its column, and its `index`
(a namedtuple of column numbers) is what the compiled kernel reads `s[S.vx]` with.
A batch of cars is an (n, layout.size) float64 array; `State` wraps it for Python
callers (the window, the tests) with the old field names.

| common slot   | unit   | meaning                                              |
|---------------|--------|------------------------------------------------------|
| x, y          | length | centre of the car (Godot `position`)                 |
| heading       | rad    | Godot `rotation`, (-π, π]                            |
| vx, vy        | length/s | Godot `velocity`                                   |
| wheel_angle   | rad    | front wheel angle used in the last tick (for drawing) |
| traction_fast | 0/1    | the last tick slid (drift regime; skid marks)        |

Every model's layout ends with the slots of the world it drives in (`WORLD`), which
the drivers keep (kernels.tick_in) and the models do not declare:

| world slot    | unit   | meaning                                              |
|---------------|--------|------------------------------------------------------|
| cones_hit     | count  | cones this car has knocked since it was placed       |
| cones_knocked | bits   | which ones, `KNOCKED_WORDS` floats (see physics/cones.py) |
| surface_grip  | factor | the track's grip factor under the car's centre at the tick's start (1 off every surface) |
| steer_feel    | -1..1  | the steer held by the steering feel after the last tick (steer_feel.py) |
| steer_received | -1..1 | the steer the model read in the last tick (after the steering feel) |
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import MutableMapping
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Slot:
    """One named value of a car's state: `size` floats starting at `default`."""

    name: str
    unit: str
    default: float = 0.0
    size: int = 1


COMMON = (
    Slot("x", "length"),
    Slot("y", "length"),
    Slot("heading", "rad"),
    Slot("vx", "length/s"),
    Slot("vy", "length/s"),
    Slot("wheel_angle", "rad"),
    Slot("traction_fast", "0/1"),
)
COMMON_NAMES = tuple(s.name for s in COMMON)
KNOCKED_WORDS = 8
"""Floats of a car's record of the cones it knocked (physics/cones.py)."""
WORLD = (
    Slot("cones_hit", "count"),
    Slot("cones_knocked", "bits", 0.0, KNOCKED_WORDS),
    Slot("surface_grip", "factor", 1.0),
    Slot("steer_feel", "input"),
    Slot("steer_received", "input"),
)
WORLD_NAMES = tuple(s.name for s in WORLD)


class Layout:
    """Columns of a state row, generated from its slots (common ones first)."""

    def __init__(self, extra: tuple[Slot, ...] = (), world: bool = True):
        """`world`: the layout ends with the world's slots (`WORLD`; every model's does)."""
        extra = tuple(extra) + (WORLD if world else ())
        self.slots = COMMON + extra
        self.offset: dict[str, int] = {}
        at = 0
        for slot in self.slots:
            self.offset[slot.name] = at
            at += slot.size
        self.size = at
        self.slot = {s.name: s for s in self.slots}
        self.extra_names = tuple(s.name for s in extra)
        self.declared_names = tuple(name for name in self.extra_names if name not in WORLD_NAMES)
        """The model's own extras (without the world's slots)."""
        self.defaults = np.concatenate([np.full(s.size, s.default, dtype=np.float64) for s in self.slots])
        self.index = namedtuple("StateIndex", [s.name for s in self.slots])(*(self.offset[s.name] for s in self.slots))
        """Column of each slot, for the kernels (`s[S.vx]`): numba reads it as constants."""

    def columns(self, name: str) -> slice | int:
        slot = self.slot[name]
        start = self.offset[name]
        return start if slot.size == 1 else slice(start, start + slot.size)

    def rest(self, n: int) -> np.ndarray:
        """(n, size) rows of cars at rest at the origin."""
        return np.tile(self.defaults, (n, 1))


GENERIC = Layout(world=False)
"""The common slots only: a state made before it knows its model (tests, `at_rest`)."""


def index_of(names) -> tuple:
    """A namedtuple of positions 0, 1, … under `names` (the kernels' parameter index)."""
    names = tuple(names)
    return namedtuple("Index", names)(*range(len(names)))


class Extras(MutableMapping):
    """A state's model-specific values by name: its layout's columns (views; writes go
    to the state), then any loose arrays set before the state was bound to a model."""

    def __init__(self, state: "State"):
        self._state = state

    def __getitem__(self, key):
        s = self._state
        if key in s.layout.extra_names:
            return s.data[:, s.layout.columns(key)]
        return s.loose[key]

    def __setitem__(self, key, value):
        s = self._state
        if key in s.layout.extra_names:
            s.data[:, s.layout.columns(key)] = value
        else:
            s.loose[key] = np.asarray(value, dtype=np.float64)

    def __delitem__(self, key):
        del self._state.loose[key]

    def __iter__(self):
        yield from self._state.layout.extra_names
        yield from self._state.loose

    def __len__(self):
        return len(self._state.layout.extra_names) + len(self._state.loose)


class State:
    """Pose and velocity of `n` cars: fields are column views of `data` (n, size).

    `display_heading`, when a model has it, is where the body is drawn pointing (the
    bicycle's drift illusions); slip angles are measured from it.
    """

    def __init__(self, x, y, heading, vx, vy, wheel_angle=None, traction_fast=None, extra=None):
        n = len(np.atleast_1d(x))
        self.layout = GENERIC
        self.data = GENERIC.rest(n)
        self.loose: dict[str, np.ndarray] = {}
        for name, value in zip(COMMON_NAMES, (x, y, heading, vx, vy, wheel_angle, traction_fast)):
            if value is not None:
                self.data[:, GENERIC.offset[name]] = value
        for key, value in (extra or {}).items():
            self.extra[key] = value

    @classmethod
    def of(cls, layout: Layout, data: np.ndarray) -> "State":
        """A state over `data` rows laid out by `layout` (no copy)."""
        s = cls.__new__(cls)
        s.layout, s.data, s.loose = layout, data, {}
        return s

    @classmethod
    def at_rest(cls, n: int = 1, layout: Layout = GENERIC) -> "State":
        """`n` cars at the origin, heading 0, not moving."""
        return cls.of(layout, layout.rest(n))

    def bound(self, layout: Layout) -> "State":
        """This state laid out by `layout` (itself if it already is): common columns
        and extras carried over by name, every other slot at its default."""
        if self.layout is layout and not self.loose:
            return self
        out = layout.rest(len(self))
        for name in COMMON_NAMES:
            out[:, layout.offset[name]] = self.data[:, self.layout.offset[name]]
        for key, value in self.extra.items():
            if key in layout.extra_names:
                out[:, layout.columns(key)] = value
        if "display_heading" in layout.extra_names and "display_heading" not in self.extra:
            out[:, layout.offset["display_heading"]] = out[:, layout.offset["heading"]]  # drawn as it points
        return State.of(layout, out)

    def __len__(self) -> int:
        return len(self.data)

    def copy(self) -> "State":
        s = State.of(self.layout, self.data.copy())
        s.loose = {k: v.copy() for k, v in self.loose.items()}
        return s

    def _column(self, name: str) -> np.ndarray:
        return self.data[:, self.layout.offset[name]]

    x = property(lambda self: self._column("x"))
    y = property(lambda self: self._column("y"))
    heading = property(lambda self: self._column("heading"))
    vx = property(lambda self: self._column("vx"))
    vy = property(lambda self: self._column("vy"))
    wheel_angle = property(lambda self: self._column("wheel_angle"))

    @property
    def traction_fast(self) -> np.ndarray:
        return self._column("traction_fast") > 0.5

    @property
    def extra(self) -> Extras:
        return Extras(self)

    def get(self, name: str, default: float = 0.0) -> np.ndarray:
        """Model-specific array `name`, or `default` for every car if the state has none."""
        extra = self.extra
        return extra[name] if name in extra else np.full(len(self), default, dtype=np.float64)

    def channel(self, key: str) -> np.ndarray:
        """A model's telemetry value by name: its extras first, then the common fields."""
        extra = self.extra
        return extra[key] if key in extra else getattr(self, key)

    @property
    def display_heading(self) -> np.ndarray:
        """Where the body is drawn pointing (rad); the heading unless a model says otherwise."""
        return self.channel("display_heading") if "display_heading" in self.extra else self.heading

    @property
    def speed(self) -> np.ndarray:
        """|velocity| in length units/s."""
        return np.hypot(self.vx, self.vy)

    @property
    def slip_angle(self) -> np.ndarray:
        """Signed angle from heading to velocity in rad, (-pi, pi]; 0 at rest.

        Positive when the car moves to the right of where it points (y down). A car
        reversing straight back reads pi: the angle is not folded.
        """
        return slip_angle(self.display_heading, self.vx, self.vy)

    @property
    def sideslip(self) -> np.ndarray:
        """The sideslip angle the plots and readouts show (rad), within ±pi/2 (`sideslip`)."""
        return sideslip(self.display_heading, self.vx, self.vy)


def slip_angle(heading, vx, vy):
    """Signed angle (rad) from `heading` to the velocity (vx, vy), arrays or floats;
    0 at rest."""
    hx, hy = np.cos(heading), np.sin(heading)
    # + 0.0 turns a -0.0 into +0.0: at rest atan2(±0, -0) would read ±π, a car reversing
    return np.arctan2(hx * vy - hy * vx + 0.0, hx * vx + hy * vy + 0.0)


def sideslip(heading, vx, vy):
    """The car's sideslip angle β (rad), within ±pi/2: "the arctangent of the lateral
    velocity divided by the longitudinal velocity" (Monster, "High Speed Turning"), the
    longitudinal part taken as its size, as the dynamic car's tyres take it while
    reversing. Positive when the car moves to the right of its long axis (y down); 0 at
    rest and reversing straight back, so it never jumps between ±180° while reversing
    (`slip_angle`, heading to velocity, reads ±180° there). Arrays or floats."""
    hx, hy = np.cos(heading), np.sin(heading)
    return np.arctan2(hx * vy - hy * vx + 0.0, np.abs(hx * vx + hy * vy))


CONTROL_NAMES = ("steer", "throttle", "brake", "handbrake", "shift")


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

    def rows(self, n: int) -> np.ndarray:
        """The controls as kernel rows: (1, 5) when every car has the same, else (n, 5),
        each value as Godot holds it (`as_engine_controls`)."""
        values = [np.asarray(getattr(self, f), dtype=np.float64) for f in CONTROL_NAMES]
        if all(v.ndim == 0 for v in values):
            return as_engine_controls(np.array([[float(v) for v in values]]))
        return as_engine_controls(np.column_stack([np.broadcast_to(v, (n,)) for v in values]))


def as_engine_controls(rows: np.ndarray) -> np.ndarray:
    """Control values as the game engine hands them to a car script: Godot keeps an
    action's strength as a 32-bit float (a pedal at 0.7 reads 0.699999988), so every
    control is rounded to the nearest 32-bit float before it reaches a kernel; 0, ±1
    and the keyboard's values are exact. A new float64 array."""
    return np.asarray(rows, dtype=np.float64).astype(np.float32).astype(np.float64)
