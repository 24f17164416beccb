"""What a track's walls cost a car: a car lapping the built-in club circuit
(a lap's controls made once by a simple pure-pursuit driver along the track's centre
line, then replayed in one compiled call) against the same controls on the open field
(the same moves, tick for tick, as long as the car meets no wall), for one car (ns per
tick) and a batch (car-ticks per second); and, for the record, a car pressed against
the parking lot's wall (every tick a contact). Printed by `python -m
sandbox.devtools.bench_walls [MODEL …]` and by `car-sandbox bench`; no assertions.
The aim: a car on the circuit costs at most twice a car on the open field.
"""

from __future__ import annotations

import math
import sys
import time

import numpy as np

from ..files.tracks import find_builtin_track, load_track
from ..physics import sim
from ..physics.models import get_model
from ..physics.state import Controls
from ..physics.track import Pose
from ..physics.walls import walls_for
from .bench_lines import verdict

MODELS = ("arcade", "bicycle", "ackermann", "rigid_body", "monster")
"""The models that meet walls: every one (the kinematic ones slide, the rigid ones bounce)."""
TARGET_RATIO = 2.0
"""A car on the circuit costs at most this many times a car on the open field."""
CARS = 2048
"""cars of a batch."""
HZ = 60
LAP = {"px": (350.0, 150.0), "m": (14.0, 8.0)}
"""The lapping driver's speed (unit/s) and look-ahead (unit), by the model's unit."""


def _best_pair(first, second, repeats: int = 5) -> tuple[float, float]:
    """Seconds of the quickest of `repeats` runs of each of two runs (after one each to
    compile or load), taken in turn so that both meet the same moments of a shared
    machine: their ratio is what is compared."""
    first(), second()
    best = [math.inf, math.inf]
    for _ in range(repeats):
        for k, run in enumerate((first, second)):
            start = time.perf_counter()
            run()
            best[k] = min(best[k], time.perf_counter() - start)
    return best[0], best[1]


def lap_controls(model, track, ticks: int) -> np.ndarray:
    """Control rows (steer, throttle, brake) of `ticks` ticks that keep the car on
    `track` (its default tuning, from the spawn): steer toward the centre line's point a
    look-ahead ahead of the nearest one, throttle below the driver's speed, brake well
    above it. A plain driver, only good enough to lap without touching a wall."""
    speed, look = LAP[model.LENGTH_UNIT]
    car = sim.Simulation(model, {p.name: p.default for p in model.PARAMS}, 1, HZ, track)
    line = np.asarray(car.track.centre_line.points, dtype=np.float64)
    pieces = np.hypot(*(np.roll(line, -1, axis=0) - line).T)
    at = model.STATE.offset
    rows = np.zeros((ticks, 3))
    for t in range(ticks):
        s = car.state.data[0]
        x, y, heading = s[at["x"]], s[at["y"]], s[at["heading"]]
        i = int(np.argmin(np.hypot(line[:, 0] - x, line[:, 1] - y)))
        ahead = 0.0
        while ahead < look:
            ahead += pieces[i]
            i = (i + 1) % len(line)
        error = math.remainder(math.atan2(line[i, 1] - y, line[i, 0] - x) - heading, math.tau)
        v = math.hypot(s[at["vx"]], s[at["vy"]])
        rows[t] = (min(max(2.0 * error, -1.0), 1.0), float(v < speed), float(v > 1.3 * speed))
        car.tick(Controls(*rows[t]))
    return rows


def _one_car_run(model, controls, track=None, start=None):
    """A run of one car replaying `controls` from `start` (else the track's spawn) in
    one compiled call, returning its wall contacts a tick."""
    tuning = {p.name: p.default for p in model.PARAMS}
    walls = walls_for(track, model.LENGTH_UNIT)
    if start is None and track is not None:
        start = track.in_unit(model.LENGTH_UNIT).spawn
    trace = np.zeros((len(controls), 5))
    trace[:, :3] = controls
    return lambda: sim.record(model, tuning, trace, HZ, ("wall_contacts",), sim.at_rest(model, 1, start), walls=walls)


def one_car(model, controls, track) -> tuple[float, float, float]:
    """(ns per tick on the open field, ns per tick on `track`, share of the track's
    ticks at a wall) of one car replaying `controls`."""
    on_open, on_track = _one_car_run(model, controls), _one_car_run(model, controls, track)
    seconds = _best_pair(on_open, on_track)
    ticks = len(controls)
    return seconds[0] / ticks * 1e9, seconds[1] / ticks * 1e9, float(np.mean(on_track()[:, 0] > 0))


def pressed(model, controls, track, start) -> tuple[float, float]:
    """(ns per tick, share of ticks at a wall) of one car replaying `controls` on
    `track` from `start`."""
    run = _one_car_run(model, controls, track, start)
    seconds = _best_pair(run, run, repeats=2)
    return min(seconds) / len(controls) * 1e9, float(np.mean(run()[:, 0] > 0))


def batch_rates(model, controls, track, cars: int = CARS) -> tuple[float, float]:
    """car-ticks per second of `cars` cars all replaying `controls`, on the open field
    and from `track`'s spawn."""
    tuning = {p.name: p.default for p in model.PARAMS}
    walls = walls_for(track, model.LENGTH_UNIT)
    start = track.in_unit(model.LENGTH_UNIT).spawn
    seconds = _best_pair(
        lambda: sim.run_batch(model, tuning, cars, controls, len(controls), HZ),
        lambda: sim.run_batch(model, tuning, cars, controls, len(controls), HZ, walls=walls, start=start),
    )
    return cars * len(controls) / seconds[0], cars * len(controls) / seconds[1]


def run(quick: bool = False, names=MODELS) -> dict:
    """The figures, per model."""
    club = load_track(find_builtin_track("club_circuit"))
    lot = load_track(find_builtin_track("parking_lot"))
    ticks = 1200 if quick else 3600
    figures = {}
    for name in names:
        model = get_model(name)
        controls = lap_controls(model, club, ticks)
        k = 1.0 if model.LENGTH_UNIT == "px" else 1.0 / lot.pixels_per_metre
        wall = Pose(100.0 * k, 300.0 * k, math.pi)  # heading left into the lot's left wall
        open_ns, club_ns, club_met = one_car(model, controls, club)
        pressed_ns, pressed_met = pressed(model, np.tile([0.0, 1.0, 0.0], (ticks // 4, 1)), lot, wall)
        batch_open, batch_club = batch_rates(model, controls, club)
        figures[name] = {
            "seconds": ticks / HZ,
            "tick_ns_open": open_ns,
            "tick_ns_circuit": club_ns,
            "circuit_at_wall": club_met,
            "tick_ns_pressed": pressed_ns,
            "pressed_at_wall": pressed_met,
            "batch_open": batch_open,
            "batch_circuit": batch_club,
        }
    return figures


def report(figures: dict) -> list[str]:
    """The lines `car-sandbox bench` prints."""
    lines = [f"a car lapping the club circuit against the same drive on the open field (target ≤ {TARGET_RATIO:g}×):"]
    for name, f in figures.items():
        tick = f["tick_ns_circuit"] / f["tick_ns_open"]
        batch = f["batch_open"] / f["batch_circuit"]
        lines += [
            f"  {name:10s} one car {f['tick_ns_open']:.0f} → {f['tick_ns_circuit']:.0f} ns a tick ({tick:.2f}×: "
            f"{verdict(tick <= TARGET_RATIO)}; {f['seconds']:.0f} s, {f['circuit_at_wall']:.0%} of ticks at a wall); "
            f"batch of {CARS} {f['batch_open'] / 1e6:.1f} → {f['batch_circuit'] / 1e6:.1f} M car-ticks/s "
            f"({batch:.2f}× the time: {verdict(batch <= TARGET_RATIO)})",
            f"  {'':10s} pressed against the parking lot's wall: {f['tick_ns_pressed']:.0f} ns a tick "
            f"({f['pressed_at_wall']:.0%} of ticks at it; reported)",
        ]
    return lines


if __name__ == "__main__":
    print("\n".join(report(run(names=tuple(sys.argv[1:]) or MODELS))))
