"""Write the built-in tracks (sandbox/files/builtin_tracks/*.json).

python tools/make_tracks.py

The sizes are set by the largest turning circle of the built-in presets (the heavy
truck's, 66 m kerb to kerb at 25 px/m): tests/test_builtin_tracks.py checks every
preset fits each track.
"""

from __future__ import annotations

import math
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sandbox.files.track_csv import circuit  # noqa: E402
from sandbox.files.tracks import BUILTIN_TRACKS, save_track  # noqa: E402
from sandbox.physics.track import Circle, Line, Polyline, Pose, Track  # noqa: E402

CONE_M = 0.15
"""m: a traffic cone's base radius."""
QUARTER_MILE_M = 402.336


def circle_points(radius: float, n: int, cx: float = 0.0, cy: float = 0.0) -> np.ndarray:
    a = np.linspace(0, 2 * math.pi, n, endpoint=False)
    return np.c_[cx + radius * np.cos(a), cy + radius * np.sin(a)]


def open_field() -> Track:
    return Track(name="Open field", description="Nothing to meet: the car starts at the origin heading right.")


def skid_pad() -> Track:
    """A 40 m circle between cones (lane 35 … 45 m from the centre), driven clockwise
    on screen; the timing gate across the lane at the top."""
    return Track(
        name="Skid pad",
        description="A 40 m circle between two rings of cones, driven clockwise; the timing gate at the top.",
        cones=tuple(Circle(x, y, CONE_M) for x, y in np.vstack([circle_points(35, 16), circle_points(45, 24)])),
        start=Line(0.0, -35.0, 0.0, -45.0, (1.0, 0.0)),
        centre_line=Polyline(circle_points(40, 72), closed=True),
        spawn=Pose(40 * math.cos(-math.radians(105)), 40 * math.sin(-math.radians(105)), -math.radians(15)),
    )  # 15° of the circle before the gate, heading along it


def slalom() -> Track:
    """Eight cones 30 m apart on a straight line, a start gate before them and a finish after."""
    cones = tuple(Circle(50.0 + 30.0 * i, 0.0, CONE_M) for i in range(8))
    return Track(
        name="Slalom",
        description="Eight cones 30 m apart: weave between them from the start gate to the finish.",
        cones=cones,
        start=Line(20.0, -10.0, 20.0, 10.0, (1.0, 0.0)),
        sectors=(Line(290.0, -10.0, 290.0, 10.0, (1.0, 0.0)),),
        centre_line=Polyline([[0.0, 0.0], [320.0, 0.0]]),
        spawn=Pose(0.0, 0.0, 0.0),
    )


def drag_strip() -> Track:
    """A quarter mile between walls 15 m apart, with the timing lines of a drag strip
    (60, 330, 660, 1000 ft and the finish at 1320 ft) and 500 m to stop after it."""
    end = QUARTER_MILE_M + 500.0
    splits_ft = (60, 330, 660, 1000, 1320)
    return Track(
        name="Drag strip",
        description="A quarter mile (402.336 m) between walls, timed at 60, 330, 660, 1000 and 1320 ft; "
        "500 m to stop after the finish.",
        polylines=(Polyline([[-30.0, -7.5], [end, -7.5]]), Polyline([[-30.0, 7.5], [end, 7.5]])),
        start=Line(0.0, -7.5, 0.0, 7.5, (1.0, 0.0)),
        sectors=tuple(Line(ft * 0.3048, -7.5, ft * 0.3048, 7.5, (1.0, 0.0)) for ft in splits_ft),
        centre_line=Polyline([[-30.0, 0.0], [end, 0.0]]),
        spawn=Pose(-3.0, 0.0, 0.0),
    )


TILE = 128
"""px: the recipe demo's tile size."""


def parking_lot() -> Track:
    """The walls of the Godot recipe demo's map (godotrecipes/2d_car_steering, main.tscn,
    MIT): its tile map's collision polygons, tile by tile, in px; the car where the demo
    puts it."""
    walls = []
    for row in range(13):  # the left wall: tile (14, 8), solid on the left of each tile
        walls.append(_tile([(-2.5, -64), (-64, -64), (-64, 64), (-5, 64)], 0, row))
    for col in (*range(1, 8), *range(12, 18)):  # the bottom wall: tile (14, 2), solid below, a gap for the exit
        walls.append(_tile([(64, 2.5), (64, 64), (-64, 64), (-64, 5)], col, 13))
    return Track(
        name="Parking lot",
        description="The Godot recipe demo's map: a wall on the left and one below with a gap, in px; "
        "the car where the demo starts it.",
        unit="px",
        polylines=tuple(walls),
        spawn=Pose(563.0, 512.0, 0.0),
    )


def _tile(polygon, col: int, row: int) -> Polyline:
    centre = np.array([col * TILE + TILE / 2, row * TILE + TILE / 2])
    return Polyline(np.array(polygon, dtype=np.float64) + centre, closed=True)


CLUB_LAYOUT = (
    ("straight", 300.0),
    ("turn", 180.0, 40.0),  # the hairpin
    ("straight", 100.0),
    ("turn", -90.0, 50.0),
    ("straight", 60.0),
    ("turn", 90.0, 50.0),
    ("straight", 100.0),
    ("turn", 90.0, 60.0),
    ("straight", 120.0),
    ("turn", 90.0, 60.0),
)
"""The club circuit as a driver's notes, on a map (y up, left turns positive): metres
and degrees; it closes on itself."""
CLUB_HALF_WIDTH = 6.0
STEP_M = 5.0


def club_circuit() -> Track:
    """A 1.15 km lap of straights and arcs (the tightest a 40 m hairpin), walls 12 m
    apart, made as a racetrack-database circuit is (start at the first point, sectors at thirds)."""
    x, y, heading, points = 0.0, 0.0, 0.0, []
    for part in CLUB_LAYOUT:
        if part[0] == "straight":
            n = round(part[1] / STEP_M)
            for _ in range(n):
                points.append((x, y))
                x, y = x + part[1] / n * math.cos(heading), y + part[1] / n * math.sin(heading)
        else:
            turn, radius = math.radians(part[1]), part[2]
            side = math.copysign(1.0, turn)
            cx, cy = x - side * radius * math.sin(heading), y + side * radius * math.cos(heading)
            n = max(2, round(abs(turn) * radius / STEP_M))
            for _ in range(n):
                points.append((x, y))
                heading += turn / n
                x, y = cx + side * radius * math.sin(heading), cy - side * radius * math.cos(heading)
    assert math.hypot(x, y) < 1e-6, "the layout does not close"
    rows = np.array([(px, py, CLUB_HALF_WIDTH, CLUB_HALF_WIDTH) for px, py in points])
    track = circuit(rows, "Club circuit", "the club circuit")
    return replace(
        track,
        description="A 1.15 km lap: a 300 m straight into a 40 m hairpin, an S of 50 m bends, two 60 m "
        "bends home; walls 12 m apart, three sectors.",
    )


def main() -> None:
    tracks = {
        "open_field": open_field(),
        "skid_pad": skid_pad(),
        "slalom": slalom(),
        "drag_strip": drag_strip(),
        "parking_lot": parking_lot(),
        "club_circuit": club_circuit(),
    }
    for stem, track in tracks.items():
        save_track(track, BUILTIN_TRACKS / f"{stem}.json")
        print(BUILTIN_TRACKS / f"{stem}.json")


if __name__ == "__main__":
    main()
