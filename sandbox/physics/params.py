"""Parameter declarations and validated tunings.

Each model declares its parameters exactly once as a tuple of `Param`. Sliders (and
their sections and scales), preset validation, preset files, the `params` command
and the parameter table in docs/models.md are all generated from that tuple;
nothing else lists parameter names.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, replace
from typing import Iterable, Mapping

import numpy as np

from ..errors import shown

LOG_ZERO_GAP = 0.03
"""Slider positions (of 0…1) between 0 and the first step on a log slider from 0."""


@dataclass(frozen=True)
class Variant:
    """What a parameter is while the switch `when` is on: the same name and label, its
    own unit, default, range, step and help (a formula in which the number means
    something else, e.g. the 2020 recipe's friction without the tick length)."""

    when: str
    unit: str
    default: float
    min: float
    max: float
    step: float
    help: str


@dataclass(frozen=True)
class Param:
    """One tunable number of a model.

    `since` is the preset format version that introduced the parameter: files of an
    older format do not carry it and load with `default` (see presets.py).
    `kind` is "float" (a slider), "bool" (a switch: value True/False, in JSON
    true/false; min 0, max 1, step 1) or "choice" (one of `choices`: in the tuning and
    the kernels its index, 0.0, 1.0, …; in files and on screen its name; min 0,
    max len(choices) - 1, step 1; see `Param.choice`).
    `group` names the section of the tuning panel it is shown in (engine, tyres, …).
    `log`: the slider is logarithmic, for ranges over more than two decades (see
    `to_slider`).
    `legacy`: the value a file older than `since` loads with when that is not
    `default` (what such files drove with before the parameter existed).
    `variant`: the parameter's unit, range and default while a switch is on
    (`under`); turning that switch sets the parameter to the default it then has.
    `unused_with`: a switch under which this one does nothing (that formula has no such
    form): the panel greys it out, the tables and scripts of that formula leave it out.
    `scene`: the value lives in the Godot scene (the car's collision shape), not in its
    script: the script export, the script reader, writing into a script and the link
    leave it out, and the analyses on the open field (fit, tune, sweep, sensitivity)
    never move it (no motion there depends on it).
    `searched`: the fit and the auto-tune move it unless told which to move; False
    (the steering feel: how the input is shaped, which a recorded drive cannot tell
    from the car) holds it where it is unless it is freed by name.
    """

    name: str
    label: str
    unit: str
    default: float
    min: float
    max: float
    step: float
    help: str
    since: int = 1
    kind: str = "float"
    group: str = "General"
    log: bool = False
    legacy: float | bool | None = None
    variant: Variant | None = None
    unused_with: str | None = None
    choices: tuple[str, ...] = ()
    scene: bool = False
    searched: bool = True

    @classmethod
    def switch(
        cls,
        name: str,
        label: str,
        default: bool,
        help: str,
        since: int = 1,
        group: str = "Options",
        legacy: bool | None = None,
        unused_with: str | None = None,
    ) -> "Param":
        """A boolean parameter (an option that changes how the model computes)."""
        return cls(
            name, label, "on/off", default, 0, 1, 1, help, since, "bool", group, legacy=legacy, unused_with=unused_with
        )

    @classmethod
    def choice(cls, name: str, label: str, choices: tuple[str, ...], default: str, help: str, **fields) -> "Param":
        """A pick of one of `choices` (names); its value is the index of the name."""
        top = len(choices) - 1
        index = float(choices.index(default))
        return cls(name, label, "kind", index, 0, top, 1, help, kind="choice", choices=choices, **fields)

    def applies(self, values: Mapping[str, object]) -> bool:
        """Whether the parameter does anything with the switches of `values`."""
        return not (self.unused_with and values.get(self.unused_with, False))

    def under(self, values: Mapping[str, object]) -> "Param":
        """This parameter as it applies with the switches of `values`: its variant's
        unit, range, default and help while the variant's switch is on."""
        v = self.variant
        if v is None or not values.get(v.when, False):
            return self
        return replace(
            self, unit=v.unit, default=v.default, min=v.min, max=v.max, step=v.step, help=v.help, variant=None
        )

    def older_value(self) -> float | bool:
        """The value of a file written before the parameter existed."""
        return self.default if self.legacy is None else self.legacy

    @property
    def is_bool(self) -> bool:
        return self.kind == "bool"

    @property
    def is_choice(self) -> bool:
        return self.kind == "choice"

    @property
    def is_number(self) -> bool:
        """A number on a slider (not a switch, not a choice)."""
        return self.kind == "float"

    @property
    def moves_motion(self) -> bool:
        """A number the open-field analyses (fit, tune, sweep, sensitivity) may move:
        a slider that is not the car's collision shape."""
        return self.is_number and not self.scene

    def written(self, value: float | bool) -> float | bool | str:
        """`value` as files write it: a choice by its name, else as it is."""
        return self.choices[int(value)] if self.is_choice else value

    def __post_init__(self) -> None:
        if self.kind not in ("float", "bool", "choice"):
            raise ValueError(f"{self.name}: kind must be 'float', 'bool' or 'choice'")
        if self.is_choice and self.max != len(self.choices) - 1:
            raise ValueError(f"{self.name}: a choice's max is its number of choices less one")
        if not (self.min <= self.default <= self.max):
            raise ValueError(f"{self.name}: default {self.default} outside {self.min}..{self.max}")
        if self.step <= 0:
            raise ValueError(f"{self.name}: step must be positive")
        if self.log and not (0 <= self.min < self.max):
            raise ValueError(f"{self.name}: a logarithmic slider needs 0 ≤ min < max")
        if self.variant is not None:
            self.under({self.variant.when: True})  # its own range is checked too

    @property
    def decimals(self) -> int:
        """Decimal places needed to show a multiple of `step` exactly."""
        text = f"{self.step:.10f}".rstrip("0")
        return len(text.split(".")[1]) if "." in text else 0

    def range_text(self) -> str:
        if self.is_bool:
            return "true or false"
        if self.is_choice:
            return ", ".join(self.choices[:-1]) + " or " + self.choices[-1]
        unit = f" {self.unit}" if self.unit else ""
        return f"{self.min:g} … {self.max:g}{unit}"

    def check(self, value: object) -> float | bool:
        """Return `value` as a float (bool for a switch), or raise ValueError naming
        the allowed range."""
        if self.is_bool:
            if not isinstance(value, bool):
                raise ValueError(f"{shown(repr(value))} is not true or false")
            return value
        if self.is_choice:
            return self._check_choice(value)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"{shown(repr(value))} is not a number (allowed {self.range_text()})")
        number = float(value)
        written = str(getattr(value, "given", ""))
        if math.isnan(number) or (math.isinf(number) and not any(ch.isdigit() for ch in written)):
            raise ValueError(f"{shown(value)} is not a finite number (allowed {self.range_text()})")
        if not (self.min <= number <= self.max):  # huge numbers too: written out, they overflow to inf
            raise ValueError(f"{shown(value)} is outside the allowed range {self.range_text()}")
        return number

    def _check_choice(self, value: object) -> float:
        """A choice given by its name (files, the command line) or its index (the tuning)."""
        if isinstance(value, str):
            if value not in self.choices:
                raise ValueError(f"{shown(repr(value))} is not one of {self.range_text()}")
            return float(self.choices.index(value))
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value in range(len(self.choices)):
            return float(value)
        raise ValueError(f"{shown(repr(value))} is not one of {self.range_text()}")

    def snap(self, value: float) -> float:
        """Nearest multiple of `step` from `min`, clamped to the range (for sliders)."""
        if self.is_bool:
            return bool(value)
        steps = round((value - self.min) / self.step)
        snapped = round(self.min + steps * self.step, self.decimals)
        return min(self.max, max(self.min, snapped))

    def _log_scale(self) -> tuple[float, float]:
        """(floor, start) of a log slider: the values from `floor` to max spread over
        positions `start`…1, each decade the same length. floor is min, or one step
        when min is 0; then 0 sits alone at position 0 and the log part starts at
        LOG_ZERO_GAP."""
        if self.min > 0:
            return self.min, 0.0
        return self.step, LOG_ZERO_GAP

    def to_slider(self, value: float) -> float:
        """Position 0…1 of `value` on the slider (linear, or logarithmic with `log`)."""
        if not self.log:
            return (value - self.min) / (self.max - self.min)
        floor, start = self._log_scale()
        if value < floor:
            return 0.0
        return start + (1.0 - start) * math.log(value / floor) / math.log(self.max / floor)

    def from_slider(self, position: float) -> float:
        """The value at slider `position` (0…1), snapped to `step`: `to_slider` inverted."""
        position = min(1.0, max(0.0, position))
        if not self.log:
            return self.snap(self.min + position * (self.max - self.min))
        floor, start = self._log_scale()
        if position < start / 2:
            return self.min
        return self.snap(self.value_at(position))

    def value_at(self, position: float) -> float:
        """The value at slider `position` (0…1), between the steps (a fit's values are
        the game's, on no step): `to_slider` inverted."""
        position = min(1.0, max(0.0, position))
        if not self.log:
            return self.min + position * (self.max - self.min)
        floor, start = self._log_scale()
        if position < start / 2:
            return self.min
        share = max(position - start, 0.0) / (1.0 - start)
        return floor * (self.max / floor) ** share

    def as_dict(self) -> dict:
        return asdict(self)


def groups(params: Iterable[Param]) -> dict[str, list[Param]]:
    """Parameters by group, groups in the order they first appear (the tuning panel's
    sections, and the exported Godot script's groups)."""
    found: dict[str, list[Param]] = {}
    for p in params:
        found.setdefault(p.group, []).append(p)
    return found


class Tuning(dict):
    """Parameter values of one model, always complete and within range.

    A plain `dict` of name -> float so it can be passed straight to `sim.step`.
    A value is checked against its parameter as it applies under the tuning's own
    switches (`param`); turning a switch that gives other parameters another meaning
    sets those to the default they have with it.
    """

    def __init__(self, params: Iterable[Param], values: Mapping[str, float] | None = None):
        super().__init__()
        self.params = {p.name: p for p in params}
        for p in self.params.values():
            self[p.name] = p.default
        for p in self.params.values():
            self[p.name] = p.under(self).default
        self.set_many(values or {})

    def set_many(self, values: Mapping[str, object]) -> None:
        """`set` each of `values`, the switches first: they decide what the other values
        mean (a switch set after them would reset them)."""
        for name in self.switches_first(values):
            self.set(name, values[name])

    def switches_first(self, names: Iterable[str]) -> list[str]:
        """`names` with the switches first (the order values are set in)."""
        return sorted(names, key=lambda n: not (n in self.params and self.params[n].is_bool))

    def param(self, name: str) -> Param:
        """Parameter `name` as it applies under this tuning's switches."""
        return self.params[name].under(self)

    def effective(self) -> tuple[Param, ...]:
        """Every parameter as it applies under this tuning's switches."""
        return effective_params(self.params.values(), self)

    def set(self, name: str, value: float) -> None:
        """Set one value; raises KeyError/ValueError (nothing changed) if it is bad."""
        if name not in self.params:
            raise KeyError(f"unknown parameter {name!r}")
        checked = self.param(name).check(value)
        if self.params[name].is_bool and checked != self[name]:
            self[name] = checked
            for p in dependents(self.params.values(), name):
                self[p.name] = p.under(self).default
            return
        self[name] = checked

    def copy(self) -> "Tuning":
        return Tuning(self.params.values(), self)


def script_params(params: Iterable[Param]) -> tuple[Param, ...]:
    """Those of `params` a Godot car script declares: all but the scene's (`Param.scene`,
    the collision shape, which the scene's CollisionShape2D holds)."""
    return tuple(p for p in params if not p.scene)


def effective_params(params: Iterable[Param], values: Mapping[str, object]) -> tuple[Param, ...]:
    """Each parameter as it applies with the switches of `values` (Param.under)."""
    return tuple(p.under(values) for p in params)


def dependents(params: Iterable[Param], switch: str) -> tuple[Param, ...]:
    """The parameters whose unit, range and default the switch `switch` changes."""
    return tuple(p for p in params if p.variant is not None and p.variant.when == switch)


def param_rows(params: tuple[Param, ...], values: Mapping[str, object], n: int) -> tuple[np.ndarray, np.ndarray]:
    """The kernels' view of a batch's tuning: (rows, which).

    rows is (k, len(params)) float64, one row per distinct tuning, columns in
    declaration order (a switch is 1.0 or 0.0); which (n,) int64 picks car i's row.
    Scalars everywhere give one row shared by all n cars; any array of length n
    gives one row per car. A name missing from `values` takes its default.
    """
    columns = [np.asarray(values.get(p.name, p.default), dtype=np.float64) for p in params]
    if all(c.ndim == 0 for c in columns):
        return np.array([[float(c) for c in columns]]), np.zeros(n, dtype=np.int64)
    rows = np.column_stack([np.broadcast_to(c, (n,)) for c in columns])
    return np.ascontiguousarray(rows), np.arange(n, dtype=np.int64)
