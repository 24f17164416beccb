"""The lap timer: crossings timed within the tick (worked by hand), lap times against
the tick count, and the marks that keep a lap out of the best (backwards, cut, a
sector line missed, cones)."""

import math
from dataclasses import replace

import numba
import numpy as np
import pytest

from lap_tracks import R, drive, ring_corridor, ring_track, steady
from sandbox.errors import UserError
from sandbox.files.tracks import find_builtin_track, load_track
from sandbox.physics import lap_timer as lt
from sandbox.physics.track import Line, Polyline, Track

SQUARE = Track(
    name="square",
    centre_line=Polyline([(0, 0), (100, 0), (100, 100), (0, 100)], closed=True),
    start=Line(50, -5, 50, 5, (1, 0)),
    sectors=(Line(50, 95, 50, 105, (-1, 0)),),
)
"""A square centre line 100 m a side, driven clockwise on screen; the start line
across the top side at x = 50, the sector line across the bottom side at x = 50."""


def events(course, timer):
    return lt.laps_of(course, timer)


def test_a_crossing_is_timed_within_the_tick_as_worked_by_hand():
    """Ticks of 0.2 s from t = 1 s, the car at each tick's end at:
    (47, 0) → (51, 0): over the start line x = 50 at f = 3/4 of the tick, t = 1.15 s;
    → (100, 0) → (100, 100) → (0, 100): over the sector line x = 50 going -x at f = 1/2
    of the 4th tick (from t = 1.6 s), t = 1.7 s; → (0, 0) → (49, 0) → (50.5, 0): over
    the start line at f = 1/(1 + 0.5) = 2/3 of the 7th tick (from t = 2.2 s),
    t = 2.2 + 0.2·2/3 s. Lap 1: 2.2 + 0.4/3 - 1.15 s; sectors 0.55 s and
    2.2 + 0.4/3 - 1.7 s; its distance the square's 400 m."""
    course = lt.course_of(SQUARE, "m")
    timer = lt.new_timer(course)
    path = [(47, 0), (51, 0), (100, 0), (100, 100), (0, 100), (0, 0), (49, 0), (50.5, 0)]
    for i, ((x0, y0), (x1, y1)) in enumerate(zip(path, path[1:])):
        lt.timer_tick(course, timer, x0, y0, x1, y1, 1.0 + 0.2 * i, 0.2, 0.0)
        if i == 0:
            assert timer[lt.LAP] == 1 and timer[lt.LAP_START] == pytest.approx(1.15, abs=1e-12)
            assert timer[lt.LAP_DISTANCE] == pytest.approx(1.0, abs=1e-12)  # 51 - 50 m past the line
    (row,) = events(course, timer)
    end = 2.2 + 0.2 * 2 / 3
    assert row[lt.E_LAP] == 1 and row[lt.E_FLAGS] == 0
    assert row[lt.E_TIME] == row[lt.E_RAW] == pytest.approx(end - 1.15, abs=1e-12)
    assert row[lt.EVENT_SLOTS :] == pytest.approx([0.55, end - 1.7], abs=1e-12)
    assert row[lt.E_DISTANCE] == pytest.approx(400.0, abs=1e-9)
    assert timer[lt.LAP] == 2 and timer[lt.LAP_START] == pytest.approx(end, abs=1e-12)


@pytest.mark.parametrize("hz", [10, 60, 144])
def test_lap_time_is_the_tick_count_times_dt_within_one_tick(hz):
    """At 20 m/s round the ring a lap takes 2πR/v (15.708 s); the timer gives that to
    within the chord's error (1e-5 s), where counting whole ticks would be off by up to
    a tick (0.1 s at 10 Hz)."""
    dt = 1.0 / hz
    course = lt.course_of(ring_track(), "m")
    timer = lt.new_timer(course)
    lap, _ = drive(course, timer, steady(20.0, 50.0, dt), dt=dt)
    rows = events(course, timer)
    assert len(rows) == 3  # 1000 m: 3.2 laps of 314 m
    first_tick = [int(np.argmax(lap >= n)) for n in (1, 2, 3, 4)]
    for row, begin, end in zip(rows, first_tick, first_tick[1:]):
        assert abs(row[lt.E_TIME] - (end - begin) * dt) <= dt
        assert row[lt.E_TIME] == pytest.approx(2 * math.pi * R / 20.0, abs=1e-5)
        assert row[lt.EVENT_SLOTS :] == pytest.approx([math.pi * R / 20.0] * 2, abs=1e-5)
        assert row[lt.E_DISTANCE] == pytest.approx(course.length, abs=1e-3)  # progress interpolated in the tick
    assert course.length == pytest.approx(2 * math.pi * R, rel=1e-4)  # the 400-gon's


def test_the_distance_along_the_lap_grows_with_the_arc_driven():
    """Starting 4.9 m behind the start line at 20 m/s, the car crosses it at 0.245 s (in
    tick 24 of 0.01 s); at 0.75 s (after tick 74) it is 20 · 0.505 = 10.1 m along (the
    arc's length on the 400-gon, within its chords' sag)."""
    dt = 0.01
    course = lt.course_of(ring_track(), "m")
    timer = lt.new_timer(course)
    lap, distance = drive(course, timer, steady(20.0, 5.0, dt, theta0=-4.9 / R), dt=dt)
    assert lap[24] == 1 and lap[23] == 0
    assert distance[74] == pytest.approx(10.1, abs=1e-3)
    assert np.all(np.diff(distance[24:]) > 0)


def back_and_forth(reverse: float, at: float = math.pi / 2) -> np.ndarray:
    """Angles of a lap and a half at 20 m/s (60 Hz) that stops at angle `at`, backs
    `reverse` m and drives on."""
    step = 20.0 / 60 / R
    out = np.arange(-0.3, at, step)
    back = np.arange(at, at - reverse / R, -step)
    on = np.arange(back[-1], 4 * math.pi + 0.3, step)
    return np.concatenate([out, back, on])


@pytest.mark.parametrize(("reverse", "marked"), [(10.0, True), (3.0, False)])
def test_a_lap_driven_backwards_more_than_the_set_length_is_invalid(reverse, marked):
    """Backing 10 m (more than the 5 m allowed) marks the lap; backing 3 m (a spin) does
    not. The next lap, driven forwards, is valid either way."""
    course = lt.course_of(ring_track(), "m")
    timer = lt.new_timer(course)
    drive(course, timer, back_and_forth(reverse))
    first, second = events(course, timer)
    assert first[lt.E_FLAGS] == (lt.BACKWARDS if marked else 0)
    assert second[lt.E_FLAGS] == 0


def test_a_timing_line_crossed_backwards_marks_the_lap():
    """Backing 2 m over the sector line (θ = π) marks the lap though 2 m is allowed."""
    course = lt.course_of(ring_track(), "m")
    timer = lt.new_timer(course)
    drive(course, timer, back_and_forth(2.0, at=math.pi + 1.0 / R))
    first, second = events(course, timer)
    assert first[lt.E_FLAGS] == lt.BACKWARDS and second[lt.E_FLAGS] == 0


@pytest.mark.parametrize("flip", [False, True], ids=["normals-left", "normals-right"])
@pytest.mark.parametrize(("offset", "cut"), [(-4.0, True), (4.0, False)], ids=["inside", "outside"])
def test_a_lap_that_leaves_the_corridor_is_cut(flip, offset, cut):
    """The corridor is 5 m to the car's left (outside the ring) and 3 m to its right
    (inside): 4 m inside for a quarter lap leaves it, 4 m outside does not. The
    corridor's normals may point either way: the half-widths go with them."""
    course = lt.course_of(ring_track(), "m", corridor=ring_corridor(left=5.0, right=3.0, flip=flip))
    timer = lt.new_timer(course)
    theta = steady(20.0, 35.0, 1 / 60)
    radius = np.where((theta > 1.0) & (theta < 2.5), R + offset, R)
    drive(course, timer, theta, radius=radius)
    first, second = events(course, timer)
    assert first[lt.E_FLAGS] == (lt.CUT if cut else 0)
    assert second[lt.E_FLAGS] == 0


@pytest.mark.parametrize(("penalty", "added"), [(None, 4.0), (1.5, 3.0)])
def test_cones_add_the_penalty_to_the_lap_they_were_knocked_in(penalty, added):
    """Two cones knocked in lap 1 (2 s each by default) add 4 s and mark it; lap 2,
    clean, has no penalty; the cones knocked on the out lap count to no lap."""
    course = lt.course_of(ring_track(), "m")
    timer = lt.new_timer(course) if penalty is None else lt.new_timer(course, cone_penalty=penalty)
    theta = steady(20.0, 35.0, 1 / 60)
    cones = np.select([theta[1:] < 0, theta[1:] < 1.0, theta[1:] < 3.0], [1, 1, 2], default=3)
    drive(course, timer, theta, cones=cones)
    first, second = events(course, timer)
    assert first[lt.E_CONES] == 2 and first[lt.E_FLAGS] == lt.CONES
    assert first[lt.E_TIME] == pytest.approx(first[lt.E_RAW] + added, abs=1e-12)
    assert first[lt.E_PENALTY] == added
    assert second[lt.E_CONES] == 0 and second[lt.E_FLAGS] == 0 and second[lt.E_TIME] == second[lt.E_RAW]


def test_a_sector_line_never_crossed_leaves_the_lap_missed():
    """A sector line off the car's path (10 m outside the ring) is never crossed: each
    lap missed it, and its sector times are not known."""
    off = Line(-R - 15, 0, -R - 10, 0, (0, -1))
    course = lt.course_of(replace(ring_track(), sectors=(off,)), "m")
    timer = lt.new_timer(course)
    drive(course, timer, steady(20.0, 20.0, 1 / 60))
    (row,) = events(course, timer)
    assert row[lt.E_FLAGS] == lt.MISSED and np.isnan(row[lt.EVENT_SLOTS :]).all()


def test_the_timer_holds_the_last_laps_until_read():
    """A ring of 2: after 4 laps, laps 3 and 4 are held; `since` leaves out those read."""
    course = lt.course_of(ring_track(), "m")
    timer = lt.new_timer(course, capacity=2)
    drive(course, timer, steady(50.0, 30.0, 1 / 60))  # 6.28 s a lap
    assert timer[lt.DONE] == 4
    assert [row[lt.E_LAP] for row in lt.laps_of(course, timer)] == [3, 4]
    assert [row[lt.E_LAP] for row in lt.laps_of(course, timer, since=3)] == [4]


def test_the_car_is_followed_round_the_circuit_without_searching_the_whole_line():
    """Three laps of the built-in circuit 2 m left of its centre line, 0.5 m a tick:
    the whole line is searched once (to place the car), and each lap is the centre
    line's length (within a fifth of a tick's path)."""
    course = lt.course_of(load_track(find_builtin_track("club_circuit")), "m")
    along = np.arange(-10.0, 3 * course.length + 10.0, 0.5) % course.length
    i = np.minimum(np.searchsorted(course.s, along, side="right") - 1, len(course.s) - 2)
    d = course.points[i + 1] - course.points[i]
    d /= np.hypot(*d.T)[:, None]
    x = np.interp(along, course.s, course.points[:, 0]) + 2.0 * d[:, 1]  # the left, y down: (dy, -dx)
    y = np.interp(along, course.s, course.points[:, 1]) - 2.0 * d[:, 0]
    timer = lt.new_timer(course)
    n = len(x) - 1
    lt.timer_ticks(course, timer, x, y, 0.0, 0.01, np.zeros(n), np.zeros(n), np.zeros(n))
    assert timer[lt.SEARCHES] == 1
    laps = lt.laps_of(course, timer)[:, lt.E_DISTANCE]
    assert laps == pytest.approx([course.length] * 3, abs=0.1)  # the crossing's place within its 0.5 m


HAIRPIN = Track(
    name="hairpin",
    centre_line=Polyline([(x, 0) for x in range(301)] + [(300 - x, 10) for x in range(301)], closed=True),
    start=Line(50, -5, 50, 5, (1, 0)),
)
"""Two legs 10 m apart joined at their ends: along y = 0 to x = 300 and back along
y = 10; s = 100 m at (100, 0), s = 300 + 10 + 200 = 510 m at (100, 10)."""


@pytest.mark.parametrize(("corridor", "searches", "along"), [(4.0, 2, 510.0), (None, 1, 100.0)])
def test_a_car_off_the_track_is_searched_for_on_the_whole_line(corridor, searches, along):
    """Moved across the hairpin's infield from (100, 0) to (100, 10) in one tick: with
    a corridor 4 m each side the car is off the track where it was followed (10 m
    from y = 0), so the whole line is searched and the car found on the other leg
    (s = 510 m); with no corridor it is 10 m off the leg it was on, within the 30 m
    before a search, and is kept there."""
    widths = None if corridor is None else (HAIRPIN.centre_line.points, None, np.full(602, 4.0), np.full(602, 4.0))
    course = lt.course_of(HAIRPIN, "m", corridor=widths)
    timer = lt.new_timer(course)
    for x in range(20, 100):
        lt.timer_tick(course, timer, x, 0.0, x + 1, 0.0, 0.0, 0.01, 0.0)
    assert timer[lt.SEARCHES] == 1 and timer[lt.ALONG] == 100.0
    lt.timer_tick(course, timer, 100.0, 0.0, 100.0, 10.0, 0.0, 0.01, 0.0)
    assert timer[lt.SEARCHES] == searches and timer[lt.ALONG] == pytest.approx(along, abs=1e-9)


@numba.njit
def _compiled_drive(course, timer, xs, ys, dt):
    for i in range(len(xs) - 1):
        lt.timer_tick(course, timer, xs[i], ys[i], xs[i + 1], ys[i + 1], i * dt, dt, 0.0)
    return timer[lt.DONE]


def test_compiled_code_calls_the_timer_every_tick():
    """A compiled loop (as a driver's) ticks the timer with the same laps as Python."""
    course = lt.course_of(ring_track(), "m")
    theta = steady(20.0, 35.0, 1 / 60)
    timer = lt.new_timer(course)
    assert _compiled_drive(course, timer, R * np.cos(theta), R * np.sin(theta), 1 / 60) == 2
    assert events(course, timer)[:, lt.E_TIME] == pytest.approx([2 * math.pi * R / 20.0] * 2, abs=1e-5)


def test_a_car_placed_again_starts_an_out_lap_and_numbers_on():
    """A reset in lap 2 drops it: the car is on an out lap (no lap, no distance) until
    it crosses the start line, which starts lap 3; lap 1 is still held."""
    course = lt.course_of(ring_track(), "m")
    timer = lt.new_timer(course)
    drive(course, timer, steady(20.0, 20.0, 1 / 60))
    assert timer[lt.LAP] == 2
    lt.timer_reset(timer)
    lap, distance = drive(course, timer, steady(20.0, 1.0, 1 / 60, theta0=-0.5), t0=20.0)
    assert np.all(lap == 0) and np.isnan(distance).all()
    lap, _ = drive(course, timer, steady(20.0, 1.0, 1 / 60, theta0=-0.1), t0=21.0)
    assert lap[-1] == 3 and timer[lt.LAP_START] == pytest.approx(21.25, abs=1e-9)
    assert [row[lt.E_LAP] for row in events(course, timer)] == [1]
    assert timer[lt.CONE_PENALTY] == lt.CONE_PENALTY_S


@pytest.mark.parametrize(
    ("changes", "said"),
    [
        ({"centre_line": None}, "track 'ring': the track has no centre line: a lap is driven along one"),
        (
            {"centre_line": Polyline([(0, 0), (10, 0), (10, 10)])},
            "track 'ring': the track's centre line is open: a lap needs one that closes on itself",
        ),
        ({"start": None}, "track 'ring': the track has no start line: a lap starts and ends at it"),
        ({"sectors": (Line(3, 4, 3, 4, (1, 0)),)}, "track 'ring': sector line 1 has no length"),
    ],
    ids=["no-centre-line", "open", "no-start", "line-of-no-length"],
)
def test_a_track_a_lap_cannot_be_timed_on_is_refused_by_name(changes, said):

    with pytest.raises(UserError, match=said):
        lt.course_of(replace(ring_track(), **changes), "m")


def test_a_course_in_pixels_times_the_same_laps():
    """The ring in px (25 px/m) driven at 500 px/s: the same lap time as in m, its
    distance 25 times the length and the backwards length 5 m in px."""
    course = lt.course_of(ring_track(), "px")
    timer = lt.new_timer(course)
    theta = steady(20.0, 20.0, 1 / 60)
    xs, ys = 25 * R * np.cos(theta), 25 * R * np.sin(theta)
    lap, distance = np.zeros(len(theta) - 1), np.zeros(len(theta) - 1)
    lt.timer_ticks(course, timer, xs, ys, 0.0, 1 / 60, np.zeros(len(theta) - 1), lap, distance)
    (row,) = events(course, timer)
    assert row[lt.E_TIME] == pytest.approx(2 * math.pi * R / 20.0, abs=1e-5)
    assert row[lt.E_DISTANCE] == pytest.approx(25 * lt.course_of(ring_track(), "m").length, abs=0.025)
    assert timer[lt.BACKWARDS_LENGTH] == 125.0
