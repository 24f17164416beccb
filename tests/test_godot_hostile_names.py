"""User text that reaches a Godot file (a preset's name in the script's header, a file
name in the scene) stays text: it can neither fill a placeholder nor leave its comment
or string, whatever it holds."""

import re
from dataclasses import replace

import pytest

from sandbox.files.godot import GODOT_VERSIONS, export_script
from sandbox.files.godot_engine_of import engine_values
from sandbox.files.godot_import import parse_script
from sandbox.files.godot_scene import save_scene
from sandbox.files.presets import BUILTIN_DIR, load_preset
from sandbox.physics.params import script_params

HOSTILE = (
    "{{SCALE}}*0+OS.get_ticks_msec()#",
    "{{PARAMS}}",
    "{{CONSTANTS}}{{HEADER}}",
    "}}{{",
    'a "quoted" name',
    "back\\slash\\",
    "two\nlines\r\nvar engine_power = 1",
    "bell\x07nul\x00tab\t",
    "ünïcödé 名前 \u202e\u2028end",
)
PRESETS = ("recipe_defaults.json", "recipe_2020.json", "rigid_body_road.json", "monster_corvette_c5.json")


def _code(text: str) -> list[str]:
    """The script without its comment lines: what Godot runs."""
    return [line for line in text.split("\n") if not line.lstrip().startswith("#")]


@pytest.mark.parametrize("godot", GODOT_VERSIONS)
@pytest.mark.parametrize("preset_file", PRESETS)
@pytest.mark.parametrize("name", HOSTILE, ids=range(len(HOSTILE)))
def test_a_preset_name_is_only_ever_a_comment(name, preset_file, godot):
    preset = load_preset(BUILTIN_DIR / preset_file)
    plain = export_script(replace(preset, name="plain"), godot)
    text = export_script(replace(preset, name=name), godot)
    assert _code(text) == _code(plain)  # not a character of code changed
    assert "{{" not in text.replace(name, "") or "{{" in plain  # no placeholder left or made
    scripted = {p.name for p in script_params(preset.model.PARAMS)}  # the shape lives in the scene, not the script
    engine = engine_values(preset.model, godot, "script")[0]  # the engine the script is written for
    assert parse_script(text, None).values == {k: v for k, v in preset.tuning.items() if k in scripted} | engine


@pytest.mark.parametrize("godot", GODOT_VERSIONS)
@pytest.mark.parametrize("stem", ('my "car"', "back\\slash", "new\nline", 'x" type="Script" id=9]\n[node name="Evil'))
def test_a_scene_names_its_script_by_a_string_that_cannot_be_broken_out_of(stem, godot, tmp_path):
    preset = load_preset(BUILTIN_DIR / "drift.json")
    scene, script = save_scene(preset, tmp_path / f"{stem}.tscn", godot)
    _, plain_script = save_scene(preset, tmp_path / "plain.tscn", godot)
    text, plain = scene.read_text(encoding="utf-8"), (tmp_path / "plain.tscn").read_text(encoding="utf-8")
    sections = re.compile(r"^\[", re.M)
    assert len(sections.findall(text)) == len(sections.findall(plain))  # no section added
    assert text.count("\n") == plain.count("\n")
    line = next(line for line in text.split("\n") if line.startswith("[ext_resource"))
    quoted = re.search(r'path="((?:[^"\\]|\\.)*)"', line).group(1)
    unescaped = re.sub(r"\\u([0-9a-f]{4})", lambda m: chr(int(m.group(1), 16)), quoted)
    unescaped = re.sub(r"\\(.)", r"\1", unescaped)
    assert unescaped == script.name and script.read_text() == plain_script.read_text()
