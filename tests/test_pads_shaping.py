"""Per-axis shaping of a controller's values (session/axis_shaping.py), against the
formula written out here: inversion, then the dead zone … saturation mapped to 0..1
(clamped), then strength ** exponent with the sign kept. At its defaults it is Godot's."""

import math

import numpy as np
import pytest

from sandbox.session.axis_shaping import AXES, AxisShape, Shaping, ShapingError
from sandbox.session.godot_input import DeadZones, dead_zones_for

VALUES = [i / 40 for i in range(-40, 41)] + [0.4999, 0.5, 0.5001, 1e-9, -1e-9, 0.123456789]


def written_out(v, dz, sat=1.0, exponent=1.0, inverted=False, pedal=False):
    """The shaping's formula, written out in doubles."""
    if inverted:
        v = 1 - v if pedal else -v
    if v == 0 or abs(v) < dz:
        return 0.0
    strength = min(1.0, max(0.0, (abs(v) - dz) / (sat - dz))) ** exponent
    return math.copysign(strength, v)


def godot_get_axis(v, left_dz, right_dz):
    """Godot's Input.get_axis for one axis bound both ways, written out."""
    dz = right_dz if v > 0 else left_dz
    if v == 0 or abs(v) < dz:
        return 0.0
    return math.copysign(min(1.0, (abs(v) - dz) / (1 - dz)), v)


@pytest.mark.parametrize(
    "zones", [DeadZones(), DeadZones(0.2), dead_zones_for("3", {"steer_left": 0.3, "steer_right": 0.15, "brake": 0.05})]
)
def test_at_its_defaults_the_car_receives_exactly_godots_values(zones):
    shaping = Shaping()
    for v in VALUES:
        steer = shaping.steer(v, zones)
        assert steer == pytest.approx(godot_get_axis(v, zones.of("steer_left"), zones.of("steer_right")), abs=1e-6)
        assert steer == zones.steer(v)  # bit for bit what the car received before shaping existed
        if v >= 0:
            assert shaping.pedal("throttle", v, zones) == zones.pedal("accelerate", v)
            assert shaping.pedal("brake", v, zones) == zones.pedal("brake", v)
            assert shaping.pedal("brake", v, zones) == pytest.approx(godot_get_axis(v, 1, zones.of("brake")), abs=1e-6)


@pytest.mark.parametrize(
    "shape",
    [
        AxisShape(dead_zone=0.1),
        AxisShape(dead_zone=0.0),
        AxisShape(saturation=0.8),
        AxisShape(exponent=2.0),
        AxisShape(exponent=0.5),
        AxisShape(inverted=True),
        AxisShape(dead_zone=0.25, saturation=0.9, exponent=1.7, inverted=True),
    ],
)
def test_each_setting_follows_the_written_out_formula(shape):
    zones = DeadZones(0.5)
    for axis in AXES:
        shaping = Shaping().with_axis(axis, **shape.__dict__)
        dz = 0.5 if shape.dead_zone is None else shape.dead_zone
        for v in VALUES:
            want = written_out(v, dz, shape.saturation, shape.exponent, shape.inverted, pedal=axis != "steer")
            if axis == "steer":
                got = shaping.steer(v, zones)
            elif v < 0:
                continue
            else:
                got = shaping.pedal(axis, v, zones)
            assert got == pytest.approx(want, abs=2e-6), (axis, v)


@pytest.mark.parametrize(
    "changes, words",
    [
        ({"dead_zone": -0.1}, "dead zone -0.1"),
        ({"dead_zone": 1.0}, "dead zone 1"),
        ({"dead_zone": 0.9, "saturation": 0.9}, "dead zone 0.9"),
        ({"dead_zone": float("nan")}, "dead zone nan"),
        ({"saturation": 0.0}, "saturation 0"),
        ({"saturation": 1.5}, "saturation 1.5"),
        ({"saturation": "1"}, "saturation '1'"),
        ({"exponent": 0.0}, "exponent 0"),
        ({"exponent": -2.0}, "exponent -2"),
        ({"exponent": float("inf")}, "exponent inf"),
    ],
)
def test_a_value_out_of_range_is_refused_naming_the_axis_and_the_value(changes, words):
    before = Shaping().with_axis("brake", exponent=2.0)
    with pytest.raises(ShapingError) as caught:
        before.with_axis("throttle", **changes)
    assert str(caught.value).startswith("throttle: ") and words in str(caught.value)
    assert before.of("throttle") == AxisShape() and before.of("brake").exponent == 2.0


def test_an_unknown_axis_is_refused():
    with pytest.raises(ShapingError, match="unknown axis roll: the axes are steer, throttle, brake, clutch"):
        Shaping().with_axis("roll", exponent=2.0)


def test_the_output_is_always_finite_and_in_range():
    rng = np.random.default_rng(7)
    zones = DeadZones(0.5)
    extremes = [-1.0, 1.0, 0.0, 1e-30, -1e-30, 0.999999, float("nan"), float("inf"), -float("inf"), 7.0]
    for _ in range(200):
        dz = float(rng.uniform(0, 0.95))
        sat = float(rng.uniform(dz + 0.01, 1.0)) if dz < 0.99 else 1.0
        shape = AxisShape(dz, min(1.0, sat), float(rng.uniform(0.05, 8)), bool(rng.integers(2)))
        shaping = Shaping().with_axis("steer", **shape.__dict__).with_axis("brake", **shape.__dict__)
        for v in extremes + list(rng.uniform(-1, 1, 10)):
            steer = shaping.steer(v, zones)
            pedal = shaping.pedal("brake", v, zones)
            assert math.isfinite(steer) and -1 <= steer <= 1
            assert math.isfinite(pedal) and 0 <= pedal <= 1
