"""What the Tyres tab draws for a tuning and a car's state: each model's force curves
(sampled by the model's own compiled functions, physics/models/tyre_samplers.py), the
live operating points read from the state, the limits, and the parameters that shape
the curves as handles (where each sits, and the value a dragged handle asks for).

- dynamic car: lateral force (N) against slip angle (°) for the front and rear axles at
  their loads now (the limit μ·load), traction (N) against the rear slip ratio;
- rigid body: each patch's force (N) against its slip speed (m/s), purely sideways and
  purely forward, as the tick computes it at the wheel angle and tick rate now;
- arcade: the traction lerp's weight (% of the turn taken per tick) against speed;
- kinematic models (bicycle, Ackermann): no tyre forces; the lateral acceleration the
  path asks at the wheel angle now, against speed (one tick of the model at each speed).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from types import ModuleType
from typing import Callable, Mapping

import numpy as np

from ..physics.models import monster_tyres, tyre_samplers
from ..physics.models.arcade import P as AP
from ..physics.models.geometry import RADIANS
from ..physics.models.monster_params import P as MP
from ..physics.params import param_rows
from ..physics.state import State

SAMPLES = 121
"""Points of each curve."""
DEGREES = 180.0 / math.pi
STEADY = (1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0)
"""The steps a curve's extent is rounded up to (× 10ⁿ)."""


@dataclass(frozen=True)
class Curve:
    label: str
    xs: np.ndarray
    ys: np.ndarray


@dataclass(frozen=True)
class Point:
    """An operating point: where a wheel (or axle, or the car) is on its curve now."""

    label: str
    x: float
    y: float
    text: str = ""
    """Written beside the point (the arcade's slip angle)."""


@dataclass(frozen=True)
class Handle:
    """A parameter as a point on the plot: `value(x, y)` is the value a drag to (x, y)
    asks for (clamped to the parameter's range by whoever applies it)."""

    param: str
    label: str
    x: float
    y: float
    value: Callable[[float, float], float]


@dataclass(frozen=True)
class TyrePlot:
    title: str
    x_label: str
    x_unit: str
    y_label: str
    y_unit: str
    curves: tuple[Curve, ...]
    points: tuple[Point, ...] = ()
    limits: tuple[tuple[str, float], ...] = ()
    """(label, y): horizontal lines (a force limit)."""
    marks: tuple[tuple[str, float], ...] = ()
    """(label, x): vertical lines (the arcade's slip speed)."""
    handles: tuple[Handle, ...] = ()
    note: str = ""
    """A short line under the title (the loads the curves are drawn at)."""
    remark: str = ""
    """What to know to read the plot, shown below the plots."""


Extent = Callable[[str, float], float]
"""(which curve, how far out its points are) -> how far out the curve is drawn."""


def tyre_plots(
    model: ModuleType, tuning: Mapping[str, object], hz: float, state: State, extent: Extent | None = None
) -> list[TyrePlot]:
    """The Tyres tab's plots for `model` under `tuning` at `hz` ticks per second, the
    car in `state` (its first row). `extent`: how far out each curve is drawn to take
    its points in (default `_steady`; the tab holds it, `HeldExtent`)."""
    build = BUILDERS.get(model.NAME, _kinematic)
    return build(model, tuning, hz, state, extent or (lambda _, reach: _steady(reach)))


def _steady(reach: float) -> float:
    """`reach` rounded up to a step of STEADY × 10ⁿ: a curve reaching out to a moving
    point changes its extent (and the plot its range) only now and then."""
    if not reach > 0 or not math.isfinite(reach):
        return 0.0
    power = 10.0 ** math.floor(math.log10(reach))
    return next(step * power for step in STEADY if step * power >= reach)


class HeldExtent:
    """A curve's extent as the Tyres tab draws it while driving: `_steady`, grown at
    once to take a point in, but shrunk only after the point has needed no more than
    the smaller extent for `hold_s` (a point crossing a step back and forth would
    redraw the curve and the plot's axes each time). `clock`: seconds, increasing."""

    def __init__(self, clock: Callable[[], float], hold_s: float = 2.0):
        self.clock, self.hold_s = clock, hold_s
        self.shown: dict[str, tuple[float, float]] = {}  # curve -> (extent, when last needed)

    def __call__(self, key: str, reach: float) -> float:
        want, now = _steady(reach), self.clock()
        shown, needed = self.shown.get(key, (0.0, now))
        if want >= shown or now - needed >= self.hold_s:
            self.shown[key] = (want, now)
            return want
        return shown


def _value(state: State, name: str) -> float:
    return float(np.asarray(state.channel(name))[0])


def _row(model: ModuleType, tuning: Mapping[str, object]) -> np.ndarray:
    (row,), _ = param_rows(model.PARAMS, tuning, 1)
    return np.ascontiguousarray(row)


def _slope_value(load: float) -> Callable[[float, float], float]:
    """Cornering stiffness (/rad) of the line from the origin through (α°, F): F = −C·α·load."""

    def value(x: float, y: float) -> float:
        return -y / (x / DEGREES * max(load, 1e-9)) if abs(x) > 1e-9 else math.nan

    return value


def _halving(rising: Callable[[float], float], y: float) -> float:
    """The value v in 0…1000 where `rising(v)` (never falling) reaches `y`, by halving
    (60 halvings: to the last bits)."""
    lo, hi = 0.0, 1e3
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if rising(mid) < y else (lo, mid)
    return (lo + hi) / 2


def _traction_slope_value(p: np.ndarray, load: float) -> Callable[[float, float], float]:
    """The traction slope Ct (/SR) whose curve passes through (slip ratio, traction N) at
    `load`: load·Fn,long(x) = y solved by halving on the model's own `traction_ratio` (the
    traction rises with Ct at a slip before the peak, in either shape)."""
    row = p.copy()

    def traction(slope: float, x: float) -> float:
        row[MP.traction_slope] = slope
        return load * float(monster_tyres.traction_ratio(row, x))

    def value(x: float, y: float) -> float:
        if x * y <= 0:
            return math.nan
        return _halving(lambda slope: traction(slope, abs(x)), abs(y))

    return value


def _arcade_traction_value(p: np.ndarray, slot: int, speed: float, dt: float) -> Callable[[float, float], float]:
    """The traction in tuning slot `slot` (traction_slow or traction_fast) whose lerp weight at `speed`
    is y % a tick: solved by halving on the model's own weight (it rises with the
    traction, and stays at 100 % once a tick takes the whole turn)."""
    row = p.copy()
    at, out = np.array([speed]), np.empty(1)

    def weight(traction: float) -> float:
        row[slot] = traction
        tyre_samplers.arcade_weight_curve(row, dt, at, out)
        return 100.0 * float(out[0])

    def value(x: float, y: float) -> float:
        return _halving(weight, y) if math.isfinite(y) else math.nan

    return value


def _monster(model, tuning, hz, state, extent: Extent) -> list[TyrePlot]:
    p = _row(model, tuning)
    mu = float(tuning["mu"])
    loads = {"front": _value(state, "load_front"), "rear": _value(state, "load_rear")}
    if loads["front"] + loads["rear"] <= 0:  # a fresh state: the loads at rest
        front, rear = model.axle_loads(tuning, 0.0)
        loads = {"front": float(front), "rear": float(rear)}
    stiffness = {"front": float(tuning["cornering_front"]), "rear": float(tuning["cornering_rear"])}
    peak = max(mu / min(stiffness.values()), 1e-3)  # rad: the later axle's limit
    now = {"front": _value(state, "alpha_front"), "rear": _value(state, "alpha_rear")}
    reach = max(2.0 * peak, extent("lateral", 1.15 * max(abs(a) for a in now.values())))  # the points on the curves
    alphas = np.linspace(-reach, reach, SAMPLES)
    curves, limits, handles = [], [], []
    for axle in ("front", "rear"):
        out = np.empty(SAMPLES)
        tyre_samplers.lateral_curve(stiffness[axle], alphas, loads[axle], mu, 1.0, out)
        curves.append(Curve(axle, alphas * DEGREES, out))
        limits += [(f"μ·load {axle}", mu * loads[axle]), ("", -mu * loads[axle])]  # the line says its value
        at = -0.5 * mu / stiffness[axle]  # rad: half way to the limit, on the positive-force side
        handles.append(
            Handle(
                f"cornering_{axle}",
                f"{axle} cornering stiffness (slope)",
                at * DEGREES,
                -stiffness[axle] * at * loads[axle],
                _slope_value(loads[axle]),
            )
        )
    front = loads["front"]
    handles.append(
        Handle("mu", "μ (the limit μ·load)", -1.5 * peak * DEGREES, mu * front, lambda x, y: abs(y) / max(front, 1e-9))
    )
    points = (
        Point("front", now["front"] * DEGREES, _value(state, "lat_front")),
        Point("rear", now["rear"] * DEGREES, _value(state, "lat_rear")),
    )
    lateral = TyrePlot(
        "lateral force against slip angle",
        "slip angle",
        "°",
        "lateral force",
        "N",
        tuple(curves),
        points,
        tuple(limits),
        handles=tuple(handles),
        note="at each axle's load now (weight transfer moves the limits)",
    )
    rear = loads["rear"]
    slope = float(tuning["traction_slope"])
    top = float(monster_tyres.peak_slip_ratio(p))
    sr = _value(state, "slip_ratio")
    reach = max(3.0 * top, extent("traction", 1.15 * abs(sr)))
    ratios = np.linspace(-reach, reach, SAMPLES)
    out = np.empty(SAMPLES)
    tyre_samplers.traction_curve(p, ratios, rear, out)
    shape = "Magic Formula" if tuning["pacejka"] else "capped linear"
    at = 0.4 * mu / slope
    traction = TyrePlot(
        f"rear traction against slip ratio ({shape})",
        "slip ratio",
        "",
        "traction",
        "N",
        (Curve("rear", ratios, out),),
        (Point("rear", sr, _value(state, "traction")),),
        (("μ·load rear", mu * rear), ("", -mu * rear)),
        handles=(
            Handle(
                "traction_slope",
                "traction slope (at 0)",
                at,
                rear * float(monster_tyres.traction_ratio(p, at)),
                _traction_slope_value(p, rear),
            ),
            Handle("mu", "μ (the peak μ·load)", -2.0 * top, -mu * rear, lambda x, y: abs(y) / max(rear, 1e-9)),
        ),
        note="at the rear load now",
    )
    return [lateral, traction]


def _slope_through_origin(x: float, y: float) -> float:
    """The slope (N·s/m) of the line from the origin through (slip speed, force)."""
    return y / x if x > 1e-9 else math.nan


def _rigid_body(model, tuning, hz, state, extent: Extent) -> list[TyrePlot]:
    p = _row(model, tuning)
    dt = 1.0 / hz
    steer = _value(state, "wheel_angle")
    slips = np.asarray(state.channel("patch_slip")[0], dtype=np.float64).reshape(-1)
    forces = np.asarray(state.channel("patch_force")[0], dtype=np.float64).reshape(-1)
    reach = max(4.0, extent("patch", 1.25 * float(slips.max(initial=0.0))))
    limit, cap = model.patch_limit(p, float(tuning["mass"]))
    if limit:
        grip = max(float(tuning["side_grip"]), float(tuning["forward_grip"]), 1e-9)
        reach = max(reach, 2.0 * cap / grip)
    xs = np.linspace(0.0, reach, SAMPLES)
    curves = []
    for k, name in ((0, "front"), (2, "rear")):
        side, forward = np.empty(SAMPLES), np.empty(SAMPLES)
        tyre_samplers.patch_curve(p, k, steer, dt, xs, side, forward)
        curves.append(Curve(f"{name} sideways", xs, side))
        if name == "front":
            curves.append(Curve("forward", xs, forward))
    names = ("front left", "front right", "rear left", "rear right")
    points = tuple(Point(names[k], float(slips[k]), float(forces[k])) for k in range(4))
    set_grip = float(tuning["side_grip"])
    at = 0.25 * reach if not limit else min(0.25 * reach, 0.5 * cap / max(set_grip, 1e-9))  # below the cap
    forward_grip = float(tuning["forward_grip"])
    ahead = 0.6 * reach if not limit else min(0.6 * reach, 0.5 * cap / max(forward_grip, 1e-9))
    handles = [
        Handle("side_grip", "side grip as set (the slope)", at, at * set_grip, _slope_through_origin),
        Handle("forward_grip", "forward grip as set (the slope)", ahead, ahead * forward_grip, _slope_through_origin),
    ]
    limits = ()
    if limit:
        limits = (("cap", float(cap)),)
        if tuning["grip_load"]:
            weight = float(tuning["mass"]) * model.GRAVITY / 4.0
            handles.append(Handle("mu", "μ (the cap μ·m·g/4)", 0.97 * reach, float(cap), lambda x, y: y / weight))
        else:
            handles.append(Handle("max_grip", "max grip (the cap)", 0.97 * reach, float(cap), lambda x, y: y))
    remark = "Rigid body: a patch slipping partly forward lies between the sideways and forward lines"
    steepest = {c.label: float(np.max(c.ys[1:] / xs[1:])) for c in curves}  # N·s/m: each line's slope as drawn
    lowered = min(steepest["front sideways"], steepest["rear sideways"]) < set_grip * (1 - 1e-9)
    if lowered or steepest["forward"] < forward_grip * (1 - 1e-9):
        remark += "; the tick lowers the grips set (the handles) where they would be unstable at this tick rate"
    if not limit:
        remark += "; no cap (Grip limit off): the force grows with the slip"
    return [
        TyrePlot(
            "each patch's force against its slip speed",
            "slip speed",
            "m/s",
            "force",
            "N",
            tuple(curves),
            points,
            limits,
            handles=tuple(handles),
            note="" if limit else "no cap",
            remark=remark + ".",
        )
    ]


def _arcade(model, tuning, hz, state, extent: Extent) -> list[TyrePlot]:
    p = _row(model, tuning)
    slip_speed = float(tuning["slip_speed"])
    speed = float(state.speed[0])
    reach = max(2.0 * slip_speed, extent("speed", 1.25 * speed), 100.0)
    # both sides of the step: the samples just below and just above the slip speed
    xs = np.unique(np.concatenate([np.linspace(0.0, reach, SAMPLES), [slip_speed, np.nextafter(slip_speed, np.inf)]]))
    out = np.empty(xs.size)
    tyre_samplers.arcade_weight_curve(p, 1.0 / hz, xs, out)
    now = np.empty(1)
    tyre_samplers.arcade_weight_curve(p, 1.0 / hz, np.array([speed]), now)
    slip = math.degrees(float(state.sideslip[0])) if speed > 0 else 0.0
    # the two tractions' handles midway along their stretches of the step
    slow, fast = 0.5 * slip_speed, 0.5 * (slip_speed + xs[-1])
    levels, dt = np.empty(2), 1.0 / hz
    tyre_samplers.arcade_weight_curve(p, dt, np.array([slow, fast]), levels)
    return [
        TyrePlot(
            "traction: the share of the turn the velocity takes a tick, against speed",
            "speed",
            "px/s",
            "traction weight",
            "% per tick",
            (Curve("traction", xs, 100.0 * out),),
            (Point("car", speed, 100.0 * float(now[0]), f"slip angle {slip:+.1f}°"),),
            marks=(("slip speed", slip_speed),),
            handles=(
                Handle("slip_speed", "slip speed", slip_speed, 0.0, lambda x, y: x),
                *(
                    Handle(
                        name, name.replace("_", " "), x, 100.0 * float(level), _arcade_traction_value(p, slot, x, dt)
                    )
                    for name, slot, x, level in zip(
                        ("traction_slow", "traction_fast"), (AP.traction_slow, AP.traction_fast), (slow, fast), levels
                    )
                ),
            ),
            remark="Arcade: above the slip speed the fast traction turns the velocity less each tick: the car drifts.",
        )
    ]


def _kinematic(model, tuning, hz, state, extent: Extent) -> list[TyrePlot]:
    """Lateral acceleration v·ω the path asks at the wheel angle now, from one tick of
    the model's own kernel at each pedal speed (centre speed |Δp|/dt, ω = Δheading/dt)."""
    p = _row(model, tuning)
    dt = 1.0 / hz
    angle = _value(state, "wheel_angle")
    steer = angle / max(float(tuning["max_steer"]) * RADIANS, 1e-9)
    top = max(float(tuning.get("max_speed", 30.0)), 1.0)
    xs, ys = [], []
    controls = np.array([steer, 0.0, 0.0, 0.0, 0.0])
    for v in np.linspace(0.0, top, 41):
        s = model.STATE.rest(1)[0]
        s[model.STATE.offset["speed"]] = v
        if "steer" in model.STATE.offset:
            s[model.STATE.offset["steer"]] = angle
        model.tick(s, controls, p, dt, None)
        moved = math.hypot(s[model.STATE.offset["x"]], s[model.STATE.offset["y"]]) / dt
        omega = (s[model.STATE.offset["heading"]]) / dt
        xs.append(moved)
        ys.append(moved * abs(omega))
    xs, ys = np.array(xs), np.array(ys)
    speed = float(state.speed[0])
    return [
        TyrePlot(
            f"lateral acceleration the path asks at the wheel angle now ({math.degrees(angle):+.1f}°)",
            "speed",
            "m/s",
            "lateral acceleration",
            "m/s²",
            (Curve("asked", xs, ys),),
            (Point("car", speed, float(np.interp(speed, xs, ys))),),
            remark="Kinematic tyres never slide: the car follows its wheels at any speed, "
            "whatever lateral acceleration the path asks.",
        )
    ]


BUILDERS = {"monster": _monster, "rigid_body": _rigid_body, "arcade": _arcade}
