"""Every model's Godot 4 script computes what its Godot 3 script does, statement by
statement (tests/gdscript_common_form.py). The Godot 3 scripts are run in the engine
(test_godot_export_goldens.py); no Godot 4 binary can run here, so the Godot 4 script
is held to the same statements, in Godot 4's words."""

import re

import pytest

from gdscript_common_form import (
    GODOT3_CALLS,
    GODOT3_NAMES,
    GODOT4_ONLY,
    RENAMED,
    SHAPE_SIZES,
    SLIDES,
    differences,
    typed_literals,
)
from sandbox.devtools.export_goldens import tunings
from sandbox.files.godot import export_script
from sandbox.files.presets import BUILTIN_DIR, load_preset

TUNINGS = dict(tunings())
"""Every built-in preset, and the tunings that turn on the options no preset does."""


@pytest.mark.parametrize("stem", sorted(TUNINGS))
def test_the_godot4_script_computes_what_the_engine_checked_godot3_script_does(stem):
    preset = TUNINGS[stem]
    four = export_script(preset, 4)
    found = differences(export_script(preset, 3), four)
    assert not found, "\n".join(found)
    assert typed_literals(four) == []


def test_every_word_the_comparison_forgives_is_in_some_script():
    """No entry of the tables stands for nothing (each would hide a difference)."""
    code = re.compile(r"#.*")  # without the comments (no string of the scripts holds a '#')
    three = code.sub("", "\n".join(export_script(preset, 3) for preset in TUNINGS.values()))
    four = code.sub("", "\n".join(export_script(preset, 4) for preset in TUNINGS.values()))
    for name in GODOT3_CALLS:
        assert re.search(rf"(?<![\w.]){name}\(", three), name
    for name in GODOT3_NAMES:
        assert re.search(rf"\b{name}\b", three), name
    for old, new in SLIDES + SHAPE_SIZES:
        assert old.split("\n")[0] in three and new.split("\n")[0] in four, old
    for statement in GODOT4_ONLY:
        assert statement in four
    for name in RENAMED:
        assert f"func {name}(" in four


@pytest.mark.parametrize(
    "stem, old, new, member",
    [
        ("drift", "if velocity.length() > slip_speed:", "if velocity.length() >= slip_speed:", "calculate_steering"),
        (
            "bicycle_blog",
            "return current + clampf(goal - current, -most, most)",
            "return current + clampf(goal - current, most, -most)",
            "_steer",
        ),
        ("ackermann_van", "_pos_y = y0 + _speed * dt * dy", "_pos_y = y0 + _speed * dt * dx", "step"),
        ("rigid_body_road", "maxf(1e-12, size)", "maxf(size, 1e-12)", "step"),
        ("monster_corvette_c5", "const G: float = 9.8", "const G: float = 9.81", "G"),
        ("monster_corvette_c5", "\t_bounce(x0, y0, yaw_inertia)", "\tpass", "_physics_process"),
        (
            "rigid_body_road",
            "\t_omega += lever_n * jn / inertia",
            "\t_omega -= lever_n * jn / inertia",
            "_wall_impulse",
        ),
    ],
)
def test_a_changed_line_of_a_godot4_script_is_caught(stem, old, new, member):
    """A slip of the kind a hand-written Godot 4 line could make: a comparison, a
    clamp's bounds or a tie's order swapped, a wrong axis, a constant, a lost call."""
    preset = load_preset(BUILTIN_DIR / f"{stem}.json")
    four = export_script(preset, 4)
    assert old in four, old
    found = differences(export_script(preset, 3), four.replace(old, new, 1))
    assert len(found) == 1 and found[0].startswith(f"--- Godot 3 {member}\n"), found


def test_a_type_hint_that_changes_a_number_is_caught():
    four = export_script(load_preset(BUILTIN_DIR / "bicycle_blog.json"), 4)
    assert typed_literals(four.replace("const UNSET: float = 1000000000.0", "const UNSET: int = 1000000000.5")) == [
        "UNSET: int = 1000000000.5"
    ]


def test_a_godot4_name_left_as_in_godot3_is_caught():
    preset = load_preset(BUILTIN_DIR / "drift.json")
    four = export_script(preset, 4).replace("_steer_direction = turn", "steer_direction = turn")
    with pytest.raises(AssertionError, match="steer_direction"):
        differences(export_script(preset, 3), four)
