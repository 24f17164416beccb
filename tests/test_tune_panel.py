"""The Tune tab driven offscreen: targets typed, run, stop, apply, undo, discard; the
result is the command line's for the same seed."""

import os
import subprocess
import sys

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from sandbox.files.presets import BUILTIN_DIR, load_preset  # noqa: E402

FREE = ("engine_power", "drag", "braking", "steering_angle")


def _aim(window, targets):
    window.show_tab("tuning")
    window.tune_dock.raise_()
    window._sync_tune()
    tune = window.tune
    for name, value, tolerance in targets:
        tune.set_target(name, value, tolerance)
    tune.lock([name for name in tune.param_rows if name not in FREE])
    return tune


def test_tune_run_apply_and_undo_equal_the_command_line(window, qtbot, tmp_path):
    window.open_preset_file(BUILTIN_DIR / "recipe_defaults.json")
    before = dict(window.tuning)
    tune = _aim(window, [("top_speed", 650.0, 10.0), ("radius_low", 200.0, 5.0)])
    tune.seed.setValue(4)
    assert tune.run()
    seen = []
    tune.candidate.connect(seen.append)
    qtbot.waitUntil(lambda: not tune.running, timeout=120_000)
    assert tune.result is not None and tune.result.hit
    assert any(g for g in seen if g) and seen[-1] is None  # the best so far drove as a ghost, gone at the end
    assert all(g.name != "auto-tune: best so far" for g in window.ghosts)
    found = dict(tune.result.tuning)
    # the command line, same preset, targets, free parameters and seed
    out = tmp_path / "tuned.json"
    run = subprocess.run([sys.executable, "-m", "sandbox", "tune", "--preset", str(BUILTIN_DIR / "recipe_defaults.json"),
                          "--target", "top_speed=650±10", "--target", "radius_low=200±5", "--free", ",".join(FREE),
                          "--seed", "4", "--out", str(out)], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert dict(load_preset(out).tuning) == found
    steps = window.undo.count()
    assert tune.apply()
    assert dict(window.tuning) == found and window.undo.count() == steps + 1 and window.modified()
    window.undo.undo()
    assert dict(window.tuning) == before


def test_discard_changes_nothing_and_stop_keeps_the_best_so_far(window, qtbot):
    window.open_preset_file(BUILTIN_DIR / "recipe_defaults.json")
    before = dict(window.tuning)
    tune = _aim(window, [("top_speed", 3000.0, 10.0)])
    tune.lock([name for name in tune.param_rows if name != "engine_power"])  # out of reach: ≈ 1590 px/s at most
    assert tune.run()
    qtbot.waitUntil(lambda: tune.curve.getData()[0] is not None and len(tune.curve.getData()[0]) > 3, timeout=60_000)
    tune.stop()
    qtbot.waitUntil(lambda: not tune.running, timeout=60_000)
    assert tune.result is not None and not tune.result.hit
    assert tune.status.text().startswith("Stopped: the best so far.") and "Not every target can be met" in tune.status.text()
    assert tune.result.tuning["engine_power"] > before["engine_power"]  # it went the right way
    tune.discard()
    assert dict(window.tuning) == before and not tune.apply_button.isEnabled()


def test_nothing_to_aim_at_is_said_plainly(window):
    window.open_preset_file(BUILTIN_DIR / "drift.json")
    window._sync_tune()
    assert not window.tune.run()
    assert "Tick at least one metric" in window.tune.status.text()
    window.tune.set_target("top_speed", 500.0)
    window.tune.lock(list(window.tune.param_rows))
    assert not window.tune.run() and "Every parameter is locked" in window.tune.status.text()


def test_the_tables_follow_the_model(window):
    window.switch_model("monster")
    window._sync_tune()
    assert "differential" in window.tune.param_rows and "engine_power" not in window.tune.param_rows
    assert "manual_gears" not in window.tune.param_rows  # options never move
    window.switch_model("arcade")
    window._sync_tune()
    assert "engine_power" in window.tune.param_rows
    assert window.tune.params.rowCount() == 2 * len([p for p in window.model.PARAMS if not p.is_bool])  # name, range


def test_a_model_switch_during_a_search_drops_its_result(window, qtbot):
    window.open_preset_file(BUILTIN_DIR / "recipe_defaults.json")
    tune = _aim(window, [("top_speed", 3000.0, 10.0)])
    assert tune.run()
    window.switch_model("bicycle")
    window._sync_tune()
    qtbot.waitUntil(lambda: not tune.running, timeout=60_000)
    assert tune.result is None and "model changed" in tune.status.text()
    assert not tune.apply() and window.model.NAME == "bicycle"
