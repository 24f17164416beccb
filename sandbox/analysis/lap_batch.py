"""Timed laps of many tunings of one car on one track, in one compiled call spread over
the cores (`lap_rows`): for each tuning, what `driven_laps.drive_timed_laps` does in
Python and compiled steps, done here in compiled code alone, the same steps in the same
order so a tuning's lap is the same lap:
- the acceleration table from a full-throttle run from rest on the open field
  (`lap_plan.acceleration_table`'s steps);
- the speed profile along the racing line (`speed_profile.forward_backward` with the
  friction ellipse, at least walking pace), as `lap_plan.plan_lap` makes it;
- the driver's drive from the track's spawn among its walls (`lap_driver.drive`);
- the lap timer over the drive's ticks (`lap_timer.timer_tick`);
- the practice: a drive whose first lap does not count, or that never completes one,
  is driven again asking for PRACTICE_SHARE of the most lateral acceleration the drive
  before asked for, at most PRACTICE_DRIVES drives (`lap_plan.practised`); the first
  that counts is kept, else the first of all.
Its inputs are packed by `lap_metrics`; see there for what each row holds.
"""

from __future__ import annotations

import math

import numpy as np
from numba import literally, prange

from ..physics.kernel import kernel
from ..physics.lap_course import Course
from ..physics.lap_timer import CAPACITY, DONE, E_FLAGS, E_TIME, EVENT_SLOTS, SLOTS, timer_tick
from ..physics.walls import Walls
from ..physics.world import World
from .lap_driver import (
    COL_X,
    COL_Y,
    COLUMNS,
    CONES,
    DISTANCE,
    SLACK,
    SLACK_S,
    drive,
    setup_row,
)
from .lap_plan import ACCEL_POINTS, PRACTICE_DRIVES, PRACTICE_SHARE, full_throttle_table
from .speed_profile import forward_backward
from .straight_runs import X, Y

# A tuning's row of `cars` (the model's units).
CAR_LATERAL, CAR_BRAKING, CAR_TOP, CAR_FULL_LOCK, CAR_LENGTH, CAR_GOAL = range(6)
"""Lateral grip and braking (length/s²), top speed (length/s), full-lock radius, body
length and the distance the drive goes along the line (length)."""
CAR_SLOTS = 6

# Slots of `settings` (one for the batch).
(SET_HZ, SET_PACE, SET_ACCEL_TICKS, SET_SPAN, SET_CONES, SET_STALL_TICKS, SET_SCALE, SET_RESTITUTION,
 SET_FRICTION, SET_LENGTH, SET_STEP, SET_METRE) = range(12)  # fmt: skip
"""Tick rate (Hz), walking pace (length/s), ticks of the full-throttle run, ticks the
acceleration is smoothed over, the state's slot of knocked cones, ticks of the stall
check, the walls' scale, restitution and friction, and the course's length, longest
step and unit per metre."""
SETTINGS = 12

# A tuning's row of `out`.
OUT_TIME, OUT_ENDED, OUT_FLAGS, OUT_DISTANCE, OUT_DRIVEN = range(5)
"""The best valid lap's time (s, penalty included; NaN: none), how the drive ended
(lap_driver's FINISHED …), the marks of the first timed lap (its flags; -1: no lap
completed), the distance reached along the line (length) and the time driven (s);
then the best lap's sector times (s)."""
OUT_SLOTS = 5


@kernel
def lap_of(model, p, dt, accel_v, accel_a, start, car, settings, line_s, kappa, path, path_s, walls, lateral, out):
    """One tuning (row `p`, its acceleration table `accel_v`, `accel_a`): its plan
    asking for at most `lateral` (length/s²) round the bends and its drive from
    `start`: the rows, how many were driven and the most lateral acceleration the plan
    asked for; writes how the drive ended, how far and how long into `out`."""
    literally(model)
    top = car[CAR_TOP]
    v_top = top if math.isfinite(top) and top > 0 else np.max(accel_v)
    measured = grip_of(car)
    braking = car[CAR_BRAKING] if math.isfinite(car[CAR_BRAKING]) and car[CAR_BRAKING] > 0 else measured
    speeds = forward_backward(line_s, kappa, lateral, braking, accel_v, accel_a, max(v_top, 1e-9), True, True)
    speeds = np.maximum(speeds, settings[SET_PACE])
    hz = settings[SET_HZ]
    goal = car[CAR_GOAL]
    max_ticks = int(math.ceil((SLACK * goal / np.mean(speeds) + SLACK_S) * hz))
    setup = setup_row(
        car[CAR_LENGTH], car[CAR_FULL_LOCK], settings[SET_STALL_TICKS], np.min(speeds), settings[SET_CONES]
    )
    rows = np.empty((max_ticks, len(COLUMNS)))
    s = start.copy()
    ticks, ended = drive(model, s, p, dt, path, path_s, speeds, setup, goal, rows, walls)
    out[OUT_ENDED] = ended
    out[OUT_DISTANCE] = rows[ticks - 1, DISTANCE] if ticks > 0 else 0.0
    out[OUT_DRIVEN] = ticks * dt
    return ticks, rows, np.max(speeds * speeds * np.abs(kappa))


@kernel
def grip_of(car):
    """The car's measured lateral grip (length/s²; inf: none measured)."""
    return car[CAR_LATERAL] if math.isfinite(car[CAR_LATERAL]) and car[CAR_LATERAL] > 0 else math.inf


@kernel
def time_rows(course, timer, x0, y0, rows, ticks, dt, out):
    """The lap timer over the drive's `ticks` rows from (x0, y0) (`driven_laps.time_drive`'s
    steps); writes the best valid lap's time and sectors and the first lap's marks."""
    for i in range(ticks):
        x1, y1 = rows[i, COL_X], rows[i, COL_Y]
        timer_tick(course, timer, x0, y0, x1, y1, 0.0 + i * dt, dt, rows[i, CONES])
        x0, y0 = x1, y1
    m = course.lines.shape[0]
    width = EVENT_SLOTS + m
    capacity, done = int(timer[CAPACITY]), int(timer[DONE])
    out[OUT_TIME] = math.nan
    out[OUT_FLAGS] = -1.0
    out[OUT_SLOTS : OUT_SLOTS + m] = math.nan
    for e in range(max(done - capacity, 0), done):
        row = SLOTS + m + (e % capacity) * width
        if e == 0:
            out[OUT_FLAGS] = timer[row + E_FLAGS]
        if timer[row + E_FLAGS] == 0.0 and not timer[row + E_TIME] >= out[OUT_TIME]:
            out[OUT_TIME] = timer[row + E_TIME]
            out[OUT_SLOTS : OUT_SLOTS + m] = timer[row + EVENT_SLOTS : row + width]


@kernel(parallel=True)
def lap_rows(
    model, rows, dt, rest, start, cars, settings, line_s, kappa, path, path_s,
    c_points, c_s, c_left, c_right, c_lines, c_line_s, timer0, floats, ints, out,
):  # fmt: skip
    """Every tuning row of `rows` ((k, P)) timed on one track, spread over the cores:
    out[i] the row of tuning i (OUT_*, then its sector times). `rest`, `start`: a car's
    state at rest at the origin and at the track's spawn; `cars` (k, CAR_SLOTS);
    `settings` (SETTINGS); the racing line (`line_s`, `kappa`) and the path the driver
    follows (`path`, `path_s`); the course as its parts (c_*; numba's parallel loop
    takes no tuple of arrays); a fresh timer `timer0`; the walls' world as its two
    arrays (`floats`, `ints`)."""
    literally(model)
    for i in prange(rows.shape[0]):
        course = Course(
            c_points, c_s, c_left, c_right, c_lines, c_line_s,
            settings[SET_LENGTH], settings[SET_STEP], settings[SET_METRE],
        )  # fmt: skip
        walls = Walls(World(floats, ints), settings[SET_SCALE], settings[SET_RESTITUTION], settings[SET_FRICTION])
        accel_v, accel_a = full_throttle_table(
            model, rows[i], rest, settings[SET_HZ], int(settings[SET_ACCEL_TICKS]), int(settings[SET_SPAN]),
            cars[i, CAR_TOP], ACCEL_POINTS,
        )  # fmt: skip
        lateral = grip_of(cars[i])
        first = out[i].copy()
        for drives in range(PRACTICE_DRIVES):
            ticks, driven, asked = lap_of(
                model, rows[i], dt, accel_v, accel_a, start, cars[i], settings, line_s, kappa, path, path_s, walls,
                lateral, out[i],
            )  # fmt: skip
            time_rows(course, timer0.copy(), start[X], start[Y], driven, ticks, dt, out[i])
            if out[i, OUT_FLAGS] == 0.0:  # its first lap counts
                break
            if drives == 0:
                first[:] = out[i]
            elif drives == PRACTICE_DRIVES - 1:  # none counted
                out[i] = first
            lateral = PRACTICE_SHARE * min(lateral, asked)  # as lap_plan.practised
