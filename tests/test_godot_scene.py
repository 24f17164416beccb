"""The exported Godot scene: a body with the script attached, the tuning's collision
shape, polygons drawing the car, a camera; it drives in the engine."""

import re

import numpy as np
import pytest

from sandbox.devtools.export_drives import drive
from sandbox.devtools.oracle import compare, godot_binary, run_oracle
from sandbox.files.godot import GodotError, export_script
from sandbox.files.godot_scene import ScriptsInTheWay, export_scene, save_scene
from sandbox.files.presets import BUILTIN_DIR, load_preset
from sandbox.files.traces import save_trace
from sandbox.physics.sim import run_trace

PRESETS = sorted(BUILTIN_DIR.glob("*.json"))
FIRST = {}
for _path in PRESETS:
    FIRST.setdefault(load_preset(_path).model.NAME, _path)
needs_godot = pytest.mark.skipif(godot_binary() is None, reason="godot3-server is not installed")
HEADING = re.compile(r"^\[(\w+)((?: \w+=(?:\"[^\"]*\"|\d+))*)\]$")


def parse_tscn(text: str) -> list[tuple[str, dict[str, str], dict[str, str]]]:
    """Sections (kind, header attributes, properties) of a text scene; asserts that every
    line is a section header, `key = value` or blank."""
    sections = []
    for line in text.split("\n"):
        if not line:
            continue
        head = HEADING.match(line)
        if head:
            attributes = dict(re.findall(r'(\w+)=("[^"]*"|\d+)', head.group(2)))
            sections.append((head.group(1), {k: v.strip('"') for k, v in attributes.items()}, {}))
            continue
        key, equals, value = line.partition(" = ")
        assert equals and re.fullmatch(r"[\w/]+", key), line
        sections[-1][2][key] = value
    return sections


@pytest.mark.parametrize("godot", (3, 4))
@pytest.mark.parametrize("path", PRESETS, ids=lambda p: p.stem)
def test_every_scene_is_well_formed_and_carries_the_tunings_shape(path, godot):
    preset = load_preset(path)
    sections = parse_tscn(export_scene(preset, godot, "car.gd", px_per_metre=20.0))
    kind, attributes, _ = sections[0]
    assert kind == "gd_scene" and attributes["format"] == ("3" if godot == 4 else "2")
    resources = {(k[:3], a["id"]): a for k, a, _ in sections if k in ("ext_resource", "sub_resource")}
    assert int(attributes["load_steps"]) == len(resources) + 1
    nodes = [(a, p) for k, a, p in sections if k == "node"]
    root, root_properties = nodes[0]
    assert root["type"] == ("CharacterBody2D" if godot == 4 else "KinematicBody2D") and "parent" not in root
    assert all(a.get("parent") == "." for a, _ in nodes[1:])
    # every resource a node names exists, and the script is the one beside the scene
    for _, properties in nodes:
        for value in properties.values():
            for kind, ref in re.findall(r'(Ext|Sub)Resource\( ?"?(\w+)"?', value):
                assert (kind.lower(), ref) in resources
    script_id = re.search(r'ExtResource\( ?"?(\w+)', root_properties["script"]).group(1)
    assert resources[("ext", script_id)]["path"] == "car.gd"
    # the collision shape is the tuning's, in pixels
    t = preset.tuning
    scale = 20.0 if preset.model.LENGTH_UNIT == "m" else 1.0
    length, width = t["shape_length"] * scale, t["shape_width"] * scale
    _, attributes, shape = next(s for s in sections if s[0] == "sub_resource")
    kind = attributes["type"]
    if kind == "RectangleShape2D":
        numbers = [
            float(v) for v in re.search(r"\( ?(-?[\d.]+), (-?[\d.]+)", shape.get("size") or shape["extents"]).groups()
        ]
        factor = 1.0 if godot == 4 else 2.0  # Godot 3 gives half extents
        assert numbers[0] * factor == pytest.approx(length, rel=1e-5)
        assert numbers[1] * factor == pytest.approx(width, rel=1e-5)
    else:  # the arcade's capsule: Godot 3's height is its straight middle, Godot 4's the whole length
        assert kind == "CapsuleShape2D" and float(shape["radius"]) == pytest.approx(width / 2, rel=1e-5)
        assert float(shape["height"]) == pytest.approx(length - width if godot == 3 else length, rel=1e-5)
    names = [a["name"] for a, _ in nodes]
    assert {"CollisionShape2D", "Body", "Camera2D", "WheelFrontLeft", "WheelRearRight"} <= set(names)


def test_a_scene_is_written_with_its_script_beside_it(tmp_path):
    preset = load_preset(FIRST["bicycle"])
    scene, script = save_scene(preset, tmp_path / "my_car.tscn", 4)
    assert script == tmp_path / "my_car.gd" and script.read_text() == export_script(preset, 4)
    assert 'path="my_car.gd"' in scene.read_text()


@needs_godot
@pytest.mark.parametrize("stem", sorted(p.stem for p in FIRST.values()))
def test_the_godot3_scene_drives_in_the_engine_as_in_the_sandbox(stem):
    """The scene, opened by the engine as it is (its script found beside it, its input
    actions added by the script), drives the slalom as the sandbox does."""
    preset = load_preset(BUILTIN_DIR / f"{stem}.json")
    trace = drive("slalom_reverse", 60)
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        trace_path = Path(tmp) / "slalom.csv"
        save_trace(trace_path, trace)
        files = {"car.tscn": export_scene(preset, 3), "car.gd": export_script(preset, 3)}
        godot = run_oracle(trace_path, hz=60, scene=files, car_adds_actions=True)
    gap = compare(run_trace(preset.model, preset.tuning, trace, 60), godot)
    scale = 25.0 if preset.model.LENGTH_UNIT == "m" else 1.0
    assert gap["position_px"] * scale < 1.0 and gap["heading_rad"] < 5e-4, gap
    assert np.hypot(godot[:, 1], godot[:, 2]).max() * scale > 100


def test_a_scene_stops_at_your_own_script_beside_it_and_replaces_it_only_when_told(tmp_path):
    """Your own car.gd beside the car.tscn you export: nothing is written unless
    replace; then it is kept as car.gd.bak, byte for byte, and a later replacement
    keeps the next one as car.gd.bak2, never over the first."""
    mine = tmp_path / "car.gd"
    mine.write_bytes(b"extends Node\n# my own car, \xff not even UTF-8\n")
    before = mine.read_bytes()
    drift = load_preset(BUILTIN_DIR / "drift.json")
    with pytest.raises(ScriptsInTheWay, match="car.gd: already there beside the scene") as refused:
        save_scene(drift, tmp_path / "car.tscn", 4)
    assert refused.value.scripts == [mine]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["car.gd"] and mine.read_bytes() == before
    backups = {}
    save_scene(drift, tmp_path / "car.tscn", 4, replace=True, backups=backups)
    assert backups == {mine: tmp_path / "car.gd.bak"} and (tmp_path / "car.gd.bak").read_bytes() == before
    assert mine.read_text() == export_script(drift, 4)
    save_scene(drift, tmp_path / "car.tscn", 4)  # the same again: nothing in the way, no new copy
    assert sorted(p.name for p in tmp_path.iterdir()) == ["car.gd", "car.gd.bak", "car.tscn"]
    mine.write_text(mine.read_text() + "# edited since\n")
    edited = mine.read_bytes()
    with pytest.raises(ScriptsInTheWay):  # one the sandbox wrote, edited since: asked about too
        save_scene(drift, tmp_path / "car.tscn", 4)
    save_scene(drift, tmp_path / "car.tscn", 4, replace=True)
    assert (tmp_path / "car.gd.bak").read_bytes() == before and (tmp_path / "car.gd.bak2").read_bytes() == edited


def test_a_link_where_the_scenes_script_goes_is_refused_and_its_file_kept(tmp_path):
    precious = tmp_path / "elsewhere.gd"
    precious.write_text("extends Node\n")
    (tmp_path / "car.gd").symlink_to(precious)
    with pytest.raises(GodotError, match="car.gd: is a symbolic link"):
        save_scene(load_preset(BUILTIN_DIR / "drift.json"), tmp_path / "car.tscn", 4, replace=True)
    assert precious.read_text() == "extends Node\n" and not (tmp_path / "car.tscn").exists()


def test_export_godot_scene_refuses_a_different_script_unless_replace(tmp_path, capsys):
    from sandbox.cli import main

    mine = tmp_path / "car.gd"
    mine.write_text("extends Node\n")
    scene = tmp_path / "car.tscn"
    assert main(["export-godot", "--preset", "drift", "--scene", "--out", str(scene)]) == 2
    error = capsys.readouterr().err
    assert f"{mine}: already there beside the scene" in error and "--replace" in error, error
    assert mine.read_text() == "extends Node\n" and not scene.exists()
    assert main(["export-godot", "--preset", "drift", "--scene", "--out", str(scene), "--replace"]) == 0
    assert f"replaced {mine}: the old one is kept as {tmp_path / 'car.gd.bak'}" in capsys.readouterr().out
    assert (tmp_path / "car.gd.bak").read_text() == "extends Node\n" and scene.exists()
    assert main(["export-godot", "--preset", "drift", "--out", str(mine), "--replace"]) == 2
    assert "--replace: only with --scene" in capsys.readouterr().err


def test_import_godot_never_writes_over_the_script_it_reads(tmp_path):
    import subprocess
    import sys

    script = tmp_path / "car.gd"
    script.write_text(export_script(load_preset(BUILTIN_DIR / "drift.json"), 4))
    before = script.read_bytes()
    for out in (script, tmp_path / "car.json"):
        result = subprocess.run(
            [sys.executable, "-m", "sandbox", "import-godot", str(script), "--out", str(out)],
            capture_output=True,
            text=True,
        )
        if out == script:
            assert result.returncode == 2 and "car.gd" in result.stderr
        else:
            assert result.returncode == 0
    assert script.read_bytes() == before
    scene = subprocess.run(
        [
            sys.executable,
            "-m",
            "sandbox",
            "export-godot",
            "--preset",
            str(BUILTIN_DIR / "drift.json"),
            "--scene",
            "--out",
            str(tmp_path / "drift.tscn"),
        ],
        capture_output=True,
        text=True,
    )
    assert scene.returncode == 0
    preset = tmp_path / "mine.gd"  # a preset file, whatever its name: the scene's script would replace it
    preset.write_text((BUILTIN_DIR / "drift.json").read_text())
    clash = subprocess.run(
        [
            sys.executable,
            "-m",
            "sandbox",
            "export-godot",
            "--preset",
            str(preset),
            "--scene",
            "--out",
            str(tmp_path / "mine.tscn"),
        ],
        capture_output=True,
        text=True,
    )
    assert clash.returncode == 2 and "mine.gd" in clash.stderr and not (tmp_path / "mine.tscn").exists()
    assert preset.read_text() == (BUILTIN_DIR / "drift.json").read_text()
