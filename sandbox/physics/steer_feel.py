"""Steering feel: how the steer input becomes the steer a model reads, declared once here
and included in every model's PARAMS (section "Steering feel" of the tuning panel), and
applied by the drivers before each tick (kernels.tick_in), never by a model itself.

Per tick, from the steer input u (-1..1: a key, a stick after its dead zone, a driver,
as the model reads it: `steer_input` where a model declares one):
1. assists (the models whose velocity can leave the heading: a slip angle
   β = angle(velocity) − heading, positive with the velocity to the right of the nose),
   moving forward above ASSIST_MIN_SPEED:
   - counter-steer help h·(|β| − β₀)·sign β past the slip β₀ (`countersteer_slip`),
   - drift hold w·d·(β − sign β·β*) (`drift_hold_angle` β*), w growing from 0 at
     |β| = β*/2 to 1 at β* (a drift taking hold: no jerk as it starts),
   both in radians of front wheel angle, turned into input by the full lock of this
   speed, added to u, and the sum clamped to -1..1: the target;
2. the steer held so far (state slot `steer_feel`) moves toward the target by at most
   dt/T·r(v) (full lock is 1): T = `steer_time` away from the centre or across it,
   `return_time` back toward it (the return-to-centre idea of the kinematic bicycle's
   reader comments); T = 0: at once;
3. the model reads held · l(v), l the full-lock share at the car's speed v: |velocity|,
   or the size of the model's own signed speed where it declares one (`FEEL_SPEED`: the
   kinematic bicycle and the Ackermann car, whose exported scripts keep it).
l(v) and r(v) are piecewise linear through three points (speed_point_1..3,
lock_at_1..3 %, rate_at_1..3 %), flat before the first and after the last; speeds out
of order are steps.

At the defaults (T = 0, every share 100 %, the assists at 0) the model reads u itself,
to the bit: presets written before these options drive exactly as before.
"""

from __future__ import annotations

import math

from .kernel import inlined, kernel
from .params import Param
from .state import index_of

FEEL_GROUP = "Steering feel"
FEEL_SINCE = 7
"""The preset format that introduced steering feel: older files load with the defaults."""
NAMES = (
    "steer_time",
    "return_time",
    "speed_point_1",
    "speed_point_2",
    "speed_point_3",
    "lock_at_1",
    "lock_at_2",
    "lock_at_3",
    "rate_at_1",
    "rate_at_2",
    "rate_at_3",
)
"""The feel's parameters every model has, in the order the kernels read them."""
ASSIST_NAMES = ("countersteer_help", "countersteer_slip", "drift_hold", "drift_hold_angle")
"""The assists' parameters, after NAMES, in the models with slip angles."""
F = index_of(NAMES + ASSIST_NAMES)
"""Each feel parameter's place after the first (`p[first + F.steer_time]`)."""
SPEED_POINTS = {"px": (0.0, 400.0, 800.0, 5000.0, 5.0), "m": (0.0, 15.0, 30.0, 100.0, 0.5)}
"""Per unit of length: the three default speed points, the top of their range and their step."""
ASSIST_MIN_SPEED = {"px": 25.0, "m": 1.0}
"""Per unit of length, in it per second: below this the slip angle is noise (a car at rest
has none) and the assists rest."""
SNAP = 1.000000001
"""A step short of the target by rounding alone reaches it (full lock in 0.5 s at 60 Hz is
30 steps of 1/30, which add up to 0.9999999999999999)."""
LOCK_PARAMS = ("steering_angle", "max_steer")
"""The full-lock angle (°) of a model: the first of these names in its PARAMS."""


def feel_params(unit: str, assists: bool) -> tuple[Param, ...]:
    """The steering feel's parameters of a model whose lengths are in `unit` (px or m);
    `assists`: the model has slip angles, so the assists too."""
    first, second, third, top, step = SPEED_POINTS[unit]
    common = {"since": FEEL_SINCE, "group": FEEL_GROUP, "searched": False}
    speed = f"{unit}/s"
    out = [
        Param(
            "steer_time",
            "Steer time",
            "s",
            0.0,
            0.0,
            3.0,
            0.01,
            "Time the steering takes from centre to full lock while you steer (a key, a stick pushed): "
            "racing games use 0.1–0.3 s. 0 = at once, as the source text. On a pad the stick is the target.",
            **common,
        ),
        Param(
            "return_time",
            "Return time",
            "s",
            0.0,
            0.0,
            3.0,
            0.01,
            "Time the steering takes from full lock back to centre when you let go (or steer less). 0 = at once.",
            **common,
        ),
    ]
    for k, (value, word) in enumerate(((first, "lowest"), (second, "middle"), (third, "highest")), 1):
        out.append(
            Param(
                f"speed_point_{k}",
                f"Speed point {k}",
                speed,
                value,
                0.0,
                top,
                step,
                f"The {word} of the three speeds at which full lock and steering speed are set (the curve's "
                "points; between them the share changes in a straight line, beyond them it stays).",
                **common,
            )
        )
    for k in (1, 2, 3):
        out.append(
            Param(
                f"lock_at_{k}",
                f"Full lock at point {k}",
                "%",
                100.0,
                5.0,
                100.0,
                1.0,
                f"Share of the full-lock angle the wheels reach at speed point {k}: less at speed keeps a fast car "
                "calm, 100 % everywhere = the source text.",
                **common,
            )
        )
    for k in (1, 2, 3):
        out.append(
            Param(
                f"rate_at_{k}",
                f"Steering speed at point {k}",
                "%",
                100.0,
                10.0,
                400.0,
                5.0,
                f"The steer and return times' speed at speed point {k}: 50 % takes twice as long. "
                "Used only when a steer or return time is set.",
                **common,
            )
        )
    if assists:
        out += [
            Param(
                "countersteer_help",
                "Counter-steer help",
                "%",
                0.0,
                0.0,
                100.0,
                1.0,
                "Steers toward where the car is going when its slip angle passes the threshold: 100 % turns "
                "the wheels by the whole slip past it. 0 = off (the source text).",
                **common,
            ),
            Param(
                "countersteer_slip",
                "Counter-steer from slip",
                "°",
                5.0,
                0.0,
                45.0,
                0.5,
                "Slip angle (between the car's nose and its velocity) above which counter-steer help acts.",
                **common,
            ),
            Param(
                "drift_hold",
                "Drift hold",
                "%",
                0.0,
                0.0,
                100.0,
                1.0,
                "Steers to hold the slip angle at the drift angle once a drift starts (taking over from half "
                "that angle): counter-steers when the car slides further, eases off when it straightens. 0 = off.",
                **common,
            ),
            Param(
                "drift_hold_angle",
                "Drift angle held",
                "°",
                25.0,
                5.0,
                60.0,
                0.5,
                "The slip angle drift hold steers toward.",
                **common,
            ),
        ]
    return tuple(out)


def feel_is_neutral(values) -> bool:
    """Whether a tuning (a mapping by name) has the steering feel at its defaults, which
    steer as the input says: a script without the feel computes the same."""
    locks = all(float(values.get(f"lock_at_{k}", 100.0)) == 100.0 for k in (1, 2, 3))
    times = float(values.get("steer_time", 0.0)) == 0.0 and float(values.get("return_time", 0.0)) == 0.0
    assists = float(values.get("countersteer_help", 0.0)) == 0.0 and float(values.get("drift_hold", 0.0)) == 0.0
    return locks and times and assists


def feel_slots(params) -> tuple[int, int, bool]:
    """(where the feel's parameters start in a model's PARAMS, where its full-lock angle
    is, whether it has the assists); checks they follow each other in NAMES's order."""
    names = [p.name for p in params]
    first = names.index(NAMES[0])
    assists = ASSIST_NAMES[0] in names
    wanted = NAMES + (ASSIST_NAMES if assists else ())
    if tuple(names[first : first + len(wanted)]) != wanted:
        raise ValueError(f"the steering feel's parameters must follow each other in the order {', '.join(wanted)}")
    lock = next(names.index(name) for name in LOCK_PARAMS if name in names)
    return first, lock, assists


@kernel(inline=True)
def share_at(v, s1, s2, s3, a1, a2, a3):
    """The share (as given: % or a factor) at speed `v` on the line through (s1, a1),
    (s2, a2), (s3, a3): flat before s1 and after s3; a point out of order is a step."""
    if v <= s1:
        return a1
    if v <= s2:
        return a1 + (a2 - a1) * (v - s1) / (s2 - s1)
    if v <= s3:
        return a2 + (a3 - a2) * (v - s2) / (s3 - s2)
    return a3


@kernel(inline=True)
def is_neutral(p, first, assists):
    """Whether the feel of tuning row `p` leaves the steer input as it is (the defaults)."""
    if p[first + F.steer_time] != 0.0 or p[first + F.return_time] != 0.0:
        return False
    if p[first + F.lock_at_1] != 100.0 or p[first + F.lock_at_2] != 100.0 or p[first + F.lock_at_3] != 100.0:
        return False
    if assists and (p[first + F.countersteer_help] != 0.0 or p[first + F.drift_hold] != 0.0):
        return False
    return True


@kernel(inline=True)
def slip_angle(vx, vy, heading):
    """β (rad, -π..π): the velocity's angle from the heading, positive to the right."""
    beta = math.atan2(vy, vx) - heading
    return math.atan2(math.sin(beta), math.cos(beta))


@kernel(inline=True)
def assist(vx, vy, heading, p, first, min_speed):
    """The assists' front wheel angle (rad) for a car moving at (vx, vy) with `heading`."""
    speed = math.sqrt(vx * vx + vy * vy)
    if speed < min_speed or vx * math.cos(heading) + vy * math.sin(heading) <= 0.0:
        return 0.0
    beta = slip_angle(vx, vy, heading)
    side = 1.0 if beta > 0.0 else -1.0
    out = 0.0
    help_, threshold = p[first + F.countersteer_help] / 100.0, p[first + F.countersteer_slip] * (math.pi / 180.0)
    if help_ > 0.0 and abs(beta) > threshold:
        out += help_ * (abs(beta) - threshold) * side
    hold, angle = p[first + F.drift_hold] / 100.0, p[first + F.drift_hold_angle] * (math.pi / 180.0)
    if hold > 0.0 and abs(beta) > angle / 2.0:
        weight = min((abs(beta) - angle / 2.0) / (angle / 2.0), 1.0)  # from nothing at half the angle
        out += weight * hold * (beta - side * angle)
    return out


@kernel(inline=True)
def felt_steer(u, held, speed, vx, vy, heading, p, dt, first, lock, assists, min_speed):
    """(the steer the model reads, the steer held after this tick) from the input `u` and
    the steer `held` before it, at `speed` (module docstring, steps 1-3)."""
    s1, s2, s3 = p[first + F.speed_point_1], p[first + F.speed_point_2], p[first + F.speed_point_3]
    share = share_at(speed, s1, s2, s3, p[first + F.lock_at_1], p[first + F.lock_at_2], p[first + F.lock_at_3]) / 100.0
    target = u
    if assists:
        full = p[lock] * (math.pi / 180.0) * share
        if full > 0.0:
            target += assist(vx, vy, heading, p, first, min_speed) / full
    target = min(max(target, -1.0), 1.0)
    back = target * held >= 0.0 and abs(target) < abs(held)  # toward the centre, not across it
    time = p[first + F.return_time] if back else p[first + F.steer_time]
    if time > 0.0:
        rate = (
            share_at(speed, s1, s2, s3, p[first + F.rate_at_1], p[first + F.rate_at_2], p[first + F.rate_at_3]) / 100.0
        )
        step = dt / time * rate
        gap = target - held
        if abs(gap) <= step * SNAP:
            held = target
        else:
            held = held + (step if gap > 0.0 else -step)
    else:
        held = target
    return held * share, held


def feel_step(module):
    """step(s, c, p, dt): the controls row a model's tick reads after the steering feel
    of `module` (a copy of `c` when the feel acts, `c` itself at the defaults), with the
    state's `steer_feel` (held) and `steer_received` (read) slots set; compiled into
    the drivers (kernels.tick_in) only."""
    first, lock, assists = feel_slots(module.PARAMS)
    layout = module.STATE
    vx, vy, heading = layout.offset["vx"], layout.offset["vy"], layout.offset["heading"]
    held_at, read_at = layout.offset["steer_feel"], layout.offset["steer_received"]
    min_speed = ASSIST_MIN_SPEED[module.LENGTH_UNIT]
    own_speed = getattr(module, "FEEL_SPEED", None)
    speed_at = layout.offset[own_speed] if own_speed else -1
    read, mark = input_reader(module), mark_held(module)

    @inlined
    def step(s, c, p, dt):
        if is_neutral(p, first, assists):
            u = mark(s, c[0], p)
            if u == c[0]:
                return c
            read_as = c.copy()
            read_as[0] = u
            return read_as
        u = read(c[0], p)
        if speed_at >= 0:
            speed = abs(s[speed_at])
        else:
            speed = math.sqrt(s[vx] * s[vx] + s[vy] * s[vy])
        felt = c.copy()
        felt[0], s[held_at] = felt_steer(
            u, s[held_at], speed, s[vx], s[vy], s[heading], p, dt, first, lock, assists, min_speed
        )
        s[read_at] = felt[0]
        return felt

    return step


def input_reader(module):
    """read(steer, p): the steer input as `module`'s tick reads it, before the feel (its
    `steer_input`: the arcade's 2020 recipe reads keys pressed or not), else as given."""
    found = getattr(module, "steer_input", None)
    if found is not None:
        return found

    @inlined
    def as_given(steer, p):
        return steer

    return as_given


def all_neutral(module):
    """every(params, which, start, stop): whether each car start..stop-1 has the feel of
    `module` at its defaults (a batch may then run a chunk of cars on held steering);
    compiled into the drivers only."""
    first, _, assists = feel_slots(module.PARAMS)

    @inlined
    def every(params, which, start, stop):
        for i in range(start, stop):
            if not is_neutral(params[which[i]], first, assists):
                return False
        return True

    return every


def mark_held(module):
    """mark(s, steer, p): the steer input `steer` as tuning row `p` reads it, written into
    a state row's `steer_feel` and `steer_received` slots as a tick at the feel's defaults
    leaves them (each tick so, and a chunk of cars run on held steering once at its end),
    and returned; compiled into the drivers only."""
    layout = module.STATE
    held_at, read_at = layout.offset["steer_feel"], layout.offset["steer_received"]
    read = input_reader(module)

    @inlined
    def mark(s, steer, p):
        u = read(steer, p)
        s[held_at] = u
        s[read_at] = u
        return u

    return mark
