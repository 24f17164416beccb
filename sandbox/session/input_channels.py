"""The live plots' input groups, common to every model (declared once here, beside each
model's own TELEMETRY): steer, throttle and brake as the model received them beside the
raw device value (a stick or trigger before its dead zone and shaping; the keyboard's
when no controller gives more). The received steer is the state's `steer_received`
slot (after the steering feel); the others are not state values: the window hands them
to the plots with each tick (`INPUT_KEYS`)."""

from __future__ import annotations

from types import ModuleType

import numpy as np

from ..files.recording_columns import DEVICE_COLUMNS
from ..physics.state import Controls

PERCENT = 100.0
INPUT_GROUPS = {
    "input: steer": ("%", (("steer_received", "received", PERCENT), ("steer_device", "device", PERCENT))),
    "input: throttle": ("%", (("throttle_received", "received", PERCENT), ("throttle_device", "device", PERCENT))),
    "input: brake": ("%", (("brake_received", "received", PERCENT), ("brake_device", "device", PERCENT))),
}
"""name -> (unit, ((key, label, factor), ...)), as a model's TELEMETRY: steer -100..100 %
(right positive), the pedals 0..100 %."""
DEVICE_KEYS = DEVICE_COLUMNS
"""The raw device values of a tick, in `Controls` order (a trace keeps them by these names)."""
INPUT_KEYS = ("throttle_received", "brake_received") + DEVICE_KEYS
"""The input groups' keys that are no state slot: handed over with each tick."""


def telemetry_groups(model: ModuleType) -> dict:
    """The plot groups of `model`: its own TELEMETRY, then the input groups."""
    return {**model.TELEMETRY, **INPUT_GROUPS}


def device_values(keyboard: Controls, reading) -> tuple[float, float, float]:
    """(steer, throttle, brake) as the devices gave them this tick: per control the one
    further from rest among the keyboard's and each controller's raw value (a
    pads.PadsReading's devices, before dead zone and shaping), as the car's controls
    take the larger of keyboard and controller."""
    steer, throttle, brake = keyboard.steer, keyboard.throttle, keyboard.brake
    for device in getattr(reading, "devices", ()):
        raw = device.raw
        if abs(raw.get("steer", 0.0)) > abs(steer):
            steer = raw["steer"]
        throttle = max(throttle, raw.get("throttle", 0.0))
        brake = max(brake, raw.get("brake", 0.0))
    return float(steer), float(throttle), float(brake)


def tick_inputs(controls, device) -> dict:
    """The INPUT_KEYS values of ticks: `controls` (rows of steer, throttle, brake, …, or
    one Controls), `device` (rows of the DEVICE_KEYS values, or one row; None: unknown)."""
    if isinstance(controls, Controls):
        controls = (controls.steer, controls.throttle, controls.brake)
    rows = np.atleast_2d(np.asarray(controls, dtype=np.float64))
    out = {"throttle_received": rows[:, 1], "brake_received": rows[:, 2]}
    if device is None:
        device = np.full((len(rows), len(DEVICE_KEYS)), np.nan)
    device = np.atleast_2d(np.asarray(device, dtype=np.float64))
    for j, key in enumerate(DEVICE_KEYS):
        out[key] = device[:, j]
    return out
