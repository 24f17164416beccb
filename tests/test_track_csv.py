"""A real circuit from the racetrack-database CSV: tests/data/racetrack_database_norisring.csv
is tracks/Norisring.csv of github.com/TUMFTM/racetrack-database (LGPL-3.0; centre line
from OpenStreetMap, © OpenStreetMap contributors), unchanged. Its walls lie at the
widths the file gives, its start line across the track at the first point, its sectors
at thirds of the lap; bad files are refused naming the line and the column."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from sandbox.files.track_csv import read_track_csv
from sandbox.files.tracks import TrackError, load_track, save_track, track_to_json
from sandbox.physics.track_geometry import inside_polygon

NORISRING = Path(__file__).parent / "data" / "racetrack_database_norisring.csv"
ROWS = np.loadtxt(NORISRING, delimiter=",", comments="#")
"""x, y (north up), width right, width left; read here with numpy, apart from the importer."""


@pytest.fixture(scope="module")
def norisring():
    return read_track_csv(NORISRING)


def test_the_centre_line_is_the_files_loop_with_y_turned_down(norisring):
    centre = norisring.centre_line
    assert centre.closed and len(centre.points) == len(ROWS) == 460
    assert np.allclose(centre.points, ROWS[:, :2] * [1, -1])
    closing = np.vstack([ROWS[:, :2], ROWS[:1, :2]])
    lap = np.hypot(*np.diff(closing, axis=0).T).sum()
    assert lap == pytest.approx(2300, rel=0.01)  # the Norisring is 2.3 km round


def test_the_walls_lie_at_the_widths_to_each_side(norisring):
    inner, outer = norisring.polylines
    assert inner.closed and not outer.closed and np.all(outer.points[0] == outer.points[-1])
    centre = ROWS[:, :2] * [1, -1]
    to_inner = np.hypot(*(inner.points - centre).T)
    to_outer = np.hypot(*(outer.points[:-1] - centre).T)
    widths = ROWS[:, 2:4]
    # each edge is at one side's width: right for one, left for the other, at every point
    assert np.allclose(np.sort(np.c_[to_inner, to_outer], axis=1), np.sort(widths, axis=1))
    # the car's side: the centre line is outside the solid infield and inside the outer ring
    for x, y in centre[::23]:
        assert not inside_polygon(inner.points, x, y) and inside_polygon(outer.points[:-1], x, y)


def test_the_start_line_crosses_the_track_at_the_first_point_the_way_the_file_runs(norisring):
    start = norisring.start
    a, b = np.array([start.x1, start.y1]), np.array([start.x2, start.y2])
    first = ROWS[0, :2] * [1, -1]
    assert np.hypot(*(b - a)) == pytest.approx(ROWS[0, 2] + ROWS[0, 3])  # kerb to kerb
    assert np.allclose((a + b) / 2 + (ROWS[0, 2] - ROWS[0, 3]) / 2 * (b - a) / np.hypot(*(b - a)), first)
    ahead = (ROWS[1, :2] - ROWS[-1, :2]) * [1, -1]
    assert np.dot(start.direction, ahead / np.hypot(*ahead)) > 0.99
    spawn_to_first = first - [norisring.spawn.x, norisring.spawn.y]
    assert np.hypot(*spawn_to_first) == pytest.approx(10, abs=0.5)  # a car's length or two before the line
    assert abs(math.atan2(ahead[1], ahead[0]) - norisring.spawn.heading) < 0.1


def lap_distance_where_crossed(points, p1, p2) -> float:
    """How far along the closed centre line `points` the segment p1–p2 crosses it (m)."""
    travelled = 0.0
    for a, b in zip(points, np.roll(points, -1, axis=0)):
        r, s = b - a, p2 - p1
        den = r[0] * s[1] - r[1] * s[0]
        t = ((p1[0] - a[0]) * s[1] - (p1[1] - a[1]) * s[0]) / den
        u = ((p1[0] - a[0]) * r[1] - (p1[1] - a[1]) * r[0]) / den
        if 0 <= t <= 1 and 0 <= u <= 1:
            return travelled + t * np.hypot(*r)
        travelled += np.hypot(*r)
    raise AssertionError("the line does not cross the centre line")


def test_three_sectors_of_a_third_of_the_lap_each(norisring):
    centre = ROWS[:, :2] * [1, -1]
    lap = np.hypot(*(np.roll(centre, -1, axis=0) - centre).T).sum()
    first, second = norisring.sectors
    at = [lap_distance_where_crossed(centre, np.array([s.x1, s.y1]), np.array([s.x2, s.y2])) for s in norisring.sectors]
    assert at == pytest.approx([lap / 3, 2 * lap / 3], abs=0.5)
    start = norisring.start
    at_start = lap_distance_where_crossed(centre, np.array([start.x1, start.y1]), np.array([start.x2, start.y2]))
    assert min(at_start, lap - at_start) == pytest.approx(0, abs=1e-6)  # the lap's first point
    assert first.direction != second.direction


def test_the_circuit_written_as_a_track_file_reads_back_the_same(norisring, tmp_path):
    path = save_track(norisring, tmp_path / "norisring.json")
    assert track_to_json(load_track(path)) == track_to_json(norisring)


GOOD_ROW = "1.0,2.0,5.0,5.0"


def circle_rows(n=12, radius=100.0) -> list[str]:
    return [
        f"{radius * math.cos(2 * math.pi * i / n):.6f},{radius * math.sin(2 * math.pi * i / n):.6f},5.000,6.000"
        for i in range(n)
    ]


def figure_of_eight() -> list[str]:
    """A centre line that crosses itself (a circuit with a bridge): its edges cross too."""
    t = np.linspace(0, 2 * math.pi, 40, endpoint=False)
    return [f"{100 * math.sin(a):.6f},{50 * math.sin(2 * a):.6f},5.000,5.000" for a in t]


@pytest.mark.parametrize(
    "lines, message",
    [
        (["x_m,y_m,w_tr_right_m,w_tr_left_m", *circle_rows()], "line 1: expected the header"),
        (["# x,y,right,left", *circle_rows()], "line 1: expected the header"),
        ([], "line 1: expected the header"),
        (["# x_m,y_m,w_tr_right_m,w_tr_left_m", *circle_rows()[:3], "5.0,6.0,,4.0"], "line 5: w_tr_right_m is missing"),
        (["# x_m,y_m,w_tr_right_m,w_tr_left_m", "5.0,6.0,4.0", *circle_rows()], "line 2: 3 values; expected 4"),
        (["# x_m,y_m,w_tr_right_m,w_tr_left_m", *circle_rows()[:6], "5,6,4,-1.5"], "line 8: w_tr_left_m is -1.5"),
        (["# x_m,y_m,w_tr_right_m,w_tr_left_m", *circle_rows()[:2], "5,6,0,1"], "line 4: w_tr_right_m is 0"),
        (["# x_m,y_m,w_tr_right_m,w_tr_left_m", "nan,6,3,1", *circle_rows()], "line 2: x_m is nan, not a finite"),
        (["# x_m,y_m,w_tr_right_m,w_tr_left_m", "5,1e300,3,1", *circle_rows()], "line 2: y_m is 1e300, not a finite"),
        (["# x_m,y_m,w_tr_right_m,w_tr_left_m", "5,north,3,1", *circle_rows()], "line 2: y_m 'north' is not a number"),
        (["# x_m,y_m,w_tr_right_m,w_tr_left_m", *circle_rows(5)], "5 point(s); a circuit needs at least 10"),
        (
            ["# x_m,y_m,w_tr_right_m,w_tr_left_m", *figure_of_eight()],
            "(point n from line n + 2): the wall crosses itself",
        ),
    ],
)
def test_a_bad_circuit_file_is_refused_naming_the_line_and_the_column(tmp_path, lines, message):
    bad = tmp_path / "bad.csv"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(TrackError) as refused:
        read_track_csv(bad)
    assert str(refused.value).startswith(f"{bad}: ") and message in str(refused.value), refused.value
    good = tmp_path / "good.csv"
    good.write_text("\n".join(["# x_m,y_m,w_tr_right_m,w_tr_left_m", *circle_rows()]) + "\n", encoding="utf-8")
    assert len(read_track_csv(good).centre_line.points) == 12
