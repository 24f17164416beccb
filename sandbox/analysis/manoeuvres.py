"""The standard manoeuvres as compiled code for one car (metrics.py's figures, the
`rates` command's drives).

A car is a state row of its model's layout (from `defaults`, at rest at the origin),
its tuning row `p` and the tick `dt` (s); `model` is its number in `kernels.ORDER`,
a compile-time constant (`numba.literally`): everything here is compiled once per
model. Every run starts from rest or from the state another one ended in; nothing
here enters Python. Speeds and distances are in the model's units.

`car_metrics` fills one car's thirteen figures in metrics.METRICS order (slots below);
`metrics_rows` / `metrics_rows_parallel` do it for each row of a (k, P) tuning
array. `car_drive` / `drive_rows` give the `rates` drives (top speed, coast-down,
braking) with the same straight run. The runs they are made of are in
straight_runs.py and circle_runs.py.
"""

from __future__ import annotations

import math

import numpy as np
from numba import literally, prange

from ..physics.kernel import kernel
from .circle_runs import circle_run, kerb_circle
from .run_walls import MET_AT, begin, either, world_of
from .straight_runs import (
    HEADING,
    SETTLE_LIMIT_S,
    STOP_LIMIT_S,
    UNLIMITED_RUN_S,
    brake_ref_ticks,
    brake_to_stop,
    braking_from_ref,
    controls_row,
    distance_run,
    rest_state,
    reverse_run,
    speed_of,
    standing_start,
    start_state,
    straight_run,
    up_to,
)

(
    TOP,
    TIME_REF,
    TIME_90,
    BRAKE_TOP,
    BRAKE_REF,
    REVERSE,
    RADIUS_LOW,
    RADIUS_TOP,
    KERB,
    SLIP,
    LATERAL,
    STANDING,
    STEADY_LATERAL,
) = range(13)
"""Slots of `car_metrics`' out (metrics.METRICS order)."""
DRIVE_TOP, DRIVE_COAST, DRIVE_BRAKE = range(3)
"""Slots of `car_drive`'s out: top speed, coast-down and braking distance."""


@kernel
def car_metrics(model, p, dt, has_top, ref, pace, body, defaults, display, standing, out):
    """One car's thirteen figures into out (slots TOP … STEADY_LATERAL): tuning row `p`, tick
    `dt` (s), `has_top` whether the model declares a finite top speed for it (else the
    straight run lasts UNLIMITED_RUN_S and reverse is inf when nothing settles),
    `ref` the speed "100" and `pace` walking pace (length/s), `body` the drawn body's
    (length, width), `defaults` the state row at rest, `display` the state column
    slip angles are measured from (-1: the heading), `standing` the distance of the
    standing start (length). On the open field, from rest at the origin."""
    literally(model)
    track_metrics(
        model, p, dt, has_top, ref, pace, body, defaults, display, standing, out,
        None, np.empty(0), math.nan, np.empty(13),
    )  # fmt: skip


@kernel
def track_metrics(model, p, dt, has_top, ref, pace, body, defaults, display, standing, out, walls, start, aim, met_at):
    """`car_metrics` among `walls` (None: the open field) from pose `start` (x, y,
    heading; empty: the origin). `aim` (length/s; NaN: this run's own top speed) is the
    top speed the circles aim at 25 % of (a track too short for the top speed run
    still drives them). met_at[slot] (s; NaN: none) is when, into its run, the first
    wall was met in a run the figure stands on (on the open field it is not written)."""
    literally(model)
    if display < 0:
        display = HEADING
    met = np.empty(2)
    world = world_of(walls, met)
    # the straight run: top speed, times to 100 and to 90 % of top
    cruising = start_state(defaults, start)
    ticks = int((SETTLE_LIMIT_S if has_top else UNLIMITED_RUN_S) / dt)
    history = np.empty(ticks)
    begin(met)
    quarter = np.array([standing, math.nan])  # the standing start, timed on the way
    at_ref = np.empty(cruising.shape[0])  # and the state at 100, which braking from 100 brakes from
    top, t_ref, ran, _ = straight_run(model, cruising, p, dt, ticks, ref, False, history, world, quarter, at_ref)
    straight = met[MET_AT]
    t90 = math.nan
    for k in range(ran):
        if history[k] >= 0.9 * top:
            t90 = (k + 1) * dt
            break
    settled = math.isfinite(top)
    out[TOP], out[TIME_REF], out[TIME_90] = top, t_ref, t90
    met_at[TOP], met_at[TIME_90] = straight, straight
    met_at[TIME_REF] = straight if not t_ref < straight else math.nan  # 100 reached before the wall counts
    # braking: from the top speed, and from 100
    out[BRAKE_TOP] = math.nan
    begin(met)
    if settled:
        distance, going = distance_run(
            model, cruising.copy(), controls_row(0.0, 0.0, 1.0), p, dt, int(STOP_LIMIT_S / dt), True, world
        )
        out[BRAKE_TOP] = math.nan if going else distance
    met_at[BRAKE_TOP] = either(straight, met[MET_AT])
    begin(met)
    if top < ref:
        out[BRAKE_REF] = math.nan
    elif walls is None and t_ref == t_ref:  # on the open field the straight run went the same way to 100
        out[BRAKE_REF] = brake_to_stop(model, at_ref, p, dt, brake_ref_ticks(dt) - int(np.rint(t_ref / dt)), world)
    else:
        out[BRAKE_REF] = braking_from_ref(model, start_state(defaults, start), p, dt, ref, world)
    met_at[BRAKE_REF] = met[MET_AT]
    # reverse: none when the model has no top speed and nothing settled
    begin(met)
    out[REVERSE] = (
        math.inf
        if (math.isinf(top) and not has_top)
        else reverse_run(model, start_state(defaults, start), p, dt, world)
    )
    met_at[REVERSE] = met[MET_AT]
    # the circles: from 25 % of top speed (straight up to it), speed held there; from top speed
    low = 0.25 * ((top if settled else speed_of(cruising)) if aim != aim else aim)
    slow = start_state(defaults, start)
    peaks = np.zeros(3)
    begin(met)
    up_to(model, slow, p, dt, low, world)
    out[RADIUS_LOW] = circle_run(model, slow, p, dt, low, display, peaks, world)
    circle_low = either(straight if aim != aim else math.nan, met[MET_AT])
    begin(met)
    radius_top = circle_run(model, cruising, p, dt, math.inf, display, peaks, world)
    circle_top = either(straight, met[MET_AT])
    out[RADIUS_TOP] = radius_top if settled else math.nan
    met_at[RADIUS_LOW], met_at[RADIUS_TOP] = circle_low, circle_top
    begin(met)
    out[KERB] = kerb_circle(model, start_state(defaults, start), p, dt, pace, display, body[0] / 2, body[1] / 2, world)
    met_at[KERB] = met[MET_AT]
    out[SLIP], out[LATERAL], out[STEADY_LATERAL] = peaks[0], peaks[1], peaks[2]
    met_at[SLIP] = met_at[LATERAL] = met_at[STEADY_LATERAL] = either(circle_low, circle_top)
    begin(met)
    if walls is None and quarter[1] == quarter[1]:
        out[STANDING] = quarter[1]  # on the open field the straight run covered it (among walls: when met)
    else:
        ticks = int(SETTLE_LIMIT_S / dt)
        out[STANDING] = standing_start(model, start_state(defaults, start), p, dt, standing, ticks, world)
    met_at[STANDING] = met[MET_AT]


@kernel
def metrics_rows(model, rows, dt, has_top, ref, pace, bodies, defaults, display, standing, out):
    """`car_metrics` of each tuning row of `rows` (k, P) into out (k, 13), one after
    another (one tuning: no threads to start); bodies (k, 2) each row's drawn body."""
    literally(model)
    for i in range(rows.shape[0]):
        car_metrics(model, rows[i], dt, has_top[i], ref, pace, bodies[i], defaults, display, standing, out[i])


@kernel(parallel=True)
def metrics_rows_parallel(model, rows, dt, has_top, ref, pace, bodies, defaults, display, standing, out):
    """`metrics_rows` spread over the cores (each car runs alone: the same bits)."""
    literally(model)
    for i in prange(rows.shape[0]):
        car_metrics(model, rows[i], dt, has_top[i], ref, pace, bodies[i], defaults, display, standing, out[i])


@kernel
def metrics_rows_on(model, rows, dt, has_top, ref, pace, bodies, defaults, display, standing, out, track):
    """`metrics_rows` on a track: `track` is (walls, start pose, aims (k,), met_at (k, 13)),
    `track_metrics`' arguments for each row."""
    literally(model)
    walls, start, aims, met_at = track
    for i in range(rows.shape[0]):
        track_metrics(
            model, rows[i], dt, has_top[i], ref, pace, bodies[i], defaults, display, standing, out[i],
            walls, start, aims[i], met_at[i],
        )  # fmt: skip


@kernel
def car_drive(model, p, dt, ticks, defaults, out):
    """The `rates` drives of one car, each at most `ticks`: full throttle from rest
    until the speed settles (`straight_run` with `exact`: the fixed point where the run
    reaches one; inf if it never settles) → out[DRIVE_TOP] (length/s); then from there
    no pedals until it stops → out[DRIVE_COAST], and full brake until it no longer
    moves forward → out[DRIVE_BRAKE] (length; inf when the car still moves when the
    time is up: a car that nothing slows never stops, however long the run)."""
    literally(model)
    s = rest_state(defaults)
    out[DRIVE_TOP] = straight_run(model, s, p, dt, ticks, math.inf, True, np.empty(0))[0]
    coast, moving = distance_run(model, s.copy(), controls_row(0.0, 0.0, 0.0), p, dt, ticks, False)
    out[DRIVE_COAST] = math.inf if moving else coast
    braking, moving = distance_run(model, s, controls_row(0.0, 0.0, 1.0), p, dt, ticks, True)
    out[DRIVE_BRAKE] = math.inf if moving else braking


@kernel
def drive_rows(model, rows, dt, ticks, defaults, out):
    """`car_drive` of each tuning row of `rows` (k, P) into out (k, 3)."""
    literally(model)
    for i in range(rows.shape[0]):
        car_drive(model, rows[i], dt, ticks, defaults, out[i])
