"""A stick as the user's Godot game feels it: Godot's dead zone and rescale per action
(checked against the formula written out here and, where godot3-server is installed,
against the engine reading the same project.godot), the dead zones read from a game's
project.godot in Godot 3 and Godot 4 spelling, bad project files, and the keyboard and a
pad held at once. No device, no Qt."""

import os
import struct
import subprocess
from pathlib import Path

import numpy as np
import pytest

from conftest import ENGINE_REASON
from sandbox.devtools.oracle import godot_binary
from sandbox.files.godot_project_input import (
    PROJECT_LIMIT,
    ProjectInputError,
    parse_project_input,
    read_project_input,
)
from sandbox.physics.state import Controls
from sandbox.session.godot_input import (
    DeadZoneError,
    DeadZones,
    action_strength,
    dead_zones_for,
    default_dead_zone,
    get_axis,
    project_dead_zones,
)
from sandbox.session.sources import HeldControls, PadSource, larger_controls

DATA = Path(__file__).parent / "data" / "godot_input"
"""Two games' project.godot, as Godot 3.5 and Godot 4.3 write them."""

needs_godot = pytest.mark.skipif(godot_binary() is None, reason=ENGINE_REASON)

VALUES = [
    -1.0,
    -0.999,
    -0.73,
    -0.35,
    -0.2,
    -0.1,
    -0.05,
    0.0,
    0.05,
    0.1,
    0.2,
    0.25,
    0.3,
    0.35,
    0.36,
    0.5,
    0.77,
    0.999,
    1.0,
]


def godot_strength(value: float, deadzone: float, positive: bool) -> float:
    """Godot's documented rule, written out in float64: past the dead zone in the action's
    direction, the distance past it over the rest of the way to 1."""
    if (value > 0 and not positive) or (value < 0 and positive) or abs(value) < deadzone:
        return 0.0
    return 1.0 if deadzone == 1 else min(1.0, (abs(value) - deadzone) / (1.0 - deadzone))


@pytest.mark.parametrize("deadzone", [0.0, 0.1, 0.2, 0.5, 0.9, 1.0])
def test_an_axis_counts_past_the_dead_zone_and_is_rescaled_from_it_to_one(deadzone):
    for value in VALUES:
        for positive in (True, False):
            got = action_strength(value, deadzone, positive)
            assert got == pytest.approx(godot_strength(value, deadzone, positive), abs=1e-6), (value, deadzone)
    if deadzone > 0:
        assert action_strength(deadzone * 0.999, deadzone) == 0.0  # just inside: nothing at all
    assert action_strength(1.0, deadzone) == 1.0 and action_strength(-1.0, deadzone, False) == 1.0


def test_get_axis_is_the_positive_strength_minus_the_negative_one():
    for value in VALUES:
        expected = godot_strength(value, 0.35, True) - godot_strength(value, 0.1, False)
        assert get_axis(value, 0.1, 0.35) == pytest.approx(expected, abs=1e-6)
    assert get_axis(0.2, 0.1, 0.35) == 0.0  # inside the right action's dead zone: nothing
    assert get_axis(-0.2, 0.1, 0.35) < 0.0  # past the left one's


def test_values_a_device_should_never_send_reach_the_car_clamped_or_at_rest():
    assert action_strength(7.5, 0.2) == 1.0 and action_strength(-7.5, 0.2, False) == 1.0
    for bad in (float("nan"), float("inf"), float("-inf"), None, "x"):
        assert action_strength(bad, 0.2) == 0.0 and get_axis(bad, 0.2, 0.2) == 0.0


def test_strengths_are_32_bit_floats_as_the_engine_holds_them():
    got = action_strength(0.77, 0.25)
    assert got == float(np.float32(got))
    assert got == float((np.float32(0.77) - np.float32(0.25)) / (np.float32(1) - np.float32(0.25)))


def test_each_godot_release_has_its_default_dead_zone():
    assert default_dead_zone("3") == default_dead_zone("3.5") == 0.5
    assert default_dead_zone("4.0") == default_dead_zone("4.3") == 0.5
    assert default_dead_zone("4.4") == default_dead_zone("4.5.1") == default_dead_zone("4") == 0.2
    for bad in ("5", "godot", "", "2.1"):
        with pytest.raises(DeadZoneError, match="Godot 3 and Godot 4"):
            default_dead_zone(bad)


GODOT3_PROJECT = (DATA / "godot3" / "project.godot").read_text(encoding="utf-8")

GODOT4_PROJECT = (DATA / "godot4" / "project.godot").read_text(encoding="utf-8")


def test_a_godot3_project_gives_each_action_its_dead_zone_and_the_engine_default_for_the_rest():
    project = parse_project_input(GODOT3_PROJECT, "kart/project.godot")
    assert project.engine == "3"
    assert project.dead_zones == {"accelerate": 0.25, "brake": None, "steer_left": 0.1, "steer_right": 0.35}
    zones = dead_zones_for(project.engine, project.dead_zones)
    assert [zones.of(a) for a in ("accelerate", "brake", "steer_left", "steer_right")] == [0.25, 0.5, 0.1, 0.35]
    assert zones.notes == ()


def test_a_godot4_project_names_its_release_and_its_dead_zones(tmp_path):
    (tmp_path / "project.godot").write_text(GODOT4_PROJECT, encoding="utf-8")
    project = read_project_input(tmp_path)  # the folder or the file
    assert project.engine == "4.3"
    assert project.dead_zones == {"accelerate": 0.05, "steer_left": 0.2, "steer_right": 0.2}
    zones = dead_zones_for(project.engine, project.dead_zones)
    assert zones.of("brake") == 0.5  # Godot 4.3's default (0.2 from 4.4)
    assert dead_zones_for("4.4", project.dead_zones).of("brake") == 0.2


def test_odd_dead_zones_are_clamped_or_left_out_with_a_note_naming_the_action():
    text = GODOT3_PROJECT.replace('"deadzone": 0.25', '"deadzone": -0.3').replace('"deadzone": 0.1', '"deadzone": 4.0')
    text = text.replace('"deadzone": 0.35', '"deadzone": "lots"')
    zones = dead_zones_for("3", parse_project_input(text).dead_zones, "project.godot")
    assert (zones.of("accelerate"), zones.of("steer_left"), zones.of("steer_right")) == (0.0, 1.0, 0.5)
    notes = "\n".join(zones.notes)
    assert "accelerate: dead zone -0.3 is outside 0 to 1; 0 is used" in notes
    assert "steer_left: dead zone 4.0 is outside 0 to 1; 1 is used" in notes
    assert "steer_right: dead zone lots is not a number" in notes and "default 0.5 is used" in notes


def test_a_project_without_an_input_section_uses_the_defaults_and_says_so():
    project = parse_project_input('config_version=5\n\n[application]\n\nconfig/name="X"\n')
    assert project.dead_zones == {} and project.engine == "4"
    assert "no [input] section" in project.notes[0]


def test_a_broken_action_is_refused_naming_its_line_and_a_huge_file_unread(tmp_path):
    broken = GODOT3_PROJECT.replace('"deadzone": 0.1,', '"deadzone": 0.1 "oops",')
    with pytest.raises(ProjectInputError, match=r"line 3\d.*steer_left"):
        parse_project_input(broken, "project.godot")
    odd = parse_project_input(GODOT3_PROJECT.replace("[rendering]", "steer=12\n\n[rendering]"))
    assert "steer" not in odd.dead_zones and "not an action" in odd.notes[0]
    huge = tmp_path / "project.godot"
    huge.write_text(GODOT3_PROJECT + ";" + "x" * (10 * 1024 * 1024) + "\n", encoding="utf-8")
    assert huge.stat().st_size > PROJECT_LIMIT
    with pytest.raises(ProjectInputError, match="too large"):
        read_project_input(huge)
    with pytest.raises(ProjectInputError, match="no such file"):
        read_project_input(tmp_path / "nowhere" / "project.godot")


ENGINE_SCRIPT = """extends SceneTree
# Each value on the left stick's X axis and on the right trigger (axis 7), through the
# project's input map; the strengths as 64-bit hex (exact).
func _init():
\tvar buf = StreamPeerBuffer.new()
\tvar out = File.new()
\tout.open(OS.get_environment("PADS_OUT"), File.WRITE)
\tfor v in [VALUES]:
\t\tfor axis in [0, 6, 7]:
\t\t\tvar ev = InputEventJoypadMotion.new()
\t\t\tev.device = 0
\t\t\tev.axis = axis
\t\t\tev.axis_value = v
\t\t\tInput.parse_input_event(ev)
\t\tvar line = PoolStringArray()
\t\tfor a in ["steer_left", "steer_right", "accelerate", "brake"]:
\t\t\tbuf.clear()
\t\t\tbuf.put_double(Input.get_action_strength(a))
\t\t\tline.append(buf.data_array.hex_encode())
\t\tout.store_line(line.join(" "))
\tout.close()
\tquit()
"""


@needs_godot
def test_the_engine_reading_the_same_project_gives_the_same_strengths_bit_for_bit(tmp_path):
    (tmp_path / "project.godot").write_text(GODOT3_PROJECT, encoding="utf-8")
    script = ENGINE_SCRIPT.replace("[VALUES]", "[" + ", ".join(repr(v) for v in VALUES) + "]")
    (tmp_path / "strengths.gd").write_text(script, encoding="utf-8")
    out = tmp_path / "strengths.txt"
    result = subprocess.run(
        [godot_binary(), "--path", str(tmp_path), "-s", "strengths.gd"],
        env={**os.environ, "PADS_OUT": str(out)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.exists(), result.stderr[-800:]
    rows = [[struct.unpack("<d", bytes.fromhex(h))[0] for h in line.split()] for line in out.read_text().splitlines()]
    project = parse_project_input(GODOT3_PROJECT)
    zones = dead_zones_for(project.engine, project.dead_zones)
    assert len(rows) == len(VALUES)
    for value, (left, right, accelerate, brake) in zip(VALUES, rows):
        assert action_strength(value, zones.of("steer_left"), False) == left, value
        assert action_strength(value, zones.of("steer_right"), True) == right, value
        assert zones.pedal("accelerate", value) == accelerate, value
        assert zones.pedal("brake", value) == brake, value  # no dead zone in the file: the engine's default
        assert zones.steer(value) == right - left, value


def test_the_keyboard_and_a_pad_at_once_the_larger_input_wins_per_control():
    keys = Controls(steer=-1.0, throttle=1.0, brake=0.0, handbrake=0.0, shift=0.0)
    pad = Controls(steer=0.4, throttle=0.3, brake=0.6, handbrake=1.0, shift=1.0)
    assert larger_controls(keys, pad) == Controls(-1.0, 1.0, 0.6, 1.0, 1.0)
    assert larger_controls(Controls(), pad).steer == 0.4
    assert larger_controls(Controls(steer=0.5), Controls(steer=-0.5)).steer == 0.5  # a tie: the keyboard's


class Reading:
    def __init__(self, controls, shift=0):
        self.controls, self.shift = controls, shift


def test_a_pad_source_gives_each_tick_the_larger_input_and_a_shift_once():
    source = PadSource(HeldControls(Controls(steer=-0.2)))
    source.update(Reading(Controls(steer=0.7, throttle=0.5), shift=1))
    first, second = source.controls_for_tick(0), source.controls_for_tick(1)
    assert (first.steer, first.throttle, first.shift) == (0.7, 0.5, 1.0)
    assert (second.steer, second.shift) == (0.7, 0.0)
    source.update(Reading(Controls()))
    assert source.controls_for_tick(2).steer == -0.2  # the pad let go: the keyboard's


def test_dead_zones_steer_and_pedals_use_their_own_actions():
    zones = DeadZones(0.5, {"steer_right": 0.2, "accelerate": 0.0})
    assert zones.steer(0.6) == pytest.approx(0.5) and zones.steer(-0.6) == pytest.approx(-0.2)
    assert zones.pedal("accelerate", 0.3) == pytest.approx(0.3) and zones.pedal("brake", 0.3) == 0.0


def test_a_projects_dead_zones_for_the_release_it_names_with_what_was_odd(tmp_path):
    (tmp_path / "project.godot").write_text(GODOT4_PROJECT.replace('"deadzone": 0.05', '"deadzone": 1.5'), "utf-8")
    zones = project_dead_zones(tmp_path)
    assert zones.default == 0.5 and zones.of("accelerate") == 1.0  # Godot 4.3, as the file says
    assert "accelerate: dead zone 1.5 is outside 0 to 1" in zones.notes[0]
    assert project_dead_zones(tmp_path, engine="4.4").of("brake") == 0.2
    (tmp_path / "project.godot").write_text("[application]\n", "utf-8")
    zones = project_dead_zones(tmp_path)  # says no release, no actions: Godot 3's default
    assert zones.default == 0.5 and zones.actions == {} and "no [input] section" in zones.notes[0]
