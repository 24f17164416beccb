"""The real window, offscreen, driven with pytest-qt. What the window draws of the drive:
the live plots, their turns, the telemetry channels, skid marks, the status line."""

import numpy as np
import pytest
from PySide6.QtCore import Qt

from sandbox.files.presets import BUILTIN_DIR
from sandbox.physics.state import Controls
from sandbox.session.input_channels import telemetry_groups
from sandbox.session.sources import HeldControls
from window_helpers import paused, speed_trace

K = Qt.Key


def test_skid_marks_appear_above_slip_speed(window):
    paused(window).scripted_drive(4)
    skid = window.track.trail.view()[6]
    assert skid.any() and not skid[:5].any()  # starts on grip, slides once past 400 px/s


def test_plots_survive_hundreds_of_repaints(window, qtbot):
    """ENVIRONMENT.md: PySide6 6.12 crashed pyqtgraph after a few repaints."""
    paused(window)
    for _ in range(300):
        window.scripted_drive(1 / 60)
        window.plots.repaint()
        window.curves.repaint()
    assert len(speed_trace(window)) == 300


def test_model_telemetry_plots_the_chosen_channels(window):
    window.open_preset_file(BUILTIN_DIR / "monster_corvette_c5.json")
    box = window.panels.channel_box
    assert [box.itemText(i) for i in range(box.count())] == list(telemetry_groups(window.model))
    window.panels.channel_box.setCurrentText("rpm and gear")
    paused(window).scripted_drive(3)
    rpm = window.plots.channel_curves[0].getData()[1]
    gear = window.plots.channel_curves[1].getData()[1]
    assert len(rpm) == 180 and rpm.min() >= 1000 and rpm.max() > 2000  # idle floor, revving up
    assert set(np.unique(gear)) <= {1.0, 2.0, 3.0}  # the gear itself, on the right axis
    # the axes name the units; the group's name is in the box (a long one overlapped)
    assert "[rpm]" in window.plots.sides[2].text and window.plots.channel_plot.getAxis("right").isVisible()
    window.panels.channel_box.setCurrentText("axle loads")
    window.scripted_drive(1)
    front, rear = (c.getData()[1] for c in window.plots.channel_curves[:2])
    finite = np.isfinite(front)
    assert finite.sum() == 60  # the new group starts blank, then fills
    # total load is the weight: m·g = 1500·9.8 N
    assert (front[finite] + rear[finite]) == pytest.approx(np.full(60, 1500 * 9.8))
    assert [c.unit for c in window.plots.channels] == ["N", "N"] and "[N]" in window.plots.sides[2].text
    assert not window.plots.channel_plot.getAxis("right").isVisible()


def test_switching_telemetry_group_keeps_the_ghosts_history(window):
    """Switching the model-telemetry group blanks that plot's history only."""
    paused(window)
    window.compare.pin()
    window.scripted_drive(2)
    window.panels.channel_box.setCurrentText("wheel angle")
    window.plots.set_channels(telemetry_groups(window.model)["wheel angle"])
    window.scripted_drive(0.5)
    ghost_speed = window.plots.ghost_speed_curves[0].getData()[1]
    assert len(ghost_speed) == 150 and np.isfinite(ghost_speed).all()
    channel = window.plots.channel_curves[0].getData()[1]
    assert np.isnan(channel[:120]).all() and np.isfinite(channel[120:]).all()


def test_a_plot_drawn_a_frame_ago_keeps_what_it_showed(window):
    """The three live plots take turns; one refreshed on an earlier frame still holds
    that frame's data, time and values together (not a later tick's values against
    older times), so what is drawn or exported is always a real sample."""
    from sandbox.ui.drive_view import REFRESH_TURNS

    paused(window)
    window.compare.pin()
    window.keys.held |= {K.Key_W}
    while window.drive_view.drawn % REFRESH_TURNS != REFRESH_TURNS - 1:
        window.run_for(1 / 60)
    window.run_for(1 / 60)  # this frame redraws the speed plot (turn 0)
    assert window.drive_view.drawn % REFRESH_TURNS == 0
    speed_then = float(window.sim.state.speed[0])
    for _ in range(REFRESH_TURNS - 1):  # the slip and channel plots' turns; the car keeps accelerating
        window.run_for(1 / 60)
    assert float(window.sim.state.speed[0]) > speed_then
    ago, speeds = window.plots.speed_curve.getData()
    assert speeds[-1] == speed_then and ago[-1] == 0.0
    ghost_ago, ghost_speeds = window.plots.ghost_speed_curves[0].getData()
    assert ghost_speeds[-1] == speed_then and ghost_ago[-1] == 0.0  # the pinned ghost drives alike


def test_the_slip_plot_does_not_zoom_onto_float_noise(window, qtbot):
    """Driving straight, slip angles of 1e-14° are float noise: the plot keeps a span of
    at least 2° instead of scaling them to its full height."""
    from sandbox.physics.state import State

    plots = window.plots
    for k in range(120):
        state = State.at_rest(1, window.model.STATE)
        state.data[0, window.model.STATE.offset["vx"]] = 100.0
        state.data[0, window.model.STATE.offset["vy"]] = 1e-14 * (k % 3 - 1)
        plots.record(k / 60, state, [])
    plots.refresh(2.0, None)
    qtbot.wait(50)
    low, high = plots.slip_plot.getViewBox().viewRange()[1]
    assert high - low >= 1.99  # degrees


def test_status_line_says_nothing_of_frame_rate_before_it_is_measured(window):
    paused(window)
    window.run_for(1 / 60)
    assert "fps –" not in window.status.text() and "physics 60 Hz" in window.status.text()


def test_the_status_line_and_dashboard_show_what_the_model_declares(window):
    """The arcade's traction regime in the status line, the engine's rpm and gear on
    the dynamic car's dashboard (the declarations: test_drive_readouts)."""
    paused(window)
    window.run_for(1 / 60)  # no key held: the car stays at rest
    assert window.status.text().startswith("at rest · physics 60 Hz")
    assert window.track.dashboard.rpm is None and window.track.dashboard.gear is None
    window.open_preset_file(BUILTIN_DIR / "monster_corvette_c5.json")
    paused(window).scripted_drive(1)
    assert not window.status.text().startswith(("at rest", "traction"))  # the dynamic car declares no regimes
    state = window.sim.state
    assert window.track.dashboard.rpm == float(state.extra["rpm"][0]) > 0
    assert window.track.dashboard.gear == str(int(state.extra["gear"][0]))


@pytest.mark.parametrize("resets", [0, 1, 2])
def test_the_readout_follows_the_car_whatever_redraws_came_before(window, resets):
    """The readout is laid out on every other turn of the speed plot: a whole redraw
    (a reset) in between must not shift it off its turn for good."""
    paused(window)
    for _ in range(resets):
        window.drive_view.refresh()  # a whole redraw, as a step or a scrub does
    window.drive.live = HeldControls(Controls(0, 1, 0))  # full throttle: the speed changes every tick
    shown = set()
    for _ in range(60):
        window.run_for(1 / 60)
        shown.add(window.plots.readout.text())
    assert len(shown) >= 60 // (2 * 3)  # a new text every other speed-plot turn (every sixth frame)
