"""The bench's lapping drive: its controls keep every model's car off the club
circuit's walls (so the figure compares a car among walls with the same drive on the
open field, tick for tick the same moves), and the drive goes round the circuit's
corners, not along one straight. Nothing here is timed."""

from __future__ import annotations

import numpy as np
import pytest

from sandbox.devtools import bench_walls
from sandbox.files.tracks import find_builtin_track, load_track
from sandbox.physics import sim
from sandbox.physics.models import get_model
from sandbox.physics.walls import walls_for


@pytest.mark.parametrize("name", bench_walls.MODELS)
def test_the_lapping_drive_meets_no_wall_and_turns_every_way(name):
    model = get_model(name)
    club = load_track(find_builtin_track("club_circuit"))
    controls = bench_walls.lap_controls(model, club, 1800)
    trace = np.zeros((len(controls), 5))
    trace[:, :3] = controls
    here = club.in_unit(model.LENGTH_UNIT)
    rows = sim.record(
        model,
        {p.name: p.default for p in model.PARAMS},
        trace,
        bench_walls.HZ,
        ("wall_contacts", "x", "y", "heading"),
        sim.at_rest(model, 1, here.spawn),
        walls=walls_for(club, model.LENGTH_UNIT),
    )
    assert not rows[:, 0].any()
    # round the circuit's corners: the heading swept more than a quarter turn
    assert np.ptp(np.unwrap(rows[:, 3])) > np.pi / 2
    # and it stayed on the track: within its bounds
    left, top, right, bottom = here.bounds()
    assert (rows[:, 1] >= left).all() and (rows[:, 1] <= right).all()
    assert (rows[:, 2] >= top).all() and (rows[:, 2] <= bottom).all()
