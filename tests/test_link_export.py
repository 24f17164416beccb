"""The link node's export: its table of the car's parameters, both Godot versions'
syntax (Godot 3 parsed by the engine, Godot 4 by gdtoolkit as the other Godot 4 scripts
are), the command line, the scene with the node, and File → Export in the window. The
node at work in the engine: test_link_engine.py."""

from __future__ import annotations

import json
import re
import socket
import subprocess
from pathlib import Path

import pytest

from sandbox.cli import main
from sandbox.devtools.export_drives import drive
from sandbox.devtools.oracle import PROJECT, compare, godot_binary, run_oracle
from sandbox.files.godot import LINE_WIDTH, export_script, variable_name
from sandbox.files.godot_link import export_link_node, link_table
from sandbox.files.godot_scene import export_scene, save_scene
from sandbox.files.presets import BUILTIN_DIR, load_preset
from sandbox.files.traces import save_trace
from sandbox.physics.models import MODELS

GDLINTRC = Path(__file__).resolve().parents[1] / "gdlintrc"
RECIPE = (PROJECT / "recipe_car.gd").read_text(encoding="utf-8")
PRESETS = {}
"""The first built-in preset of each model."""
for _path in sorted(BUILTIN_DIR.glob("*.json")):
    PRESETS.setdefault(load_preset(_path).model.NAME, load_preset(_path))
needs_godot = pytest.mark.skipif(godot_binary() is None, reason="godot3-server is not installed")


def _gdlint(text: str) -> list:
    import yaml
    from gdtoolkit.linter import DEFAULT_CONFIG, lint_code

    return lint_code(text, {**DEFAULT_CONFIG, **yaml.safe_load(GDLINTRC.read_text(encoding="utf-8"))})


def _table(text: str) -> dict[str, list]:
    """The node's PARAMS constant, read back: {parameter: [variable, min, max, option]}."""
    block = re.search(r"^const PARAMS(?:: Dictionary)? = \{(.*?)^\}", text, re.S | re.M)
    rows = re.findall(r'^\t"(\w+)": \["(\w+)", ([-\d.e]+), ([-\d.e]+), (true|false)\],$', block.group(1), re.M)
    return {name: [var, float(low), float(high), option == "true"] for name, var, low, high, option in rows}


@pytest.mark.parametrize("model", sorted(MODELS))
def test_the_table_names_each_exported_variable_with_its_slider_range(model):
    preset = PRESETS[model]
    script = export_script(preset, 3)
    table = _table(export_link_node(preset.model, 3, tuning=preset.tuning))
    declared = {
        var: (low, high)
        for low, high, var in re.findall(
            r"^export\((?:float, ([-\d.e]+), ([-\d.e]+), [-\d.e]+|bool)\) var (\w+)", script, re.M
        )
    }
    declared.pop("pixels_per_metre", None)
    assert sorted(row[0] for row in table.values()) == sorted(declared)  # every one, and only those
    for name, (var, low, high, option) in table.items():
        assert var == variable_name(name)
        if option:
            assert declared[var] == ("", "")
        else:
            assert (low, high) == (float(declared[var][0]), float(declared[var][1]))
    if model == "monster":  # a parameter whose name GDScript reserves keeps its variable
        assert table["abs"][0] == "anti_lock_brakes"


def test_for_the_recipes_own_script_the_table_has_what_it_declares_and_lists_the_rest():
    text = RECIPE.replace("var steer_direction = 0.0", "var steer_direction").replace("var drag = -0.06\n", "")
    text = text.replace("var engine_power = 900", "var engine_power: float = 900.0")
    table = link_table(None, None, text, "car.gd")
    node = export_link_node(None, 3, text, "car.gd")
    assert table.model is MODELS["arcade"]
    assert (
        set(_table(node))
        == set(table.rows)
        == {
            "wheel_base",
            "steering_angle",
            "engine_power",
            "friction",
            "braking",
            "max_speed_reverse",
            "slip_speed",
            "traction_fast",
            "traction_slow",
        }
    )
    assert sorted(table.missing) == ["analog_pedals", "drag", "rate_independent"]
    assert re.search(r'^const MISSING = \["drag", "rate_independent", "analog_pedals"\]$', node, re.M)


def test_a_script_name_is_shown_in_a_comment_never_made_code():
    node = export_link_node(None, 3, RECIPE, 'car.gd\nfunc _ready():\n\tOS.execute("rm", ["-rf", "/"])\n# {{TABLES}}')
    header = node.split("\nextends Node\n")[0]
    assert all(line.startswith("#") for line in header.split("\n"))
    assert "OS.execute" in header and node.count("const PARAMS") == 1


@pytest.mark.parametrize("model", sorted(MODELS) + ["recipe"])
def test_every_godot4_node_is_as_gdformat_writes_it_and_lint_clean(model):
    """No Godot 4 binary can run here: gdtoolkit's parser, formatter and linter stand in
    for it, as for every exported Godot 4 script."""
    from gdtoolkit.formatter import format_code
    from gdtoolkit.parser import parser

    if model == "recipe":
        text = export_link_node(None, 4, RECIPE, "car.gd")
    else:
        text = export_link_node(PRESETS[model].model, 4, tuning=PRESETS[model].tuning)
    parser.parse(text)  # raises on a syntax error
    assert format_code(text, max_line_length=LINE_WIDTH) == text  # gdformat --check
    assert _gdlint(text) == []
    assert "process_physics_priority" in text and "PacketPeerUDP" in text and "JSON.stringify" in text


def check_only(text: str, folder) -> subprocess.CompletedProcess:
    """Godot 3's parse of the node `text` (`--check-only`), run in `folder`."""
    (folder / "link.gd").write_text(text, encoding="utf-8")
    return subprocess.run(
        [godot_binary(), "--check-only", "-s", str(folder / "link.gd")],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=folder,  # a script without a project: Godot writes its logs/ where it runs
    )


@needs_godot
@pytest.mark.parametrize("model", sorted(MODELS) + ["recipe"])
def test_every_godot3_node_parses_in_the_engine(model, tmp_path):
    if model == "recipe":
        text = export_link_node(None, 3, RECIPE, "car.gd")
    else:
        text = export_link_node(PRESETS[model].model, 3, tuning=PRESETS[model].tuning)
    result = check_only(text, tmp_path)
    assert result.returncode == 0 and "Parse Error" not in result.stderr, result.stderr[-500:]


def test_the_godot3_check_can_fail(tmp_path):
    if godot_binary() is None:
        pytest.skip("godot3-server is not installed")
    text = export_link_node(MODELS["arcade"], 3).replace("func _receive():", "func _receive()")
    result = check_only(text, tmp_path)
    assert result.returncode != 0


def test_the_command_writes_the_node_for_a_preset_or_for_your_script(tmp_path, capsys):
    out = tmp_path / "sandbox_link.gd"
    assert main(["export-godot", "--link", "--preset", "drift", "--godot", "3", "--out", str(out)]) == 0
    assert "extends Node" in out.read_text() and "export var token" in out.read_text()
    assert "child of the car" in capsys.readouterr().out
    script = tmp_path / "car.gd"
    script.write_text(RECIPE, encoding="utf-8")
    assert main(["export-godot", "--link", "--for-script", str(script), "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert "@export var token" in out.read_text() and "rate_independent, analog_pedals" in said


@pytest.mark.parametrize(
    "args, says",
    [
        (["--link", "--out", "x.gd"], "--preset"),
        (["--link", "--preset", "drift", "--scene", "--out", "x.gd"], "--scene --with-link"),
        (["--link", "--preset", "drift", "--out", "x.tscn"], "ends in .gd"),
        (["--preset", "drift", "--for-script", "car.gd", "--out", "x.gd"], "only with --link"),
        (["--preset", "drift", "--with-link", "--out", "x.gd"], "only with --scene"),
        (["--out", "x.gd"], "--preset"),
    ],
)
def test_the_command_refuses_what_does_not_go_together(args, says, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["export-godot", *args]) == 2
    assert says in capsys.readouterr().err
    assert not any(tmp_path.iterdir())  # nothing written


@pytest.mark.parametrize("godot", (3, 4))
def test_a_scene_with_the_link_has_the_node_as_a_child_of_the_car(godot, tmp_path):
    preset = PRESETS["monster"]
    written = save_scene(preset, tmp_path / "corvette.tscn", godot, with_link=True)
    assert [p.name for p in written] == ["corvette.tscn", "corvette.gd", "corvette_link.gd"]
    scene = written[0].read_text()
    assert scene.startswith("[gd_scene load_steps=4 ")
    node = scene.split('[node name="SandboxLink" type="Node" parent="."]\n')[1].split("\n")[0]
    assert node in ('script = ExtResource("2_link")', "script = ExtResource( 2 )")
    assert 'path="corvette_link.gd"' in scene
    assert written[2].read_text() == export_link_node(preset.model, godot, tuning=preset.tuning)
    assert save_scene(preset, tmp_path / "plain.tscn", godot)[0].read_text().count("SandboxLink") == 0


@needs_godot
def test_the_link_node_in_a_scene_leaves_the_drive_as_it_was(tmp_path):
    """The scene with the node drives the same trajectory, tick for tick, as without it
    (the node says hello, and no sandbox answers)."""
    preset = PRESETS["arcade"]
    listening = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    listening.bind(("127.0.0.1", 0))
    trace = tmp_path / "trace.csv"
    save_trace(trace, drive("slalom_reverse", 60)[:600])
    runs = []
    for link in (None, "car_link.gd"):
        scene = {"car.tscn": export_scene(preset, 3, "car.gd", link_name=link), "car.gd": export_script(preset, 3)}
        if link:
            port = listening.getsockname()[1]
            scene[link] = export_link_node(preset.model, 3, tuning=preset.tuning).replace(
                "export var port = 47620", f"export var port = {port}"
            )
        runs.append(run_oracle(trace, scene=scene, car_adds_actions=True))
    assert compare(runs[0], runs[1]) == {"position_px": 0.0, "heading_rad": 0.0}
    listening.settimeout(5)
    hello = json.loads(listening.recv(70000))  # the node ran in the scene, on the car
    listening.close()
    assert hello["type"] == "hello" and hello["model"] == "arcade" and hello["params"]["wheel_base"] == 70


def test_file_export_godot_link_node_writes_the_node_of_the_car_on_screen(window, tmp_path):
    window.switch_model("monster")
    action = next(a for a in window.godot_exports if a.text().replace("&", "") == "Godot link node…")
    assert action.isEnabled()
    assert window.godot.export_link(tmp_path / "sandbox_link.gd", 3)
    text = (tmp_path / "sandbox_link.gd").read_text()
    preset = window.current_preset()
    assert text == export_link_node(preset.model, 3, tuning=preset.tuning)
    assert "Exported the Godot 3 link node" in window.statusBar().currentMessage()
    assert not window.godot.export_link(tmp_path / "no such folder" / "link.gd", 4)


@pytest.mark.parametrize("godot", (3, 4))
def test_the_node_never_runs_what_it_receives(godot):
    """What a message holds is only compared, and set on the car's variables the table
    names: nothing in the node turns text into code, calls a method by a name, or loads."""
    text = export_link_node(MODELS["monster"], godot)
    code = "\n".join(line.split("#")[0] for line in text.split("\n"))
    forbidden = ("str2var", "bytes2var", "str_to_var", "bytes_to_var", "Expression", "call(", "callv", "load(")
    for word in forbidden + ("execute", "set_script", "get_node("):
        assert word not in code, word
    sets = re.findall(r"\.set\((.*)\)", code)
    assert sets == ["PARAMS[key][0], value"]  # the one place a value reaches the car
    assert "var reason = _refusal(key, value)" in code or "var reason := _refusal(key, value)" in code


def test_the_two_versions_of_the_node_do_the_same_things():
    """The Godot 4 node cannot run here: it has the Godot 3 node's constants, exported
    properties and functions, by the same names (the Godot 3 one runs in the engine)."""

    def names(text: str, kind: str) -> list[str]:
        return re.findall(rf"^(?:@export )?{kind} (\w+)", text, re.M)

    three = export_link_node(MODELS["monster"], 3)
    four = export_link_node(MODELS["monster"], 4)
    for kind in ("const", "func"):
        assert names(three, kind) == names(four, kind), kind
    exported = re.findall(r"^export(?:\(\w+\))? var (\w+)", three, re.M)
    assert exported == re.findall(r"^@export var (\w+)", four, re.M) == ["port", "host", "token", "car_path"]
    assert _table(three) == _table(four)


def _header(node: str) -> str:
    return node.split("\nextends Node\n")[0]


def test_the_header_names_your_script_by_its_res_path_or_its_file_name_never_the_absolute_path(tmp_path, capsys):
    """The node travels into version control: nothing of the computer it was made on."""
    game = tmp_path / "my game"
    (game / "cars").mkdir(parents=True)
    (game / "project.godot").write_text("config_version=4\n", encoding="utf-8")
    inside, outside = game / "cars" / "car.gd", tmp_path / "loose_car.gd"
    for script in (inside, outside):
        script.write_text(RECIPE, encoding="utf-8")
    out = tmp_path / "sandbox_link.gd"
    for script, named in ((inside, "res://cars/car.gd"), (outside, "loose_car.gd")):
        assert main(["export-godot", "--link", "--for-script", str(script), "--godot", "3", "--out", str(out)]) == 0
        header = _header(out.read_text(encoding="utf-8"))
        assert f"for {named}, a car of" in header and str(tmp_path) not in header
    assert str(inside) in capsys.readouterr().out  # the command itself says which file it read


SCRIPTS = Path(__file__).parent / "data" / "godot_scripts"


def _switches(node: str) -> dict[str, bool]:
    """The node's SWITCHES constant, read back (on one line or one entry a line)."""
    block = re.search(r"^const SWITCHES(?:: Dictionary)? = \{(.*?)\}$", node, re.S | re.M).group(1)
    return {name: value == "true" for name, value in re.findall(r'"(\w+)": (true|false)', block)}


@pytest.mark.parametrize(
    "script, switches",
    [
        # reads the pedals' strengths (get_action_strength), the Godot 4 recipe's formula
        ("commented_godot4_port.gd", {"recipe_2020": False, "rate_independent": False, "analog_pedals": True}),
        # the 2020 recipe (friction and traction not multiplied by delta), pedals pressed or not
        ("recipe_2020_godot3.gd", {"recipe_2020": True, "rate_independent": False, "analog_pedals": False}),
        # an early export: analog pedals in its code, rate_independent a variable it reads (a row)
        ("../godot3_script_before_every_model_go_kart.gd", {"recipe_2020": False, "analog_pedals": True}),
    ],
)
def test_the_node_for_your_script_bakes_the_switches_its_code_computes_with(script, switches):
    text = (SCRIPTS / script).read_text(encoding="utf-8")
    for godot in (3, 4):
        node = export_link_node(None, godot, text, "car.gd")
        assert _switches(node) == switches
        assert not set(switches) & set(_table(node))  # a switch is a row or baked, never both


def test_a_switch_declared_and_never_read_is_baked_as_the_code_computes_not_set():
    """Its variable changes nothing in the car: setting it from the sandbox would lie."""
    text = (SCRIPTS / "commented_godot4_port.gd").read_text(encoding="utf-8")
    text = text.replace("extends CharacterBody2D\n", "extends CharacterBody2D\nvar analog_pedals = false\n", 1)
    assert "var analog_pedals = false" in text
    node = export_link_node(None, 3, text, "car.gd")
    assert _switches(node)["analog_pedals"] is True
    assert "analog_pedals" not in _table(node)


@pytest.mark.parametrize("model", sorted(MODELS))
def test_the_node_for_an_exported_script_bakes_the_formula_its_template_is(model):
    preset = PRESETS[model]
    node = export_link_node(preset.model, 3, tuning=preset.tuning)
    assert _switches(node) == ({"recipe_2020": bool(preset.tuning["recipe_2020"])} if model == "arcade" else {})
    old = load_preset(BUILTIN_DIR / "recipe_2020.json") if model == "arcade" else None
    if old is not None:  # the 2020 recipe's own template
        assert old.tuning["recipe_2020"] is True
        assert _switches(export_link_node(old.model, 4, tuning=old.tuning)) == {"recipe_2020": True}
