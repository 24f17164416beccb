"""A driver that laps a closed path on its own: one car of any model, in compiled code.

Each tick, from the car's state: the nearest point of the path (a local search from the
last one), pure pursuit toward the point a look-ahead further along it (look-ahead =
`look_base` + `look_time` × speed), the arc's curvature turned into a steer input
through the car's own full-lock curvature (1 / its `radius_low` metric: full lock turns
the car on a circle of that radius) plus a trim summed from the distance the car is off
the path (`TRIM_RATE`: a car near its grip limit understeers and would settle wide of
it), a join for a car that starts off the path (`join_share`), and a throttle and
brake controller toward the path's target speed there; then
the model's own tick among the track's walls (`kernels.tick_in`). One compiled call
drives the whole run (`drive`); Python enters it once (`drive_laps`). The control law is
one kernel, `driver_controls` (with `driver_follow` after each tick): the drive
session's driver at the wheel calls the same kernels tick by tick
(`session/lap_wheel.py`).

The path is a closed polyline in the model's unit: points (n, 4), each its position and
how far the path may be moved to its right and to its left there and keep clear of the
walls (length; inf: the open field), with a target speed at each (length/s).
Distances along it are measured from the point nearest the car's start and keep
growing lap after lap (a car that turns back makes them shrink).

Each tick writes a row of `COLUMNS`: the controls it drove with (the first five, in
the order a control trace holds them, rounded as the engine holds them, so the rows
replay the same drive bit for bit from the same start) and the car after the tick.
A run is bounded in ticks: a car that cannot go round (too weak, stuck on a wall)
stops with what it reached.
"""

from __future__ import annotations

import math
from types import ModuleType
from typing import Mapping, NamedTuple

import numpy as np
from numba import literally

from ..physics import kernels
from ..physics.kernel import kernel
from ..physics.kernels import tick_in
from ..physics.sim import at_rest, model_number, tuning_rows
from ..physics.track import Pose, Track
from ..physics.walls import walls_for
from .metrics import compute
from .straight_runs import HEADING, VX, VY, X, Y

COLUMNS = (
    "steer", "throttle", "brake", "handbrake", "shift",
    "x", "y", "heading", "speed", "distance", "off_path", "cones_hit",
)  # fmt: skip
"""A drive's row per tick: the controls of the tick, then after it the car's position
(length), heading (rad), speed (length/s), distance along the path from the start
(length), distance from the path (length, + right of it) and cones knocked so far."""
CONTROLS = 5
"""The first columns: a control trace's row (steer, throttle, brake, handbrake, shift)."""
(STEER, THROTTLE, BRAKE, HANDBRAKE, SHIFT, COL_X, COL_Y, COL_HEADING, SPEED, DISTANCE, OFF_PATH, CONES) = range(
    len(COLUMNS)
)

FINISHED, OUT_OF_TICKS, STALLED = range(3)
"""How a drive ended: the distance asked for reached; the tick bound reached first; no
headway for `STALL_S` (a car that cannot climb out of a corner, or pinned on a wall)."""

LOOK_BASE_LENGTHS = 1.5
"""The look-ahead at rest, in the car's body lengths."""
LOOK_TIME_S = 0.2
"""s: the look-ahead grows by the distance covered in this time. Chosen on a ring at up to
85 % of each default tuning's grip and on the club circuit with the built-in presets at
30, 60 and 240 Hz: from 0.45 s down to 0.15 s every model holds the line closer (the
rigid body on the ring 2.7 → 1.3 m out) without weaving; 0.2 s keeps a margin."""
SPEED_GAIN = 8.0
"""Pedal per fraction of the target speed missed: 1/8 under the target is full throttle."""
SPEED_INTEGRAL = 2.0
"""1/s: how fast the held throttle grows for the speed still missed (the share of throttle a
car needs to hold a speed against its drag)."""
JOIN_LENGTHS = 12.0
"""Car lengths: a car that starts off the path (the spawn beside the racing line) joins it
over at least this distance, its offset easing to nothing (`join_share`): aimed at the
path itself it would cross it at an angle, at speed, and swing out past it."""
JOIN_S = 4.0
"""s: and over at least the distance the path's target speed where the car starts covers
in this time."""
TRIM_RATE = 0.5
"""Steer per second per car length the car is off the path: pure pursuit steers by the
car's full-lock curvature, which a car near its grip limit does not turn (it
understeers), so it settles wide of the path; this trim, the off-path distance summed
over time, steers it back onto it (zero steady error on a steady bend)."""
TRIM_MOST = 0.25
"""The most steer the trim adds (either way)."""
TRIM_BAND_LENGTHS = 0.5
"""The trim only sums while the car is within this many car lengths of the path: a car
far off the path (pinned on a wall) is pure pursuit's alone. The distance is taken off the
join while the car joins the path (`join_share`)."""
PREVIEW_S = 0.25
"""s: the target speed is read this far ahead of the car (at its speed), so it brakes before
a slower stretch, not in it."""
STALL_S = 10.0
"""s: a drive that gains less than STALL_SHARE of this long at its target speed stops."""
STALL_SHARE = 0.05
SLACK = 3.0
"""The tick bound: this many times the time the distance takes at the path's mean target
speed, plus SLACK_S."""
SLACK_S = 30.0

(
    SET_LOOK_BASE, SET_LOOK_TIME, SET_FULL_LOCK, SET_GAIN, SET_INTEGRAL, SET_PREVIEW, SET_STALL_TICKS, SET_STALL_GAIN,
    SET_CONES, SET_TRIM, SET_LENGTH,
) = range(11)  # fmt: skip
"""Slots of `drive`'s `setup` array."""


class DriveResult(NamedTuple):
    """A drive: `rows` (ticks, len(COLUMNS)), one per tick (`COLUMNS`); how it ended
    (`FINISHED`, `OUT_OF_TICKS`, `STALLED`); the tick rate (Hz); the path's lap length
    and the distance asked for (model units)."""

    rows: np.ndarray
    ended: int
    hz: float
    lap_length: float
    goal: float

    @property
    def finished(self) -> bool:
        return self.ended == FINISHED

    @property
    def ticks(self) -> int:
        return len(self.rows)

    @property
    def time(self) -> float:
        """s driven."""
        return self.ticks / self.hz

    @property
    def distance(self) -> float:
        """Distance reached along the path (model units)."""
        return float(self.rows[-1, DISTANCE]) if len(self.rows) else 0.0

    @property
    def controls(self) -> np.ndarray:
        """The drive as a control trace: (ticks, 5) rows of steer, throttle, brake,
        handbrake, shift."""
        return np.ascontiguousarray(self.rows[:, :CONTROLS])


@kernel
def clamp(value, low, high):
    return min(max(value, low), high)


@kernel
def nearest(path, path_s, x, y, i, reach):
    """(segment, distance along the path, signed distance from it: + right of it) of the
    point of the closed path nearest (x, y), among segment `i` and those within `reach`
    (length) before and after it, at least one each side (i < 0: all of them)."""
    n = path.shape[0]
    if i < 0:
        first, count = 0, n
    else:
        # at least one segment each side: the car may sit at either end of segment i
        first, back, count = i, 0.0, 1
        while (back < reach or count == 1) and count < n:
            first = (first - 1) % n
            back += path_s[first + 1] - path_s[first]
            count += 1
        k, ahead, behind = i, 0.0, count
        while (ahead < reach or count == behind) and count < n:
            k = (k + 1) % n
            ahead += path_s[k + 1] - path_s[k]
            count += 1
    best, best_j, best_t = math.inf, 0, 0.0
    for q in range(count):
        j = (first + q) % n
        k = (j + 1) % n
        ax, ay = path[j, 0], path[j, 1]
        dx, dy = path[k, 0] - ax, path[k, 1] - ay
        t = clamp(((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy), 0.0, 1.0)
        px, py = ax + t * dx - x, ay + t * dy - y
        d2 = px * px + py * py
        if d2 < best:
            best, best_j, best_t = d2, j, t
    k = (best_j + 1) % n
    dx, dy = path[k, 0] - path[best_j, 0], path[k, 1] - path[best_j, 1]
    cross = dx * (y - path[best_j, 1]) - dy * (x - path[best_j, 0])  # y down: + is right of the path
    along = path_s[best_j] + best_t * (path_s[best_j + 1] - path_s[best_j])
    return best_j, along, math.copysign(math.sqrt(best), cross)


@kernel
def locate(path_s, j, along):
    """(segment, fraction along it) of the point `along` (length, any lap) of the closed
    path, searched forward from segment `j`."""
    n = path_s.shape[0] - 1
    lap = path_s[n]
    along = along % lap
    for _ in range(n + 1):
        if path_s[j] <= along <= path_s[j + 1]:
            length = path_s[j + 1] - path_s[j]
            return j, ((along - path_s[j]) / length if length > 0 else 0.0)
        j = (j + 1) % n
    return j, 0.0


PATH_X, PATH_Y, ROOM_RIGHT, ROOM_LEFT = range(4)
"""Columns of a path's point (`driver_path`)."""


(MEM_SEGMENT, MEM_ALONG, MEM_HELD, MEM_DISTANCE, MEM_OFF, MEM_TRIM, MEM_JOIN, MEM_JOIN_LENGTH) = range(8)
"""Slots of a driver's memory between ticks (`driver_controls`, `driver_follow`): the
path segment the car is nearest, where it is along the path (length, within a lap), the
throttle held by the speed controller, the distance driven along the path, the car's
distance off the path after the last tick (+ right), the steer trim summed from it, and
the join: the car's distance off the path where it started (+ right) and the distance
over which it joins the path (length)."""
MEM_SLOTS = 8


@kernel
def join_share(driven, length):
    """The share of the starting offset still kept `driven` (length) along the path into
    a join of `length`: 1 at the start, easing (half a cosine) to 0 at its end."""
    if driven <= 0.0:
        return 1.0
    if driven >= length:
        return 0.0
    return 0.5 * (1.0 + math.cos(math.pi * driven / length))


@kernel
def join_shift(path, k, f, offset):
    """The join's shift of the path sideways (length, + right) at fraction `f` of segment
    `k`: `offset` kept within the room the path has there to that side (the less of the
    segment's two ends): a path bending toward a wall takes a join beside it into the
    wall."""
    m = (k + 1) % path.shape[0]
    return clamp(offset, -min(path[k, ROOM_LEFT], path[m, ROOM_LEFT]), min(path[k, ROOM_RIGHT], path[m, ROOM_RIGHT]))


@kernel
def driver_place(s, path, path_s, path_v, setup, mem):
    """The driver's memory (`MEM_*`, MEM_SLOTS) for car row `s` where it stands: nearest
    point of the whole path, nothing held, nothing driven, no trim; the car joins the
    path from its distance off it over JOIN_LENGTHS car lengths or JOIN_S at the
    path's target speed there, whichever is longer."""
    j, along, off = nearest(path, path_s, s[X], s[Y], -1, 0.0)
    mem[:] = 0.0
    mem[MEM_SEGMENT], mem[MEM_ALONG] = j, along
    mem[MEM_JOIN] = off
    mem[MEM_JOIN_LENGTH] = max(JOIN_LENGTHS * setup[SET_LENGTH], JOIN_S * path_v[j])


@kernel
def driver_controls(s, dt, path, path_s, path_v, setup, mem, c):
    """The control law: the controls of the next tick of car row `s` (tick `dt` s)
    into c (5: steer, throttle, brake, handbrake, shift, rounded as the engine holds
    them), from the driver's memory `mem` (its held throttle updated). Pure pursuit to
    the look-ahead point plus the trim, a throttle and brake controller toward the
    previewed target speed."""
    n = path.shape[0]
    j, along, held = int(mem[MEM_SEGMENT]), mem[MEM_ALONG], mem[MEM_HELD]
    h = s[HEADING]
    ch, sh = math.cos(h), math.sin(h)
    speed = math.hypot(s[VX], s[VY])
    forward = ch * s[VX] + sh * s[VY]
    # pure pursuit: the arc through the car, tangent to its heading, to the point ahead
    # on the path, or while joining it, on the join (`join_share`)
    look = setup[SET_LOOK_BASE] + setup[SET_LOOK_TIME] * speed
    k, f = locate(path_s, j, along + look)
    m = (k + 1) % n
    ex, ey = path[m, 0] - path[k, 0], path[m, 1] - path[k, 1]
    joining = mem[MEM_JOIN] * join_share(mem[MEM_DISTANCE] + look, mem[MEM_JOIN_LENGTH])
    side = join_shift(path, k, f, joining) / max(math.hypot(ex, ey), 1e-12)
    dx = path[k, 0] + f * ex - ey * side - s[X]  # (-ey, ex): the path's right, y down
    dy = path[k, 1] + f * ey + ex * side - s[Y]
    right = -sh * dx + ch * dy  # y down: the car's right is its heading turned +90°
    curvature = 2.0 * right / max(dx * dx + dy * dy, 1e-12)
    pursuit = curvature * setup[SET_FULL_LOCK]
    here = (along - path_s[j]) / max(path_s[j + 1] - path_s[j], 1e-12)
    joining = mem[MEM_JOIN] * join_share(mem[MEM_DISTANCE], mem[MEM_JOIN_LENGTH])
    off, trim = mem[MEM_OFF] - join_shift(path, j, here, joining), mem[MEM_TRIM]
    # a wheel at full lock or a car far off adds nothing to the trim (no wind-up)
    if -1.0 < pursuit + trim < 1.0 and abs(off) < TRIM_BAND_LENGTHS * setup[SET_LENGTH]:
        trim = clamp(trim - setup[SET_TRIM] * off / setup[SET_LENGTH] * dt, -TRIM_MOST, TRIM_MOST)
    mem[MEM_TRIM] = trim
    steer = clamp(pursuit + trim, -1.0, 1.0)
    # the pedals: toward the target speed a moment ahead
    k, f = locate(path_s, j, along + setup[SET_PREVIEW] * max(forward, 0.0))
    target = path_v[k] + f * (path_v[(k + 1) % n] - path_v[k])
    missed = (target - forward) / max(target, 1e-9)
    pedal = setup[SET_GAIN] * missed + held
    if -1.0 < pedal < 1.0:  # a pedal held to its stop adds nothing to hold after (no wind-up)
        held = clamp(held + setup[SET_INTEGRAL] * missed * dt, 0.0, 1.0)
        pedal = setup[SET_GAIN] * missed + held
    throttle = clamp(pedal, 0.0, 1.0)
    brake = clamp(-pedal, 0.0, 1.0) if forward > 0.0 else 0.0  # braking from rest is reversing
    c[:] = 0.0
    c[STEER] = float(np.float32(steer))  # as the engine holds a control (sim.as_engine_controls)
    c[THROTTLE] = float(np.float32(throttle))
    c[BRAKE] = float(np.float32(brake))
    mem[MEM_HELD] = held


@kernel
def driver_follow(s, dt, path, path_s, setup, mem):
    """After a tick: where car row `s` is along the path now (searched near where it
    was), into the driver's memory; returns its signed distance from the path (+ right)."""
    lap = path_s[path.shape[0]]
    reach = 4.0 * math.hypot(s[VX], s[VY]) * dt + setup[SET_LOOK_BASE]
    j, now, off = nearest(path, path_s, s[X], s[Y], int(mem[MEM_SEGMENT]), reach)
    step = (now - mem[MEM_ALONG] + 0.5 * lap) % lap - 0.5 * lap  # the shorter way round
    mem[MEM_SEGMENT], mem[MEM_ALONG], mem[MEM_OFF] = j, now, off
    mem[MEM_DISTANCE] += step
    return off


@kernel
def drive(model, s, p, dt, path, path_s, path_v, setup, goal, out, walls):
    """Drive car row `s` (in place; tuning row `p`, tick `dt` s) along the closed path
    (`path` (n, 4): `driver_path`, cumulative `path_s` (n + 1), target speeds `path_v` (n)) until it has
    gone `goal` (length) along it, at most len(out) ticks, among `walls` (None: the open
    field); out[t] = the row of tick t (`COLUMNS`). `setup`: the SET_* slots. Each tick:
    `driver_controls`, the model's tick, `driver_follow`. Returns (ticks driven, how it
    ended)."""
    literally(model)
    cones = int(setup[SET_CONES])
    c = np.zeros(5)
    mem = np.zeros(MEM_SLOTS)
    driver_place(s, path, path_s, path_v, setup, mem)
    stall_ticks = int(setup[SET_STALL_TICKS])
    checked = 0.0
    for t in range(out.shape[0]):
        driver_controls(s, dt, path, path_s, path_v, setup, mem, c)
        tick_in(model, s, c, p, dt, walls)
        off = driver_follow(s, dt, path, path_s, setup, mem)
        distance = mem[MEM_DISTANCE]
        row = out[t]
        row[STEER], row[THROTTLE], row[BRAKE], row[HANDBRAKE], row[SHIFT] = c[0], c[1], c[2], c[3], c[4]
        row[COL_X], row[COL_Y], row[COL_HEADING] = s[X], s[Y], s[HEADING]
        row[SPEED], row[DISTANCE], row[OFF_PATH], row[CONES] = math.hypot(s[VX], s[VY]), distance, off, s[cones]
        if distance >= goal:
            return t + 1, FINISHED
        if (t + 1) % stall_ticks == 0:
            if distance - checked < setup[SET_STALL_GAIN]:
                return t + 1, STALLED
            checked = distance
    return out.shape[0], OUT_OF_TICKS


def path_distances(path_xy: np.ndarray) -> np.ndarray:
    """The cumulative distance (n + 1) of the closed path's points (their first two
    columns: x, y), the last the lap."""
    closed = np.vstack([path_xy[:, :2], path_xy[:1, :2]])
    return np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(closed, axis=0).T))])


def drive_laps(
    model: ModuleType,
    tuning: Mapping[str, object],
    track: Track | None,
    path_xy: np.ndarray,
    path_v: np.ndarray | float,
    laps: float,
    hz: float,
    *,
    full_lock_radius: float | None = None,
    start: Pose | None = None,
    max_ticks: int | None = None,
    room: np.ndarray | None = None,
) -> DriveResult:
    """Drive `laps` times the length of the closed path `path_xy` ((n, 2), the model's
    unit; the last point joins the first) along it, counted from the car's start (a
    fraction of a lap too), at the target speeds `path_v` (length/s: n, or one for every
    point) on `track` (None: the open field; any unit, converted) from `start` (the
    model's unit; else the track's spawn), at `hz`. `full_lock_radius` (length): the
    radius of the car's path at full lock, else measured here (`full_lock_radius_of`).
    `max_ticks`: the bound (else SLACK times the laps at the mean target speed, plus
    SLACK_S). `room`: (n, 2) how far the path may move right and left at each point
    (`racing_line.RacingLine.room`; None: no wall near). One compiled call."""
    path, path_s, speeds = driver_path(path_xy, path_v, room)
    if not laps > 0:
        raise ValueError("a drive is of more than 0 laps")
    lap = float(path_s[-1])
    goal = laps * lap
    dt = 1.0 / hz
    if max_ticks is None:
        max_ticks = int(math.ceil((SLACK * goal / float(np.mean(speeds)) + SLACK_S) * hz))
    setup = driver_setup(model, tuning, speeds, hz, full_lock_radius)
    here = None if track is None else track.in_unit(model.LENGTH_UNIT)
    walls = walls_for(here, model.LENGTH_UNIT)
    pose = start if start is not None else (None if here is None else here.spawn)
    state = at_rest(model, 1, pose)
    rows, which = tuning_rows(model, tuning, 1)
    out = np.empty((max_ticks, len(COLUMNS)))  # the pages a drive never reaches are never taken
    ticks, ended = kernels.call(
        drive, model_number(model), state.data[0], rows[which[0]], dt, path, path_s, speeds, setup, goal, out, walls
    )
    return DriveResult(out[:ticks].copy(), int(ended), float(hz), lap, goal)


def driver_path(
    path_xy: np.ndarray, path_v: np.ndarray | float, room: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(path (n, 4), path_s (n + 1), speeds (n)) as `drive` takes them, from a closed
    path's points (the model's unit; a first point repeated at the end is dropped), its
    target speeds (length/s: n, or one for every point) and the room it has to its
    right and left at each point ((n, 2), length; None: no wall near). ValueError for a
    path that cannot be driven."""
    xy = np.asarray(path_xy, dtype=np.float64).reshape(-1, 2)
    room = np.full(xy.shape, math.inf) if room is None else np.asarray(room, dtype=np.float64).reshape(-1, 2)
    if len(room) != len(xy):
        raise ValueError("a path's room is one pair (right, left) for each of its points")
    path = np.ascontiguousarray(np.column_stack([xy, room]))
    path_v = np.asarray(path_v, dtype=np.float64)
    if len(path) > 1 and np.array_equal(xy[0], xy[-1]):  # a ring given with its first point again at its end
        path = path[:-1]
        path_v = path_v[:-1] if path_v.ndim and len(path_v) == len(path) + 1 else path_v
    if len(path) < 3 or not np.isfinite(path[:, :2]).all():
        raise ValueError("a path is at least three finite points")
    if not (room >= 0).all():
        raise ValueError("a path's room to either side is 0 or more")
    path_s = path_distances(path)
    if not np.all(np.diff(path_s) > 0):
        raise ValueError("a path's points are all apart (no two in a row the same)")
    speeds = np.ascontiguousarray(np.broadcast_to(path_v, (len(path),)))
    if not (np.isfinite(speeds).all() and (speeds > 0).all()):
        raise ValueError("a path's target speeds are finite and above 0")
    return path, path_s, speeds


def driver_setup(
    model: ModuleType, tuning: Mapping[str, object], speeds: np.ndarray, hz: float, full_lock_radius: float | None
) -> np.ndarray:
    """The `SET_*` slots of a driver of this tuning at `hz` following target `speeds`
    (length/s); `full_lock_radius` (length) measured here when None."""
    if full_lock_radius is None:
        full_lock_radius = full_lock_radius_of(model, tuning, hz)
    length = float(model.body(tuning)["length"])
    stall_ticks = max(1, int(round(STALL_S * hz)))
    return setup_row(length, full_lock_radius, stall_ticks, float(np.min(speeds)), model.STATE.offset["cones_hit"])


@kernel
def setup_row(length, full_lock, stall_ticks, least_speed, cones):
    """The `SET_*` slots of a driver: a car `length` long turning on a circle of radius
    `full_lock` at full lock (length), checked for headway every `stall_ticks` ticks
    against its least target speed `least_speed` (length/s), its knocked cones in state
    slot `cones`. Compiled: a batch of tunings takes it too (`lap_batch`)."""
    return np.array(
        [
            LOOK_BASE_LENGTHS * length,
            LOOK_TIME_S,
            full_lock,
            SPEED_GAIN,
            SPEED_INTEGRAL,
            PREVIEW_S,
            float(stall_ticks),
            STALL_SHARE * STALL_S * least_speed,
            float(cones),
            TRIM_RATE,
            length,
        ]
    )


FULL_LOCK_CHOICES = (("radius_low", 1.0), ("radius_top", 1.0), ("turning_circle", 0.5))
"""The metrics a car's full-lock radius is read from, the first one measured, with the
share of it that is the radius (the turning circle is kerb to kerb)."""


def full_lock_radii(values: Mapping[str, np.ndarray], lengths: np.ndarray) -> np.ndarray:
    """The full-lock radius (length) of each of k tunings from their metrics (`values`,
    arrays of k): the first of FULL_LOCK_CHOICES measured, else the body `lengths`."""
    full_lock = np.array(lengths, dtype=np.float64)
    for name, share in reversed(FULL_LOCK_CHOICES):  # the last one found, the first choice, wins
        radius = share * np.asarray(values[name], dtype=np.float64).reshape(-1)
        full_lock = np.where(np.isfinite(radius) & (radius > 0), radius, full_lock)
    return full_lock


def full_lock_radius_of(model: ModuleType, tuning: Mapping[str, object], hz: float, values=None) -> float:
    """The radius (length) of the car's path at full lock: its `radius_low` metric (at a
    quarter of its top speed), else its `radius_top`, else half its kerb-to-kerb turning
    circle; a car none of them could be measured for (one that does not move) is given
    its body length (any steer scale drives it as far as it goes). `values`: its
    metrics when they are at hand (`metrics.compute`), else measured here."""
    values = compute(model, tuning, hz) if values is None else values
    one = {name: np.asarray(values[name], dtype=np.float64).reshape(-1)[:1] for name, _ in FULL_LOCK_CHOICES}
    return float(full_lock_radii(one, np.array([float(model.body(tuning)["length"])]))[0])
