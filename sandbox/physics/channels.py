"""Channels: every quantity a car produces per tick, each with its name, label and unit.

A model declares its own channels once, beside its parameters (`CHANNELS`: the state
slots worth plotting, converted to the unit shown), and names a few of them together
as plot presets (`PRESETS`, name -> channel names). Every model also has the common
channels below (`common_channels`), derived from its state the same way for all:

| channel | unit | value |
|---|---|---|
| speed | length/s (m/s, px/s) | √(vx² + vy²) |
| sideslip | ° | the sideslip angle β (state.sideslip: from the drawn heading) |
| yaw_rate | °/s | the model's `omega` slot; without one, the drawn heading's change over the tick, wrapped to ±180° |
| accel_long, accel_lat | g (metric models), px/s² (arcade) | car_frame.accelerations over the tick |
| steer_received | % | the steer the model read (WORLD slot, after the steering feel), right positive |
| throttle_received, brake_received | % | the pedals the model read (the tick's controls) |
| surface_grip | factor | the track's grip factor under the car |

A value that needs the tick before (the accelerations, a yaw rate from the heading) is
NaN on a first tick whose state before is not known.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from types import ModuleType

import numpy as np

from .car_frame import STANDARD_G, accelerations
from .state import sideslip

DEGREES = 180.0 / math.pi
PERCENT = 100.0
SLOT, DERIVED, INPUT = "slot", "derived", "input"
"""Where a channel's value comes from: a state slot, a formula over the tick, or the
tick's controls (and devices) handed over beside the state."""


@dataclass(frozen=True)
class Channel:
    """One quantity per tick: `name` (the key in files and settings), `label` (as shown),
    `unit` (as shown; "" for a pure number); its value is `factor` × the source: the state
    slot `slot` (default: `name`; element `index` of a slot of several values), or, by
    `kind`, a derived value or an input."""

    name: str
    label: str
    unit: str
    factor: float = 1.0
    slot: str = ""
    index: int = 0
    kind: str = SLOT

    @property
    def source(self) -> str:
        return self.slot or self.name


def common_channels(length_unit: str) -> tuple[Channel, ...]:
    """The channels every model has, in the model's `length_unit` (m or px)."""
    metric = length_unit != "px"
    accel_unit, accel_factor = ("g", 1.0 / STANDARD_G) if metric else (f"{length_unit}/s²", 1.0)
    return (
        Channel("speed", "speed", f"{length_unit}/s", kind=DERIVED),
        Channel("sideslip", "sideslip angle", "°", DEGREES, kind=DERIVED),
        Channel("yaw_rate", "yaw rate", "°/s", DEGREES, kind=DERIVED),
        Channel("accel_long", "longitudinal acceleration", accel_unit, accel_factor, kind=DERIVED),
        Channel("accel_lat", "lateral acceleration", accel_unit, accel_factor, kind=DERIVED),
        Channel("steer_received", "steer received", "%", PERCENT),
        Channel("throttle_received", "throttle received", "%", PERCENT, kind=INPUT),
        Channel("brake_received", "brake received", "%", PERCENT, kind=INPUT),
        Channel("surface_grip", "surface grip", "factor"),
    )


def channels_of(model: ModuleType) -> tuple[Channel, ...]:
    """Every channel of `model`: its own (`CHANNELS`), then the common ones."""
    return tuple(model.CHANNELS) + common_channels(model.LENGTH_UNIT)


def preset_channels(model: ModuleType, extra: tuple[Channel, ...] = ()) -> dict[str, tuple[Channel, ...]]:
    """The model's presets (name -> its channels), found among its channels and `extra`."""
    by_name = {c.name: c for c in channels_of(model) + tuple(extra)}
    return {name: tuple(by_name[n] for n in names) for name, names in model.PRESETS.items()}


def _before(rows: np.ndarray, before: np.ndarray | None) -> np.ndarray:
    """Each row's state before its tick: `before` (NaN when unknown), then the rows."""
    first = np.full((1, rows.shape[1]), np.nan) if before is None else np.asarray(before, dtype=np.float64)[None, :]
    return first if len(rows) == 1 else np.vstack([first, rows[:-1]])  # one row: the live plots' every tick


def _drawn(layout, rows: np.ndarray) -> np.ndarray:
    name = "display_heading" if "display_heading" in layout.offset else "heading"
    return rows[:, layout.offset[name]]


def derived(name: str, layout, rows: np.ndarray, before: np.ndarray | None, dt: float) -> np.ndarray:
    """The derived channel `name` (in SI or the model's units, before any factor) of the
    state `rows` (one per tick, laid out by `layout`), `before` the row before the first."""
    at = layout.offset
    vx, vy = rows[:, at["vx"]], rows[:, at["vy"]]
    if name == "speed":
        return np.hypot(vx, vy)
    if name == "sideslip":
        return sideslip(_drawn(layout, rows), vx, vy)
    if name == "yaw_rate" and "omega" in at:
        return rows[:, at["omega"]].copy()
    prior = _before(rows, before)
    if name == "yaw_rate":
        turned = _drawn(layout, rows) - _drawn(layout, prior)
        return ((turned + math.pi) % (2 * math.pi) - math.pi) / dt
    along, across = accelerations(prior[:, at["vx"]], prior[:, at["vy"]], vx, vy, rows[:, at["heading"]], dt)
    return along if name == "accel_long" else across


def channel_values(
    channel: Channel, layout, rows: np.ndarray, before: np.ndarray | None, dt: float, inputs=None
) -> np.ndarray:
    """`channel`'s values (its unit) for state `rows` (n, layout.size), one per tick of
    `dt` s; `before`: the state row before the first tick (None: unknown); `inputs`: the
    input channels' values by source name (a value or n values; missing: NaN)."""
    if channel.kind == SLOT:
        value = rows[:, layout.offset[channel.source] + channel.index]
    elif channel.kind == DERIVED:
        value = derived(channel.source, layout, rows, before, dt)
    else:
        given = (inputs or {}).get(channel.source, np.nan)
        value = np.broadcast_to(np.asarray(given, dtype=np.float64), (len(rows),))
    return value * channel.factor


def find_channels(names, channels: tuple[Channel, ...]) -> tuple[Channel, ...]:
    """The channels called `names` (in that order), or "all"; ValueError names the
    unknown ones and lists the valid names."""
    by_name = {c.name: c for c in channels}
    names = [n.strip() for n in names if n.strip()]
    if names == ["all"]:
        return channels
    unknown = [n for n in names if n not in by_name]
    if unknown or not names:
        said = f"unknown channel {', '.join(unknown)}" if unknown else "no channel named"
        raise ValueError(f"{said} (the channels: all, {', '.join(by_name)})")
    return tuple(by_name[n] for n in names)


def ascii_unit(unit: str) -> str:
    """`unit` spelt in ASCII for a CSV header (° deg, ² ^2)."""
    return unit.replace("°", "deg").replace("²", "^2")


def column_name(channel: Channel) -> str:
    """`channel`'s CSV column: its name, then its unit in brackets (none for a pure number)."""
    unit = ascii_unit(channel.unit)
    return f"{channel.name}[{unit}]" if unit else channel.name
