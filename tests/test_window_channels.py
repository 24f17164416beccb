"""The channel chooser above the live plots, in the real window offscreen: channels
checked in its menu are plotted (a second unit on the right axis, each value with its
unit in the readout), a fifth channel or a third unit is greyed, the choice is kept per
model into a new window, and a damaged kept choice falls back with a note."""

from __future__ import annotations

import csv
import math
from pathlib import Path

import numpy as np
import pytest

from sandbox.errors import TraceError
from sandbox.files.presets import BUILTIN_DIR
from sandbox.files.recording_columns import CHANNEL_COLUMNS
from sandbox.files.recordings import load_recording
from sandbox.files.traces import load_trace
from sandbox.ui.app import MainWindow
from sandbox.ui.window_memory import settings
from window_helpers import paused

CORVETTE = BUILTIN_DIR / "monster_corvette_c5.json"


def check(window, name: str, on: bool = True) -> None:
    """Check (or uncheck) `name` in the Channels menu, as a click on it does."""
    action = window.panels.chooser.actions[name]
    assert action.isChecked() != on
    action.trigger()


def start(qtbot) -> MainWindow:
    window = MainWindow(remember=True)
    qtbot.addWidget(window)
    with qtbot.waitExposed(window):
        window.show()
    return window


def test_channels_checked_in_the_menu_are_plotted_a_second_unit_on_the_right(window):
    window.open_preset_file(CORVETTE)
    chooser = window.panels.chooser
    assert chooser.names == ("rpm", "gear")  # the model's first preset
    check(window, "gear", on=False)
    check(window, "yaw_rate")
    assert [c.name for c in window.plots.channels] == ["rpm", "yaw_rate"]
    assert chooser.box.currentIndex() == -1  # no preset is these
    chooser.menu.aboutToShow.emit()  # as the menu opens
    greyed = {name for name, action in chooser.actions.items() if not action.isEnabled()}
    assert {"accel_lat", "slip_front", "load_front", "speed"} <= greyed  # a third unit each
    assert "2 units already" in chooser.actions["accel_lat"].toolTip()
    assert not {"rpm", "yaw_rate"} & greyed
    paused(window).scripted_drive(2)
    rpm_curve, yaw_curve = window.plots.channel_curves[:2]
    assert rpm_curve.getViewBox() is window.plots.channel_plot.getViewBox()
    assert yaw_curve.getViewBox() is window.plots.right_box  # °/s on the right axis
    window.plots.refresh(window.sim.time)
    yaw = yaw_curve.getData()[1]
    state = window.sim.state
    assert yaw[-1] == pytest.approx(math.degrees(float(state.get("omega")[0])))  # the state's value that tick
    assert np.isfinite(yaw).sum() == 120
    text = window.plots.readout.text()
    assert "engine speed" in text and " rpm" in text and "yaw rate" in text and "°/s" in text


def test_a_fifth_channel_is_greyed(window):
    window.open_preset_file(CORVETTE)
    chooser = window.panels.chooser
    chooser.box.setCurrentText("slip angles")
    check(window, "lat_front")
    check(window, "lat_rear")
    assert len(window.plots.channels) == 4 and len(window.plots.channel_curves) == 4
    chooser.menu.aboutToShow.emit()
    assert not chooser.actions["sideslip"].isEnabled()  # a unit shown, but a fifth curve
    assert "4 channels" in chooser.actions["sideslip"].toolTip()
    chooser.box.setCurrentText("axle loads")  # a preset replaces the choice
    assert chooser.names == ("load_front", "load_rear") and chooser.box.currentText() == "axle loads"


def test_the_channels_chosen_are_kept_per_model_in_a_new_window(qtbot):
    first = start(qtbot)
    first.open_preset_file(CORVETTE)
    first.panels.chooser.box.setCurrentText("axle loads")
    check(first, "accel_long")
    assert first.switch_model("arcade")
    check(first, "accel_lat")  # the arcade's: px/s²
    arcade_chosen = first.panels.chooser.names
    assert arcade_chosen == ("wheel_angle", "accel_lat")
    first.close()
    second = start(qtbot)
    assert second.switch_model("arcade")
    assert second.panels.chooser.names == arcade_chosen
    assert [c.unit for c in second.plots.channels] == ["°", "px/s²"]
    assert second.switch_model("monster")
    assert second.panels.chooser.names == ("load_front", "load_rear", "accel_long")


def test_a_damaged_kept_choice_falls_back_to_the_first_preset_with_a_note(qtbot):
    store = settings()
    store.setValue("plots/channels/monster", "rpm,no_such_channel")
    store.sync()
    window = start(qtbot)
    assert window.switch_model("monster")
    assert window.panels.chooser.names == ("rpm", "gear")
    qtbot.waitUntil(lambda: "plots/channels/monster" in window.statusBar().currentMessage())
    assert not settings().contains("plots/channels/monster")


def test_a_drive_recorded_in_the_window_keeps_its_channels_and_loads_again(window, tmp_path):
    """File → Save recording writes the model's channels after the controls, each named
    with its unit; the file replays as a trace; the state's own values are what was
    driven (the rpm the car had at each tick)."""
    window.open_preset_file(CORVETTE)
    paused(window)
    window.replay.set_recording(True)
    window.scripted_drive(2)
    rpm_now = float(window.sim.state.get("rpm")[0])
    window.replay.set_recording(False)
    path = tmp_path / "drive.csv"
    assert window.replay.save_recording_to(path)
    with open(path, newline="") as f:
        header = next(csv.reader(f))
        table = np.array([[float(v) for v in row] for row in csv.reader(f)])
    assert header[:3] == ["steer", "throttle", "brake"]
    assert {"rpm[rpm]", "gear", "yaw_rate[deg/s]", "accel_lat[g]", "load_front[N]", "throttle_received[%]"} <= set(
        header
    )
    assert len(table) == 120 and table[-1, header.index("rpm[rpm]")] == rpm_now
    assert np.isfinite(table[:, header.index("accel_long[g]")]).all()  # the start is known: the first tick too
    controls = load_trace(path)
    assert controls.shape == (120, 5) and controls[:, :3] == pytest.approx(table[:, :3])
    assert window.replay.open_trace_file(path)  # and replays


def test_traces_and_recordings_from_before_the_channels_still_load(tmp_path):
    data = Path(__file__).parent / "data"
    assert load_trace(data / "trace_pedals_only_before_handbrake.csv").shape[1] == 5
    recording = load_recording(data / "recordings" / "game_arcade.csv")
    assert len(recording) > 0 and recording.velocity is not None
    assert not CHANNEL_COLUMNS & {"steer", "throttle", "brake", "t", "x", "y", "heading", "vx", "vy"}
    kept = tmp_path / "kept.csv"  # a channel not known on the first tick is NaN, and loads
    kept.write_text("steer,throttle,brake,accel_lat[g],gear\n0,1,0,nan,1\n0.5,1,0,0.25,1\n")
    assert load_trace(kept) == pytest.approx(np.array([[0, 1, 0, 0, 0], [0.5, 1, 0, 0, 0]]))
    bad = tmp_path / "bad.csv"
    bad.write_text("steer,throttle,brake,rpm[nope]\n0,1,0,1000\n")
    with pytest.raises(TraceError, match="header"):  # a column no channel has is still refused
        load_trace(bad)


def test_the_live_plots_export_names_each_channel_with_its_unit_on_two_axes(window, tmp_path):
    paused(window)
    window.panels.chooser.choose(("wheel_angle", "sideslip", "accel_lat"))  # ° twice, px/s² on the right
    window.scripted_drive(0.5)
    assert window.files.export_plots(tmp_path / "plots.csv")
    header = next(csv.reader((tmp_path / "plots.csv").open()))
    assert header[3:6] == ["front wheel angle [°]", "sideslip angle [°]", "lateral acceleration [px/s²]"]
    assert window.files.export_plots(tmp_path / "plots.svg") and "<svg" in (tmp_path / "plots.svg").read_text()
