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
from .straight_runs import (
    HEADING,
    SETTLE_LIMIT_S,
    STOP_LIMIT_S,
    UNLIMITED_RUN_S,
    braking_from_ref,
    controls_row,
    distance_run,
    rest_state,
    reverse_run,
    speed_of,
    standing_start,
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
    standing start (length)."""
    literally(model)
    if display < 0:
        display = HEADING
    # the straight run: top speed, times to 100 and to 90 % of top
    cruising = rest_state(defaults)
    ticks = int((SETTLE_LIMIT_S if has_top else UNLIMITED_RUN_S) / dt)
    history = np.empty(ticks)
    top, t_ref, ran, _ = straight_run(model, cruising, p, dt, ticks, ref, False, history)
    t90 = math.nan
    for k in range(ran):
        if history[k] >= 0.9 * top:
            t90 = (k + 1) * dt
            break
    settled = math.isfinite(top)
    out[TOP], out[TIME_REF], out[TIME_90] = top, t_ref, t90
    # braking: from the top speed, and from 100
    out[BRAKE_TOP] = math.nan
    if settled:
        distance, going = distance_run(
            model, cruising.copy(), controls_row(0.0, 0.0, 1.0), p, dt, int(STOP_LIMIT_S / dt), True
        )
        out[BRAKE_TOP] = math.nan if going else distance
    out[BRAKE_REF] = math.nan if top < ref else braking_from_ref(model, rest_state(defaults), p, dt, ref)
    # reverse: none when the model has no top speed and nothing settled
    out[REVERSE] = math.inf if (math.isinf(top) and not has_top) else reverse_run(model, rest_state(defaults), p, dt)
    # the circles: from 25 % of top speed (straight up to it), speed held there; from top speed
    low = 0.25 * (top if settled else speed_of(cruising))
    slow = rest_state(defaults)
    up_to(model, slow, p, dt, low)
    peaks = np.zeros(3)
    out[RADIUS_LOW] = circle_run(model, slow, p, dt, low, display, peaks)
    radius_top = circle_run(model, cruising, p, dt, math.inf, display, peaks)
    out[RADIUS_TOP] = radius_top if settled else math.nan
    out[KERB] = kerb_circle(model, rest_state(defaults), p, dt, pace, display, body[0] / 2, body[1] / 2)
    out[SLIP], out[LATERAL], out[STEADY_LATERAL] = peaks[0], peaks[1], peaks[2]
    out[STANDING] = standing_start(model, rest_state(defaults), p, dt, standing, int(SETTLE_LIMIT_S / dt))


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
