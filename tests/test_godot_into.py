"""`export-godot --into`: a tuning written into the user's own script, only the value
literals changed (every other byte as it was), and refusals that leave the file as
it was."""

import re
from dataclasses import replace
from pathlib import Path

import pytest

from sandbox.cli import main
from sandbox.files.godot import TEMPLATE_SWITCHES, export_script
from sandbox.files.godot_engine_of import engine_values
from sandbox.files.godot_import import parse_script
from sandbox.files.godot_into import update_text, write_into
from sandbox.files.presets import BUILTIN_DIR, declared_preset, load_preset
from sandbox.physics.models import MODELS, arcade
from sandbox.physics.params import script_params

SCRIPTS = Path(__file__).parent / "data" / "godot_scripts"
PORTS = {
    "recipe_demo_godot4.gd": False,
    "typed_godot4_port.gd": False,
    "commented_godot4_port.gd": True,
    "godot3_export_port.gd": False,
}
"""The Godot 4 recipe's scripts, and whether each reads the pedals as analog strengths."""
NEW = {
    "wheel_base": ("64", "64.0"),
    "steering_angle": ("22.5", "22.5"),
    "engine_power": ("1250", "1250.0"),
    "friction": ("-48", "-48.0"),
    "drag": ("-0.045", "-0.045"),
    "braking": ("-520", "-520.0"),
    "max_speed_reverse": ("300", "300.0"),
    "slip_speed": ("380", "380.0"),
    "traction_fast": ("3.5", "3.5"),
    "traction_slow": ("12", "12.0"),
}
"""New values, as an int-style and as a float-style literal would spell them."""
DECLARED = r"^(.*\bvar {name}\s*(?::\s*\w+\s*)?:?=\s*)([-+\d.eE_]+)"


def _preset(analog: bool = False, **values):
    """The arcade's defaults with the NEW values (and `values`), its pedals as the script's."""
    tuning = declared_preset(arcade, "Mine").tuning.copy()
    tuning.set("analog_pedals", analog)
    for name, (spelt, _) in NEW.items():
        tuning.set(name, float(spelt))
    for name, value in values.items():
        tuning.set(name, value)
    return replace(declared_preset(arcade, "Mine"), tuning=tuning)


def _expected(text: str) -> str:
    """`text` with each parameter's literal replaced by the NEW value, in the old
    literal's style (found by this test's own pattern, line by line)."""
    lines = text.split("\n")
    for name, (int_style, float_style) in NEW.items():
        pattern = re.compile(DECLARED.format(name=name))
        hits = [i for i, line in enumerate(lines) if pattern.match(line)]
        assert len(hits) == 1, name
        i = hits[0]
        old = pattern.match(lines[i]).group(2)
        int_typed = "export(int" in lines[i] or ": int" in lines[i]
        new = float_style if "." in old and not int_typed else int_style
        lines[i] = pattern.sub(lambda m, new=new: m.group(1) + new, lines[i])
    return "\n".join(lines)


@pytest.mark.parametrize("name", PORTS)
def test_only_the_values_change_in_each_real_world_script(tmp_path, name):
    original = (SCRIPTS / name).read_bytes()
    path = tmp_path / name
    path.write_bytes(original)
    update = write_into(path, _preset(PORTS[name]))
    assert path.read_bytes() == _expected(original.decode()).encode()
    assert (tmp_path / f"{name}.bak").read_bytes() == original
    assert sorted(change.name for change in update.changed) == sorted(NEW)
    assert update.missing == []
    godot = 3 if "extends KinematicBody2D" in original.decode() else 4
    assert parse_script(path.read_text(), arcade).values == {
        **{key: float(spelt) for key, (spelt, _) in NEW.items()},
        **engine_values(arcade, godot, "script")[0],
        "rate_independent": False,
        "recipe_2020": False,
        "analog_pedals": PORTS[name],
    }


@pytest.mark.parametrize("name", PORTS)
def test_crlf_a_byte_order_mark_and_trailing_whitespace_are_kept(tmp_path, name):
    text = (SCRIPTS / name).read_text()
    padded = "\n".join(line + " \t" if "var " in line else line for line in text.split("\n"))
    path = tmp_path / name
    path.write_bytes(b"\xef\xbb\xbf" + padded.replace("\n", "\r\n").encode())
    write_into(path, _preset(PORTS[name]), backup=False)
    expected = "\n".join(line + " \t" if "var " in line else line for line in _expected(text).split("\n"))
    assert path.read_bytes() == b"\xef\xbb\xbf" + expected.replace("\n", "\r\n").encode()
    assert not (tmp_path / f"{name}.bak").exists()


def test_the_diff_names_the_changed_lines_and_a_script_with_the_values_already_is_left_alone(tmp_path):
    path = tmp_path / "car.gd"
    path.write_text((SCRIPTS / "recipe_demo_godot4.gd").read_text())
    update = update_text(path.read_text(), _preset(), "car.gd")
    assert "-var engine_power = 900  # Forward acceleration force." in update.diff.split("\n")
    assert "+var engine_power = 1250  # Forward acceleration force." in update.diff.split("\n")
    assert str(next(c for c in update.changed if c.name == "engine_power")) == "line 5: engine_power 900 → 1250"
    write_into(path, _preset())
    written = path.stat().st_mtime_ns, path.read_bytes()
    (tmp_path / "car.gd.bak").unlink()
    again = write_into(path, _preset())
    assert again.changed == [] and (path.stat().st_mtime_ns, path.read_bytes()) == written
    assert not (tmp_path / "car.gd.bak").exists()


def test_parameters_the_script_lacks_are_listed_not_added(tmp_path):
    text = (SCRIPTS / "recipe_demo_godot4.gd").read_text()
    text = text.replace("var slip_speed = 400  # Speed where traction is reduced\n", "")
    update = update_text(text, _preset(), "car.gd")
    assert update.missing == ["slip_speed"] and "var slip_speed" not in update.text


@pytest.mark.parametrize("godot", (3, 4))
@pytest.mark.parametrize("path", sorted(BUILTIN_DIR.glob("*.json")), ids=lambda p: p.stem)
def test_a_script_exported_by_the_sandbox_takes_any_preset_of_its_formula_bit_for_bit(path, godot):
    """Into the script exported from the model's defaults (of the preset's recipe, for
    the arcade): switches and sliders alike."""
    preset = load_preset(path)
    defaults = declared_preset(preset.model, "defaults")
    tuning = defaults.tuning.copy()
    for switch in TEMPLATE_SWITCHES:  # the recipe is the script's code: the same one
        if switch in tuning:
            tuning.set(switch, preset.tuning[switch])
    text = export_script(replace(defaults, tuning=tuning), godot)
    update = update_text(text, preset, "car.gd")
    script = {p.name: preset.tuning[p.name] for p in script_params(preset.model.PARAMS)}  # the shape: the scene's
    assert parse_script(update.text, None).values == script | engine_values(preset.model, godot, "script")[0]


def _refused(tmp_path, name: str, text: str, preset, message: str, capsys) -> None:
    """export-godot --into refuses: exit code 2, the reason on stderr, the file as it was."""
    path = tmp_path / name
    path.write_text(text)
    before = path.read_bytes(), path.stat().st_mtime_ns
    preset_path = tmp_path / "tuning.json"
    from sandbox.files.presets import save_preset

    save_preset(preset, preset_path)
    assert main(["export-godot", "--preset", str(preset_path), "--into", str(path)]) == 2
    error = capsys.readouterr().err
    assert message in error and "nothing was written" in error, error
    assert (path.read_bytes(), path.stat().st_mtime_ns) == before
    assert not (tmp_path / f"{name}.bak").exists()


def test_a_2020_recipe_script_and_a_godot4_recipe_tuning_are_refused(tmp_path, capsys):
    _refused(
        tmp_path,
        "old.gd",
        (SCRIPTS / "recipe_2020_godot3.gd").read_text(),
        _preset(),
        "the script follows the 2020 recipe",
        capsys,
    )


def test_a_2020_recipe_script_takes_a_2020_recipe_tuning(tmp_path):
    path = tmp_path / "old.gd"
    original = (SCRIPTS / "recipe_2020_godot3.gd").read_text()
    path.write_text(original)
    tuning = load_preset(BUILTIN_DIR / "recipe_2020.json").tuning.copy()
    tuning.set("friction", -1.2)
    tuning.set("traction_fast", 0.15)
    write_into(path, replace(load_preset(BUILTIN_DIR / "recipe_2020.json"), tuning=tuning))
    assert path.read_text() == original.replace("var friction = -0.9", "var friction = -1.2").replace(
        "var traction_fast = 0.1 ", "var traction_fast = 0.15 "
    )


def test_a_switch_declared_but_never_read_by_the_code_is_no_way_round(tmp_path, capsys):
    """`var recipe_2020 = false` above Godot 4 recipe code that never reads it: writing
    true there would not make the code the 2020 recipe's."""
    text = "var recipe_2020 = false\n" + (SCRIPTS / "recipe_demo_godot4.gd").read_text()
    _refused(
        tmp_path,
        "car.gd",
        text,
        load_preset(BUILTIN_DIR / "recipe_2020.json"),
        "the script follows the Godot 4 recipe, but the tuning has recipe_2020 on",
        capsys,
    )


def test_an_option_the_script_has_no_switch_for_is_refused(tmp_path, capsys):
    _refused(
        tmp_path,
        "car.gd",
        (SCRIPTS / "recipe_demo_godot4.gd").read_text(),
        _preset(rate_independent=True),
        "the tuning has rate_independent on, but the script has no such switch",
        capsys,
    )


def test_pedals_that_differ_are_refused(tmp_path, capsys):
    _refused(
        tmp_path,
        "car.gd",
        (SCRIPTS / "commented_godot4_port.gd").read_text(),
        _preset(analog=False),
        "the script reads the pedals as analog strengths, but the tuning has analog_pedals off",
        capsys,
    )


def test_a_script_of_another_model_is_refused(tmp_path, capsys):
    bicycle = export_script(declared_preset(MODELS["bicycle"], "b"), 4)
    _refused(tmp_path, "bicycle.gd", bicycle, _preset(), "this is a script of the Kinematic bicycle", capsys)


def test_a_recipe_script_takes_no_other_models_tuning(tmp_path, capsys):
    _refused(
        tmp_path,
        "car.gd",
        (SCRIPTS / "recipe_demo_godot4.gd").read_text(),
        load_preset(BUILTIN_DIR / "bicycle_exact_arc.json"),
        "this script computes as the Godot recipe's car (the Arcade model)",
        capsys,
    )


def test_a_script_without_parameters_is_refused(tmp_path, capsys):
    _refused(
        tmp_path,
        "player.gd",
        "extends Node2D\n\nvar health = 100\n",
        _preset(),
        "no parameter of the Arcade (Godot recipe) model in it",
        capsys,
    )


def test_a_fraction_into_an_int_is_refused_naming_the_line(tmp_path, capsys):
    text = (
        (SCRIPTS / "typed_godot4_port.gd")
        .read_text()
        .replace("var steering_angle: float = 15.0", "var steering_angle: int = 15")
    )
    _refused(
        tmp_path,
        "typed.gd",
        text,
        _preset(),
        "line 8: steering_angle is an int, and the tuning's value 22.5 is not a whole number",
        capsys,
    )


def test_a_fraction_into_an_int_inferred_from_its_literal_is_refused(tmp_path, capsys):
    text = (
        (SCRIPTS / "typed_godot4_port.gd")
        .read_text()
        .replace("var steering_angle: float = 15.0", "var steering_angle := 15")
    )
    _refused(
        tmp_path,
        "typed.gd",
        text,
        _preset(),
        "line 8: steering_angle is an int (`:=` with a whole number "
        "makes it one; write it as a float, e.g. `:= 15.0`, to take fractions)",
        capsys,
    )


def test_an_expression_where_a_value_belongs_is_refused_naming_the_line(tmp_path, capsys):
    text = (SCRIPTS / "recipe_demo_godot4.gd").read_text().replace("var drag = -0.06", "var drag = -0.06 * 2")
    _refused(tmp_path, "car.gd", text, _preset(), "line 7: drag = -0.06 * 2 is not a plain number", capsys)


def test_the_command_prints_the_changes_and_on_request_the_diff(tmp_path, capsys):
    path = tmp_path / "car.gd"
    path.write_text((SCRIPTS / "godot3_export_port.gd").read_text())
    preset_path = tmp_path / "tuning.json"
    from sandbox.files.presets import save_preset

    save_preset(_preset(), preset_path)
    original = path.read_bytes()
    assert main(["export-godot", "--preset", str(preset_path), "--into", str(path), "--dry-run", "--diff"]) == 0
    printed = capsys.readouterr().out
    assert "would change (nothing was written, --dry-run)" in printed
    assert "  line 7: engine_power 900 → 1250" in printed.split("\n")
    assert "-export(float, 0, 4000, 10) var engine_power = 900" in printed.split("\n")
    assert "+export(float, 0, 4000, 10) var engine_power = 1250" in printed.split("\n")
    assert path.read_bytes() == original and not (tmp_path / "car.gd.bak").exists()
    assert main(["export-godot", "--preset", str(preset_path), "--into", str(path), "--no-backup"]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith(f"{path}: updated with the values of preset 'Mine':\n")
    assert "--- a/car.gd" not in printed and not (tmp_path / "car.gd.bak").exists()
    assert path.read_bytes() == _expected(original.decode()).encode()


@pytest.mark.parametrize(
    "flags, message",
    [
        (["--scene"], "--scene: --into writes the values into your script as it is"),
        (["--godot", "3"], "--godot: --into writes the values into your script as it is"),
    ],
)
def test_flags_of_a_new_script_do_not_go_with_into(tmp_path, capsys, flags, message):
    path = tmp_path / "car.gd"
    path.write_text((SCRIPTS / "recipe_demo_godot4.gd").read_text())
    assert main(["export-godot", "--preset", str(BUILTIN_DIR / "drift.json"), "--into", str(path)] + flags) == 2
    assert message in capsys.readouterr().err


def test_into_flags_need_into(tmp_path, capsys):
    assert (
        main(
            [
                "export-godot",
                "--preset",
                str(BUILTIN_DIR / "drift.json"),
                "--out",
                str(tmp_path / "car.gd"),
                "--no-backup",
            ]
        )
        == 2
    )
    assert "--no-backup: only with --into" in capsys.readouterr().err
    assert not (tmp_path / "car.gd").exists()


def _script_and_preset(tmp_path):
    """The recipe demo's script at tmp_path/car.gd, and a preset of other values for it."""
    path = tmp_path / "car.gd"
    path.write_bytes((SCRIPTS / "recipe_demo_godot4.gd").read_bytes())
    return path, _preset()


def test_a_backup_name_that_is_a_symlink_is_never_written_through(tmp_path):
    """car.gd.bak links to another file: that file keeps its content, the link stays a
    link, and the old script is kept under the next free name."""
    path, preset = _script_and_preset(tmp_path)
    original = path.read_bytes()
    precious = tmp_path / "precious.txt"
    precious.write_text("not a script: must stay as it is\n")
    (tmp_path / "car.gd.bak").symlink_to(precious)
    update = write_into(path, preset)
    assert precious.read_text() == "not a script: must stay as it is\n"
    assert (tmp_path / "car.gd.bak").is_symlink() and (tmp_path / "car.gd.bak").resolve() == precious
    assert update.backup == tmp_path / "car.gd.bak2" and update.backup.read_bytes() == original
    assert path.read_bytes() == _expected(original.decode()).encode()


def test_a_broken_symlink_as_the_backup_name_is_left_as_it_is(tmp_path):
    path, preset = _script_and_preset(tmp_path)
    (tmp_path / "car.gd.bak").symlink_to(tmp_path / "nowhere" / "file")
    update = write_into(path, preset)
    assert (tmp_path / "car.gd.bak").is_symlink() and not (tmp_path / "nowhere").exists()
    assert update.backup == tmp_path / "car.gd.bak2"


def test_a_second_into_keeps_the_first_backup(tmp_path, capsys):
    """Each --into keeps the script it replaces under a new name: the original stays in
    car.gd.bak, the first update's result in car.gd.bak2; the output names each."""
    path, preset = _script_and_preset(tmp_path)
    original = path.read_bytes()
    preset_path = tmp_path / "tuning.json"
    from sandbox.files.presets import save_preset

    save_preset(preset, preset_path)
    assert main(["export-godot", "--preset", str(preset_path), "--into", str(path)]) == 0
    assert f"the old file is kept as {tmp_path / 'car.gd.bak'}" in capsys.readouterr().out
    first = path.read_bytes()
    preset.tuning.set("engine_power", 1500.0)
    save_preset(preset, preset_path)
    assert main(["export-godot", "--preset", str(preset_path), "--into", str(path)]) == 0
    assert f"the old file is kept as {tmp_path / 'car.gd.bak2'}" in capsys.readouterr().out
    assert (tmp_path / "car.gd.bak").read_bytes() == original
    assert (tmp_path / "car.gd.bak2").read_bytes() == first
    assert "var engine_power = 1500" in path.read_text()


def test_a_read_only_script_is_refused_naming_why(tmp_path, capsys):
    """Mode 0444: the script is not renamed over (root could, so the mode decides)."""
    path, preset = _script_and_preset(tmp_path)
    preset_path = tmp_path / "tuning.json"
    from sandbox.files.presets import save_preset

    save_preset(preset, preset_path)
    path.chmod(0o444)
    try:
        before = path.read_bytes(), path.stat().st_ino
        assert main(["export-godot", "--preset", str(preset_path), "--into", str(path)]) == 2
        error = capsys.readouterr().err
        assert f"{path}: is read-only" in error and "-r--r--r--" in error, error
        assert (path.read_bytes(), path.stat().st_ino) == before
        assert not (tmp_path / "car.gd.bak").exists()
    finally:
        path.chmod(0o644)


def test_a_value_off_its_step_is_written_to_the_steps_precision(tmp_path, capsys):
    """wheel_base's step is 1 px: 74.9747302957341 is written 75 (the shortest decimal
    within half a step), not its sixteen digits; the output says it was rounded. A value
    on its step (22.5, step 0.5) is written exactly."""
    path, preset = _script_and_preset(tmp_path)
    preset.tuning.set("wheel_base", 74.9747302957341)
    preset.tuning.set("drag", -0.0452)  # step 0.001: the nearest is -0.045, 0.0002 away
    preset_path = tmp_path / "tuning.json"
    from sandbox.files.presets import save_preset

    save_preset(preset, preset_path)
    assert main(["export-godot", "--preset", str(preset_path), "--into", str(path)]) == 0
    printed = capsys.readouterr().out
    text = path.read_text()
    assert "var wheel_base = 75 " in text and "var drag = -0.045\n" in text and "var steering_angle = 22.5 " in text
    assert "wheel_base 74.9747302957341 as 75 (step 1)" in printed and "drag -0.0452 as -0.045" in printed
    assert "steering_angle" not in printed.split("precision")[-1]


def test_a_script_holding_the_rounded_value_already_is_not_rewritten(tmp_path):
    path, preset = _script_and_preset(tmp_path)
    write_into(path, preset, backup=False)
    written = path.read_bytes(), path.stat().st_mtime_ns
    preset.tuning.set("wheel_base", 64.2)  # the script says 64; within half of wheel_base's step
    assert write_into(path, preset, backup=False).changed == []
    assert (path.read_bytes(), path.stat().st_mtime_ns) == written
