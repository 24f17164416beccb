"""Which part of a game controller drives which control: the pad map (SDL's game-controller
names: a pad's layout is known) and the wheel map (a wheel's axes by number: SDL knows
no layout for wheels). Plain data with defaults, and the arithmetic from a device's axes to
the car's controls before Godot's dead zones; no device, no Qt."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .godot_input import clamped_axis

BUTTON_ACTIONS = ("handbrake", "shift_up", "shift_down", "reset", "record")
"""What a controller's buttons do: the handbrake is held; the others act once a press."""


@dataclass(frozen=True)
class PadMap:
    """A pad through SDL's game-controller API, by SDL's names for the parts of a pad
    (`leftx`, `righttrigger`, `a`, `rightshoulder`, `dpup`, …: the D-pad is buttons there).
    The stick steers (-1 left .. 1 right), the triggers (0..1) drive the pedals."""

    steer: str = "leftx"
    throttle: str = "righttrigger"
    brake: str = "lefttrigger"
    steer_inverted: bool = False
    buttons: dict = field(
        default_factory=lambda: {
            "handbrake": ("a",),
            "shift_up": ("rightshoulder", "dpup"),
            "shift_down": ("leftshoulder", "dpdown"),
            "reset": ("y",),
            "record": ("back",),
        }
    )


@dataclass(frozen=True)
class AxisBinding:
    """One axis of a joystick-API device (a wheel): its number, whether it runs the other
    way, and for a pedal whether it spans the full range (-1 released .. 1 pressed, as
    most wheels' pedals) or half of it (0 .. 1)."""

    axis: int
    inverted: bool = False
    full_range: bool = True

    def raw(self, axes: Sequence[float]) -> float:
        """The axis's value (-1..1), inverted when asked; 0 when the device has no such axis."""
        if not 0 <= self.axis < len(axes):
            return 0.0
        value = clamped_axis(axes[self.axis])
        return -value if self.inverted else value

    def pedal(self, axes: Sequence[float]) -> float:
        """The axis as a pedal: 0 released .. 1 pressed; released when the device has no
        such axis."""
        if not 0 <= self.axis < len(axes):
            return 0.0
        value = self.raw(axes)
        return clamped_axis((value + 1.0) / 2.0 if self.full_range else value, low=0.0)


@dataclass(frozen=True)
class WheelMap:
    """A wheel (or any joystick SDL has no pad layout for), read through SDL's joystick
    API: the wheel's axis steers, pedals on their own axes, or throttle and brake combined
    on one axis (`combined_pedals`: the throttle's axis, its plus side the throttle and its
    minus side the brake, as older wheels report them); buttons by number. The defaults
    fit a common layout (wheel, throttle, brake, clutch on axes 0 to 3, paddles on buttons
    4 and 5); a wheel laid out otherwise is mapped in the Controls dialog."""

    steer: AxisBinding = AxisBinding(0)
    throttle: AxisBinding = AxisBinding(1)
    brake: AxisBinding | None = AxisBinding(2)
    clutch: AxisBinding | None = AxisBinding(3)
    combined_pedals: bool = False
    buttons: dict = field(
        default_factory=lambda: {"handbrake": (0,), "shift_up": (5,), "shift_down": (4,), "reset": (3,), "record": (6,)}
    )

    def values(self, axes: Sequence[float]) -> dict:
        """The wheel's raw controls: steer (-1..1), throttle, brake and clutch (0..1)."""
        if self.combined_pedals:
            both = self.throttle.raw(axes)
            throttle, brake = max(0.0, both), max(0.0, -both)
        else:
            throttle = self.throttle.pedal(axes)
            brake = self.brake.pedal(axes) if self.brake is not None else 0.0
        clutch = self.clutch.pedal(axes) if self.clutch is not None else 0.0
        return {"steer": self.steer.raw(axes), "throttle": throttle, "brake": brake, "clutch": clutch}
