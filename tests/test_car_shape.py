"""The car's collision shape as parameters: declared once for every model, its defaults
the body the window draws (the arcade: the recipe demo's capsule), a choice of kind
that files write by name, and no motion on the open field depending on it."""

import numpy as np
import pytest

from sandbox.devtools.export_drives import drive
from sandbox.physics.car_shape import CarShape
from sandbox.physics.models import MODELS
from sandbox.physics.params import Tuning
from sandbox.physics.sim import run_trace

NAMES = ["shape_kind", "shape_length", "shape_width", "shape_offset_x", "shape_offset_y", "shape_rotation"]


@pytest.mark.parametrize("name", MODELS)
def test_every_model_declares_the_shape_once_in_its_own_section(name):
    model = MODELS[name]
    shape = [p for p in model.PARAMS if p.group == "Collision shape"]
    assert [p.name for p in shape] == NAMES
    assert all(p.scene and p.help and p.unit for p in shape)
    lengths = [p for p in shape if p.name in ("shape_length", "shape_width", "shape_offset_x", "shape_offset_y")]
    assert all(p.unit == model.LENGTH_UNIT for p in lengths)


@pytest.mark.parametrize("name", [n for n in MODELS if n != "arcade"])
def test_the_default_shape_is_the_body_the_window_draws(name):
    model = MODELS[name]
    defaults = Tuning(model.PARAMS)
    body = model.body(defaults)
    assert CarShape.of(defaults) == CarShape("rectangle", body["length"], body["width"])


def test_the_arcades_default_shape_is_the_recipe_demos_capsule():
    """The demo's CapsuleShape2D: radius 34, height 70 (Godot 3: the straight middle),
    turned 90° so it lies along the car's heading."""
    shape = CarShape.of(Tuning(MODELS["arcade"].PARAMS))
    assert shape == CarShape("capsule", 70 + 2 * 34, 2 * 34)


def test_the_kind_is_a_choice_of_three_names():
    kind = next(p for p in MODELS["arcade"].PARAMS if p.name == "shape_kind")
    assert kind.is_choice and not kind.is_number and not kind.moves_motion
    assert [kind.check(n) for n in ("rectangle", "capsule", "circle")] == [0.0, 1.0, 2.0]
    assert kind.check(2) == 2.0 and kind.written(2.0) == "circle"
    for bad in ("triangle", 3, 0.5, -1, True, None, float("nan")):
        with pytest.raises(ValueError, match="is not one of rectangle, capsule or circle"):
            kind.check(bad)


def test_the_outline_follows_the_kind_size_offset_and_rotation():
    capsule = CarShape("capsule", 138, 68).outline()
    assert capsule[:, 0].max() == pytest.approx(69) and capsule[:, 1].max() == pytest.approx(34)
    turned = CarShape("rectangle", 100, 40, 10, -5, 90).outline()
    assert turned[:, 0].min() == pytest.approx(-10) and turned[:, 0].max() == pytest.approx(30)
    assert turned[:, 1].min() == pytest.approx(-55) and turned[:, 1].max() == pytest.approx(45)
    circle = CarShape("circle", 10, 30, 0, 0, 45).outline()
    assert np.hypot(circle[:, 0], circle[:, 1]) == pytest.approx(15)


@pytest.mark.parametrize("name", MODELS)
def test_no_motion_on_the_open_field_depends_on_the_shape(name):
    """A drive with another shape is the same drive, bit for bit."""
    model = MODELS[name]
    defaults = Tuning(model.PARAMS)
    other = defaults.copy()
    other.set_many({"shape_kind": "circle", "shape_width": 2 * defaults["shape_width"], "shape_offset_x": 1.0})
    trace = drive("slalom_reverse", 60)
    assert np.array_equal(run_trace(model, defaults, trace, 60), run_trace(model, other, trace, 60))
