"""The exported Godot 3 scripts of the kinematic models (arcade, bicycle, Ackermann),
unmodified, driven in the real engine on the parking lot's walls (static bodies, the
recipe demo's capsule as the car's shape) beside the sandbox's own drive of the same
tuning with Engine: Godot 3 (tests/wall_drives.py): the same contact decision every
tick, and within 1 px every tick.

The lot's walls are tiles, each a closed polyline of segment shapes whose top is
slanted 2.5 px over 128 px; a car meeting a tile's corner is pushed along the side's
normal, as a segment shape's end pushes (docs/tracks.md, "A wall's end"). A drive not
met would be marked as an expected failure (strict: it fails the suite once it holds)
with the figure measured; none is: the Ackermann car braked to rest against the left
wall reverses on the engine's tick too, since its script asks move_and_slide for the
model's own move (zero at rest), not for the way from the node's 32-bit position."""

from __future__ import annotations

import math

import pytest

from sandbox.devtools.contact_oracle import run_engine, run_sandbox
from sandbox.devtools.oracle import godot_binary
from sandbox.physics.body_shape import RECIPE_CAPSULE_GODOT3
from wall_drives import DRIVES, both, gaps, parking_lot

POSITION_PX = 1.0
needs_godot = pytest.mark.skipif(godot_binary() is None, reason="godot3-server is not installed")

CASES = [("arcade", name) for name in DRIVES] + [
    (model, name) for model in ("bicycle", "ackermann") for name in DRIVES if name != "glancing_from_afar"
]
APART: dict = {}
"""Drives that part by more than 1 px, with the figure measured."""
DECIDED_OTHERWISE: dict = {}
"""Drives whose contact decisions differ on some tick, with what was measured."""


def _cases(expected_failures: dict) -> list:
    return [
        pytest.param(*case, marks=pytest.mark.xfail(strict=True, raises=AssertionError, reason=expected_failures[case]))
        if case in expected_failures
        else case
        for case in CASES
    ]


@needs_godot
@pytest.mark.parametrize("model, name", _cases(DECIDED_OTHERWISE))
def test_the_exported_script_meets_the_parking_lots_walls_on_the_engines_ticks(model, name):
    ours, _ = both(model, name)
    met = ours[:, 8] > 0
    assert met.any() and not met.all()  # the drive meets the walls, and not from the start
    _, differ = gaps(model, name)
    assert differ.size == 0, {"ticks": differ[:10].tolist()}


@needs_godot
@pytest.mark.parametrize("model, name", _cases(APART))
def test_the_exported_script_on_the_parking_lot_stays_within_1_px_of_the_engine(model, name):
    gap, _ = gaps(model, name)
    assert gap.max() < POSITION_PX, {"worst tick": int(gap.argmax()), "gap": float(gap.max())}


@needs_godot
def test_one_move_and_slide_at_the_corner_of_the_gap_is_the_engines():
    """Where the arcade's drive into the gap met the corner, one call of move_and_slide
    alone (tools/godot_contact, no car script): the recipe's capsule at (1057.2557,
    1675.9594) px turned 97°, velocity (−56.54, 460.49) px/s, its front cap reaching
    the corner (1024, 1730.5) where the top and the side of the tile left of the gap
    meet (two segment shapes sharing that point). The side's two ends support, so the
    engine pushes the car along the side's normal (1, 0), 4 slides, and it all but
    stops; slid off the corner instead (normal (0.85, −0.53)) it would drive on, 4.4 px
    away after this one call."""
    pose, velocities = (1057.2557, 1675.9594, 1.693), [(-56.54, 460.49)]
    godot = run_engine(parking_lot(), RECIPE_CAPSULE_GODOT3, pose, velocities)
    ours = run_sandbox(parking_lot(), RECIPE_CAPSULE_GODOT3, pose, velocities)
    assert ours[0, 5] == godot[0, 5]  # slides
    assert math.hypot(ours[0, 1] - godot[0, 1], ours[0, 2] - godot[0, 2]) < POSITION_PX
