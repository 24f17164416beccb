"""The lap timer for one car: laps, sector splits and distance along the centre line,
advanced after every tick (compiled code; the course is `lap_course.Course`).

A timer is a float array (`new_timer`): its slots (the constants below), the running
lap's sector times, then a ring of the last `capacity` completed laps (events).
`timer_tick(course, timer, x0, y0, x1, y1, t0, dt, cones)` is called after each tick
with the tick's swept path, the car's position (course unit) from (x0, y0) to (x1, y1),
the time the tick started (t0, s), its length (dt, s) and the car's count of knocked
cones so far. It is a kernel: a compiled driver calls it every tick, Python calls it
directly or hands a batch of ticks to `timer_ticks`.

Timing lines: a line is crossed when the tick's straight path from (x0, y0) to (x1, y1)
goes from the side behind it (g < 0, g the signed distance along the line's normal
`n`, which points the way a lap crosses it) to the side ahead (g ≥ 0) between its two
ends; the crossing is at f = g0 / (g0 - g1) of the path, at time t0 + f·dt, and at
distance p0 + f·(p1 - p0) along the centre line. Lines crossed the other way are
crossings backwards. Crossings in one tick are taken in order of f.

Laps: the first start-line crossing starts lap 1 (what came before is the out lap);
each next one ends the running lap (its time: the crossing time less the lap's start;
the last sector's likewise) and starts the next. Crossing the next sector line in lap
order ends a sector. The running lap is marked (FLAGS, a bit each):
- BACKWARDS: a timing line crossed backwards, or the distance along the centre line
  fallen more than `backwards` (a length, default BACKWARDS_M) below the lap's furthest;
- CUT: the car's position at the end of a tick outside the corridor (`lap_course`);
- MISSED: the start line crossed before every sector line of the lap in order;
- CONES: a cone knocked during the lap; each adds `cone_penalty` (s, default 2) to the
  lap's time.
A lap with any mark is not valid (kept out of the best lap). Cones knocked in the tick
that crosses the start line count to the lap it ends.

Distance: the car's position is put on the centre line each tick (the nearest point,
found near last tick's: `lap_course.nearest_near`; the whole line is searched only
to place the car and when it is off the track, see LOST_M); PROGRESS is the distance
run along the line since the car was placed (each tick's step taken the short way
round), LAP_DISTANCE the progress since the running lap's start.
"""

from __future__ import annotations

import math

import numpy as np

from .kernel import kernel
from .lap_course import Course, course_of, is_outside, nearest, nearest_near

__all__ = ["Course", "course_of", "new_timer", "timer_tick", "timer_ticks", "timer_reset", "laps_of"]

# Slots of a timer (its readouts first; the settings after).
PLACED = 0
"""1 once the car has been put on the centre line (0: the next tick places it)."""
SEGMENT = 1
"""The centre-line segment the car is nearest (an index of `Course.points`)."""
ALONG = 2
"""Where the car is along the centre line (0 … length, from its first point)."""
PROGRESS = 3
"""Distance run along the centre line since the car was placed (course unit)."""
NEAR = 4
"""The car's distance from the centre line (course unit)."""
LAP = 5
"""The running lap's number (0: the out lap, before the first start-line crossing)."""
LAP_START = 6
"""s: the time the running lap started (NaN on the out lap)."""
LAP_PROGRESS = 7
"""PROGRESS where the running lap started."""
LAP_DISTANCE = 8
"""Distance along the centre line since the running lap's start (NaN on the out lap)."""
SECTOR = 9
"""The timing line the lap crosses next (0: the start line; 1 …: the sectors)."""
SECTOR_START = 10
"""s: the time the running sector started."""
FLAGS = 11
"""The running lap's marks (the sum of BACKWARDS, CUT, MISSED, CONES)."""
CONES_BEFORE = 12
"""The car's knocked cones when the running lap started."""
LAP_CONES = 13
"""Cones knocked in the running lap."""
FURTHEST = 14
"""The running lap's furthest PROGRESS."""
TIME = 15
"""s: the time at the end of the last tick."""
SEARCHES = 16
"""Searches of the whole centre line since the car was placed (1: the placing; one
more for each tick it ended off the track, see LOST_M)."""
STARTED = 17
"""Laps started since the timer was made (the next lap's number is one more)."""
DONE = 18
"""Laps completed (events written; the ring keeps the last `capacity`)."""
CONE_PENALTY = 19
"""s per cone knocked (a setting)."""
BACKWARDS_LENGTH = 20
"""Course unit: how far the distance may fall behind the lap's furthest (a setting)."""
CAPACITY = 21
"""How many completed laps the ring holds (a setting)."""
SLOTS = 22
"""The running lap's sector times (s, NaN until crossed) follow the slots."""

BACKWARDS, CUT, MISSED, CONES = 1, 2, 4, 8
"""The marks of a lap (bits of FLAGS)."""

# An event: one completed lap, a row of EVENT_SLOTS floats then its sector times (s).
E_LAP, E_START, E_TIME, E_RAW, E_PENALTY, E_CONES, E_FLAGS, E_DISTANCE = range(8)
"""Its number, start time (s), time with the penalty (s), time as driven (s), the
penalty (s), cones knocked, marks, distance along the centre line (course unit)."""
EVENT_SLOTS = 8

CONE_PENALTY_S = 2.0
"""s added to a lap's time for each cone knocked (the default of a setting)."""
CONE_PENALTY_MAX_S = 60.0
"""s: the most the cone penalty may be set to (the window's box, the `lap` command)."""
BACKWARDS_M = 5.0
"""m: distance along the centre line a lap may lose (a spin, a car rolling back)
before it counts as driven backwards: a car length or so."""
LOST_M = 30.0
"""m from the centre line (with no corridor; else beyond the corridor) past which the
car may be nearer another part of the line than the part it was near: the whole
line is searched (a car taken across a hairpin's infield is found on its other leg)."""
EVENTS = 64
"""Completed laps a timer holds until read (the oldest are overwritten after)."""


def new_timer(
    course: Course, cone_penalty: float = CONE_PENALTY_S, backwards: float | None = None, capacity: int = EVENTS
) -> np.ndarray:
    """A fresh timer for `course`: the car not yet placed (the next tick places it),
    on its out lap. `backwards`: course unit (default BACKWARDS_M in the course's
    unit); `capacity`: completed laps held until read."""
    m = len(course.lines)
    timer = np.full(SLOTS + m + capacity * (EVENT_SLOTS + m), math.nan)
    timer[CONE_PENALTY] = cone_penalty
    timer[BACKWARDS_LENGTH] = BACKWARDS_M * course.metre if backwards is None else backwards
    timer[CAPACITY] = capacity
    timer[STARTED] = timer[DONE] = 0.0
    timer_reset(timer)
    return timer


@kernel
def timer_reset(timer):
    """The car placed again (a reset, a new start): its next tick places it on the
    centre line anew and it is on an out lap; the running lap is dropped (its number
    not used again), the completed laps and the settings are kept."""
    timer[:STARTED] = 0.0
    for slot in (LAP_START, LAP_DISTANCE, SECTOR_START, TIME):
        timer[slot] = math.nan


@kernel
def timer_tick(course, timer, x0, y0, x1, y1, t0, dt, cones):
    """Advance `timer` over one tick: the car moved from (x0, y0) to (x1, y1) (course
    unit) from time t0 (s) to t0 + dt, with `cones` knocked so far. See the module's
    docstring for the crossings, laps and marks."""
    if timer[PLACED] == 0.0:
        k, f, near, _ = nearest(course, x0, y0)
        timer[PLACED], timer[SEGMENT], timer[NEAR], timer[SEARCHES] = 1.0, k, near, 1.0
        timer[ALONG] = course.s[k] + f * (course.s[k + 1] - course.s[k])
    move = math.hypot(x1 - x0, y1 - y0)
    k, f, near, off = nearest_near(course, int(timer[SEGMENT]), x1, y1, 2.0 * (move + course.step))
    outside = is_outside(course, k, f, off)
    if outside or near > LOST_M * course.metre:  # off the track: perhaps nearer another part of the line
        k2, f2, near2, off2 = nearest(course, x1, y1)
        timer[SEARCHES] += 1
        if near2 < near:
            k, f, near, off = k2, f2, near2, off2
            outside = is_outside(course, k, f, off)
    along = course.s[k] + f * (course.s[k + 1] - course.s[k])
    ds = (along - timer[ALONG] + course.length / 2) % course.length - course.length / 2
    p0, p1 = timer[PROGRESS], timer[PROGRESS] + ds
    timer[SEGMENT], timer[ALONG], timer[NEAR], timer[PROGRESS] = k, along, near, p1
    if timer[LAP] > 0:
        timer[LAP_CONES] = cones - timer[CONES_BEFORE]
    _cross_lines(course, timer, x0, y0, x1, y1, t0, dt, p0, p1, cones)
    if timer[LAP] > 0:
        if outside:
            _mark(timer, CUT)
        timer[FURTHEST] = max(timer[FURTHEST], p1)
        if timer[FURTHEST] - p1 > timer[BACKWARDS_LENGTH]:
            _mark(timer, BACKWARDS)
        timer[LAP_DISTANCE] = p1 - timer[LAP_PROGRESS]
    timer[TIME] = t0 + dt


@kernel(inline=True)
def _mark(timer, flag):
    if int(timer[FLAGS]) & flag == 0:
        timer[FLAGS] += flag


@kernel(inline=True)
def _line_side(course, j, x, y):
    """g: (x, y)'s signed distance from timing line j along its normal."""
    return (x - course.lines[j, 0]) * course.lines[j, 4] + (y - course.lines[j, 1]) * course.lines[j, 5]


@kernel
def _crossing(course, j, x0, y0, x1, y1):
    """(f, way) of the tick's path over timing line j: f the share of the path before
    it, way 1 crossed forwards, -1 backwards, 0 not crossed (f NaN)."""
    g0, g1 = _line_side(course, j, x0, y0), _line_side(course, j, x1, y1)
    if (g0 < 0) == (g1 < 0):
        return math.nan, 0
    f = g0 / (g0 - g1)
    ax, ay = course.lines[j, 0], course.lines[j, 1]
    bx, by = course.lines[j, 2] - ax, course.lines[j, 3] - ay
    u = ((x0 + f * (x1 - x0) - ax) * bx + (y0 + f * (y1 - y0) - ay) * by) / (bx * bx + by * by)
    if u < 0.0 or u > 1.0:
        return math.nan, 0
    return f, 1 if g0 < 0 else -1


@kernel
def _cross_lines(course, timer, x0, y0, x1, y1, t0, dt, p0, p1, cones):
    """Every timing line the tick's path crosses, in order along it (after the crossing
    at f_before of line j_before, the next is the least f beyond it)."""
    f_before, j_before = -1.0, -1
    for _ in range(len(course.lines)):
        first, first_f, first_way = -1, math.inf, 0
        for j in range(len(course.lines)):
            f, way = _crossing(course, j, x0, y0, x1, y1)
            later = f > f_before or (f == f_before and j > j_before)
            if way != 0 and later and f < first_f:
                first, first_f, first_way = j, f, way
        if first < 0:
            return
        f_before, j_before = first_f, first
        _crossed(timer, len(course.lines), first, first_way, t0 + first_f * dt, p0 + first_f * (p1 - p0), cones)


@kernel
def _crossed(timer, m, j, way, t, p, cones):
    """Line j crossed (way ±1) at time t and progress p: a lap or sector ended, a lap
    started, or a mark."""
    if way < 0:
        if timer[LAP] > 0:
            _mark(timer, BACKWARDS)
        return
    running = timer[LAP] > 0
    in_turn = running and j == int(timer[SECTOR])
    if in_turn:
        timer[SLOTS + (j - 1) % m] = t - timer[SECTOR_START]
        timer[SECTOR_START] = t
        timer[SECTOR] = (j + 1) % m
    if j != 0:
        return  # a sector line out of turn times nothing: the start line sees it missed
    if running:
        if not in_turn:
            _mark(timer, MISSED)
        _write_event(timer, m, t, p)
    timer[STARTED] += 1
    timer[LAP] = timer[STARTED]
    timer[LAP_START] = timer[SECTOR_START] = t
    timer[LAP_PROGRESS] = timer[FURTHEST] = p
    timer[LAP_DISTANCE] = 0.0
    timer[SECTOR] = 1 % m
    timer[FLAGS] = timer[LAP_CONES] = 0.0
    timer[CONES_BEFORE] = cones
    timer[SLOTS : SLOTS + m] = math.nan


@kernel
def _write_event(timer, m, t, p):
    """The running lap, ended at time t and progress p, into the ring of events."""
    width = EVENT_SLOTS + m
    row = SLOTS + m + (int(timer[DONE]) % int(timer[CAPACITY])) * width
    raw = t - timer[LAP_START]
    penalty = timer[LAP_CONES] * timer[CONE_PENALTY]
    if timer[LAP_CONES] > 0:
        _mark(timer, CONES)
    timer[row + E_LAP], timer[row + E_START] = timer[LAP], timer[LAP_START]
    timer[row + E_TIME], timer[row + E_RAW], timer[row + E_PENALTY] = raw + penalty, raw, penalty
    timer[row + E_CONES], timer[row + E_FLAGS] = timer[LAP_CONES], timer[FLAGS]
    timer[row + E_DISTANCE] = p - timer[LAP_PROGRESS]
    timer[row + EVENT_SLOTS : row + width] = timer[SLOTS : SLOTS + m]
    timer[DONE] += 1


@kernel
def timer_ticks(course, timer, xs, ys, t0, dt, cones, lap, distance):
    """`timer_tick` over a batch: the car at (xs[i], ys[i]) at time t0 + i·dt (i = 0 …
    n), so n ticks; cones[i] its knocked cones after tick i (n). Writes lap[i] and
    distance[i]: the running lap's number and LAP_DISTANCE after tick i."""
    for i in range(len(xs) - 1):
        timer_tick(course, timer, xs[i], ys[i], xs[i + 1], ys[i + 1], t0 + i * dt, dt, cones[i])
        lap[i], distance[i] = timer[LAP], timer[LAP_DISTANCE]


def laps_of(course: Course, timer, since: int = 0) -> np.ndarray:
    """The completed laps numbered above `since` still in the timer's ring, oldest
    first: rows of EVENT_SLOTS values (E_*) then the lap's sector times (s). Laps
    overwritten before they were read are not among them (their numbers are missing)."""
    m = len(course.lines)
    capacity, done = int(timer[CAPACITY]), int(timer[DONE])
    first = max(done - capacity, 0)
    rows = [timer[SLOTS + m + (i % capacity) * (EVENT_SLOTS + m) :][: EVENT_SLOTS + m] for i in range(first, done)]
    rows = [row.copy() for row in rows if row[E_LAP] > since]
    return np.array(rows).reshape(-1, EVENT_SLOTS + m)
