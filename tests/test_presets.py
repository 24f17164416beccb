"""Preset files: built-ins load, saving round-trips exactly, bad files are refused
with a message naming the file, the field and the allowed range."""

import json
import math
import os
from pathlib import Path

import pytest

from sandbox.errors import PresetError
from sandbox.files import presets
from sandbox.files.presets import BUILTIN_DIR, Preset, load_preset, parse_preset, save_preset
from sandbox.physics.models import arcade
from sandbox.physics.params import Param, Tuning

DATA = Path(__file__).parent / "data"
BUILTIN = sorted(presets.BUILTIN_DIR.glob("*.json"))


def preset_text(**params):
    values = {p.name: p.default for p in arcade.PARAMS}
    values.update(params)
    return {"format": 2, "model": "arcade", "name": "t", "description": "", "hz": 60, "params": values}


def refuse(data, tmp_path, *expected):
    path = tmp_path / "bad.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    with pytest.raises(PresetError) as err:
        load_preset(path)
    message = str(err.value)
    assert str(path) in message and "\n" not in message
    for part in expected:
        assert part in message
    return message


def test_builtin_presets_exist_load_and_differ():
    names = {p.stem for p in BUILTIN}
    assert {"recipe_defaults", "ice", "grass_sand", "drift", "heavy_truck", "go_kart"} <= names
    loaded = [load_preset(p) for p in BUILTIN]
    values = {tuple(sorted(p.tuning.items())) for p in loaded}
    assert len(values) == len(loaded)  # no two presets are the same tuning
    assert all(p.description for p in loaded)


def test_recipe_defaults_preset_is_the_declaration():
    assert dict(load_preset(presets.DEFAULT_PRESET).tuning) == {p.name: p.default for p in arcade.PARAMS}


@pytest.mark.parametrize("switches", (True, False))
def test_save_then_load_restores_every_value_exactly(tmp_path, switches):
    """Every switch on (then off) and awkward floats within the ranges the switches give."""
    values = {p.name: switches for p in arcade.PARAMS if p.is_bool}
    values.update(
        {p.name: q.min + (q.max - q.min) / 3 for p in arcade.PARAMS if p.is_number for q in [p.under(values)]}
    )
    values["shape_kind"] = 2.0 if switches else 0.0  # a choice: its index in the tuning, its name in the file
    values["godot_engine"] = 1.0 if switches else 0.0
    original = Preset(arcade, Tuning(arcade.PARAMS, values), "Mine", "desc")
    save_preset(original, tmp_path / "mine.json")
    back = load_preset(tmp_path / "mine.json")
    assert dict(back.tuning) == values and back.name == "Mine" and back.description == "desc"


@pytest.mark.parametrize(
    "data, expected",
    [
        ("{not json", ["not valid JSON", "line 1"]),
        ("[1, 2]", ["not a preset"]),
        ("[" * 100000 + "]" * 100000, ["nested too deeply"]),
        ({**preset_text(), "model": "spaceship"}, ["field 'model'", "unknown model 'spaceship'", "arcade"]),
        ({**preset_text(), "format": 99}, ["field 'format'", "99"]),
        ({**preset_text(), "format": "1"}, ["field 'format'"]),
        ({**preset_text(), "colour": "red"}, ["field 'colour'"]),
        ({**preset_text(), "name": 5}, ["field 'name'"]),
        ({**preset_text(), "params": [1]}, ["field 'params'"]),
        (preset_text(turbo=3), ["field 'params.turbo'", "unknown parameter"]),
        (preset_text(friction="-55"), ["field 'params.friction'", "not a number", "-400 … 0 1/s²"]),
        (preset_text(friction=True), ["field 'params.friction'", "not a number"]),
        (preset_text(drag=-900), ["field 'params.drag'", "outside the allowed range -1 … 0 1/(px·s)"]),
        (preset_text(engine_power=4001), ["field 'params.engine_power'", "0 … 4000 px/s²"]),
        (preset_text(rate_independent=1), ["field 'params.rate_independent'", "not true or false"]),
        ({**preset_text(), "hz": 50}, ["field 'hz'", "30, 60, 120, 144, 240 Hz"]),
        ({**preset_text(), "hz": "60"}, ["field 'hz'"]),
    ],
)
def test_bad_presets_are_refused_with_file_field_and_range(data, expected, tmp_path):
    refuse(data, tmp_path, *expected)


def test_missing_parameter_is_refused(tmp_path):
    data = preset_text()
    del data["params"]["slip_speed"]
    refuse(data, tmp_path, "field 'params.slip_speed' is missing", "0 … 3000 px/s")


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_non_finite_values_are_refused(literal, tmp_path):
    text = json.dumps(preset_text()).replace('"drag": -0.06', f'"drag": {literal}')
    refuse(text, tmp_path, "field 'params.drag'", "not a finite number")


def test_unreadable_files_are_refused(tmp_path):
    with pytest.raises(PresetError, match="no such file"):
        load_preset(tmp_path / "nothing.json")
    with pytest.raises(PresetError, match="is a directory"):
        load_preset(tmp_path)
    binary = tmp_path / "garbage.json"
    binary.write_bytes(bytes(range(256)))
    with pytest.raises(PresetError, match="not UTF-8"):
        load_preset(binary)
    huge = tmp_path / "huge.json"
    huge.write_bytes(b" " * (presets.PRESET_LIMIT + 1))
    with pytest.raises(PresetError, match="too large"):
        load_preset(huge)


def test_failed_save_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    path = tmp_path / "keep.json"
    save_preset(Preset(arcade, Tuning(arcade.PARAMS), "Keep"), path)
    before = path.read_bytes()

    def disk_full(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", disk_full)
    with pytest.raises(PresetError, match="the disk is full"):
        save_preset(Preset(arcade, Tuning(arcade.PARAMS, {"drag": -0.5}), "Changed"), path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.json"]  # no backup made of a save that failed


def test_format_1_file_from_before_rate_independent_still_loads():
    """tests/data holds a preset written by the first release (format 1, before the
    tick rate and `rate_independent` existed): it loads with their defaults."""
    old = load_preset(DATA / "preset_format1_recipe_defaults.json")
    assert json.loads((DATA / "preset_format1_recipe_defaults.json").read_text())["format"] == 1
    assert old.tuning["rate_independent"] is False and old.hz == 60
    assert old.tuning["friction"] == -55
    # saved again, it is a complete file of the current format
    again = json.loads(presets.dump_preset(old))
    assert again["format"] == presets.FORMAT and again["hz"] == 60 and again["params"]["rate_independent"] is False


def test_format_2_rigid_body_file_from_before_grip_load_still_loads():
    """A rigid-body preset written before grip ∝ load existed loads with the option off
    and μ at its default, and drives as it did (the grip limit of its own max grip)."""
    path = DATA / "preset_format2_rigid_body_grippy.json"
    assert json.loads(path.read_text())["format"] == 2
    old = load_preset(path)
    assert old.tuning["grip_load"] is False and old.tuning["mu"] == 1.0
    assert old.tuning["grip_limit"] is True and old.tuning["max_grip"] == 6.0
    assert json.loads(presets.dump_preset(old))["params"]["grip_load"] is False


def test_format_2_file_must_carry_rate_independent():
    data = preset_text()
    del data["params"]["rate_independent"]
    with pytest.raises(PresetError, match="params.rate_independent' is missing"):
        parse_preset(json.dumps(data), "new.json")


def test_the_since_mechanism_serves_the_next_parameter_too(monkeypatch):
    """A parameter declared with the next format takes its default in every older file."""
    future = presets.FORMAT + 1
    data = preset_text()  # today's parameters, without the future one
    data["format"] = future
    added = Param("future_knob", "Future knob", "1/s", 0.5, 0, 1, 0.1, "added later", since=future)
    monkeypatch.setattr(arcade, "PARAMS", arcade.PARAMS + (added,))
    monkeypatch.setattr(presets, "FORMAT", future)
    for path in (DATA / "preset_format1_recipe_defaults.json", presets.DEFAULT_PRESET):
        assert load_preset(path).tuning["future_knob"] == 0.5
    with pytest.raises(PresetError, match="params.future_knob' is missing"):
        parse_preset(json.dumps(data), "new.json")


def test_listing_shows_builtins_first_and_marks_broken_user_files(private_user_data):
    folder = presets.user_dir()
    folder.mkdir(parents=True)
    save_preset(Preset(arcade, Tuning(arcade.PARAMS), "Zed"), folder / "zed.json")
    (folder / "broken.json").write_text("{")
    listed = presets.list_presets()
    assert listed[0][0] == presets.DEFAULT_PRESET
    names = [name for _, name, builtin, _ in listed if not builtin]
    assert [model for _, name, builtin, model in listed if not builtin] == [None, "arcade"]
    assert names == ["broken ⚠", "Zed"]


def test_the_built_in_presets_are_read_once_and_the_users_each_time(private_user_data, monkeypatch):
    """A model switch lists the presets: the built-in ones (package data) are not read
    again, while a preset the user saved since is listed."""
    presets.list_presets()
    read = []
    load = presets.load_preset
    monkeypatch.setattr(presets, "load_preset", lambda path: read.append(path) or load(path))
    folder = presets.user_dir()
    folder.mkdir(parents=True)
    save_preset(Preset(arcade, Tuning(arcade.PARAMS), "Zed"), folder / "zed.json")
    listed = presets.list_presets()
    assert read == [folder / "zed.json"]
    assert [name for _, name, builtin, _ in listed if not builtin] == ["Zed"]
    assert [path for path, _, builtin, _ in listed if builtin] == sorted(
        BUILTIN, key=lambda p: (p != presets.DEFAULT_PRESET, p.name)
    )


def test_param_check_and_snap():
    p = next(p for p in arcade.PARAMS if p.name == "steering_angle")
    assert p.snap(15.26) == 15.5 and p.snap(999) == 60 and p.decimals == 1
    assert p.check(15) == 15.0
    with pytest.raises(ValueError, match="outside"):
        p.check(math.nextafter(60, 61))


def test_saving_over_a_preset_keeps_the_previous_version(tmp_path):
    path = tmp_path / "mine.json"
    save_preset(Preset(arcade, Tuning(arcade.PARAMS, {"drag": -0.1}), "First"), path)
    assert not (tmp_path / "mine.json.bak").exists()  # nothing to keep the first time
    save_preset(Preset(arcade, Tuning(arcade.PARAMS, {"drag": -0.2}), "Second"), path)
    assert load_preset(path).tuning["drag"] == -0.2
    assert load_preset(tmp_path / "mine.json.bak").tuning["drag"] == -0.1


def test_a_pipe_or_device_is_refused_without_blocking(tmp_path):
    """Reads are bounded in time as well as size: a FIFO with no writer would block."""
    fifo = tmp_path / "preset.json"
    os.mkfifo(fifo)
    with pytest.raises(PresetError, match="not a regular file"):
        load_preset(fifo)
    with pytest.raises(PresetError, match="not a regular file"):
        load_preset("/dev/zero")


def test_a_read_that_hangs_is_given_up_with_a_message(tmp_path, monkeypatch):
    """A stuck network drive: the read never returns. There is no such drive here, so
    the blocking read itself is stood in for by one that waits on an event; the
    timeout logic and the message are the real ones."""
    import threading

    from sandbox.files import disk as files

    path = tmp_path / "preset.json"
    path.write_text((BUILTIN_DIR / "recipe_defaults.json").read_text())
    release = threading.Event()
    monkeypatch.setattr(files, "_read_bytes", lambda p, size: release.wait(30) and b"")
    monkeypatch.setattr(files, "READ_SECONDS", 0.2)
    try:
        with pytest.raises(PresetError, match=r"preset.json: still not read after 0.2 s"):
            load_preset(path)
    finally:
        release.set()
    monkeypatch.undo()
    assert load_preset(path).name == "Recipe defaults"  # an ordinary read goes through


def test_a_5000_digit_integer_is_refused_as_out_of_range(tmp_path):
    """Python will not even turn it into an int (its 4300-digit limit): still a clear
    message naming the field, the value cut short, never a traceback."""
    text = json.dumps(preset_text()).replace('"wheel_base": 70', '"wheel_base": ' + "9" * 5000)
    message = refuse(text, tmp_path, "params.wheel_base", "outside the allowed range 10 … 300 px", "(5,000 characters)")
    assert len(message) < 300


def test_a_value_is_quoted_as_written_not_rounded(tmp_path):
    refuse(preset_text(wheel_base=9.999999), tmp_path, "9.999999 is outside the allowed range 10 … 300 px")


def test_a_key_written_twice_is_refused(tmp_path):
    text = json.dumps(preset_text()).replace('"wheel_base": 70', '"wheel_base": 70, "wheel_base": 80')
    refuse(text, tmp_path, "'wheel_base' is written twice")


def test_a_megabyte_value_is_cut_short_in_the_message(tmp_path):
    message = refuse(preset_text(drag="x" * 1_000_000), tmp_path, "params.drag", "is not a number")
    assert len(message) < 300


def test_a_broken_file_in_the_user_presets_folder_is_listed_never_fatal():
    from sandbox.files.presets import list_presets, user_dir

    user_dir().mkdir(parents=True)
    (user_dir() / "huge.json").write_text(
        json.dumps(preset_text()).replace('"wheel_base": 70', '"wheel_base": ' + "9" * 5000)
    )
    listed = {path.name: (name, model) for path, name, _, model in list_presets()}
    assert listed["huge.json"] == ("huge ⚠", None)


def test_an_autosave_with_damaged_values_keeps_the_good_ones_and_says_which():
    """With `fixes`, each bad value is replaced by its default (and said); the same text
    is refused as a preset file."""
    data = preset_text(engine_power=1234, steering_angle=1e9, drag="fast", ghost=3)
    data["hz"] = 7
    del data["params"]["braking"]
    text = json.dumps(data)
    with pytest.raises(PresetError):
        parse_preset(text, "mine.json")
    fixes = []
    preset = parse_preset(text, "autosave", fixes)
    defaults = Tuning(arcade.PARAMS)
    assert preset.tuning["engine_power"] == 1234 and preset.hz == 60
    for name in ("steering_angle", "drag", "braking"):
        assert preset.tuning[name] == defaults[name]
    said = " | ".join(fixes)
    assert len(fixes) == 5 and all(part in said for part in ("'hz'", "steering_angle", "drag", "braking", "ghost"))


@pytest.mark.parametrize("path", sorted(DATA.glob("preset_format*.json")), ids=lambda p: p.stem)
def test_a_file_from_before_the_collision_shape_loads_with_the_declared_shape(path):
    """Presets of formats 1 to 4 (tests/data, written by earlier releases) carry no
    shape: each loads with its model's declared one, and saves it by name."""
    data = json.loads(path.read_text())
    assert data["format"] < 5 and not any(name.startswith("shape_") for name in data["params"])
    old = load_preset(path)
    declared = {p.name: p.default for p in old.model.PARAMS if p.group == "Collision shape"}
    assert len(declared) == 6 and {name: old.tuning[name] for name in declared} == declared
    again = json.loads(presets.dump_preset(old))["params"]
    kinds = ("rectangle", "capsule", "circle")
    assert again["shape_kind"] == kinds[int(declared["shape_kind"])]


def test_the_shape_kind_is_written_and_read_by_name():
    data = preset_text()
    data["format"] = presets.FORMAT
    data["params"].update(
        shape_kind="circle", shape_length=80, shape_width=50, shape_offset_x=4, shape_offset_y=-2, shape_rotation=0
    )
    preset = parse_preset(json.dumps(data), "mine.json")
    assert preset.tuning["shape_kind"] == 2.0  # the kernels' number: its index
    assert json.loads(presets.dump_preset(preset))["params"]["shape_kind"] == "circle"
    data["params"]["shape_kind"] = "triangle"
    with pytest.raises(PresetError, match=r"params.shape_kind': 'triangle' is not one of rectangle, capsule or circle"):
        parse_preset(json.dumps(data), "mine.json")
    del data["params"]["shape_width"]
    data["params"]["shape_kind"] = "capsule"
    with pytest.raises(PresetError, match="params.shape_width' is missing"):
        parse_preset(json.dumps(data), "mine.json")


BEFORE_THE_ENGINE = [
    *(BUILTIN_DIR / f"{name}.json" for name in ("recipe_defaults", "bicycle_blog", "ackermann_van")),
    DATA / "preset_v5_recipe_defaults.json",
]
"""Kinematic presets written before the engine option: the built-ins (format 4, as on
main) and a format-5 file (with the collision shape, without the engine)."""


@pytest.mark.parametrize("path", BEFORE_THE_ENGINE, ids=lambda p: p.stem)
def test_a_file_from_before_the_engine_option_loads_with_godot_4(path):
    """The engine whose wall rules a kinematic car follows is new in format 6: an older
    file loads without a word, with the declared engine (Godot 4, the recipe demo's),
    and saves it by name."""
    data = json.loads(path.read_text())
    assert data["format"] < 6 and "godot_engine" not in data["params"]
    fixes = []
    old = parse_preset(path.read_text(), path.name, fixes)
    assert fixes == [] and old.tuning["godot_engine"] == 0.0
    assert json.loads(presets.dump_preset(old))["params"]["godot_engine"] == "Godot 4"


def test_the_engine_is_written_and_read_by_name():
    data = json.loads((DATA / "preset_v5_recipe_defaults.json").read_text())
    data["format"] = 6  # the format that brought the engine option (and nothing after it)
    data["params"]["godot_engine"] = "Godot 3"
    preset = parse_preset(json.dumps(data), "mine.json")
    assert preset.tuning["godot_engine"] == 1.0
    assert json.loads(presets.dump_preset(preset))["params"]["godot_engine"] == "Godot 3"
    data["params"]["godot_engine"] = "Godot 5"
    with pytest.raises(PresetError, match=r"params.godot_engine': 'Godot 5' is not one of Godot 4 or Godot 3"):
        parse_preset(json.dumps(data), "mine.json")
