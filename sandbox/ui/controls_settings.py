"""The Controls dialog's settings kept between runs (QSettings): each axis's shaping under
controllers/shaping/<axis>/… and each wheel's axis map under controllers/wheels/<name>/…
(the name quoted: a device's name may hold any character). Every value is read through
`SessionMemory.setting`: one that cannot be used (text where a number goes, out of range,
an axis the car has not) is removed and said in the status bar, its default used; the
rest of the settings stay as they are."""

from __future__ import annotations

import math
from urllib.parse import quote, unquote

from ..errors import UserError
from ..session.axis_shaping import AXES, AxisShape, Shaping
from ..session.pad_maps import AxisBinding, WheelMap
from .window_memory import settings

SHAPING = "controllers/shaping"
WHEELS = "controllers/wheels"
SHAPE_VALUES = ("dead_zone", "saturation", "exponent", "inverted")
MAX_AXIS = 63
"""The highest axis number a wheel's map may name (SDL reports far fewer)."""
WHEEL_AXES = ("steer", "throttle", "brake", "clutch")
"""A wheel map's axes: the steer and throttle always on an axis, brake and clutch maybe not (-1)."""
WHEEL_VALUES = (
    *(f"{axis}_{value}" for axis in WHEEL_AXES for value in ("axis", "inverted", "full_range")),
    "combined_pedals",
)


def _refuse(_value) -> None:
    raise ValueError("not a setting the sandbox has")


def _children(group: str) -> tuple[list, list]:
    store = settings()
    store.beginGroup(group)
    try:
        return store.childGroups(), store.childKeys()
    finally:
        store.endGroup()


def _drop_unknown(memory, group: str, groups=(), keys=()) -> list:
    """The subgroups of `group` named in `groups`; every key under it that is not one of
    `keys` or under those subgroups is removed, with a note naming it."""
    found, own = _children(group)
    for key in own:
        if key not in keys:
            memory.setting(f"{group}/{key}", "", check=_refuse)
    for name in found:
        if name not in groups:
            for key in _all_keys(f"{group}/{name}"):
                memory.setting(f"{group}/{name}/{key}", "", check=_refuse)
    return [name for name in found if name in groups]


def _all_keys(group: str) -> list:
    store = settings()
    store.beginGroup(group)
    try:
        return store.allKeys()
    finally:
        store.endGroup()


def _shape_check(axis: str, name: str):
    """A `checked_setting` check: `name`'s value must make a shape of `axis` that can be used."""

    def check(value) -> None:
        try:
            AxisShape(**{name: value}).checked(axis)
        except UserError as exc:
            raise ValueError(str(exc)) from None

    return check


def load_shaping(memory) -> Shaping:
    """The shaping kept in the settings; each value that cannot be used is its default."""
    axes = {}
    for axis in _drop_unknown(memory, SHAPING, groups=AXES):
        base = f"{SHAPING}/{axis}"
        _drop_unknown(memory, base, keys=SHAPE_VALUES)
        saturation = memory.setting(f"{base}/saturation", 1.0, check=_shape_check(axis, "saturation"))
        exponent = memory.setting(f"{base}/exponent", 1.0, check=_shape_check(axis, "exponent"))
        inverted = memory.setting(f"{base}/inverted", False)
        dead_zone = None
        if settings().contains(f"{base}/dead_zone"):
            dead_zone = memory.setting(f"{base}/dead_zone", math.nan)  # text: nan, refused just below
            try:
                AxisShape(dead_zone, saturation).checked(axis)
            except UserError:
                memory.setting(f"{base}/dead_zone", "", check=_refuse)
                dead_zone = None
        shape = AxisShape(dead_zone, saturation, exponent, inverted)
        if not shape.is_default:
            axes[axis] = shape
    return Shaping(axes)


def save_shape(axis: str, shape: AxisShape) -> None:
    """Keep `axis`'s shape (its default: nothing kept)."""
    store = settings()
    store.remove(f"{SHAPING}/{axis}")
    if not shape.is_default:
        base = f"{SHAPING}/{axis}"
        if shape.dead_zone is not None:
            store.setValue(f"{base}/dead_zone", float(shape.dead_zone))
        store.setValue(f"{base}/saturation", float(shape.saturation))
        store.setValue(f"{base}/exponent", float(shape.exponent))
        store.setValue(f"{base}/inverted", bool(shape.inverted))
    store.sync()


def forget_shaping() -> None:
    store = settings()
    store.remove(SHAPING)
    store.sync()


def load_wheel_maps(memory) -> dict:
    """Each wheel's axis map kept in the settings, by the wheel's name."""
    maps = {}
    default = WheelMap()
    for group in _children(WHEELS)[0]:
        base = f"{WHEELS}/{group}"
        _drop_unknown(memory, base, keys=WHEEL_VALUES)
        bindings = {}
        for axis in WHEEL_AXES:
            given = getattr(default, axis)
            optional = axis in ("brake", "clutch")
            number = memory.setting(f"{base}/{axis}_axis", given.axis, low=-1 if optional else 0, high=MAX_AXIS)
            inverted = memory.setting(f"{base}/{axis}_inverted", given.inverted)
            full = memory.setting(f"{base}/{axis}_full_range", given.full_range)
            bindings[axis] = None if number < 0 else AxisBinding(number, inverted, full)
        combined = memory.setting(f"{base}/combined_pedals", default.combined_pedals)
        maps[unquote(group)] = WheelMap(**bindings, combined_pedals=combined)
    return maps


def save_wheel_map(name: str, wheel: WheelMap) -> None:
    """Keep the axis map of the wheel named `name`."""
    store = settings()
    base = f"{WHEELS}/{quote(name, safe='')}"
    store.remove(base)
    for axis in WHEEL_AXES:
        binding = getattr(wheel, axis)
        store.setValue(f"{base}/{axis}_axis", -1 if binding is None else binding.axis)
        if binding is not None:
            store.setValue(f"{base}/{axis}_inverted", binding.inverted)
            store.setValue(f"{base}/{axis}_full_range", binding.full_range)
    store.setValue(f"{base}/combined_pedals", wheel.combined_pedals)
    store.sync()
