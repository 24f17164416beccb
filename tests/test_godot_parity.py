"""The sandbox against the Godot engine: an independent oracle.

The goldens in tests/goldens/<tuning>/ are the trajectories Godot 3 computed running
the recipe's car (tools/godot_oracle: the recipe's port, the 2020 recipe's own port
for the recipe_2020 tuning) on the control traces in tests/goldens/traces; nothing
of the sandbox's physics goes into them. CI compares against them without Godot;
where godot3-server is installed, the tests marked `needs_godot` also run the engine
live, on the recipe's port and on scripts the sandbox exports.

A failure means the sandbox has left the engine. Re-record (`python
tools/make_goldens.py`, which runs only the engine) when the engine's side changes
(the port, a drive added), never to follow a change of the sandbox.
"""

from pathlib import Path

import numpy as np
import pytest

from sandbox.devtools.oracle import compare, godot_binary, run_oracle
from sandbox.files.godot import export_script
from sandbox.files.presets import BUILTIN_DIR, load_preset
from sandbox.files.traces import TRAJECTORY_COLUMNS, load_trace
from sandbox.physics.sim import run_trace

GOLDENS = Path(__file__).parent / "goldens"
POSITION_PX = 1.0
HEADING_RAD = 5e-4
SCENARIOS = (
    "straight_top_speed",
    "brake_into_reverse",
    "full_lock_fast",
    "full_lock_slow",
    "slalom",
    "hairpin",
    "reverse_steering",
    "mixed_60s",
)
PAD = "analog_pad"
"""A drive on a gamepad's part values, recorded for the tunings whose pedals are the
recipe's (on/off), as the recipe's scripts read them."""
GOLDEN_FILES = sorted(GOLDENS.glob("*/*hz.csv"))
needs_godot = pytest.mark.skipif(godot_binary() is None, reason="godot3-server is not installed")


def load_golden(path: Path) -> np.ndarray:
    lines = path.read_text().splitlines()
    assert tuple(lines[0].split(",")) == TRAJECTORY_COLUMNS
    return np.loadtxt(lines[1:], delimiter=",", ndmin=2)


def test_the_goldens_cover_8_scenarios_by_4_tunings():
    tunings = {p.parent.name for p in GOLDEN_FILES}
    assert len(tunings) >= 4
    for tuning in tunings:
        at_60 = {
            p.name[: -len("_60hz.csv")]
            for p in GOLDEN_FILES
            if p.parent.name == tuning and p.name.endswith("_60hz.csv")
        }
        on_off = not load_preset(BUILTIN_DIR / f"{tuning}.json").tuning["analog_pedals"]
        assert at_60 == set(SCENARIOS) | ({PAD} if on_off else set())
    assert {"recipe_defaults", "recipe_2020"} <= {p.parent.name for p in GOLDEN_FILES if p.stem == f"{PAD}_60hz"}
    mixed = load_golden(GOLDENS / "recipe_defaults" / "mixed_60s_60hz.csv")
    assert mixed[-1, 0] == pytest.approx(60.0)  # a 60 s drive


@pytest.mark.parametrize("golden", GOLDEN_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_simulate_matches_godot_over_the_whole_run(golden):
    tuning, rest = golden.parent.name, golden.stem
    scenario, hz = rest.rsplit("_", 1)
    preset = load_preset(BUILTIN_DIR / f"{tuning}.json")
    trace = load_trace(GOLDENS / "traces" / f"{scenario}.csv")
    ours = run_trace(preset.model, preset.tuning, trace, int(hz[:-2]))
    godot = load_golden(golden)
    gap = compare(ours, godot)
    assert gap["position_px"] < POSITION_PX and gap["heading_rad"] < HEADING_RAD, gap
    # and the run is not trivially still: the car went somewhere
    assert np.abs(godot[:, 1:3]).max() > 100


def test_a_wrong_model_would_fail_the_bound():
    """The bound can fail: the drift tuning's trajectory is far from the recipe's golden."""
    trace = load_trace(GOLDENS / "traces" / "hairpin.csv")
    other = load_preset(BUILTIN_DIR / "drift.json")
    gap = compare(
        run_trace(other.model, other.tuning, trace, 60), load_golden(GOLDENS / "recipe_defaults" / "hairpin_60hz.csv")
    )
    assert gap["position_px"] > 100 * POSITION_PX


@needs_godot
@pytest.mark.parametrize(
    "hz, rate_independent", [(60, False), (30, False), (144, False), (60, True), (30, True), (240, True)]
)
def test_exported_godot3_script_drives_like_the_sandbox(hz, rate_independent, tmp_path):
    """The exported car.gd, attached unmodified to a KinematicBody2D and driven through
    Input.action_press/action_release, reproduces `simulate` within the bounds."""
    preset = load_preset(BUILTIN_DIR / "drift.json")
    preset.tuning["rate_independent"] = rate_independent
    preset.hz = hz
    trace_path = GOLDENS / "traces" / "hairpin.csv"
    godot = run_oracle(trace_path, hz=hz, script_text=export_script(preset, 3))
    ours = run_trace(preset.model, preset.tuning, load_trace(trace_path), hz)
    gap = compare(ours, godot)
    assert gap["position_px"] < POSITION_PX and gap["heading_rad"] < HEADING_RAD, gap


@needs_godot
def test_oracle_port_reproduces_a_committed_golden():
    """Godot today gives the committed golden (so the goldens are what Godot says)."""
    preset = load_preset(BUILTIN_DIR / "go_kart.json")
    fresh = run_oracle(GOLDENS / "traces" / "slalom.csv", dict(preset.tuning), 60)
    assert np.allclose(fresh, load_golden(GOLDENS / "go_kart" / "slalom_60hz.csv"), atol=2e-6)


def test_the_simulate_command_itself_matches_a_golden(tmp_path):
    """End to end through the CLI: `car-sandbox simulate` on the 60 s mixed drive."""
    import subprocess
    import sys

    out = tmp_path / "mixed.csv"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "sandbox",
            "simulate",
            "--preset",
            str(BUILTIN_DIR / "drift.json"),
            "--controls",
            str(GOLDENS / "traces" / "mixed_60s.csv"),
            "--out",
            str(out),
        ],
        check=True,
    )
    gap = compare(load_golden(out), load_golden(GOLDENS / "drift" / "mixed_60s_60hz.csv"))
    assert gap["position_px"] < POSITION_PX and gap["heading_rad"] < HEADING_RAD, gap


@needs_godot
def test_an_exported_script_adds_the_input_actions_it_needs():
    """In a project without the recipe's input actions, the exported script's `_ready`
    adds them with the sandbox's keys: Godot runs that code without a script error (the
    oracle fails on any) and the car drives as in the sandbox."""
    preset = load_preset(BUILTIN_DIR / "drift.json")
    trace_path = GOLDENS / "traces" / "hairpin.csv"
    godot = run_oracle(trace_path, hz=60, script_text=export_script(preset, 3), car_adds_actions=True)
    gap = compare(run_trace(preset.model, preset.tuning, load_trace(trace_path), 60), godot)
    assert gap["position_px"] < POSITION_PX and gap["heading_rad"] < HEADING_RAD, gap


@needs_godot
def test_the_exported_script_holds_the_sandboxs_speed_guard(tmp_path):
    """With friction and drag at 0 nothing resists a held throttle: the sandbox holds the
    car at 20 000 px/s, and so does the exported script in the engine (without the guard
    it would reach 40 000 px/s in these 10 s)."""
    from sandbox.devtools.export_drives import drive
    from sandbox.files.traces import save_trace
    from sandbox.physics.models.limits import SPEED_LIMIT_PX

    preset = load_preset(BUILTIN_DIR / "recipe_defaults.json")
    preset.tuning.update(friction=0.0, drag=0.0, engine_power=4000.0)
    trace = drive("straight_brake", 60)[:600]  # the first 10 s: full throttle
    save_trace(tmp_path / "throttle.csv", trace)
    godot = run_oracle(tmp_path / "throttle.csv", hz=60, script_text=export_script(preset, 3))
    ours = run_trace(preset.model, preset.tuning, trace, 60)
    assert ours[:, 6].max() == SPEED_LIMIT_PX
    assert godot[:, 6].max() == pytest.approx(SPEED_LIMIT_PX, abs=0.01)
    assert godot[-60:, 6] == pytest.approx(SPEED_LIMIT_PX, abs=0.01)


@pytest.mark.parametrize("tuning", ("recipe_defaults", "recipe_2020"))
def test_the_recipes_own_script_on_a_gamepad_is_the_sandbox_with_on_off_pedals(tuning):
    """The recipe reads the pedals with is_action_pressed: on a drive with the throttle at
    0.6 and the brake at 0.35 its car (in the engine) is the sandbox's with on/off pedals,
    and far from the same tuning with analog pedals."""
    preset = load_preset(BUILTIN_DIR / f"{tuning}.json")
    trace = load_trace(GOLDENS / "traces" / f"{PAD}.csv")
    assert ((trace[:, 1] > 0) & (trace[:, 1] < 1)).any() and ((trace[:, 2] > 0) & (trace[:, 2] < 1)).any()
    godot = load_golden(GOLDENS / tuning / f"{PAD}_60hz.csv")
    gap = compare(run_trace(preset.model, preset.tuning, trace, 60), godot)
    assert gap["position_px"] < POSITION_PX and gap["heading_rad"] < HEADING_RAD, gap
    analog = preset.tuning.copy()
    analog["analog_pedals"] = True
    assert compare(run_trace(preset.model, analog, trace, 60), godot)["position_px"] > 100
