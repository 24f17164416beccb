"""The real window's Tyres tab, offscreen: the curves drawn are the model's tyre
functions at the state's loads, the dots are the state's values of the tick shown,
and a handle dragged with the mouse changes its parameter as a slider does (the slider
follows, the value stays in its range, one undo step brings it back)."""

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication

from sandbox.analysis.tyre_curves import DEGREES
from sandbox.files.presets import BUILTIN_DIR, load_preset
from sandbox.physics.models import monster_tyres


@pytest.fixture
def corvette(window):
    """The window with the Corvette preset, mid-corner, the Tyres tab in front, its
    plots large enough for a drag of more than Qt's start-drag distance."""
    pg.setConfigOptions(mouseRateLimit=0)  # every synthetic move delivered (a hand moves slower)
    window.timer.stop()  # only the scripted drive moves the car: the tick shown stays shown
    window.resize(1400, 1000)
    window.panels.reset_layout()
    window.apply_preset(load_preset(BUILTIN_DIR / "monster_corvette_c5.json"))
    window.scripted_drive(3.0)
    window.show_tab("tyres")
    QApplication.processEvents()
    assert window.tyres.active
    return window


def test_the_curves_drawn_are_the_tyre_functions_and_the_dots_the_state(corvette):
    w = corvette
    w.scripted_drive(0.5)  # a tick more, drawn as the frames draw it
    state, tuning = w.sim.state, w.tuning
    lateral, traction = w.tyres.items
    for line, axle in zip(lateral.curves, ("front", "rear")):
        xs, ys = line.getData()
        load = float(state.channel(f"load_{axle}")[0])
        kernel = [
            monster_tyres.lateral_force(tuning[f"cornering_{axle}"], x / DEGREES, load, tuning["mu"], 1.0) for x in xs
        ]
        np.testing.assert_allclose(ys, kernel, rtol=1e-12)
    front, rear = (dot.pos() for dot in lateral.points)
    assert (front.x(), front.y()) == (state.channel("alpha_front")[0] * DEGREES, state.channel("lat_front")[0])
    assert (rear.x(), rear.y()) == (state.channel("alpha_rear")[0] * DEGREES, state.channel("lat_rear")[0])
    (dot,) = traction.points
    assert (dot.pos().x(), dot.pos().y()) == (state.channel("slip_ratio")[0], state.channel("traction")[0])
    xs, ys = traction.curves[0].getData()
    rear_load = float(state.channel("load_rear")[0])
    row = np.array([float(tuning[p.name]) for p in tuning.model.PARAMS])
    np.testing.assert_allclose(ys, [rear_load * monster_tyres.traction_ratio(row, x) for x in xs], rtol=1e-12)


def drag(w, target, to_x: float, to_y: float) -> None:
    """A mouse drag of `target` (a handle) to (to_x, to_y) in its plot's coordinates."""
    view = w.tyres.view
    start = view.mapFromScene(target.scenePos())
    end = view.mapFromScene(target.getViewBox().mapViewToScene(QPointF(to_x, to_y)))
    port = view.viewport()
    left, none, plain = Qt.MouseButton.LeftButton, Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier

    def send(kind, at, button, buttons):
        local = QPointF(at)
        QApplication.sendEvent(port, QMouseEvent(kind, local, port.mapToGlobal(local), button, buttons, plain))

    send(QEvent.Type.MouseButtonPress, start, left, left)
    for k in range(1, 11):  # pyqtgraph starts a drag once the mouse has moved a few pixels
        send(QEvent.Type.MouseMove, start + (end - start) * k / 10, none, left)
    send(QEvent.Type.MouseButtonRelease, end, left, none)
    QApplication.processEvents()


def test_a_dragged_handle_moves_the_slider_and_one_undo_brings_it_back(corvette):
    w = corvette
    lateral = w.tyres.items[0]
    index = [h.param for h in lateral.specs].index("cornering_front")
    spec, target = lateral.specs[index], lateral.handles[index]
    before, steps = w.tuning["cornering_front"], w.undo.count()
    drag(w, target, spec.x, spec.y * 1.5)  # the line through a point 1.5 times as far from 0
    after = w.tuning["cornering_front"]
    assert after == pytest.approx(1.5 * before, abs=0.25)  # the mouse lands on a pixel
    assert w.panel.sliders["cornering_front"].value() == after
    assert w.undo.count() == steps + 1
    w.undo.undo()
    assert w.tuning["cornering_front"] == before
    assert w.panel.sliders["cornering_front"].value() == before


def test_a_handle_dragged_past_the_range_stops_at_its_end(corvette):
    w = corvette
    lateral = w.tyres.items[0]
    index = [h.param for h in lateral.specs].index("cornering_front")
    spec, target = lateral.specs[index], lateral.handles[index]
    drag(w, target, spec.x * 0.02, spec.y)  # the same force at a fiftieth of the slip: 50 times as stiff
    param = w.tuning.param("cornering_front")
    assert w.tuning["cornering_front"] == param.max
    assert w.panel.sliders["cornering_front"].value() == param.max


def test_the_tab_is_drawn_only_in_front(corvette):
    w = corvette
    w.panels.plots_dock.raise_()
    QApplication.processEvents()
    assert not w.tyres.active
    shown = w.tyres.items[0].points[0].pos().x()
    w.scripted_drive(0.5)
    assert w.tyres.items[0].points[0].pos().x() == shown  # not redrawn behind the Plots
    w.panels.tyres_dock.raise_()
    QApplication.processEvents()
    state = w.sim.state
    assert w.tyres.items[0].points[0].pos().x() == state.channel("alpha_front")[0] * DEGREES


def test_another_model_gets_its_own_plots_while_the_tab_is_in_front(corvette):
    w = corvette
    w.apply_preset(load_preset(BUILTIN_DIR / "rigid_body_road.json"))
    w.scripted_drive(2.0)
    (patches,) = w.tyres.items
    assert [h.param for h in patches.specs][:2] == ["side_grip", "forward_grip"]
    state = w.sim.state
    dots = [(dot.pos().x(), dot.pos().y()) for dot in patches.points]
    assert dots == list(zip(state.channel("patch_slip")[0], state.channel("patch_force")[0]))
    w.apply_preset(load_preset(BUILTIN_DIR / "bicycle_blog.json"))
    w.scripted_drive(2.0)
    (path,) = w.tyres.items
    assert path.specs == [] and "never slide" in w.tyres.hint.text()


def test_the_arcades_fast_traction_handle_dragged_up_asks_for_more_grip(corvette):
    """The recipe car: its fast traction's handle sits at traction·dt (4.2 % a tick at
    60 Hz for 2.5 /s); dragged to twice that height it asks for twice the traction,
    and one undo brings the old value back."""
    w = corvette
    w.apply_preset(load_preset(BUILTIN_DIR / "recipe_defaults.json"))
    w.scripted_drive(1.0)
    QApplication.processEvents()  # the new model's plot laid out before the mouse aims at it
    (weights,) = w.tyres.items
    index = [h.param for h in weights.specs].index("traction_fast")
    spec, target = weights.specs[index], weights.handles[index]
    before, steps = w.tuning["traction_fast"], w.undo.count()
    assert spec.y == pytest.approx(100 * before / w.sim.hz, rel=1e-9)
    drag(w, target, spec.x, 2 * spec.y)
    assert w.tuning["traction_fast"] == pytest.approx(2 * before, abs=0.15)  # the mouse lands on a pixel
    assert w.panel.sliders["traction_fast"].value() == w.tuning["traction_fast"]
    assert w.undo.count() == steps + 1
    w.undo.undo()
    assert w.tuning["traction_fast"] == before
