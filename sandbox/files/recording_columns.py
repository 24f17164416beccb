"""The columns of a recording (a trace with the car's pose per tick): the names it may
hold (see docs/link.md, "Recordings")."""

from __future__ import annotations

from ..physics.channels import channels_of, column_name
from ..physics.models import MODELS

CONTROL_COLUMNS = ("steer", "throttle", "brake", "handbrake", "shift")
"""The five controls of a tick, in `Controls` order (handbrake and shift optional)."""
DEVICE_COLUMNS = ("steer_device", "throttle_device", "brake_device")
"""A trace's optional raw device values of a tick (a stick, a trigger before its dead zone
and shaping; the keyboard's value where no controller gave more): shown in a replay's
input plots, never driven by."""
POSE_COLUMNS = ("x", "y", "heading")
"""The car's pose after the tick: the model's length unit, rad."""
TIME_COLUMN = "t"
VELOCITY_COLUMNS = ("vx", "vy")
IGNORED_COLUMNS = ("slip_angle",)
"""Read and not used: `simulate`'s trajectory columns that are no state of any model."""
STATE_COLUMNS = tuple(
    sorted(
        {
            slot.name
            for model in MODELS.values()
            for slot in model.STATE.slots
            if slot.size == 1 and slot.name not in CONTROL_COLUMNS + (TIME_COLUMN,) + POSE_COLUMNS + VELOCITY_COLUMNS
        }
    )
)
"""A model's own state values a recording may hold (`omega`, `rpm`, `gear`, `speed`, …):
any single-valued slot of any model's state but those named like a control or a pose
column (the bicycle's steering angle `steer`: the `steer` column is the control)."""
RECORDING_COLUMNS = CONTROL_COLUMNS + (TIME_COLUMN,) + POSE_COLUMNS + VELOCITY_COLUMNS + STATE_COLUMNS + IGNORED_COLUMNS
CHANNEL_COLUMNS = frozenset(column_name(c) for model in MODELS.values() for c in channels_of(model))
"""Optional columns of a trace or recording saved by the window: a model's channels
(physics/channels.py), each named with its unit (`yaw_rate[deg/s]`; a pure number such
as `gear` bare, as a recording's state value of that name); kept for the reader, never
driven by, and NaN where a value was not known."""
