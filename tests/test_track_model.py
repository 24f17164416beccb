"""A track in px and in m is the same world: every length scales by pixels_per_metre."""

import math

import numpy as np

from sandbox.physics.track import OPEN_FIELD, Circle, Line, Polyline, Pose, Rect, Track


def test_a_track_in_pixels_is_the_metre_track_scaled_by_the_exports_pixels_per_metre():
    metres = Track(
        name="t",
        unit="m",
        pixels_per_metre=25.0,
        polylines=(Polyline([(0, 0), (10, 0), (10, 4)], closed=False),),
        rects=(Rect(5, 5, 2, 1, math.pi / 2),),
        circles=(Circle(1, 2, 0.5),),
        start=Line(0, -1, 0, 1, (1.0, 0.0)),
        spawn=Pose(2, 3, 0.5),
    )
    px = metres.in_unit("px")
    assert px.polylines[0].points.tolist() == [[0, 0], [250, 0], [250, 100]]
    assert (px.rects[0].width, px.rects[0].angle) == (50, math.pi / 2)
    assert (px.circles[0].x, px.circles[0].radius) == (25, 12.5)
    assert (px.start.y1, px.start.direction) == (-25, (1.0, 0.0))
    assert (px.spawn.x, px.spawn.heading) == (50, 0.5)
    back = px.in_unit("m")
    assert np.allclose(back.polylines[0].points, metres.polylines[0].points)


def test_a_turned_rectangles_corners_and_the_bounds():
    r = Rect(0, 0, 4, 2, math.pi / 2)  # 4 wide along its own x, turned a quarter: 2 wide, 4 high on screen
    corners = r.corners()
    assert np.allclose(sorted(corners[:, 0]), [-1, -1, 1, 1]) and np.allclose(sorted(corners[:, 1]), [-2, -2, 2, 2])
    t = Track(name="b", rects=(r,), circles=(Circle(10, 0, 1),))
    assert np.allclose(t.bounds(), (-1.0, -2.0, 11.0, 2.0))
    assert OPEN_FIELD.is_open_field and not t.is_open_field
