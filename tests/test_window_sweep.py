"""The real window, offscreen, driven with pytest-qt. The Sweep tab: one parameter, two, a cancelled sweep."""

import math

import pytest
from PySide6.QtCore import Qt

K = Qt.Key


def set_axis(row, name, low, high, count):
    row.name.setCurrentIndex(row.name.findData(name))
    row.low.setValue(low)
    row.high.setValue(high)
    row.count.setValue(count)


def test_sweep_one_parameter_plots_the_metric_and_a_click_loads_the_point(window, qtbot):
    window.panels.sync_sweep()
    sweep = window.sweep
    set_axis(sweep.first, "engine_power", 500, 2000, 4)
    sweep.metric.setCurrentIndex(sweep.metric.findData("top_speed"))
    with qtbot.waitSignal(sweep.finished, timeout=120_000):
        sweep.run()
    x, y = sweep.curve.getData()
    assert list(x) == [500, 1000, 1500, 2000]
    expected = [(-55 + math.sqrt(55**2 + 4 * 0.06 * e * 60)) / 0.12 for e in x]
    assert list(y) == pytest.approx(expected, rel=1e-5)
    steps = window.undo.count()
    sweep.pick(1100, 0)  # nearest grid point: 1000
    assert window.tuning["engine_power"] == 1000 and window.undo.count() == steps + 1
    window.undo.undo()
    assert window.tuning["engine_power"] == 900


def test_sweep_two_parameters_shows_a_heatmap_and_loads_a_cell(window, qtbot, tmp_path):
    window.panels.sync_sweep()
    sweep = window.sweep
    set_axis(sweep.first, "traction_fast", 1, 5, 3)
    sweep.use_second.setChecked(True)
    set_axis(sweep.second, "slip_speed", 200, 600, 3)
    sweep.metric.setCurrentIndex(sweep.metric.findData("peak_slip_skidpad"))
    with qtbot.waitSignal(sweep.finished, timeout=120_000):
        sweep.run()
    assert sweep.image.image.shape == (3, 3) and sweep.image.isVisible()
    sweep.pick(5.1, 190)
    assert (window.tuning["traction_fast"], window.tuning["slip_speed"]) == (5, 200)
    window.undo.undo()  # both values came back in one step
    assert (window.tuning["traction_fast"], window.tuning["slip_speed"]) == (2.5, 400)
    for suffix in (".csv", ".png", ".svg"):
        assert window.files.export_sweep(tmp_path / f"s{suffix}")
    lines = (tmp_path / "s.csv").read_text().splitlines()
    assert lines[0].startswith("traction_fast,slip_speed,top_speed") and len(lines) == 10
    assert (tmp_path / "s.png").read_bytes()[:4] == b"\x89PNG"
    assert not window.files.export_sweep(tmp_path / "s.txt") and "use .csv, .png or .svg" in window.last_error


def test_a_long_sweep_can_be_cancelled(window, qtbot):
    window.panels.sync_sweep()
    sweep = window.sweep
    set_axis(sweep.first, "drag", -0.5, -0.01, 200)
    with qtbot.waitSignal(sweep.finished, timeout=600_000):
        sweep.run()
        sweep.cancel_button.click()
    assert "cancelled" in sweep.note.text() and sweep.run_button.isEnabled()
