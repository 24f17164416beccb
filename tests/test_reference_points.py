"""Which point a figure is measured at, against the closed forms of exact kinematics.

A car turning about a fixed centre: the rear axle circles at L/tan δ (bicycle) and
every other point at its own distance from that centre; the kerb-to-kerb circle is
twice the distance to the body's farthest corner."""

import math

import numpy as np
import pytest

from sandbox.analysis.handling import HANDLING_METRICS
from sandbox.analysis.metrics import compute, point_of, table
from sandbox.physics.models import ackermann, bicycle
from sandbox.physics.sim import record

L, DELTA = 2.5, math.radians(30)


def bicycle_tuning(**changes):
    return {**{p.name: p.default for p in bicycle.PARAMS}, "wheel_base": L, "max_steer": 30.0, **changes}


def circle_radius(x, y) -> float:
    """Radius of the circle through three points of a path (start, middle, end)."""
    (ax, ay), (bx, by), (cx, cy) = (x[0], y[0]), (x[len(x) // 2], y[len(y) // 2]), (x[-1], y[-1])
    a, b, c = math.hypot(bx - cx, by - cy), math.hypot(ax - cx, ay - cy), math.hypot(ax - bx, ay - by)
    area = abs((bx - ax) * (cy - ay) - (by - ay) * (cx - ax)) / 2
    return a * b * c / (4 * area)


def arc_speed(x, y, heading, hz: int) -> float:
    """Speed along the arc of the last tick: its chord 2R·sin(θ/2) made back into R·θ."""
    half = (heading[-1] - heading[-2]) / 2
    return math.hypot(x[-1] - x[-2], y[-1] - y[-2]) * hz * half / math.sin(half)


def full_lock(tuning, hz: int, seconds: float = 12.0):
    """Full throttle and full lock right: (rear axle x, y, speed, heading) over the
    last 2 s, once the speed has reached its top."""
    trace = np.zeros((int(seconds * hz), 5))
    trace[:, 0], trace[:, 1] = 1.0, 1.0
    x, y, h, speed = record(bicycle, tuning, trace, hz, ("x", "y", "heading", "speed"))[-2 * hz :].T
    return x - L / 2 * np.cos(h), y - L / 2 * np.sin(h), speed, np.unwrap(h)


def test_the_blogs_rear_axle_circles_at_l_over_2_tan_half_delta():
    """The default in the limit of small dt (1000 Hz): each wheel moves speed·dt, so
    the rear axle ends at speed·(1+cos δ)/2 on L/(2·tan(δ/2)), 7.7 % wider than L/tan δ."""
    rx, ry, speed, h = full_lock(bicycle_tuning(), 1000)
    assert circle_radius(rx, ry) == pytest.approx(L / (2 * math.tan(DELTA / 2)), rel=1e-3)
    yaw = (h[-1] - h[0]) / (2.0 - 1 / 1000)
    assert yaw == pytest.approx(speed[-1] * math.sin(DELTA) / L, rel=3e-3)  # + O(speed·dt/L)
    rear_speed = arc_speed(rx, ry, h, 1000)
    assert rear_speed == pytest.approx(speed[-1] * (1 + math.cos(DELTA)) / 2, rel=1e-3)


def test_exact_arc_drives_the_front_wheel_and_its_rear_axle_circles_at_l_over_tan_delta():
    rx, ry, speed, h = full_lock(bicycle_tuning(exact_arc=True), 60)
    assert circle_radius(rx, ry) == pytest.approx(L / math.tan(DELTA), rel=1e-9)
    yaw = (h[-1] - h[0]) / (2.0 - 1 / 60)
    assert yaw == pytest.approx(speed[-1] * math.sin(DELTA) / L, rel=1e-9)  # the default's yaw rate
    rear_speed = arc_speed(rx, ry, h, 60)
    assert rear_speed == pytest.approx(speed[-1] * math.cos(DELTA), rel=1e-6)  # front wheel at `speed`
    blog = L / (2 * math.tan(DELTA / 2))
    assert blog / (L / math.tan(DELTA)) - 1 == pytest.approx(0.077, abs=0.001)


def test_the_bicycles_turning_radius_is_the_wheel_base_midpoints():
    tuning = bicycle_tuning(exact_arc=True)
    values = compute(bicycle, tuning, 60)
    midpoint = math.hypot(L / math.tan(DELTA), L / 2)  # 4.1 % above L/tan δ at 30°
    assert values["radius_low"][0] == pytest.approx(midpoint, rel=1e-6)
    rows = {r["name"]: r for r in table(bicycle, values)}
    assert rows["radius_low"]["point"] == "path of the wheel-base midpoint"


def test_kerb_to_kerb_turning_circle_of_the_exact_bicycle():
    tuning = bicycle_tuning(exact_arc=True)
    body = bicycle.body(tuning)
    corner = math.hypot(L / 2 + body["length"] / 2, L / math.tan(DELTA) + body["width"] / 2)
    assert compute(bicycle, tuning, 60)["turning_circle"][0] == pytest.approx(2 * corner, rel=1e-6)


def test_kerb_to_kerb_turning_circle_of_the_ackermann_van():
    """Zorin's centre: l·cot α out from the outer rear wheel, on the rear axle line."""
    from sandbox.files.presets import BUILTIN_DIR, load_preset

    tuning = dict(load_preset(BUILTIN_DIR / "ackermann_van.json").tuning)
    base, w, alpha = tuning["wheel_base"], tuning["track_width"], math.radians(tuning["max_steer"])
    body = ackermann.body(tuning)
    centre = (-base / 2, base / math.tan(alpha) - w / 2)  # in the car frame: along, towards the centre
    corner = math.hypot(body["length"] / 2 - centre[0], body["width"] / 2 + centre[1])
    values = compute(ackermann, tuning, 60)
    assert values["turning_circle"][0] == pytest.approx(2 * corner, rel=1e-6)
    assert values["radius_low"][0] == pytest.approx(math.hypot(*centre), rel=1e-4)  # chords of 1 s of path


def test_every_distance_metric_names_its_point():
    for model in (bicycle, ackermann):
        for row in table(model, compute(model, {p.name: p.default for p in model.PARAMS}, 60)):
            if row["name"] in HANDLING_METRICS:  # each handling figure names its circle or speed instead
                assert "open field" in row["point"]
            else:
                assert bool(row["point"]) == (row["unit"] == model.LENGTH_UNIT)
    assert point_of("turning_circle", bicycle) == "outermost corner of the body"
