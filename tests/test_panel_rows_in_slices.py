"""A model switch builds the Tuning tab's rows a slice per event-loop turn and reuses
the Tune tab's rows: what the rows show is the tuning's, whenever they are built."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from sandbox.physics.models import MODELS  # noqa: E402


def _numbers(model) -> list[str]:
    return [p.name for p in model.PARAMS if p.is_number]


def _tuned(model) -> list[str]:
    """The Tune tab's rows: the numbers a tune moves (not the collision shape)."""
    return [p.name for p in model.PARAMS if p.moves_motion]


def test_a_row_built_after_a_change_shows_the_value_the_tuning_has(window, qtbot):
    window.switch_model("monster")
    panel = window.panel
    waiting = [name for _, name in panel._unbuilt]
    assert waiting, "the dynamic car's 46 rows were all built in the switch's own turn"
    name = next(n for n in waiting if not window.tuning.params[n].is_bool)
    p = window.tuning.param(name)
    value = p.snap(p.min + 0.75 * (p.max - p.min))  # a value no default has: three quarters up its range
    window.tuning.set(name, value)  # as the link or an undo would, before its row exists
    qtbot.waitUntil(lambda: not panel._unbuilt)  # the rest come by themselves
    assert set(panel._sliders) == set(_numbers(MODELS["monster"]))
    assert panel._sliders[name].value() == value


def test_reading_the_rows_builds_them_all_in_their_sections_order(window):
    window.switch_model("monster")
    assert window.panel._unbuilt
    sliders = window.panel.sliders  # before any turn of the event loop
    assert set(sliders) == set(_numbers(MODELS["monster"])) and not window.panel._unbuilt
    for section in window.panel.sections.values():
        grid = section.grid
        names = [grid.itemAt(i).widget().objectName() for i in range(grid.count())]
        declared = [p.name for p in MODELS["monster"].PARAMS if p.group == section.name]
        shown = [n for n in names if n in declared]  # the sliders and switches, by parameter name
        assert shown == declared, section.name


def test_opening_a_closed_section_builds_its_rows_at_once(window):
    window.switch_model("monster")
    panel = window.panel
    closed = next(s for s in panel.sections.values() if not s.is_open())
    assert any(section is closed for section, _ in panel._unbuilt)  # closed sections come last
    closed.header.click()
    declared = [p.name for p in MODELS["monster"].PARAMS if p.group == closed.name and p.is_number]
    assert all(name in panel._sliders for name in declared)


def test_the_tune_tables_relabel_their_rows_for_each_model(window, qtbot):
    window.panels.tune_dock.raise_()
    window.switch_model("monster")
    window.panels.sync_tune()
    tune = window.tune
    tune.set_target("top_speed", 50.0)
    qtbot.waitUntil(lambda: tune.tables.ready)
    window.switch_model("arcade")
    window.panels.sync_tune()
    assert list(tune.param_rows) == _tuned(MODELS["arcade"])
    assert tune.tables.shown_rows == 2 * len(_tuned(MODELS["arcade"]))
    use, target, _ = tune.target_rows["top_speed"]
    assert not use.isChecked()  # a target of the last model is not this one's
    assert target.suffix() == " px/s"  # the arcade's unit
    for name, (lock, low, high) in tune.param_rows.items():
        p = window.tuning.param(name)
        assert lock.text() == p.label and not lock.isChecked()
        assert (low.value(), high.value()) == (p.min, p.max), name  # the whole range again
        assert low.suffix() == (f" {p.unit}" if p.unit else "")
