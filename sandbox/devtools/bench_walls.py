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


def one_car_ns(model, track=None, start: Pose | None = None, steer: float = 0.0) -> float:
    """ns per tick of one car (`kernels.run_one`) for TICKS ticks from `start`."""
    tuning = {p.name: p.default for p in model.PARAMS}
    walls = walls_for(track, model.LENGTH_UNIT)
    if start is None and track is not None:
        start = track.in_unit(model.LENGTH_UNIT).spawn
    rows, _ = sim.tuning_rows(model, tuning, 1)
    controls = Controls(steer=steer, throttle=1.0).rows(1)[0]
    more = () if walls is None else (walls,)
    number = sim.model_number(model)

    def run():
        state = sim.at_rest(model, 1, start)
        kernels.call(kernels.run_one, number, state.data[0], controls, rows[0], 1 / 60, TICKS, *more)

    return _best(run) / TICKS * 1e9


def batch_rate(model, track=None, cars: int = CARS) -> float:
    """car-ticks per second of a batch of `cars` from the track's spawn, steering
    spread from full left to full right, for 60 ticks."""
    import numpy as np

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
        open_ns, club_ns = one_car_ns(model), one_car_ns(model, club)
        pressed_ns = one_car_ns(model, lot, pressed)
        open_rate, club_rate = batch_rate(model), batch_rate(model, club)
        lines += [
            f"{name}: one-car tick {open_ns:.0f} ns on the open field, {club_ns:.0f} ns on the club circuit "
            f"({club_ns / open_ns:.1f}×), {pressed_ns:.0f} ns pressed against a wall",
            f"{name}: batch of {CARS}: {open_rate / 1e6:.1f} M car-ticks/s on the open field, "
            f"{club_rate / 1e6:.1f} M on the club circuit ({open_rate / club_rate:.1f}× the time)",
        ]
    return lines


if __name__ == "__main__":
    for line in figures(tuple(sys.argv[1:]) or ("arcade", "bicycle", "ackermann")):
        print(line)
