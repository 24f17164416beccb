"""The lap book: best and optimal laps over made-up laps, the delta to a reference lap
and the predicted lap time worked by hand, and laps read from a timer round the ring."""

import math

import numpy as np
import pytest

from lap_tracks import R, drive, ring_track, steady
from sandbox.analysis.laps import Lap, LapBook, first_reached
from sandbox.physics import lap_timer as lt


def made_up(number, sectors, flags=0, speed=None, cones=0, penalty=0.0):
    """A lap of 400 m with these sector times (s); `speed` (m/s, one per 100 m) gives
    its time at each distance (default: even over the lap)."""
    raw = sum(sectors)
    speed = [400.0 / raw] * 4 if speed is None else speed
    d = np.arange(0.0, 401.0, 100.0)
    t = np.concatenate([[0.0], np.cumsum(100.0 / np.asarray(speed, dtype=float))])
    return Lap(number, 0.0, raw + penalty, raw, penalty, cones, flags, 400.0, tuple(sectors), d, t)


def book_of(*laps):
    book = LapBook()
    book.laps.extend(laps)
    return book


def test_the_optimal_lap_is_the_sum_of_the_best_valid_sectors():
    """Valid laps (5, 6, 7) and (4, 7, 7) s: best sectors 4, 6, 7, optimal 17 s; the
    cut lap's (3, 3, 3) and the cone lap's (4, 4, 4) count for neither. The best lap is
    the first (18 s), the last the cone lap."""
    first, second = made_up(1, (5, 6, 7)), made_up(2, (4, 7, 7))
    cut = made_up(3, (3, 3, 3), flags=lt.CUT)
    coned = made_up(4, (4, 4, 4), flags=lt.CONES, cones=1, penalty=2.0)
    book = book_of(first, second, cut, coned)
    assert book.best_sectors == (4.0, 6.0, 7.0)
    assert book.optimal == 17.0
    assert book.best is first and book.last is coned
    assert coned.time == 14.0 and not coned.valid
    assert cut.marks == ("cut",) and coned.marks == ("1 cone (+2 s)",)


def test_a_book_without_a_valid_lap_has_no_best_and_no_delta():
    book = book_of(made_up(1, (5, 5), flags=lt.BACKWARDS))
    assert book.best is None and book.best_sectors == () and math.isnan(book.optimal)
    assert math.isnan(book.delta(100.0, 5.0)) and math.isnan(book.predicted(100.0, 5.0))


def test_the_delta_is_positive_where_the_lap_is_slower_than_the_reference():
    """Reference: 400 m at 20 m/s (20 s). The running lap, 6 s in at 100 m, is 1 s
    slower than the reference there (5 s): Δ = +1 s, predicted 21 s; at 300 m after
    14 s it is 1 s faster (15 s): Δ = -1 s, predicted 19 s. Taken to lap 2 instead
    (25 m/s for 100 m then 12.5 m/s: t(100 m) = 4 s, t(300 m) = 20 s, 28 s a lap): Δ at
    100 m = +2 s, predicted 30 s."""
    book = book_of(made_up(1, (10, 10)), made_up(2, (14, 14), speed=(25, 12.5, 12.5, 12.5), flags=lt.CUT))
    assert book.delta(100.0, 6.0) == pytest.approx(1.0)
    assert book.predicted(100.0, 6.0) == pytest.approx(21.0)
    assert book.delta(np.array([100.0, 300.0]), np.array([6.0, 14.0])) == pytest.approx([1.0, -1.0])
    assert book.predicted(300.0, 14.0) == pytest.approx(19.0)
    assert book.delta(100.0, 6.0, reference=2) == pytest.approx(2.0)
    assert book.predicted(100.0, 6.0, reference=2) == pytest.approx(30.0)
    assert book.lap(2).time_at(300.0) == pytest.approx(20.0)


def test_time_at_distance_is_when_the_lap_first_got_there():
    """A car that rolls back from 2 m to 1.5 m and passes 2.5 m at 4 s: at 2.25 m the
    time is between the furthest points (2 m, 2 s) and (2.5 m, 4 s): 3 s."""
    d, t = first_reached(np.array([0.0, 1.0, 2.0, 1.5, 2.5]), np.array([0.0, 1.0, 2.0, 3.0, 4.0]))
    assert list(d) == [0.0, 1.0, 2.0, 2.5] and list(t) == [0.0, 1.0, 2.0, 4.0]
    assert np.interp(2.25, d, t) == 3.0


def test_laps_read_from_the_timer_carry_their_times_at_distance():
    """Round the ring at 20 m/s for 40 s: laps 1 and 2 each take 2πR/20 (15.708 s),
    their time at distance d is d/20; a lap 4 s in at 100 m is 1 s ahead of the best
    (Δ = -1 s, predicted 14.708 s). Read laps are not read again."""
    dt = 1 / 60
    course = lt.course_of(ring_track(), "m")
    timer = lt.new_timer(course)
    book = LapBook()
    theta = steady(20.0, 40.0, dt)
    lap, distance = drive(course, timer, theta, dt=dt)
    book.add_ticks(dt * np.arange(1, len(theta)), lap, distance)
    assert [lap.number for lap in book.update(course, timer)] == [1, 2]
    one, two = book.laps
    assert one.time == pytest.approx(2 * math.pi * R / 20.0, abs=1e-5) and two.valid
    assert one.time_at([50.0, 150.0, 300.0]) == pytest.approx([2.5, 7.5, 15.0], abs=1e-3)
    assert book.delta(100.0, 4.0) == pytest.approx(-1.0, abs=1e-3)
    assert book.predicted(100.0, 4.0) == pytest.approx(2 * math.pi * R / 20.0 - 1.0, abs=1e-3)
    assert book.update(course, timer) == []


def test_a_new_cone_penalty_retimes_the_laps_in_the_book_and_the_laps_read_later():
    """Lap 2 knocked 3 cones (raw 20 s, 2 s each: 26 s). At 5 s a cone it is 20 + 15 =
    35 s, 3 × (5 - 2) = 9 s more; the clean lap 1 keeps its 20 s and stays the best,
    the optimal lap too. A lap read from a timer after that takes the book's penalty."""
    clean = made_up(1, (10, 10))
    coned = made_up(2, (10, 10), flags=lt.CONES, cones=3, penalty=6.0)
    book = book_of(clean, coned)
    assert coned.time == 26.0
    book.retime(5.0)
    assert book.lap(2).time == pytest.approx(coned.time + 3 * (5.0 - 2.0))
    assert book.lap(2).penalty == 15.0 and book.lap(2).raw == 20.0 and book.lap(2).marks == ("3 cones (+15 s)",)
    assert book.lap(1) is clean and book.best is clean and book.optimal == 20.0
    book.retime(0.0)
    assert book.lap(2).time == 20.0 and not book.lap(2).valid  # no penalty: still a lap that does not count


def test_the_prediction_adds_the_running_laps_penalty_not_the_references():
    """Reference lap 2: 400 m in 20 s as driven, 2 cones at 2 s (24 s). A lap 6 s in at
    100 m is 1 s slower there (Δ = +1 s): it ends in 21 s as driven, 21 s with no cone
    of its own, 23 s with one cone (2 s) so far."""
    book = book_of(made_up(1, (12, 12)), made_up(2, (10, 10), flags=lt.CONES, cones=2, penalty=4.0))
    assert book.delta(100.0, 6.0, reference=2) == pytest.approx(1.0)
    assert book.predicted(100.0, 6.0, reference=2) == pytest.approx(21.0)
    assert book.predicted(100.0, 6.0, reference=2, penalty=2.0) == pytest.approx(23.0)
