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
    window.panels.tune_dock.raise_()
    window.panels.sync_tune()
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
    assert all(g.name != "auto-tune: best so far" for g in window.drive.ghosts)
    found = dict(tune.result.tuning)
    # the command line, same preset, targets, free parameters and seed
    out = tmp_path / "tuned.json"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "sandbox",
            "tune",
            "--preset",
            str(BUILTIN_DIR / "recipe_defaults.json"),
            "--target",
            "top_speed=650±10",
            "--target",
            "radius_low=200±5",
            "--free",
            ",".join(FREE),
            "--seed",
            "4",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
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
    assert (
        tune.status.text().startswith("Stopped: the best so far.")
        and "Not every target can be met" in tune.status.text()
    )
    assert tune.result.tuning["engine_power"] > before["engine_power"]  # it went the right way
    tune.discard()
    assert dict(window.tuning) == before and not tune.apply_button.isEnabled()


def test_nothing_to_aim_at_is_said_plainly(window):
    window.open_preset_file(BUILTIN_DIR / "drift.json")
    window.panels.sync_tune()
    assert not window.tune.run()
    assert "Tick at least one metric" in window.tune.status.text()
    window.tune.set_target("top_speed", 500.0)
    window.tune.lock(list(window.tune.param_rows))
    assert not window.tune.run() and "Every parameter is locked" in window.tune.status.text()


def test_the_tables_follow_the_model(window):
    window.switch_model("monster")
    window.panels.sync_tune()
    assert "differential" in window.tune.param_rows and "engine_power" not in window.tune.param_rows
    assert "manual_gears" not in window.tune.param_rows  # options never move
    window.switch_model("arcade")
    window.panels.sync_tune()
    assert "engine_power" in window.tune.param_rows
    assert window.tune.tables.shown_rows == 2 * len([p for p in window.model.PARAMS if p.moves_motion])  # name, range


def test_a_hidden_tune_tab_is_filled_when_shown_not_on_each_switch(window, qtbot):
    """A model switch leaves the Tune tab's tables alone while another tab is in front
    (a switch stays quick); bringing the Tune tab forward fills them for the car driven."""
    window.show_tab("tuning")
    qtbot.waitUntil(lambda: window.panels.tune_dock.visibleRegion().isEmpty())  # behind the Tuning tab
    before = window.tune.model
    window.switch_model("monster")
    assert window.tune.model is before and "differential" not in window.tune.param_rows
    window.panels.tune_dock.raise_()
    qtbot.waitUntil(lambda: window.tune.model is window.model)
    assert "differential" in window.tune.param_rows


def test_a_model_switch_during_a_search_drops_its_result(window, qtbot):
    window.open_preset_file(BUILTIN_DIR / "recipe_defaults.json")
    tune = _aim(window, [("top_speed", 3000.0, 10.0)])
    assert tune.run()
    window.switch_model("bicycle")
    window.panels.sync_tune()
    qtbot.waitUntil(lambda: not tune.running, timeout=60_000)
    assert tune.result is None and "model changed" in tune.status.text()
    assert not tune.apply() and window.model.NAME == "bicycle"


def test_the_result_shows_each_change_and_can_be_tried_before_apply(window, qtbot):
    """Each changed parameter is listed (label, old → new, unit); Try it loads the result
    into the car as one undo step, Back puts back exactly what was there, and Apply after
    Try it keeps the trial as that one step."""
    window.open_preset_file(BUILTIN_DIR / "recipe_defaults.json")
    before = dict(window.tuning)
    tune = _aim(window, [("top_speed", 650.0, 10.0), ("radius_low", 200.0, 5.0)])
    tune.seed.setValue(4)
    assert tune.run()
    qtbot.waitUntil(lambda: not tune.running, timeout=120_000)
    found = dict(tune.result.tuning)
    changed = [name for name in FREE if found[name] != before[name]]
    assert changed and dict(window.tuning) == before  # nothing changes until asked
    lines = tune.changes.text().splitlines()
    assert len(lines) == len(changed)
    for name in changed:
        p = window.tuning.param(name)
        line = next(text for text in lines if text.startswith(p.label + ":"))
        assert f"{before[name]:.{p.decimals}f} → {found[name]:.{p.decimals}f}" in line and line.endswith(p.unit)
    assert f"{len(changed)} parameters change (below)" in tune.status.text()

    at = window.undo.index()
    assert tune.try_it()
    assert dict(window.tuning) == found and window.undo.index() == at + 1  # driven as the car's own tuning
    assert tune.back()
    assert dict(window.tuning) == before and window.undo.index() == at  # exactly as it was, no step left
    assert tune.result is not None and tune.try_button.isEnabled()  # still there to try again or apply
    assert tune.try_it()
    window.undo.undo()  # Ctrl+Z in the trial ends it, like Back
    assert dict(window.tuning) == before and not tune.back_button.isEnabled() and tune.try_button.isEnabled()
    assert tune.try_it() and tune.apply()
    assert dict(window.tuning) == found and window.undo.index() == at + 1 and tune.result is None
    window.undo.undo()
    assert dict(window.tuning) == before


def test_the_tolerance_follows_a_new_target_until_one_is_typed(window):
    window.open_preset_file(BUILTIN_DIR / "recipe_defaults.json")
    window.panels.sync_tune()
    _, target, spread = window.tune.target_rows["top_speed"]
    target.setValue(650.0)
    assert spread.value() == pytest.approx(13.0)  # the default 2 % of the new target, 650 px/s
    spread.setValue(5.0)  # the user's own
    target.setValue(700.0)
    assert spread.value() == 5.0


def test_a_result_is_applied_only_to_the_tuning_it_was_searched_from(window, qtbot):
    """Another preset of the same model loaded while the search runs: Apply is refused
    and every value, the locked ones too, stays the new preset's."""
    window.open_preset_file(BUILTIN_DIR / "recipe_defaults.json")
    tune = _aim(window, [("top_speed", 650.0, 10.0)])
    assert tune.run()
    window.open_preset_file(BUILTIN_DIR / "drift.json")
    drift = dict(window.tuning)
    assert window.model is tune.searched_model and drift != tune.searched_from
    qtbot.waitUntil(lambda: not tune.running, timeout=120_000)
    assert tune.result is not None
    assert not tune.apply_button.isEnabled() and not tune.try_button.isEnabled()
    assert not tune.apply() and not tune.try_it()
    assert dict(window.tuning) == drift
    assert "the tuning changed since the search started" in tune.status.text()
    window.undo.undo()  # back to the tuning it was searched from: the result is usable again
    assert dict(window.tuning) == tune.searched_from and tune.apply_button.isEnabled()
    window.open_preset_file(BUILTIN_DIR / "drift.json")  # a change while the result is shown
    assert not tune.apply_button.isEnabled() and "Try it and Apply wait" in tune.status.text()
    window.undo.undo()
    found = {**tune.searched_from, **{name: new for name, (_, new) in tune.changed().items()}}
    assert tune.changed() and tune.apply() and dict(window.tuning) == found


def test_stop_during_what_binds_ends_the_job_within_a_few_tunings(qtbot, monkeypatch):
    """The phase after a miss (searching again without each target) obeys Stop: after
    the stop, only the best found is measured again, never another generation."""
    from sandbox.analysis import tune as tune_module
    from sandbox.analysis.tune import Target
    from sandbox.ui import tune_job
    from sandbox.ui.tune_job import search_job
    from sandbox.ui.worker import Worker

    preset = load_preset(BUILTIN_DIR / "recipe_defaults.json")
    # with the engine power alone free these pull against each other: a miss, then the binds phase
    targets = [Target("top_speed", 850.0, 10.0), Target("time_to_90pct", 1.5, 0.02)]
    running = []  # the job's Task: its stop is what Stop sets
    count = {"searches": 0, "binds": 0, "after_stop": 0}
    real_search, real_measure = tune_module.search, tune_module.measure

    def counting_search(*args, **kwargs):
        count["searches"] += 1
        return real_search(*args, **kwargs)

    def counting_measure(model, params, hz, track=None):
        out = real_measure(model, params, hz, track)
        tunings = len(next(iter(out.values())))
        stop = running[0].stop
        if stop.is_set():
            count["after_stop"] += tunings
        elif count["searches"] >= 2:  # the first search is over: this is what binds
            count["binds"] += tunings
            if count["binds"] >= 50:
                stop.set()  # the user presses Stop
        return out

    monkeypatch.setattr(tune_module, "search", counting_search)  # the searches of what binds
    monkeypatch.setattr(tune_job, "search", counting_search)  # the search itself
    monkeypatch.setattr(tune_module, "measure", counting_measure)
    job = Worker()
    phases, results = [], []
    job.progress.connect(lambda value: isinstance(value, str) and phases.append(value))
    job.finished.connect(lambda done, _seconds: results.append(done[0]))

    def work(task):
        running.append(task)
        return search_job(preset.model, dict(preset.tuning), targets, ["engine_power"], {}, 60, 1, task)

    job.request(work)
    job.settle()
    assert running[0].stop.is_set() and count["searches"] == 2  # stopped in the first search of the binds phase
    assert count["after_stop"] <= 3, count
    assert phases and "Stop ends it" in phases[0]
    assert results and not results[0].hit


def test_closing_the_window_while_it_looks_for_what_binds_ends_the_job(window, qtbot, monkeypatch):
    """Closing the window in the phase after a miss: the job has ended when the window
    has closed, and after the stop it asked for, at most the batch then being measured
    and the best found are measured (never another search)."""
    from sandbox.analysis import tune as tune_module

    window.open_preset_file(BUILTIN_DIR / "recipe_defaults.json")
    tune = _aim(window, [("top_speed", 850.0, 10.0), ("time_to_90pct", 1.5, 0.02)])
    tune.lock([name for name in tune.param_rows if name != "engine_power"])  # the two pull against each other
    binds, after_stop = [], []
    real_search, real_measure = tune_module.search, tune_module.measure

    def counting_search(*args, **kwargs):  # the searches of what binds (the first search is the panel's own)
        binds.append(1)
        return real_search(*args, **kwargs)

    def counting_measure(*args):
        out = real_measure(*args)
        if tune.job.task is not None and tune.job.task.stop.is_set():
            after_stop.append(len(next(iter(out.values()))))
        return out

    monkeypatch.setattr(tune_module, "search", counting_search)
    monkeypatch.setattr(tune_module, "measure", counting_measure)
    assert tune.run()
    # the tab says what it is doing (its text arrives from the worker as a queued signal)
    qtbot.waitUntil(lambda: bool(binds) and "what stands in the way" in tune.status.text(), timeout=300_000)
    window.close()
    assert not tune.job.running()
    assert len(after_stop) <= 2, after_stop
