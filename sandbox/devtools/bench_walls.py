"""What a track's walls cost a kinematic car's whole tick: the one-car tick (ns) and a
batch's car-ticks per second, on the open field and on the built-in club circuit
(from its spawn, full throttle, straight on: the cars meet the walls after a while and
drive pressed against them), and the one-car tick pressed against the parking lot's
wall. Printed by `python -m sandbox.devtools.bench_walls [MODEL …]`; no assertions.
The aim: a car on the circuit costs at most twice a car on the open field.
"""

from __future__ import annotations

import math
import sys
import time

import numpy as np

from ..files.tracks import find_builtin_track, load_track
from ..physics import kernels, sim
from ..physics.models import get_model
from ..physics.state import Controls
from ..physics.track import Pose
from ..physics.walls import walls_for

TICKS = 600
"""ticks a one-car run (10 s at 60 Hz)."""
CARS = 2048
"""cars of a batch."""


def _best(run, repeats: int = 3) -> float:
    """Seconds of the quickest of `repeats` runs (after one to compile or load)."""
    run()
    best = math.inf
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def one_car_ns(model, track=None, start: Pose | None = None, ticks: int = TICKS) -> tuple[float, float]:
    """(ns per tick, share of the ticks that met a wall) of one car (`kernels.run_one`)
    at full throttle, straight on, for `ticks` ticks from `start` (else the spawn)."""
    tuning = {p.name: p.default for p in model.PARAMS}
    walls = walls_for(track, model.LENGTH_UNIT)
    if start is None and track is not None:
        start = track.in_unit(model.LENGTH_UNIT).spawn
    rows, _ = sim.tuning_rows(model, tuning, 1)
    controls = Controls(throttle=1.0).rows(1)[0]
    more = () if walls is None else (walls,)
    number = sim.model_number(model)

    def run():
        state = sim.at_rest(model, 1, start)
        kernels.call(kernels.run_one, number, state.data[0], controls, rows[0], 1 / 60, ticks, *more)

    ns = _best(run) / ticks * 1e9
    if walls is None:
        return ns, 0.0
    trace = np.tile([0.0, 1.0, 0.0, 0.0, 0.0], (ticks, 1))
    met = sim.record(model, tuning, trace, 60, ("wall_contacts",), sim.at_rest(model, 1, start), walls=walls)
    return ns, float(np.mean(met[:, 0] > 0))


def batch_rate(model, track=None, cars: int = CARS) -> float:
    """car-ticks per second of a batch of `cars` from the track's spawn, steering
    spread from full left to full right, for 60 ticks."""
    tuning = {p.name: p.default for p in model.PARAMS}
    walls = walls_for(track, model.LENGTH_UNIT)
    start = None if track is None else track.in_unit(model.LENGTH_UNIT).spawn
    held = Controls(steer=np.linspace(-1.0, 1.0, cars), throttle=np.ones(cars))
    seconds = _best(lambda: sim.run_batch(model, tuning, cars, held, 60, walls=walls, start=start))
    return cars * 60 / seconds


def figures(names=("arcade", "bicycle", "ackermann")) -> list[str]:
    """The lines printed: per model, the open field, the club circuit and a car pressed
    against the parking lot's wall."""
    club = load_track(find_builtin_track("club_circuit"))
    lot = load_track(find_builtin_track("parking_lot"))
    lines = []
    for name in names:
        model = get_model(name)
        k = 1.0 if model.LENGTH_UNIT == "px" else 1.0 / lot.pixels_per_metre
        pressed = Pose(100.0 * k, 300.0 * k, math.pi)  # heading left into the lot's left wall
        (open_ns, _), (club_ns, club_met) = one_car_ns(model), one_car_ns(model, club)
        first_ns, first_met = one_car_ns(model, club, ticks=60)
        pressed_ns, pressed_met = one_car_ns(model, lot, pressed)
        open_rate, club_rate = batch_rate(model), batch_rate(model, club)
        lines += [
            f"{name}: one-car tick {open_ns:.0f} ns on the open field; on the club circuit "
            f"{first_ns:.0f} ns its first second from the spawn ({first_ns / open_ns:.1f}×, "
            f"{first_met:.0%} of ticks at a wall), {club_ns:.0f} ns over 10 s ({club_ns / open_ns:.1f}×, "
            f"{club_met:.0%} at a wall); {pressed_ns:.0f} ns into the parking lot's wall ({pressed_met:.0%} at it)",
            f"{name}: batch of {CARS}: {open_rate / 1e6:.1f} M car-ticks/s on the open field, "
            f"{club_rate / 1e6:.1f} M on the club circuit ({open_rate / club_rate:.1f}× the time)",
        ]
    return lines


if __name__ == "__main__":
    for line in figures(tuple(sys.argv[1:]) or ("arcade", "bicycle", "ackermann")):
        print(line)
