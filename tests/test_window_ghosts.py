"""The real window, offscreen, driven with pytest-qt. Ghosts in the window: the Compare
menu, how they are drawn and plotted, their readouts, the metrics against them."""

import math

import numpy as np
import pytest
from PySide6.QtCore import Qt

from sandbox.files.presets import BUILTIN_DIR, load_preset
from sandbox.physics.models import arcade
from window_helpers import paused

K = Qt.Key


def test_ghost_drives_with_the_same_controls(window, qtbot):
    paused(window)
    window.compare.pin()
    window.panel.sliders["engine_power"].setValue(1800)  # the car changes, the ghost keeps 900
    window.scripted_drive(2)
    car, ghost = window.sim.state, window.compare.first.state
    assert ghost.speed[0] > 0 and car.speed[0] > ghost.speed[0]
    # the ghost is exactly a separate run of the pinned tuning on the same controls
    from sandbox.files.traces import demo_drive
    from sandbox.physics.sim import run_trace

    trace = np.array([demo_drive(i / 60) for i in range(120)])
    alone = run_trace(arcade, load_preset(BUILTIN_DIR / "recipe_defaults.json").tuning, trace)
    assert (ghost.x[0], ghost.y[0]) == (alone[-1, 1], alone[-1, 2])
    ghost_speed = window.plots.ghost_speed_curves[0].getData()[1]
    assert ghost_speed[-1] == pytest.approx(ghost.speed[0])  # overlaid on the speed plot
    assert any("ghost pinned" in line for line in window.track.ghost_lines)
    window.compare.remove_all()
    assert window.compare.first is None and window.track.ghosts == []


def test_ghost_of_another_model_shares_the_view_in_the_cars_units(window):
    paused(window)
    assert window.compare.add_from_file(BUILTIN_DIR / "ackermann_notes.json")  # metres beside pixels
    window.scripted_drive(1)
    assert window.drive.ghost_scale() == 25.0  # px per metre
    g = window.compare.first.state
    shown = window.plots.ghost_speed_curves[0].getData()[1][-1]
    assert shown == pytest.approx(g.speed[0] * 25.0)  # m/s drawn as px/s
    assert not window.track.grab().isNull()


def test_metrics_panel_follows_the_sliders_and_compares_with_the_ghost(window, qtbot):
    assert not window.metrics.active  # behind the tuning tab: nothing computed
    assert window.metrics.rows == []
    with qtbot.waitSignal(window.metrics.updated, timeout=600_000):
        window.panels.metrics_dock.raise_()  # shown: computes the latest request
    top = window.metrics.rows[0]
    assert top["name"] == "top_speed" and top["value"] == pytest.approx(595.265, abs=0.01)
    window.compare.pin()
    window.panel.sliders["engine_power"].setValue(1800)
    window.metrics.settle()  # the newest request's figures (an earlier one's may arrive first)
    # the balance 1800 = 55 v/60 + 0.06 v²/60, and the ghost keeps 900's
    expected = (-55 + math.sqrt(55**2 + 4 * 0.06 * 1800 * 60)) / 0.12
    assert window.metrics.rows[0]["value"] == pytest.approx(expected, rel=1e-5)
    delta = float(window.metrics.table.item(0, 2).text())
    assert delta == pytest.approx(expected - 595.265, rel=1e-3)
    assert window.metrics.table.horizontalHeaderItem(2).text() == "vs 1"
    assert "1: pinned Recipe defaults" in window.metrics.legend.text()
    window.compare.add_from_file(BUILTIN_DIR / "ice.json")
    window.metrics.settle()
    assert window.metrics.table.columnCount() == 4  # metric, value, and one column per ghost
    ice_top = (-12 + math.sqrt(12**2 + 4 * 0.06 * 350 * 60)) / 0.12  # ice: 350 = 12 v/60 + 0.06 v²/60
    assert float(window.metrics.table.item(0, 3).text()) == pytest.approx(expected - ice_top, rel=1e-3)
    assert "ms" in window.metrics.status.text()


def test_the_ghost_follows_keyboard_driving(window):
    paused(window)
    window.compare.pin()
    window.keys.held |= {K.Key_W, K.Key_D}  # as if W and D were held
    window.run_for(0.25)
    window.run_for(0.25)  # one frame runs at most 0.25 s of physics
    car, ghost = window.sim.state, window.compare.first.state
    assert window.sim.ticks == 30 and car.speed[0] > 0 and car.heading[0] > 0
    assert (ghost.x[0], ghost.y[0], ghost.heading[0]) == (car.x[0], car.y[0], car.heading[0])  # same tuning


def test_up_to_four_ghosts_each_with_its_own_readout(window):
    paused(window)
    for name in ("ice", "go_kart", "heavy_truck", "drift"):
        assert window.compare.add_from_file(BUILTIN_DIR / f"{name}.json")
    assert not window.compare.add_from_file(BUILTIN_DIR / "grass_sand.json")  # a fifth is refused
    assert "At most 4 ghosts" in window.last_error and len(window.drive.ghosts) == 4
    window.scripted_drive(2)
    assert len(window.track.ghosts) == 4
    readouts = [line for line in window.track.ghost_lines if line.startswith("ghost ")]
    assert [line.split(":")[0] for line in readouts] == [
        "ghost Ice",
        "ghost Go-kart",
        "ghost Heavy truck",
        "ghost Drift",
    ]
    assert all(line.endswith(" s)") for line in readouts)  # the lead in time
    speeds = [c.getData()[1][-1] for c in window.plots.ghost_speed_curves]
    assert speeds == pytest.approx([g.sim.state.speed[0] for g in window.drive.ghosts])
    assert len(set(speeds)) == 4  # four different cars on the same controls


def test_the_ghost_readout_says_when_it_reached_the_end_of_the_trace(window):
    """Drag strip: once the replay has ended, each ghost's line says when it reached the
    point where the car ended it: a copy of the car at the same moment (+0.00), one with
    twice the engine power earlier (the figure itself: test_drive_readouts)."""
    from sandbox.files.traces import BUILTIN_TRACES, load_trace

    paused(window)
    defaults = load_preset(BUILTIN_DIR / "recipe_defaults.json")
    strong = load_preset(BUILTIN_DIR / "recipe_defaults.json")
    strong.tuning.set("engine_power", 1800)
    window.compare.add(defaults, "same")
    window.compare.add(strong, "strong")
    trace = load_trace(BUILTIN_TRACES / "drag_strip.csv")
    assert window.replay.open_trace_file(BUILTIN_TRACES / "drag_strip.csv")
    window.replay.scrub(len(trace) - 1)
    assert not any("end of trace" in line for line in window.track.ghost_lines)  # not before the end
    window.replay.step()
    same, ahead = [line for line in window.track.ghost_lines if line.startswith("ghost ")]
    assert same.endswith("end of trace +0.00 s")
    figure = window.drive.gaps()[1].end_of_trace
    assert figure < -0.5 and ahead.endswith(f"end of trace {figure:+.2f} s")


def test_the_ghost_readout_at_rest_says_no_nan(window, qtbot):
    window.compare.add(window.current_preset(), "twin")
    window.drive_view.refresh()
    assert window.track.ghost_lines and not any("nan" in line for line in window.track.ghost_lines)


def test_metrics_compare_only_like_with_like(window, qtbot):
    """An arcade car (px) against the Corvette (m): 0→100 px/s is not 0→100 km/h, and a
    speed in px/s is not one in m/s: no difference is printed, the cell says why."""
    with qtbot.waitSignal(window.metrics.updated, timeout=600_000):
        window.panels.metrics_dock.raise_()
    window.compare.add_from_file(BUILTIN_DIR / "monster_corvette_c5.json")
    window.compare.pin()  # and a ghost of the same model, in the same units
    window.metrics.settle()
    rows = {row["name"]: i for i, row in enumerate(window.metrics.rows)}
    for name in ("time_to_100", "top_speed"):
        corvette, same = (window.metrics.table.item(rows[name], column) for column in (2, 3))
        assert corvette.text() == "—" and "not compared" in corvette.toolTip()
        assert float(same.text()) == 0.0  # a pinned copy of the car: the same figure
    assert "not the same measurement" in window.metrics.legend.text()


def test_metrics_follow_every_value_of_a_drag_before_the_release(window, qtbot):
    window.panels.metrics_dock.raise_()
    slider = window.panel.sliders["engine_power"]
    slider.slider.setSliderDown(True)  # the mouse is held through the whole test
    for power in (1000, 1300, 1600):
        slider.slider.setValue(slider.position(power))
        window.metrics.settle()
        # the recipe's balance power = 55 v/60 + 0.06 v²/60
        expected = (-55 + math.sqrt(55**2 + 4 * 0.06 * power * 60)) / 0.12
        assert window.metrics.rows[0]["value"] == pytest.approx(expected, rel=1e-5)
        assert window.metrics.table.item(0, 1).text() == f"{expected:.1f} px/s"
    slider.slider.setSliderDown(False)
