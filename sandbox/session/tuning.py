"""The tuning being driven, as one object that owns it and announces each change.

`LiveTuning` holds the model, its parameter values and the physics tick rate. It is
read like a mapping (name -> value); it is changed only through its methods, which
check every value first (a bad name or value changes nothing) and then announce what
changed, once, on its `changed` event. Whoever shows or uses the tuning (the
simulation, the sliders, the plots, the link to the game) subscribes there, in its own
place; nobody hands the news on by hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from numbers import Integral
from types import ModuleType
from typing import Callable, Generic, Iterator, Mapping, TypeVar

from ..physics.params import Param, Tuning


@dataclass(frozen=True)
class TuningChange:
    """What one announcement says changed: `names` (parameters whose value changed,
    in declaration order), their `old` and `new` values; `model` (True: another model,
    every name is new and `old` holds the last model's values) and `hz` ((old, new)
    ticks per second, or None when the rate stayed)."""

    names: tuple[str, ...]
    old: Mapping[str, object]
    new: Mapping[str, object]
    model: bool = False
    hz: tuple[int, int] | None = None


Change = TypeVar("Change")


@dataclass
class Event(Generic[Change]):
    """An announcement subscribers connect callbacks to, called in the order connected
    (any state that announces its changes can have one: see docs/development.md)."""

    subscribers: list[Callable[[Change], None]] = field(default_factory=list)

    def connect(self, callback: Callable[[Change], None]) -> Callable[[Change], None]:
        """Call `callback(change)` at each announcement from now on; returns it."""
        self.subscribers.append(callback)
        return callback

    def disconnect(self, callback: Callable[[Change], None]) -> None:
        """No more announcements to `callback` (one not connected is ignored)."""
        if callback in self.subscribers:
            self.subscribers.remove(callback)

    def emit(self, change: Change) -> None:
        for callback in list(self.subscribers):  # one may disconnect itself while called
            callback(change)


class LiveTuning(Mapping):
    """The driven `model`'s values (read as a mapping, like a `Tuning`) and `hz`; every
    change announced on `changed`; `version` counts the announcements."""

    def __init__(self, model: ModuleType, values: Mapping[str, object] | None = None, hz: int = 60):
        self.model = model
        self._values = Tuning(model.PARAMS, values)
        self.hz = _checked_hz(hz)
        self.changed: Event[TuningChange] = Event()
        self.version = 0

    # --- read like a Tuning ----------------------------------------------------------
    def __getitem__(self, name: str) -> object:
        return self._values[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    @property
    def params(self) -> dict[str, Param]:
        """The model's parameters by name, as declared."""
        return self._values.params

    def param(self, name: str) -> Param:
        """Parameter `name` as it applies under the current switches."""
        return self._values.param(name)

    def effective(self) -> tuple[Param, ...]:
        return self._values.effective()

    def copy(self) -> Tuning:
        """The values now, detached (later changes do not reach the copy)."""
        return self._values.copy()

    # --- change and announce ---------------------------------------------------------
    def set(self, name: str, value: object) -> TuningChange | None:
        """One value (a switch also resets the values it gives another meaning)."""
        return self.update({name: value})

    def update(self, values: Mapping[str, object], hz: int | None = None) -> TuningChange | None:
        """Several values (switches first) and the tick rate, announced once; raises
        ValueError naming the first bad name or value, with nothing changed. Returns the
        change announced, or None when nothing changed (nothing is announced)."""
        after = _with(self.model, self._values, values)
        new_hz = self.hz if hz is None else _checked_hz(hz)
        names = tuple(n for n in after if after[n] != self._values[n])
        if not names and new_hz == self.hz:
            return None
        change = TuningChange(
            names,
            {n: self._values[n] for n in names},
            {n: after[n] for n in names},
            hz=(self.hz, new_hz) if new_hz != self.hz else None,
        )
        self._values, self.hz = after, new_hz
        return self._announce(change)

    def set_hz(self, hz: int) -> TuningChange | None:
        return self.update({}, hz)

    def switch(
        self, model: ModuleType, values: Mapping[str, object] | None = None, hz: int | None = None
    ) -> TuningChange:
        """Another model with `values` (its defaults for the rest), at `hz` (the rate
        now when None); always announced, as a change of every value."""
        after = _with(model, Tuning(model.PARAMS), values or {})
        new_hz = self.hz if hz is None else _checked_hz(hz)
        change = TuningChange(
            tuple(after),
            dict(self._values),
            dict(after),
            model=True,
            hz=(self.hz, new_hz) if new_hz != self.hz else None,
        )
        self.model, self._values, self.hz = model, after, new_hz
        return self._announce(change)

    def _announce(self, change: TuningChange) -> TuningChange:
        self.version += 1
        self.changed.emit(change)
        return change


def _with(model: ModuleType, base: Tuning, values: Mapping[str, object]) -> Tuning:
    """A copy of `base` with `values` set (switches first); ValueError naming the first
    bad name or value."""
    after = base.copy()
    for name in values:
        if name not in after.params:
            raise ValueError(f"the {model.TITLE} model has no parameter {name!r}")
    for name in after.switches_first(values):
        try:
            after.set(name, values[name])
        except ValueError as exc:
            raise ValueError(f"{after.param(name).label} ({name}): {exc}") from None
    return after


def _checked_hz(hz: object) -> int:
    if isinstance(hz, bool) or not isinstance(hz, Integral) or hz <= 0:
        raise ValueError(f"the tick rate must be a whole number of ticks per second above 0, not {hz!r}")
    return int(hz)
