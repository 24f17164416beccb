"""Per-axis shaping of a controller's values, set in the Controls dialog, over Godot's
dead zones: for each of the car's axes (steer, throttle, brake, clutch) an inversion, a
dead zone (Godot's unless set), a saturation and a response curve. No device, no Qt.

The order, for a value `raw` (steer -1..1, a pedal 0..1):

1. inversion: the steer's sign flips (`-raw`); a pedal reads the other way (`1 - raw`);
2. Godot's dead-zone rescale, per direction: 0 while `|v| < deadzone`, else
   `clamp((|v| - deadzone) / (saturation - deadzone), 0, 1)`: from the dead zone to the
   saturation mapped to 0..1 (with saturation 1 this is Godot's own formula, in 32-bit
   floats as the engine: godot_input.action_strength);
3. response curve: `strength ** exponent`, the sign kept.

Every setting at its default (no inversion, Godot's dead zone, saturation 1, exponent 1)
gives exactly what Godot gives: the car then receives what the user's game would.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from ..errors import UserError, shown
from .godot_input import DeadZones, action_strength

AXES = ("steer", "throttle", "brake", "clutch")
"""The car's axes a controller drives (the clutch is shown, the car has none to receive)."""
PEDAL_ACTIONS = {"throttle": "accelerate", "brake": "brake", "clutch": "clutch"}
"""The Godot action whose dead zone a pedal takes (the sandbox's action names)."""
STEER_ACTIONS = ("steer_left", "steer_right")

_F32 = np.float32


class ShapingError(UserError):
    """A shaping value that cannot be used."""


@dataclass(frozen=True)
class AxisShape:
    """How one axis is shaped: `dead_zone` (0 ≤ dz < saturation; None: Godot's, from the
    project.godot read or the Godot release), `saturation` (0 < s ≤ 1: the magnitude at
    which the output is full), `exponent` (> 0: the response curve) and `inverted`."""

    dead_zone: float | None = None
    saturation: float = 1.0
    exponent: float = 1.0
    inverted: bool = False

    def checked(self, axis: str) -> AxisShape:
        """This shape, or ShapingError naming `axis` and the value that cannot be used."""
        for name, value in (("saturation", self.saturation), ("exponent", self.exponent)):
            _check_number(axis, name, value)
        if not 0.0 < self.saturation <= 1.0:
            raise ShapingError(f"{axis}: saturation {self.saturation:g} must be above 0 and at most 1")
        if self.exponent <= 0.0:
            raise ShapingError(f"{axis}: exponent {self.exponent:g} must be above 0")
        dz = self.dead_zone
        if dz is not None:
            _check_number(axis, "dead zone", dz)
            if not 0.0 <= dz < self.saturation:
                raise ShapingError(
                    f"{axis}: dead zone {dz:g} must be at least 0 and below the saturation {self.saturation:g}"
                )
        return self

    @property
    def is_default(self) -> bool:
        return self == AxisShape()


def _check_number(axis: str, name: str, value) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ShapingError(f"{axis}: {name} {shown(repr(value))} is not a number")
    if not math.isfinite(value):
        raise ShapingError(f"{axis}: {name} {value} is not a finite number")


def strength(value: float, dead_zone: float, saturation: float, positive: bool = True) -> float:
    """An action's strength (0..1) for an axis at `value` (-1..1): Godot's (action_strength)
    when `saturation` is 1, else the same rescale up to `saturation`, in 32-bit floats."""
    if saturation == 1.0:
        return action_strength(value, dead_zone, positive)
    v, dz, sat = _F32(value), _F32(dead_zone), _F32(saturation)
    if (v < 0) == positive and v != 0 or abs(v) < dz:
        return 0.0
    return float(min(_F32(1.0), max(_F32(0.0), _F32((abs(v) - dz) / (sat - dz)))))


def curved(value: float, exponent: float) -> float:
    """`value` (0..1) through the response curve: value ** exponent (1: unchanged)."""
    return value if exponent == 1.0 else float(_F32(value) ** _F32(exponent))


@dataclass(frozen=True)
class Shaping:
    """Every axis's shape (an axis not named: the default, Godot's)."""

    axes: dict = field(default_factory=dict)

    def of(self, axis: str) -> AxisShape:
        return self.axes.get(axis, AxisShape())

    def with_axis(self, axis: str, **changes) -> Shaping:
        """This shaping with `axis` changed; ShapingError (naming it) if the change cannot be used."""
        if axis not in AXES:
            raise ShapingError(f"unknown axis {shown(axis)}: the axes are {', '.join(AXES)}")
        shape = replace(self.of(axis), **changes).checked(axis)
        return Shaping({**self.axes, axis: shape})

    def steer(self, raw: float, zones: DeadZones) -> float:
        """The steer (-1..1) the car receives for a stick or wheel at `raw` (-1..1)."""
        s = self.of("steer")
        v = -raw if s.inverted else raw
        left = zones.of(STEER_ACTIONS[0]) if s.dead_zone is None else s.dead_zone
        right = zones.of(STEER_ACTIONS[1]) if s.dead_zone is None else s.dead_zone
        plus = _F32(curved(strength(v, right, s.saturation, True), s.exponent))
        minus = _F32(curved(strength(v, left, s.saturation, False), s.exponent))
        return float(plus - minus)  # Input.get_axis: the positive strength minus the negative one

    def pedal(self, axis: str, raw: float, zones: DeadZones) -> float:
        """A pedal's strength (0..1) for a trigger or pedal at `raw` (0 released .. 1 pressed)."""
        s = self.of(axis)
        v = 1.0 - raw if s.inverted else raw
        dz = zones.of(PEDAL_ACTIONS[axis]) if s.dead_zone is None else s.dead_zone
        return curved(strength(v, dz, s.saturation, True), s.exponent)

    def shaped(self, raw: dict, zones: DeadZones) -> dict:
        """Every axis of `raw` (as a DeviceReading's) as the car receives it."""
        out = {"steer": self.steer(raw.get("steer", 0.0), zones)}
        for axis in AXES[1:]:
            out[axis] = self.pedal(axis, raw.get(axis, 0.0), zones)
        return out
