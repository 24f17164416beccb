"""Which recipe an arcade script follows, told from its code alone: each real-world
shape, the sandbox's own exports, scripts that mix the two recipes (refused, naming
what differs), and the spellings the code may come in."""

import re
from pathlib import Path

import pytest

from sandbox.files.godot import TEMPLATES, GodotError, export_script
from sandbox.files.godot_formula import recognise
from sandbox.files.presets import BUILTIN_DIR, load_preset

SCRIPTS = Path(__file__).parent / "data" / "godot_scripts"
DEMO = (SCRIPTS / "recipe_demo_godot4.gd").read_text()
OLD = (SCRIPTS / "recipe_2020_godot3.gd").read_text()


def _edited(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new)


@pytest.mark.parametrize(
    "name, recipe_2020, analog",
    [
        ("recipe_demo_godot4.gd", False, False),
        ("typed_godot4_port.gd", False, False),
        ("commented_godot4_port.gd", False, True),
        ("godot3_export_port.gd", False, False),
        ("recipe_2020_godot3.gd", True, False),
    ],
)
def test_each_real_world_shape_is_recognised(name, recipe_2020, analog):
    formula = recognise((SCRIPTS / name).read_text())
    assert (formula.recipe_2020, formula.analog_pedals) == (recipe_2020, analog)
    # the Godot 3 port steers with is_action_pressed, unlike the Godot 4 recipe it follows
    assert len(formula.notes) == (name == "godot3_export_port.gd")


def test_the_evidence_names_what_told():
    assert set(recognise(DEMO).evidence) >= {
        "friction is multiplied by delta",
        "drag is multiplied by delta",
        "the traction weight is multiplied by delta",
        "the car stops below 50 px/s",
    }
    assert set(recognise(OLD).evidence) >= {
        "friction is not multiplied by delta",
        "the traction weight is not multiplied by delta",
        "friction is multiplied again at low speed",
        "the car stops below 5 px/s",
    }


@pytest.mark.parametrize("godot", (3, 4))
@pytest.mark.parametrize("preset", ("recipe_defaults.json", "drift.json", "go_kart.json"))
def test_the_sandboxs_own_exports_follow_the_godot4_recipe(godot, preset):
    """Their guards (`min(traction * delta, 1.0)`) and the rate_independent branch
    (friction × a fixed 1/60 s) do not hide the formula."""
    text = export_script(load_preset(BUILTIN_DIR / preset), godot)
    formula = recognise(text, {"rate_independent": "rate_independent = true" in text})
    assert formula.recipe_2020 is False


@pytest.mark.parametrize("template", sorted(TEMPLATES.rglob("arcade*.gd")), ids=lambda p: str(p.relative_to(TEMPLATES)))
def test_every_arcade_template_is_recognised_from_its_code_alone(template):
    """Each recipe's template, its declarations left out (no switch to go by): typed
    Godot 4 code with `_acceleration`, guards that put the tick in a local (`var most
    = -velocity / delta`), pedals read both ways under `if not analog_pedals:`."""
    code = re.sub(r"\{\{\w+\}\}", "", template.read_text().replace("{{LERP}}", "lerp"))
    assert recognise(code).recipe_2020 is ("2020" in template.name)


def test_the_godot3_script_exported_before_every_model_had_one():
    formula = recognise((Path(__file__).parent / "data" / "godot3_script_before_every_model_go_kart.gd").read_text())
    assert (formula.recipe_2020, formula.analog_pedals) == (False, True)  # it reads the pedals' strengths


@pytest.mark.parametrize(
    "old, new, godot4, old_recipe",
    [
        (
            "traction * delta)",
            "traction)",
            "friction is multiplied by delta",
            "the traction weight is not multiplied by delta",
        ),
        (
            "velocity * friction * delta",
            "velocity * friction",
            "drag is multiplied by delta",
            "friction is not multiplied by delta",
        ),
        (
            "\tacceleration += drag_force",
            "\tif velocity.length() < 100:\n\t\tfriction_force *= 3\n\tacceleration += drag_force",
            "friction is multiplied by delta",
            "friction is multiplied again at low speed",
        ),
        (
            "acceleration == Vector2.ZERO and velocity.length() < 50",
            "velocity.length() < 5",
            "friction is multiplied by delta",
            "the car stops below 5 px/s",
        ),
    ],
)
def test_a_script_mixing_the_recipes_is_refused_naming_both_sides(old, new, godot4, old_recipe):
    with pytest.raises(GodotError) as err:
        recognise(_edited(DEMO, old, new))
    message = str(err.value)
    assert message.startswith("the script follows neither recipe: ")
    before, _, after = message.partition(" but ")
    assert godot4 in before and before.endswith("(the Godot 4 recipe)")
    assert old_recipe in after and after.endswith("(the 2020 recipe)")


def test_a_2020_script_with_friction_multiplied_by_delta_is_refused():
    with pytest.raises(
        GodotError,
        match=r"friction is multiplied by delta \(the Godot 4 recipe\) but .*"
        r"drag is not multiplied by delta.*\(the 2020 recipe\)",
    ):
        recognise(_edited(OLD, "velocity * friction\n", "velocity * friction * get_physics_process_delta_time()\n"))


@pytest.mark.parametrize(
    "script",
    [
        "extends Node2D\nvar wheel_base = 70\n",
        DEMO[: DEMO.index("\nfunc apply_friction")],  # parts 1 and 2: no friction, drag or traction
    ],
)
def test_a_script_without_the_telling_code_is_refused(script):
    with pytest.raises(
        GodotError, match="cannot tell which recipe the script follows: no friction, drag or traction code found"
    ):
        recognise(script)


def test_a_declared_switch_wins_over_the_code():
    assert recognise(DEMO, {"recipe_2020": True}).recipe_2020 is True
    assert recognise(OLD, {"recipe_2020": False, "analog_pedals": True}).switches == {
        "recipe_2020": False,
        "rate_independent": False,
        "analog_pedals": True,
    }
    # declared, the formula needs no code at all
    assert recognise("var recipe_2020 = false", {"recipe_2020": False}).recipe_2020 is False


@pytest.mark.parametrize(
    "read, analog",
    [
        ('Input.is_action_pressed("accelerate")', False),
        ('Input.get_action_strength("accelerate") > 0', True),
        ('Input.get_axis("brake", "accelerate") > 0', True),
        ("Input.get_action_raw_strength(&'accelerate') > 0", True),
    ],
)
def test_the_pedals_on_off_or_analog(read, analog):
    text = _edited(DEMO, 'Input.is_action_pressed("accelerate")', read)
    text = _edited(text, 'Input.is_action_pressed("brake")', "false")
    assert recognise(text).analog_pedals is analog


def test_no_pedal_read_leaves_the_pedals_unsaid():
    text = DEMO.replace('"accelerate"', '"ui_up"').replace('"brake"', '"ui_down"')
    assert recognise(text).analog_pedals is None


@pytest.mark.parametrize(
    "change",
    [
        (
            "func apply_friction(delta):",
            "func apply_friction(step: float) -> void:",
            "* drag * delta",
            "* drag * step",
            "* friction * delta",
            "* friction * step",
        ),  # the tick under another name, passed in
        ("(delta)", "(_delta)", "* delta", "* _delta"),
        ("\t", "    "),  # spaces, not tabs
        ("traction * delta)", "traction * delta)  # lerp(v, h, traction) in the 2020 recipe"),
        (
            "var traction = traction_slow",
            "var grip := traction_slow",
            "traction = traction_fast",
            "grip = traction_fast",
            "traction * delta)",
            "grip * delta)",
        ),
        (
            "lerp(velocity, new_heading * velocity.length(), traction * delta)",
            "velocity.lerp(\n\t\t\tnew_heading * velocity.length(),\n\t\t\ttraction * delta\n\t\t)",
        ),
        (
            "var friction_force = velocity * friction * delta",
            "var friction_force = velocity * friction\n\tfriction_force *= delta",
        ),
    ],
)
def test_spellings_of_the_godot4_recipe_are_recognised(change):
    text = DEMO
    for old, new in zip(change[::2], change[1::2]):
        text = _edited(text, old, new)
    assert recognise(text).recipe_2020 is False


def test_comments_and_strings_are_not_code():
    text = _edited(
        OLD,
        "\tvar friction_force = velocity * friction\n",
        "\t# var friction_force = velocity * friction * delta\n\tvar friction_force = velocity * friction\n"
        '\tvar note = "velocity * friction * delta"\n',
    )
    assert recognise(text).recipe_2020 is True


def test_a_stop_speed_of_the_users_own_is_noted():
    formula = recognise(_edited(DEMO, "velocity.length() < 50", "velocity.length() < 20"))
    assert formula.recipe_2020 is False
    assert formula.notes == (
        "the script stops the car below 20 px/s; the sandbox stops it below 50 px/s as the recipe does",
    )


def test_steering_keys_read_pressed_or_not_are_noted_where_the_sandbox_steers_by_the_stick():
    """A Godot 3 port of the Godot 4 recipe that reads steer_left/steer_right with
    is_action_pressed steers like the sandbox on a keyboard only: said, not refused."""
    from sandbox.files.godot_into import update_text
    from sandbox.files.presets import BUILTIN_DIR, load_preset

    text = (SCRIPTS / "godot3_export_port.gd").read_text()
    notes = recognise(text).notes
    assert len(notes) == 1 and "steering keys pressed or not" in notes[0] and "gamepad" in notes[0]
    update = update_text(text, load_preset(BUILTIN_DIR / "recipe_defaults.json"))
    assert update.notes == list(notes)
    # the 2020 text reads them pressed or not, as the sandbox does for it: nothing to say
    assert recognise((SCRIPTS / "recipe_2020_godot3.gd").read_text()).notes == ()
