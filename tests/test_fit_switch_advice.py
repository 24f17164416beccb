"""What the fit advises of the model's on/off options, knowing what its switch search did,
and how the search saves time: a quick fit of every set screens out those far from the
best before any is fitted in full. The rule of the advice: a switch is worth turning only
where the search did not try it (beyond the sets fitted, locked with --lock, or set from
the recording's header); a switch it tried, or one the recording cannot tell, is never
advised; instead the other sets' residuals say a switch is not what is missing.
Independent reasons: each recording is driven by the sandbox's own car under switches
and values the fit is not told, so the true set drives it exactly and any other cannot."""

from __future__ import annotations

import json
import threading
from types import SimpleNamespace

import pytest

from sandbox.analysis import fit as one_fit
from sandbox.analysis import fit_switches as switch_search
from sandbox.analysis.fit import summary
from sandbox.analysis.fit_advice import CLI, what_to_try
from sandbox.analysis.fit_objective import Objective
from sandbox.analysis.fit_switches import SCREEN_FACTOR, SCREEN_SHARE, SwitchFit, fit_switches, switch_names
from sandbox.analysis.tune_space import free_names
from sandbox.cli import main
from sandbox.devtools.fit_drives import arcade_drive, wall_contact
from sandbox.files.presets import reference_preset
from sandbox.files.recordings import drive_recording, save_recording
from sandbox.physics.models import MODELS
from sandbox.ui.fit_job import DIALOG
from test_fit_switches import ANALOG_VALUES, arcade_tuning, part_pressed

ARCADE = MODELS["arcade"]
HZ = 60
SETS = 6
"""The arcade's sets of switches (rate_independent does nothing under recipe_2020: 2 × 2 + 2)."""


@pytest.fixture(scope="module")
def analog_csv(tmp_path_factory):
    """8 s of the arcade with analog pedals, pedals part pressed (every switch told)."""
    path = tmp_path_factory.mktemp("advice") / "analog.csv"
    tuning = arcade_tuning({"analog_pedals": True}, ANALOG_VALUES)
    save_recording(path, drive_recording(ARCADE, tuning, part_pressed(arcade_drive(8.0, HZ)), HZ))
    return path


def _fit(argv, capsys) -> tuple[list[str], list[str]]:
    """(the text's what-to-try items, the JSON's) of one arcade fit."""
    main(["fit", "--model", "arcade"] + argv)
    line = [t for t in capsys.readouterr().out.splitlines() if t.startswith("  what to try: ")]
    main(["fit", "--model", "arcade", "--json"] + argv)
    (found,) = json.loads(capsys.readouterr().out)["fits"]
    return (line[0][len("  what to try: ") :].split("; ") if line else []), found["what_to_try"]


def test_switches_the_search_tried_are_never_advised_and_the_other_sets_residuals_are_said(analog_csv, capsys):
    """engine_power alone free, the other values of the hidden car held wrong: a poor fit,
    every switch tried: none is advised; the other five sets drove it less closely."""
    text, listed = _fit(["--trace", str(analog_csv), "--free", "engine_power"], capsys)
    assert text == listed  # the text and the JSON say the same
    assert not [t for t in listed if "on/off" in t or "--preset" in t or "turn " in t]
    (switches,) = [t for t in listed if t.startswith("not a switch of those tried: ")]
    assert f"the other {SETS - 1} sets of switches drove it less closely (the nearest, " in switches
    assert listed[0].startswith("free the ")  # the values held wrong come first


def test_a_locked_switch_is_advised_and_the_tried_one_is_not(analog_csv, capsys):
    text, listed = _fit(["--trace", str(analog_csv), "--lock", "recipe_2020,engine_power"], capsys)
    assert text == listed
    assert "let the fit try recipe_2020 (leave out of --lock)" in listed
    assert not [t for t in listed if "rate_independent" in t and "let the fit try" in t]
    # recipe_2020 kept off: rate_independent and analog_pedals make the other three sets of four
    assert any(t.startswith("not a switch of those tried: the other 3 sets of switches") for t in listed)


def test_switches_the_recordings_header_states_are_advised_as_stated_by_the_header(tmp_path, capsys):
    """The header states analog pedals off against a drive with pedals part pressed and
    analog pedals on: the fit sets them off (poor); what to try says the header states
    them, that the game's script may not be the node's, and how to have them tried."""
    recording = drive_recording(
        ARCADE, arcade_tuning({"analog_pedals": True}, ANALOG_VALUES), part_pressed(arcade_drive(8.0, HZ)), HZ
    )
    recording.switches = {"analog_pedals": False, "recipe_2020": False, "rate_independent": False}
    path = tmp_path / "stated.csv"
    save_recording(path, recording)
    text, listed = _fit(["--trace", str(path)], capsys)
    assert text == listed
    (header,) = [t for t in listed if t.startswith("the recording's header states ")]
    for name in switch_names(ARCADE):
        assert f"{name} off" in header
    assert "if the script is not the one the game's link node was made for" in header
    assert "delete the header's `# switches:` line and fit again to have them tried" in header
    assert not [t for t in listed if t.startswith("not a switch of those tried")]  # one set: nothing else tried


def test_switches_beyond_the_sets_fitted_are_advised_where_the_user_is(analog_csv):
    """A search that left analog pedals untried (the bound on the sets fitted): turning
    it is advised, in the command's words and in the dialog's; a switch it tried is not."""
    from sandbox.files.recordings import load_recording

    recording = load_recording(analog_csv, None)
    start = dict(reference_preset(ARCADE).tuning)
    result = summary(Objective(ARCADE, recording, HZ, start, HZ), start, ["engine_power"])
    assert result.verdict != "good"  # the start's values are not the hidden car's
    search = SwitchFit(
        result=result,
        tried=[({"recipe_2020": False}, result)],
        start={n: False for n in switch_names(ARCADE)},
        beyond_bound=["analog_pedals"],
    )
    for how in (CLI, DIALOG):
        listed = what_to_try(result, how, search)
        (turn,) = [t for t in listed if t.startswith("turn ")]
        assert turn == (
            f"turn analog_pedals in the start tuning ({how['switches']}) and fit again: not tried "
            f"(analog_pedals off, as the start has them), as at most {switch_search.MAX_SWITCH_SETS} sets of "
            "switches are fitted"
        )
        assert not [t for t in listed if "recipe_2020" in t or "rate_independent" in t]


def test_whole_presses_never_advise_analog_pedals(tmp_path, capsys):
    """Pedals pressed whole drive alike either way: analog pedals is untold, never advised."""
    recording = drive_recording(ARCADE, arcade_tuning({}, ANALOG_VALUES), arcade_drive(8.0, HZ), HZ)
    path = tmp_path / "whole.csv"
    save_recording(path, recording)
    text, listed = _fit(["--trace", str(path), "--free", "engine_power"], capsys)
    assert text == listed and listed
    assert not [t for t in listed if "analog_pedals" in t and "nearest" not in t]


def _quick(score, params=None):
    return SimpleNamespace(score=score, rms_position=score**0.5, params=params or {"v": score}, path_per_segment=1.0)


def test_the_sets_fitted_in_full_are_those_within_the_factor_of_the_best_quick_fit_one_of_each_alike(monkeypatch):
    """The screening's rule on stand-in quick fits: within SCREEN_FACTOR of the best's
    error (the square root of the score) kept, beyond it not; a set whose quick fit went
    exactly as a kept one's (the same values and residual) stands on that one's fit."""
    sets = [{"a": False, "b": False}, {"a": True, "b": False}, {"a": False, "b": True}, {"a": True, "b": True}]
    best = _quick(1.0, {"v": 1.0})
    quick = {
        (False, False): _quick(SCREEN_FACTOR**2 * 1.01),  # just beyond the factor
        (True, False): best,
        (False, True): _quick(SCREEN_FACTOR**2 * 0.99),  # just within
        (True, True): _quick(1.0, {"v": 1.0}),  # alike the best
    }
    monkeypatch.setattr(one_fit, "screen", lambda model, drive, start, *a, **k: quick[(start["a"], start["b"])])
    monkeypatch.setattr(switch_search, "start_with", lambda model, base, switches: dict(switches))
    kept, every = switch_search._screened(ARCADE, None, {}, ["v"], HZ, sets, HZ, None, None, None)
    assert kept == [{"a": True, "b": False}, {"a": False, "b": True}]
    assert [s for s, _ in every] == [sets[1], sets[3], sets[2], sets[0]]  # closest first


def test_the_switch_search_reports_its_progress_and_stops_between_sets(analog_csv):
    """Stopped as the third set's quick fit is done: no fourth is screened, and only the
    best so far is fitted (its fit stops at once, with its start)."""
    from sandbox.files.recordings import load_recording

    recording = load_recording(analog_csv, None)
    stop, shares = threading.Event(), []

    def progress(share):
        shares.append(share)
        if share >= SCREEN_SHARE * 3 / SETS - 1e-12:
            stop.set()

    start = dict(reference_preset(ARCADE).tuning)
    search = fit_switches(ARCADE, recording, start, free_names(ARCADE), HZ, on_progress=progress, stop=stop)
    assert len(search.quick) == 3 and len(search.tried) == 1
    assert shares[:3] == pytest.approx([SCREEN_SHARE * k / SETS for k in (1, 2, 3)])
    assert all(0.0 <= s <= 1.0 for s in shares)


def test_a_drive_that_needs_a_switch_and_touches_a_wall_is_fitted_with_both(tmp_path, capsys):
    """Analog pedals on, pedals part pressed, a wall glancing the car for 15 ticks at
    12.5 s: from the reference preset (analog pedals off) the fit turns them on, leaves
    out the second of the contact (12–13 s, its segment) and finds the values from the
    rest; the text and the JSON say the stretch, and nothing to try."""
    truth = arcade_tuning({"analog_pedals": True}, ANALOG_VALUES)
    path = tmp_path / "wall.csv"
    save_recording(path, wall_contact(ARCADE, truth, part_pressed(arcade_drive(20.0, HZ)), HZ, 12.5, 15))
    argv = ["fit", "--trace", str(path), "--model", "arcade", "--free", ",".join(ANALOG_VALUES)]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "left out: 12.00–13.00 s (1 of 20 segments)" in text and "chosen " in text
    assert "analog_pedals on" in text and "what to try" not in text
    main(argv + ["--json"])
    (found,) = json.loads(capsys.readouterr().out)["fits"]
    assert found["switches"]["analog_pedals"] is True
    assert found["left_out_spans_s"] == [[12.0, 13.0]] and found["verdict"] == "good"
    assert found["uncertainty_reason"] is None and found["what_to_try"] == []
    for name, value in ANALOG_VALUES.items():
        assert found["params"][name] == pytest.approx(value, rel=1e-3)
