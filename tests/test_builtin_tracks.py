"""Every built-in preset can drive every built-in track. The car's side of each check is
an independent figure, its metrics from the standard manoeuvres: the kerb-to-kerb
turning circle at walking pace (the tightest circle its body sweeps), the body's width,
its braking distances and standing quarter mile. The track's side is measured here
from the track's own points (its tightest bend, its width, its room): in the preset's
unit, at the track's pixels per metre."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sandbox.analysis.metrics import compute
from sandbox.files.presets import list_presets, load_preset
from sandbox.files.tracks import builtin_track_names, find_builtin_track, load_track

CLEARANCE_M = 0.5
"""m the body keeps from a wall or a cone on each side, at the least."""


@pytest.fixture(scope="module")
def cars():
    """{preset name: (its unit, kerb radius, body width, stopping distance bound, quarter mile covered)}."""
    found = {}
    for path, _, builtin, _ in list_presets():
        if not builtin:
            continue
        preset = load_preset(path)
        model = preset.model
        m = {k: float(v[0]) for k, v in compute(model, dict(preset.tuning), preset.hz).items()}
        width = model.body(dict(preset.tuning))["width"]
        found[path.stem] = (model.LENGTH_UNIT, m["turning_circle"] / 2, width, stopping(m, model.LENGTH_UNIT), m)
    assert len(found) >= 19
    return found


def stopping(m: dict, unit: str) -> float:
    """The most distance the car needs to stop from its speed at the quarter mile:
    from its top speed when it has one, else (no top speed: it is still gaining speed)
    from at most twice its mean speed over the quarter mile (its speed rises ever more
    slowly), braking as it does from 100 km/h."""
    if math.isfinite(m["braking_from_top"]):
        return m["braking_from_top"]
    assert unit == "m" and math.isfinite(m["standing_quarter"]) and math.isfinite(m["braking_from_100"])
    v_end = 2 * 402.336 / m["standing_quarter"]
    v100 = 100 / 3.6
    decel = v100**2 / (2 * m["braking_from_100"])
    return v_end**2 / (2 * decel)


def in_unit(name: str, unit: str):
    return load_track(find_builtin_track(name)).in_unit(unit)


def clearance(unit: str, track) -> float:
    return CLEARANCE_M * (track.pixels_per_metre if unit == "px" else 1.0)


def distance_to_segments(point, starts, ends) -> float:
    d = ends - starts
    t = np.clip(((point - starts) * d).sum(axis=1) / np.maximum((d * d).sum(axis=1), 1e-12), 0, 1)
    return float(np.hypot(*(starts + t[:, None] * d - point).T).min())


def wall_segments(track):
    starts, ends = [], []
    for line in track.polylines:
        p = line.points
        q = np.vstack([p, p[:1]]) if line.closed else p
        starts.append(q[:-1])
        ends.append(q[1:])
    return np.vstack(starts), np.vstack(ends)


def tightest_radius(points: np.ndarray, span: float) -> float:
    """The smallest radius of the circle through each point and those about `span`
    before and after it along the closed line (a bend's radius, over the points'
    rounding): the line's tightest bend."""
    step = np.median(np.hypot(*np.diff(points, axis=0).T))
    k = max(1, round(span / step))
    a, b, c = np.roll(points, k, axis=0), points, np.roll(points, -k, axis=0)
    ab, bc, ca = (np.hypot(*(q - p).T) for p, q in ((a, b), (b, c), (c, a)))
    area2 = np.abs((b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (b[:, 1] - a[:, 1]) * (c[:, 0] - a[:, 0]))
    return float(np.min(np.where(area2 > 0, ab * bc * ca / (2 * np.maximum(area2, 1e-300)), np.inf)))


def check_open_field(track, unit, kerb, width, stop, m):
    assert track.is_open_field


def check_skid_pad(track, unit, kerb, width, stop, m):
    """The circle is no tighter than the car's, and the lane between the cone rings
    holds the body with room to spare."""
    centre = track.centre_line.points.mean(axis=0)
    radius = np.hypot(*(track.centre_line.points - centre).T).mean()
    assert kerb <= radius
    rings = sorted({round(float(np.hypot(c.x - centre[0], c.y - centre[1])), 6) for c in track.cones})
    lane = rings[-1] - rings[0] - 2 * track.cones[0].radius
    assert width + 2 * clearance(unit, track) <= lane


def check_slalom(track, unit, kerb, width, stop, m):
    """A weave y = A sin(π x / d) round cones d apart, passing each at the body's half
    width plus the cone and a clearance (A), bends no tighter than d² / (π² A)."""
    xs = sorted(c.x for c in track.cones)
    d = min(np.diff(xs))
    amplitude = width / 2 + track.cones[0].radius + clearance(unit, track)
    assert kerb <= d**2 / (math.pi**2 * amplitude)
    assert track.start.x1 < xs[0] and xs[-1] < track.sectors[-1].x1  # the gates before and after


def check_drag_strip(track, unit, kerb, width, stop, m):
    """A quarter mile from the start to the finish between walls wider than the body,
    and room after the finish to stop."""
    metre = track.pixels_per_metre if unit == "px" else 1.0
    finish = track.sectors[-1]
    assert finish.x1 - track.start.x1 == pytest.approx(402.336 * metre)
    walls_y = sorted(line.points[0, 1] for line in track.polylines)
    assert width + 2 * clearance(unit, track) <= walls_y[-1] - walls_y[0]
    assert stop <= track.centre_line.points[-1, 0] - finish.x1


def check_parking_lot(track, unit, kerb, width, stop, m):
    """Straight ahead from where the car starts, there is a place from which its whole
    turning circle (any circle through that place with the car's kerb radius lies
    within twice that radius of it) is clear of the walls."""
    starts, ends = wall_segments(track)
    here = np.array([track.spawn.x, track.spawn.y])
    ahead = np.array([math.cos(track.spawn.heading), math.sin(track.spawn.heading)])
    step = width
    for k in range(10_000):
        point = here + k * step * ahead
        room = distance_to_segments(point, starts, ends)
        assert room >= width / 2, f"the way ahead is blocked {k * step:g} {unit} from the spawn"
        if room >= 2 * kerb:
            return
    raise AssertionError("no room to turn straight ahead")


def check_circuit(track, unit, kerb, width, stop, m):
    """The lap's tightest bend (over a car's length of points) is no tighter than the
    car's circle, and the walls everywhere leave the body room beside the centre line."""
    centre = track.centre_line.points
    metre = track.pixels_per_metre if unit == "px" else 1.0
    assert kerb <= tightest_radius(centre, 20 * metre)
    starts, ends = wall_segments(track)
    narrowest = min(distance_to_segments(p, starts, ends) for p in centre[::4])
    assert width / 2 + clearance(unit, track) <= narrowest


CHECKS = {
    "open_field": check_open_field,
    "skid_pad": check_skid_pad,
    "slalom": check_slalom,
    "drag_strip": check_drag_strip,
    "parking_lot": check_parking_lot,
    "club_circuit": check_circuit,
}


def test_every_built_in_track_has_its_check():
    assert sorted(CHECKS) == builtin_track_names()


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_every_built_in_preset_can_drive_the_track(cars, name):
    for preset, (unit, kerb, width, stop, m) in cars.items():
        track = in_unit(name, unit)
        try:
            CHECKS[name](track, unit, kerb, width, stop, m)
        except AssertionError as exc:
            raise AssertionError(f"{preset} cannot drive {name}: {exc}") from None


def test_the_checks_can_fail():
    """The heavy truck's circle (1662 px kerb to kerb, 66 m at 25 px/m) does not fit a
    skid pad of the standard 30 m radius, nor a slalom of cones 15 m apart, nor the club
    circuit at 17.5 px/m (its 40 m hairpin 700 px round)."""
    from dataclasses import replace

    from sandbox.physics.track import Polyline

    pad = load_track(find_builtin_track("skid_pad"))
    a = np.linspace(0, 2 * math.pi, 72, endpoint=False)
    small = replace(pad, centre_line=Polyline(np.c_[30 * np.cos(a), 30 * np.sin(a)], closed=True))
    with pytest.raises(AssertionError):
        check_skid_pad(small.in_unit("px"), "px", 1662 / 2, 80, 0, {})
    slalom = load_track(find_builtin_track("slalom"))
    close = replace(slalom, cones=tuple(replace(c, x=50 + 15 * i) for i, c in enumerate(slalom.cones)))
    with pytest.raises(AssertionError):
        check_slalom(close.in_unit("px"), "px", 1662 / 2, 80, 0, {})
    club = load_track(find_builtin_track("club_circuit"))
    check_circuit(club.in_unit("px"), "px", 1662 / 2, 80, 0, {})
    with pytest.raises(AssertionError):
        check_circuit(replace(club, pixels_per_metre=17.5).in_unit("px"), "px", 1662 / 2, 80, 0, {})
