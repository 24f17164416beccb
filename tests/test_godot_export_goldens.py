"""Every model's exported Godot script against the sandbox, through the engine: an
independent oracle.

The goldens in tests/goldens/export are the trajectories Godot 3 drove with the
exported script, unmodified, of each built-in preset and of five option tunings
(export_goldens.OPTION_TUNINGS), on the scripted drives of
sandbox/devtools/export_drives.py; the models in metres that slide also at 1 pixel
per metre. The engine computed them, not the sandbox: CI has no Godot, and the
goldens carry the engine's answer into it. Where godot3-server is installed, the
tests marked `needs_godot` run the engine live as well.

A failure means the sandbox and its exported script part. Re-record (`python
tools/make_export_goldens.py`, which runs the exported scripts in the engine) when
the export or a drive changes, never to follow a change of the sandbox alone.
"""

import numpy as np
import pytest

from sandbox.devtools.export_drives import DRIVE_SECONDS, RUNS, drive
from sandbox.devtools.export_goldens import OPTION_TUNINGS, gap_px, golden_path, load_golden, scales, tunings
from sandbox.devtools.oracle import godot_binary, run_oracle
from sandbox.files.godot import export_script
from sandbox.files.presets import BUILTIN_DIR, load_preset
from sandbox.files.traces import save_trace
from sandbox.physics.sim import run_trace

POSITION_PX = 1.0
HEADING_RAD = 5e-4
PRESETS = sorted(BUILTIN_DIR.glob("*.json"))
TUNINGS = dict(tunings())
CASES = [(stem, ppm, name, hz) for stem, preset in TUNINGS.items() for ppm in scales(preset.model) for name, hz in RUNS]
needs_godot = pytest.mark.skipif(godot_binary() is None, reason="godot3-server is not installed")


def _id(case) -> str:
    stem, ppm, name, hz = case
    return f"{stem}@{ppm:g}px/{name}_{hz}hz"


def test_every_preset_of_every_model_has_its_goldens():
    models = {load_preset(path).model.NAME for path in PRESETS}
    assert models == {"arcade", "bicycle", "ackermann", "rigid_body", "monster"}
    assert {path.stem for path in PRESETS} <= set(TUNINGS)
    for stem, ppm, name, hz in CASES:
        golden = golden_path(stem, TUNINGS[stem].model, ppm, name, hz)
        assert golden.is_file(), golden
    # four drives at 60 Hz, one at 30 and one at 144, each of 30 s
    assert sorted(hz for _, hz in RUNS) == [30, 60, 60, 60, 60, 144]
    assert {name for name, hz in RUNS if hz == 60} == {"straight_brake", "circle", "slalom_reverse", "analog"}
    # the analog drive holds values that 32 bits cannot: the engine and the sandbox both round them
    analog = drive("analog", 60)
    assert (analog.astype(np.float32).astype(np.float64) != analog).any()
    for name, hz in RUNS:
        assert len(drive(name, hz)) == DRIVE_SECONDS * hz


def test_the_metric_models_that_slide_are_checked_at_one_pixel_per_metre_too():
    for path in PRESETS:
        model = load_preset(path).model
        assert (1.0 in scales(model)) == (model.NAME in ("arcade", "rigid_body", "monster"))


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_the_sandbox_drives_as_the_engine_did_at_every_tick(case):
    stem, ppm, name, hz = case
    preset = TUNINGS[stem]
    godot = load_golden(golden_path(stem, preset.model, ppm, name, hz))
    ours = run_trace(preset.model, preset.tuning, drive(name, hz), hz)
    assert godot[-1, 0] == pytest.approx(DRIVE_SECONDS)
    gap = gap_px(ours, godot, ppm)
    assert gap["position_px"] <= POSITION_PX and gap["heading_rad"] <= HEADING_RAD, gap
    # not trivially still: the car went somewhere and turned (except on the straight)
    assert np.hypot(godot[:, 1], godot[:, 2]).max() * scales(preset.model)[0] > 100  # px at the usual scale
    if name != "straight_brake":
        assert np.ptp(np.unwrap(godot[:, 3])) > 0.3


def test_the_option_tunings_turn_on_every_option_no_preset_does():
    """Every switch of the models in metres is on in some checked tuning."""
    on = {
        (preset.model.NAME, p.name)
        for preset in TUNINGS.values()
        for p in preset.model.PARAMS
        if p.is_bool and preset.tuning[p.name]
    }
    for preset in TUNINGS.values():
        if preset.model.LENGTH_UNIT == "m":
            for p in preset.model.PARAMS:
                if p.is_bool:
                    assert (preset.model.NAME, p.name) in on, p.name
    assert set(OPTION_TUNINGS) < set(TUNINGS)


def test_the_bound_can_fail():
    """Another tuning of the same model is far outside the bound on the same golden."""
    path = BUILTIN_DIR / "bicycle_blog.json"
    model = load_preset(path).model
    other = load_preset(BUILTIN_DIR / "bicycle_drift_illusion.json")
    godot = load_golden(golden_path(path.stem, model, scales(model)[0], "slalom_reverse", 60))
    gap = gap_px(run_trace(model, other.tuning, drive("slalom_reverse", 60), 60), godot, scales(model)[0])
    assert gap["position_px"] > 100 * POSITION_PX


LIVE = ["recipe_defaults", "bicycle_exact_arc", "ackermann_van", "rigid_body_road", "monster_corvette_c5"]


@needs_godot
@pytest.mark.parametrize("stem", LIVE)
def test_the_engine_today_gives_the_committed_golden(stem, tmp_path):
    preset = load_preset(BUILTIN_DIR / f"{stem}.json")
    ppm = scales(preset.model)[0]
    trace_path = tmp_path / "slalom.csv"
    save_trace(trace_path, drive("slalom_reverse", 60))
    preset.hz = 60
    fresh = run_oracle(trace_path, hz=60, script_text=export_script(preset, 3, ppm))
    golden = load_golden(golden_path(stem, preset.model, ppm, "slalom_reverse", 60))
    assert np.allclose(fresh[:, :4], golden, atol=2e-7, rtol=0)


def test_without_32_bit_controls_the_analog_drive_would_part_from_the_engine():
    """The reason controls are rounded to 32 bits: fed the unrounded pedal of 0.7, the
    bicycle's brake leaves its speed a hair above zero, starts reversing a tick after the
    engine's car did, and is more than the bound away from the engine's trajectory."""
    from sandbox.physics import kernels, sim

    preset = TUNINGS["bicycle_blog"]
    model, trace = preset.model, drive("analog", 60)
    controls = np.zeros((len(trace), 5))
    controls[:, :3] = trace  # not rounded: straight into the compiled driver
    columns = np.array([model.STATE.offset[name] for name in ("x", "y")], dtype=np.int64)
    unrounded = np.empty((len(trace), 2))
    rows, _ = sim.tuning_rows(model, preset.tuning, 1)
    kernels.call(
        kernels.record_trace,
        sim.model_number(model),
        sim.State.at_rest(1, model.STATE).data[0],
        controls,
        rows[0],
        1 / 60,
        columns,
        unrounded,
    )
    godot = load_golden(golden_path("bicycle_blog", model, 25.0, "analog", 60))
    ppm = scales(model)[0]
    assert np.hypot(*(unrounded - godot[:, 1:3]).T).max() * ppm > POSITION_PX
    rounded = run_trace(model, preset.tuning, trace, 60)
    assert np.hypot(*(rounded[:, 1:3] - godot[:, 1:3]).T).max() * ppm < POSITION_PX / 100


@pytest.mark.parametrize("stem", [name for name in OPTION_TUNINGS if name.endswith("_steering_feel")])
def test_the_steering_feel_tunings_drive_otherwise_than_without_it(stem):
    """The engine's check of the steering feel has teeth: on the slalom the feel moves
    the car by far more than the bound, and so do the assists alone where a model has
    them (the drive makes the car slide past their thresholds)."""
    preset = TUNINGS[stem]
    ppm = scales(preset.model)[0]
    trace = drive("slalom_reverse", 60)
    felt = run_trace(preset.model, preset.tuning, trace, 60)
    plain = dict(preset.tuning, **{p.name: p.default for p in preset.model.PARAMS if p.group == "Steering feel"})
    assert gap_px(felt, run_trace(preset.model, plain, trace, 60), ppm)["position_px"] > 100 * POSITION_PX
    if "drift_hold" in preset.tuning:
        unassisted = dict(preset.tuning, countersteer_help=0.0, drift_hold=0.0)
        assert gap_px(felt, run_trace(preset.model, unassisted, trace, 60), ppm)["position_px"] > 100 * POSITION_PX
