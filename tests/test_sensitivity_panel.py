"""The What-changes-what view driven offscreen: the table, its colours' meaning, the
recompute after a slider change, and a click that sweeps."""

import os

import numpy as np
import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from sandbox.analysis.sensitivity import sensitivity  # noqa: E402
from sandbox.files.presets import BUILTIN_DIR  # noqa: E402


def _show(window):
    window.panels.sensitivity_dock.raise_()
    window.panels.sensitivity_dock.show()
    window.sensitivity.settle()
    return window.sensitivity


def test_the_table_shows_every_slider_against_every_metric(window):
    window.open_preset_file(BUILTIN_DIR / "recipe_defaults.json")
    panel = _show(window)
    result = panel.result
    expected = sensitivity(window.model, dict(window.tuning), window.sim.hz)
    # equal, NaN where a figure has none (the step steer's peak time of a car that does not overshoot)
    assert result.params == expected.params and np.array_equal(result.per_share, expected.per_share, equal_nan=True)
    assert panel.table.rowCount() == len(result.params) and panel.table.columnCount() == len(result.metrics)
    row, column = result.params.index("engine_power"), result.metrics.index("top_speed")
    cell = panel.table.item(row, column)
    assert float(cell.text()) == pytest.approx(expected.change("engine_power", "top_speed", "share"), rel=1e-3)
    assert cell.background().color().blue() > cell.background().color().red()  # rises: blue
    panel.per.setCurrentIndex(0)  # per slider step
    assert float(panel.table.item(row, column).text()) == pytest.approx(
        expected.change("engine_power", "top_speed", "step"), rel=1e-3
    )
    assert "from the parameters" in panel.note.text()


def test_a_slider_change_recomputes_it(window):
    window.open_preset_file(BUILTIN_DIR / "recipe_defaults.json")
    panel = _show(window)
    before = panel.result.base["top_speed"]
    window.panel.sliders["engine_power"].setValue(1500)
    panel.settle()
    assert panel.result.base["top_speed"] > before


def test_clicking_a_cell_sweeps_that_metric_over_that_slider(window, qtbot):
    window.open_preset_file(BUILTIN_DIR / "recipe_defaults.json")
    panel = _show(window)
    row, column = panel.result.params.index("drag"), panel.result.metrics.index("braking_from_top")
    with qtbot.waitSignal(window.sweep.finished, timeout=600_000):
        panel.table.cellClicked.emit(row, column)
    assert window.sweep.axes[0].name == "drag" and len(window.sweep.axes) == 1
    assert window.sweep.metric.currentData() == "braking_from_top"
