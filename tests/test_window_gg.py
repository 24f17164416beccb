"""The g-g tab in the real window, offscreen: the live point drawn is the car's
accelerations from its states at that tick, a car on a steady circle sits at v²/R
(R from three points of its path; across its body, cos(slip) of it), the envelope drawn is the driver's
(the shared kernel at the car's measured limits), and nothing is recorded while the
tab is hidden."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sandbox.analysis.grip_envelope import outline
from sandbox.physics.car_frame import accelerations
from test_window_channels import start  # a window remembering between runs


def gg_in_front(window, qtbot):
    window.panels.by_name["gg_dock"].raise_()
    qtbot.waitUntil(lambda: window.gg.active)
    window.gg.settle()


def circumradius(a, b, c) -> float:
    """Radius of the circle through three points: |ab|·|bc|·|ca| / (4·area)."""
    ab, bc, ca = math.dist(a, b), math.dist(b, c), math.dist(c, a)
    area = abs((b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1])) / 2
    return ab * bc * ca / (4 * area)


def test_the_live_point_is_the_accelerations_of_the_last_tick(window, qtbot):
    gg_in_front(window, qtbot)
    window.drive.drive_through([[0.6, 1.0, 0.0]] * 90)
    before = window.sim.state.data[0].copy()
    window.drive.drive_through([[0.6, 1.0, 0.0]])
    after = window.sim.state.data[0]
    window.drive_view.refresh()
    o = window.model.STATE.offset
    along, across = accelerations(
        before[o["vx"]], before[o["vy"]], after[o["vx"]], after[o["vy"]], after[o["heading"]], 1 / window.sim.hz
    )
    x, y = window.gg.live.getData()
    scale = window.gg.scale
    assert (x[0] * scale, y[0] * scale) == pytest.approx((float(across), float(along)), rel=1e-12)
    assert window.gg.unit == "px/s²"  # the arcade's own units
    assert "px/s²" in window.gg.plot.getAxis("left").labelText


def test_a_car_on_a_steady_circle_sits_at_v_squared_over_r_lateral(window, qtbot):
    gg_in_front(window, qtbot)
    window.drive.drive_through([[0.5, 1.0, 0.0]] * (40 * window.sim.hz))  # long enough to settle at top speed
    path = []
    for _ in range(3):
        window.drive.drive_through([[0.5, 1.0, 0.0]] * 20)
        path.append((float(window.sim.state.x[0]), float(window.sim.state.y[0])))
    window.drive_view.refresh()
    state = window.sim.state
    speed = float(state.speed[0])
    centripetal = speed**2 / circumradius(*path)
    # the arcade car slides round: its body is turned by the slip angle from its path, so the
    # centripetal acceleration shows across the body as cos(slip) of it, along it as sin(slip)
    slip = math.atan2(float(state.vy[0]), float(state.vx[0])) - float(state.heading[0])
    lateral, longitudinal = window.gg.point()
    assert math.hypot(lateral, longitudinal) * window.gg.scale == pytest.approx(centripetal, rel=0.01)
    assert lateral * window.gg.scale == pytest.approx(centripetal * math.cos(slip), rel=0.01)


def test_the_envelope_drawn_is_the_drivers_at_the_current_speed(window, qtbot):
    gg_in_front(window, qtbot)
    window.drive.drive_through([[0.0, 1.0, 0.0]] * 60)
    window.drive_view.refresh()
    limits = window.gg.limits
    assert limits is not None and limits.lateral > 0
    speed = float(window.sim.state.speed[0])
    lateral, longitudinal = outline(
        speed, limits.lateral, limits.braking, limits.accel[:, 0].copy(), limits.accel[:, 1].copy(), 61
    )
    drawn_x, drawn_y = window.gg.envelope.getData()
    assert np.allclose(drawn_x, lateral) and np.allclose(drawn_y, longitudinal)  # px/s²: a scale of 1
    assert drawn_x.max() == pytest.approx(limits.lateral)  # its lateral extent: the skid pad's grip
    assert drawn_y.min() == pytest.approx(-limits.braking)
    assert "no tyre forces" in window.gg.note.text()


def test_nothing_is_recorded_while_the_tab_is_hidden(window, qtbot):
    window.panels.plots_dock.raise_()
    qtbot.waitUntil(lambda: not window.gg.active)
    window.drive.drive_through([[0.0, 1.0, 0.0]] * 30)
    assert window.gg.buffer.count == 0 and window.gg.point() is None


def test_the_bars_show_each_axle_s_grip_used_and_load_from_the_state(window, qtbot):
    """The Corvette mid-corner: each bar reads the friction-circle use the state's forces
    give (|F|/(μ·load), worked here from the state's slots) and the axle's load, in
    its text and its length."""
    from sandbox.files.presets import find_preset, load_preset

    window.apply_preset(load_preset(find_preset("monster_corvette_c5")))
    gg_in_front(window, qtbot)
    window.drive.drive_through([[0.4, 1.0, 0.0]] * 150)
    window.drive_view.refresh()
    s = window.sim.state.extra
    mu = float(window.tuning["mu"])
    front = abs(float(s["lat_front"][0])) / (mu * float(s["load_front"][0]))
    rear = math.hypot(float(s["traction"][0]), float(s["lat_rear"][0])) / (mu * float(s["load_rear"][0]))
    texts = [bar.text() for bar in window.gg.use_bars]
    assert texts == [f"front: {100 * front:.0f} %", f"rear: {100 * rear:.0f} %"]
    loads = [bar.text() for bar in window.gg.load_bars]
    assert loads[0].startswith(f"front: {float(s['load_front'][0]):,.0f} N".replace(",", " "))
    assert [bar.value for bar in window.gg.use_bars] == [round(100 * front), round(100 * rear)]


def test_the_trail_length_is_kept_between_runs(qtbot):
    first = start(qtbot)
    assert first.gg.seconds.value() == 3.0  # nothing kept yet: the default
    first.gg.seconds.setValue(7.5)
    first.close()
    again = start(qtbot)
    assert again.gg.seconds.value() == 7.5
    again.close()


@pytest.mark.parametrize("kept", ["long", "100", "nan"])
def test_a_damaged_trail_length_starts_at_the_default_with_a_note(qtbot, kept):
    from sandbox.ui.gg_panel import TRAIL_KEY
    from sandbox.ui.window_memory import settings

    store = settings()
    store.setValue(TRAIL_KEY, kept)
    store.sync()
    window = start(qtbot)
    assert window.gg.seconds.value() == 3.0
    assert f"The setting {TRAIL_KEY} ({kept!r}) could not be used" in window.statusBar().currentMessage()
    assert not settings().contains(TRAIL_KEY)  # replaced: said once
    window.close()


def test_the_trail_colours_its_points_by_speed_and_fades_them_with_age(window, qtbot):
    """Speeding up from rest in a straight line for longer than the trail: its oldest
    point is its slowest (the first colour, the faintest step), its newest the fastest
    (the last colour, the strongest step), drawn on top; every point of the trail drawn."""
    from sandbox.ui.gg_panel import AGE_STEPS, SPEED_COLOURS

    gg_in_front(window, qtbot)
    window.drive.drive_through([[0.0, 1.0, 0.0]] * (4 * window.sim.hz))  # the trail: 3 s
    window.drive_view.refresh()
    styles = window.gg.trail.styles()
    assert sum(count for _, count in styles) == window.gg.buffer.count == 3 * window.sim.hz + 1
    drawn = [style for style, _ in styles]
    assert drawn == sorted(drawn)  # the newer over the older
    assert drawn[0] == 0 and drawn[-1] == AGE_STEPS * SPEED_COLOURS - 1
