"""What an auto-tune searches: the targets (NAME=VALUE±TOL) it is given, the parameters
it may move and their ranges, and the coordinates (0…1 a parameter) it searches them in."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from types import ModuleType
from typing import Mapping

import numpy as np

from ..errors import UserError, shown
from ..physics.params import effective_params
from ..physics.track import Track
from .lap_metrics import LAP_METRICS, figure_names, metric_of
from .metrics import unit_of

DEFAULT_TOLERANCE = {"speed": 0.02, "time": 0.02, "distance": 0.02, "deg": 0.02, "accel": 0.02}
DEFAULT_TOLERANCE |= {"gradient": 0.05, "gain": 0.02, "percent": 0.05}  # the handling figures
"""Share of the target value taken as its tolerance when none is given."""
SMALLEST_TOLERANCE = {"speed": 0.01, "time": 0.001, "distance": 0.01, "deg": 0.01, "accel": 0.001}
SMALLEST_TOLERANCE |= {"gradient": 0.01, "gain": 0.01, "percent": 0.1}
"""Model units: a default tolerance is never below this (a target of 0 still has one)."""
LIMITS = {
    "speed": (0.0, math.inf),
    "time": (0.0, math.inf),
    "distance": (0.0, math.inf),
    "deg": (0.0, 90.0),
    "accel": (0.0, math.inf),
    "gradient": (-math.inf, math.inf),  # below 0: oversteer
    "gain": (-math.inf, math.inf),
    "percent": (0.0, math.inf),
}
"""What each kind of metric can be at all: a target outside is refused."""
FINEST_TOLERANCE = 1e-9
"""Share of the target (or of 1 unit, for targets under 1) below which a tolerance is
refused: the metrics come from thousands of ticks of 64-bit arithmetic, so they are not
reproducible to a billionth, and finer tolerances could not be told apart."""


@dataclass(frozen=True)
class Target:
    """A metric's wanted value and tolerance, in the model's units."""

    metric: str
    value: float
    tolerance: float

    def miss(self, achieved: float) -> float:
        """How far outside the tolerance `achieved` is, in tolerances (0 when within)."""
        if not math.isfinite(achieved):
            return math.inf
        return max(0.0, abs(achieved - self.value) / self.tolerance - 1.0)


_NUMBER = r"(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"  # 12, 1.5, .5, 2e3: one point at most
_UNIT = r"(?:[^\W\d_]|[°%/])"  # a unit starts with a letter, ° or %: not with a digit or a point
_TARGET = re.compile(
    rf"^\s*(\w+)\s*=\s*([-+]?{_NUMBER})\s*({_UNIT}[^\s±+]*)?\s*"  # NAME = VALUE [unit]
    rf"(?:(?:±|\+-|\+/-)\s*({_NUMBER})\s*({_UNIT}\S*)?)?\s*$"
)  # [± TOL [unit]]


def parse_target(text: str, model: ModuleType, track: Track | None = None) -> Target:
    """NAME=VALUE[±TOL], a unit allowed after either number (`top_speed=600px/s±5`),
    checked against the metric's kind and what it can be at all; with `track`, a lap
    figure (lap_time, sector_1 …) may be named too."""
    found = _TARGET.match(text)
    if not found:
        raise UserError(f"--target {shown(text)}: expected NAME=VALUE or NAME=VALUE±TOL, e.g. top_speed=600±5")
    name, value_text, unit, tolerance_text, tolerance_unit = found.groups()
    names = figure_names(track)
    if name not in names:
        if track is None and (name in LAP_METRICS or name.startswith("sector_")):
            raise UserError(f"--target {shown(text)}: {name} is a lap figure; give the track to lap with --track")
        raise UserError(f"--target {shown(text)}: {name!r} is not a metric (known: {', '.join(names)})")
    kind = metric_of(name).kind
    wanted = unit_of(kind, model)
    for given in (unit, tolerance_unit):
        if given and given != wanted:
            raise UserError(
                f"--target {shown(text)}: {name} is in {wanted} for the {model.TITLE} model, not in {given}"
            )
    value = float(value_text)
    low, high = LIMITS[kind]
    if not math.isfinite(value):
        raise UserError(f"--target {shown(text)}: {value_text} is not a finite number")
    if not low <= value <= high:
        raise UserError(f"--target {shown(text)}: {name} can only be {low:g} … {high:g} {wanted}")
    if tolerance_text is None:
        tolerance = max(abs(value) * DEFAULT_TOLERANCE[kind], SMALLEST_TOLERANCE[kind])
    else:
        tolerance = float(tolerance_text)
        if not math.isfinite(tolerance):
            raise UserError(f"--target {shown(text)}: the tolerance {tolerance_text} is not a finite number")
        if not tolerance > 0:
            raise UserError(f"--target {shown(text)}: the tolerance must be a positive number of {wanted}")
        finest = FINEST_TOLERANCE * max(abs(value), 1.0)
        if tolerance < finest:
            raise UserError(
                f"--target {shown(text)}: a tolerance of {tolerance:g} {wanted} is finer than the "
                f"sandbox measures {name}; give at least {finest:g} {wanted}"
            )
    return Target(name, value, tolerance)


def check_range(p, low: float, high: float) -> tuple[float, float]:
    """A slider's search range (low, high), or UserError: low below high, both within
    the slider's range."""
    if not (p.min <= low < high <= p.max):
        raise UserError(f"{p.name}: the search range must run from a lower to a higher value within {p.range_text()}")
    return low, high


def parse_range(
    text: str, model: ModuleType, tuning: Mapping[str, object] | None = None
) -> tuple[str, tuple[float, float]]:
    """NAME=LO:HI, a slider of `model` (as it is under `tuning`'s switches) searched
    only within LO … HI."""
    name, _, span = text.partition("=")
    try:
        low, high = (float(v) for v in span.split(":"))
    except ValueError:
        raise UserError(f"--range {shown(text)}: expected NAME=LO:HI, e.g. drag=-0.1:-0.02") from None
    p = next((q for q in effective_params(model.PARAMS, tuning or {}) if q.name == name and q.moves_motion), None)
    if p is None:
        raise UserError(f"--range {shown(text)}: {name!r} is not a slider of the {model.TITLE} model")
    try:
        return name, check_range(p, low, high)
    except UserError as exc:
        raise UserError(f"--range {shown(text)}: LO < HI within {p.range_text()} ({exc})") from None


@dataclass
class Space:
    """The free parameters and their search ranges: coordinates 0…1 in each, mapped to
    the slider position between the range's ends and from there to a value on the
    slider's step. `under`: the switches the parameters are taken under (Param.under)."""

    model: ModuleType
    names: list[str]
    ranges: dict[str, tuple[float, float]]
    under: Mapping[str, object] = field(default_factory=dict)

    def __post_init__(self) -> None:
        params = {p.name: p for p in effective_params(self.model.PARAMS, self.under)}
        self.params = [params[name] for name in self.names]
        self.ends = np.array(
            [[p.to_slider(self.ranges[p.name][0]), p.to_slider(self.ranges[p.name][1])] for p in self.params]
        ).reshape(len(self.params), 2)

    def coordinates(self, tuning: Mapping[str, float]) -> np.ndarray:
        """The coordinates of `tuning`'s values (clipped into the ranges)."""
        low, high = self.ends[:, 0], self.ends[:, 1]
        positions = np.array([p.to_slider(float(tuning[p.name])) for p in self.params])
        span = np.where(high > low, high - low, 1.0)
        return np.clip((positions - low) / span, 0.0, 1.0)

    def positions(self, coordinates: np.ndarray) -> np.ndarray:
        """Slider positions (k, d) of coordinates (k, d)."""
        low, high = self.ends[:, 0], self.ends[:, 1]
        return low + np.clip(coordinates, 0.0, 1.0) * (high - low)

    def values(self, coordinates: np.ndarray) -> dict[str, np.ndarray]:
        """name -> values (k,) on the slider's step."""
        positions = self.positions(np.atleast_2d(coordinates))
        return {p.name: np.array([p.from_slider(s) for s in positions[:, j]]) for j, p in enumerate(self.params)}

    def exact(self, coordinates: np.ndarray) -> dict[str, np.ndarray]:
        """name -> values (k,) between the steps (`Param.value_at`: a fit's values)."""
        positions = self.positions(np.atleast_2d(coordinates))
        return {p.name: np.array([p.value_at(s) for s in positions[:, j]]) for j, p in enumerate(self.params)}


def free_names(model: ModuleType, free: list[str] | None = None, lock: list[str] | None = None) -> list[str]:
    """The parameters the search may move: `free`, or every searched slider but those in
    `lock` (options never move; the steering feel only when freed by name)."""
    sliders = [p.name for p in model.PARAMS if p.moves_motion]
    declared = {p.name: p for p in model.PARAMS}
    for name in (free or []) + (lock or []):
        if name not in declared:
            raise UserError(f"{name!r} is not a parameter of the {model.TITLE} model")
        if declared[name].is_bool:
            raise UserError(f"{name!r} is an option (on/off): options stay as they are")
        if name in (free or []) and not declared[name].moves_motion:
            raise UserError(f"{name!r} is the car's collision shape: no motion on the open field depends on it")
    searched = {p.name for p in model.PARAMS if p.searched}
    names = (
        [name for name in sliders if name in free]
        if free
        else [n for n in sliders if n not in (lock or []) and n in searched]
    )
    if not names:
        raise UserError("no parameter is free to move: free one, or lock fewer")
    return names
