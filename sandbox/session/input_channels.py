"""The live plots' input channels and presets, common to every model (declared once
here, beside each model's own channels): steer, throttle and brake as the model
received them (physics/channels.py's common channels) beside the raw device value (a
stick or trigger before its dead zone and shaping; the keyboard's when no controller
gives more). The received steer is the state's `steer_received` slot (after the
steering feel); the others are not state values: the window hands them to the plots
with each tick (`INPUT_KEYS`)."""

from __future__ import annotations

from types import ModuleType

import numpy as np

from ..files.recording_columns import DEVICE_COLUMNS
from ..physics.channels import INPUT, PERCENT, Channel, channel_values, channels_of, column_name, preset_channels
from ..physics.state import Controls

DEVICE_CHANNELS = tuple(Channel(key, f"{key.split('_')[0]} device", "%", PERCENT, kind=INPUT) for key in DEVICE_COLUMNS)
"""The raw device values (steer -100..100 %, right positive; the pedals 0..100 %)."""
INPUT_PRESETS = {
    f"input: {control}": (f"{control}_received", f"{control}_device") for control in ("steer", "throttle", "brake")
}
"""name -> channel names, as a model's PRESETS."""
DEVICE_KEYS = DEVICE_COLUMNS
"""The raw device values of a tick, in `Controls` order (a trace keeps them by these names)."""
INPUT_KEYS = ("throttle_received", "brake_received") + DEVICE_KEYS
"""The input channels' sources that are no state slot: handed over with each tick."""


def plot_channels(model: ModuleType) -> tuple[Channel, ...]:
    """Every channel the window can plot for `model`: its own, the common ones, the devices'."""
    return channels_of(model) + DEVICE_CHANNELS


def telemetry_groups(model: ModuleType) -> dict[str, tuple[Channel, ...]]:
    """The plot presets of `model`: its own, then the input presets (name -> channels)."""
    by_name = {c.name: c for c in plot_channels(model)}
    inputs = {name: tuple(by_name[n] for n in names) for name, names in INPUT_PRESETS.items()}
    return {**preset_channels(model), **inputs}


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


def recorded_channels(model: ModuleType, states: np.ndarray, controls: np.ndarray, hz: float) -> dict:
    """Every channel of `model` over a recorded drive, by its file column (name and
    unit): `states` the car's state rows, its start then one after each tick;
    `controls` the ticks' rows (steer, throttle, brake, …)."""
    rows, inputs = states[1:], tick_inputs(controls, None)
    return {
        column_name(c): channel_values(c, model.STATE, rows, states[0], 1.0 / hz, inputs) for c in channels_of(model)
    }
