"""The Tuning tab's Collision shape section: the kind picked from a list (by name),
the sizes on sliders, one undo step each; a car scene imported sets the shape."""

import os
import shutil
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from sandbox.physics.car_shape import CarShape  # noqa: E402

SCRIPTS = Path(__file__).parent / "data" / "godot_scripts"


def test_the_shape_has_its_own_section_with_the_kind_as_a_list(window):
    panel = window.panel
    assert "Collision shape" in panel.sections
    box = panel.choices["shape_kind"]
    assert [box.itemText(i) for i in range(box.count())] == ["rectangle", "capsule", "circle"]
    assert box.currentText() == "capsule"  # the arcade's: the recipe demo's car
    assert {"shape_length", "shape_width", "shape_offset_x", "shape_offset_y", "shape_rotation"} <= set(panel.sliders)
    assert "shape_kind" not in panel.sliders


def test_picking_a_kind_is_one_undo_step_and_undo_shows_the_old_one(window):
    box = window.panel.choices["shape_kind"]
    steps = window.undo.count()
    box.activated.emit(2)  # as a click on "circle" does
    assert window.tuning["shape_kind"] == 2.0 and window.undo.count() == steps + 1
    assert window.undo.undoText() == "Shape capsule → circle"
    window.undo.undo()
    assert window.tuning["shape_kind"] == 1.0 and box.currentText() == "capsule"
    window.panel.resets["shape_kind"].click()
    assert window.tuning["shape_kind"] == 1.0


def test_importing_a_car_scene_sets_the_shape(window, tmp_path):
    shutil.copy(SCRIPTS / "godot3_export_port.gd", tmp_path / "car.gd")
    scene = tmp_path / "car.tscn"
    scene.write_text(
        "[gd_scene load_steps=3 format=2]\n\n"
        '[ext_resource path="car.gd" type="Script" id=1]\n\n'
        '[sub_resource type="RectangleShape2D" id=1]\nextents = Vector2( 60, 25 )\n\n'
        '[node name="Car" type="KinematicBody2D"]\nscript = ExtResource( 1 )\n\n'
        '[node name="CollisionShape2D" type="CollisionShape2D" parent="."]\n'
        "position = Vector2( 4, 0 )\nshape = SubResource( 1 )\n"
    )
    assert window.godot.import_script(str(scene))
    assert CarShape.of(window.tuning) == CarShape("rectangle", 120, 50, 4, 0, 0)
    assert window.panel.choices["shape_kind"].currentText() == "rectangle"


def _shape_pixels(window) -> int:
    """Pixels of the car view in the collision outline's red (nothing else in the view is red)."""
    from PySide6.QtGui import QColor

    image = window.track.grab().toImage()
    count = 0
    for y in range(image.height()):
        for x in range(image.width()):
            c = QColor(image.pixel(x, y))
            count += c.red() > 200 and c.green() < 110 and c.blue() < 110
    return count


def test_view_collision_shape_draws_the_outline_and_is_off_by_default(window, qtbot):
    window.drive_view.timer.stop()  # the car at rest at the origin, drawn
    window.drive_view.reset_car()
    action = window.collision_shape_action
    assert action.isCheckable() and not action.isChecked() and window.track.shape_outline is None
    assert _shape_pixels(window) == 0
    action.trigger()
    assert action.isChecked()
    outline = window.track.shape_outline
    assert outline[:, 0].max() == 69 and outline[:, 1].max() == 34  # the 138 × 68 capsule
    qtbot.waitUntil(lambda: _shape_pixels(window) > 20)
    window.panel.choices["shape_kind"].activated.emit(0)  # a rectangle: the outline follows
    assert len(window.track.shape_outline) == 4
    action.trigger()
    assert window.track.shape_outline is None
