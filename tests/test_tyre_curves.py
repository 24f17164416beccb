"""The Tyres tab's curves against the models themselves, without a window: each curve
sampled by the models' compiled functions equals the force the model computes for the
same slip by another way in (the tyre function called on its own, or a tick of a car
set up at that slip), and has the shape its closed form says."""

import math

import numpy as np
import pytest

from sandbox.analysis.tyre_curves import DEGREES, HeldExtent, _steady, tyre_plots
from sandbox.physics import sim
from sandbox.physics.models import ackermann, arcade, monster, monster_tyres, rigid_body
from sandbox.physics.params import Tuning, param_rows
from sandbox.physics.state import Controls, State

HZ = 60


def driven(model, values, ticks=150, steer=0.6):
    """The car after `ticks` ticks of full throttle and `steer` from rest."""
    state = sim.at_rest(model)
    return sim.step(model, state, Controls(steer=steer, throttle=1.0), values, 1.0 / HZ, ticks=ticks)


@pytest.mark.parametrize("pacejka", [False, True])
def test_the_dynamic_cars_curves_are_its_tyre_functions_at_the_loads_now(pacejka):
    values = dict(Tuning(monster.PARAMS))
    values["pacejka"] = pacejka
    state = driven(monster, values)
    lateral, traction = tyre_plots(monster, values, HZ, state)
    mu = values["mu"]
    for curve, axle in zip(lateral.curves, ("front", "rear")):
        load = float(state.channel(f"load_{axle}")[0])
        stiffness = values[f"cornering_{axle}"]
        alphas = curve.xs / DEGREES
        kernel = [monster_tyres.lateral_force(stiffness, a, load, mu, 1.0) for a in alphas]
        np.testing.assert_allclose(curve.ys, kernel, rtol=1e-12)  # the axis in degrees and back: last bits
        # the closed form: −C·α·load up to the limit μ·load, never past it
        closed = np.clip(-stiffness * alphas * load, -mu * load, mu * load)
        np.testing.assert_allclose(curve.ys, closed, rtol=1e-12, atol=1e-9)
        assert (f"μ·load {axle}", mu * load) in lateral.limits
    (curve,) = traction.curves
    rear = float(state.channel("load_rear")[0])
    np.testing.assert_allclose(curve.ys, rear * monster.traction_ratio(curve.xs, values), rtol=1e-12, atol=1e-9)
    assert np.max(np.abs(curve.ys)) <= mu * rear * (1 + 1e-12)
    small = np.abs(curve.xs) < 0.2 * mu / values["traction_slope"]
    slope = np.gradient(curve.ys, curve.xs)[small]  # Ct·load at the origin, either shape
    np.testing.assert_allclose(slope, values["traction_slope"] * rear, rtol=0.05)


def test_the_dynamic_cars_points_are_the_states_values():
    values = dict(Tuning(monster.PARAMS))
    state = driven(monster, values)
    lateral, traction = tyre_plots(monster, values, HZ, state)
    front, rear = lateral.points
    assert (front.x, front.y) == (state.channel("alpha_front")[0] * DEGREES, state.channel("lat_front")[0])
    assert (rear.x, rear.y) == (state.channel("alpha_rear")[0] * DEGREES, state.channel("lat_rear")[0])
    (point,) = traction.points
    assert (point.x, point.y) == (state.channel("slip_ratio")[0], state.channel("traction")[0])
    # fast and cornering, the lateral points lie on their curves (no low-speed fade)
    assert state.speed[0] > 4 * monster_tyres.LOW_SPEED
    for point, curve in zip(lateral.points, lateral.curves):
        assert point.y == pytest.approx(np.interp(point.x, curve.xs, curve.ys), rel=0.02, abs=1.0)


@pytest.mark.parametrize("limited", [False, True])
def test_a_rigid_body_patch_curve_is_the_force_of_a_tick_at_that_slip(limited):
    """A car at rest pointing along x, sliding sideways at v, wheels still: each patch
    slips v purely sideways, so the tick's patch force is the curve's at v, and the
    four forces together change the car's momentum by m·Δv."""
    values = dict(Tuning(rigid_body.PARAMS))
    values["grip_limit"] = limited
    values["max_grip"] = 1.5
    (plot,) = tyre_plots(rigid_body, values, HZ, sim.at_rest(rigid_body))
    side = {c.label: c for c in plot.curves}["rear sideways"]
    for i in (10, 60, 120):
        v = side.xs[i]
        state = sim.at_rest(rigid_body)
        state.vy[:] = v
        after = sim.step(rigid_body, state, Controls(), values, 1.0 / HZ)
        forces = after.channel("patch_force")[0]
        slips = after.channel("patch_slip")[0]
        np.testing.assert_allclose(slips, v, rtol=1e-12)
        np.testing.assert_allclose(forces, side.ys[i], rtol=1e-12)
        momentum = values["mass"] * (v - after.vy[0]) * HZ
        assert momentum == pytest.approx(4 * side.ys[i], rel=1e-9)
        if limited:
            assert side.ys[i] <= values["max_grip"] * (1 + 1e-12)
    assert (("cap", values["max_grip"]),) == plot.limits if limited else plot.limits == ()


def test_rigid_body_points_are_the_states_patches():
    values = dict(Tuning(rigid_body.PARAMS))
    state = driven(rigid_body, values)
    (plot,) = tyre_plots(rigid_body, values, HZ, state)
    slips, forces = state.channel("patch_slip")[0], state.channel("patch_force")[0]
    assert [(p.x, p.y) for p in plot.points] == list(zip(slips, forces))
    assert np.all(slips > 0)


def test_the_arcade_curve_is_its_traction_times_the_tick():
    """The recipe's lerp weight is traction·delta: the slow traction below the slip
    speed, the fast one above it."""
    values = dict(Tuning(arcade.PARAMS))
    state = driven(arcade, values, ticks=240)
    (plot,) = tyre_plots(arcade, values, HZ, state)
    (curve,) = plot.curves
    slow, fast = values["traction_slow"] / HZ, values["traction_fast"] / HZ
    expected = np.where(curve.xs > values["slip_speed"], fast, slow) * 100
    np.testing.assert_allclose(curve.ys, expected, rtol=1e-12)
    (point,) = plot.points
    assert point.x == state.speed[0]
    assert point.y == pytest.approx(100 * (fast if state.speed[0] > values["slip_speed"] else slow))
    assert plot.marks == (("slip speed", values["slip_speed"]),)


def test_the_kinematic_curve_is_the_paths_lateral_acceleration():
    """Ackermann: the centre circles the turning centre c = p_r + l·cot α·e at radius
    √((l/2)² + (l·cot α − w/2)²), so it asks v²/R of lateral acceleration."""
    values = dict(Tuning(ackermann.PARAMS))
    state = State.at_rest(1, ackermann.STATE)
    alpha = 0.3 * values["max_steer"] / DEGREES
    state.wheel_angle[:] = alpha
    (plot,) = tyre_plots(ackermann, values, HZ, state)
    (curve,) = plot.curves
    base, w = values["wheel_base"], values["track_width"]
    radius = math.hypot(base / 2, base / math.tan(alpha) - w / 2)
    np.testing.assert_allclose(curve.ys, curve.xs**2 / radius, rtol=1e-3)
    assert "never slide" in plot.remark


def test_the_samplers_take_the_models_tuning_row():
    """The traction sampler reads the tuning row the tick reads (pacejka, μ, slope)."""
    values = dict(Tuning(monster.PARAMS))
    values["pacejka"] = True
    (row,), _ = param_rows(monster.PARAMS, values, 1)
    peak = monster_tyres.peak_slip_ratio(row)
    assert monster_tyres.traction_ratio(row, peak) == pytest.approx(values["mu"], rel=1e-9)


@pytest.mark.parametrize("pacejka", [False, True])
def test_the_traction_slope_handle_asks_for_the_slope_whose_curve_passes_there(pacejka):
    """Dragged to a point of the curve of another slope, the handle asks for that slope:
    the model's own traction at that slip, in either shape."""
    values = dict(Tuning(monster.PARAMS))
    values["pacejka"] = pacejka
    state = driven(monster, values)
    _, traction = tyre_plots(monster, values, HZ, state)
    (handle,) = [h for h in traction.handles if h.param == "traction_slope"]
    assert handle.value(handle.x, handle.y) == pytest.approx(values["traction_slope"], rel=1e-9)
    other = dict(values, traction_slope=24.0)
    rear = float(state.channel("load_rear")[0])
    y = rear * float(monster.traction_ratio(handle.x, other))
    assert handle.value(handle.x, y) == pytest.approx(24.0, rel=1e-9)


@pytest.mark.parametrize(
    "hz, options", [(60, {}), (30, {}), (30, {"rate_independent": True}), (60, {"recipe_2020": True})]
)
def test_the_arcade_traction_handles_sit_on_their_levels_and_ask_for_the_traction_there(hz, options):
    """Each traction's handle sits on its level of the step, midway along its stretch,
    and a drag to y % asks for the traction whose weight is y % a tick: y/100/dt by the
    recipe's traction·delta, 1 − (1 − y/100)^(dt₀/dt) over dt₀ = 1/60 s with the rate
    option (the weight compounds), y/100 itself in the 2020 recipe (a share per tick)."""
    values = dict(Tuning(arcade.PARAMS)) | options
    if options.get("recipe_2020"):
        values |= {"traction_slow": 0.7, "traction_fast": 0.1}
    dt = 1.0 / hz
    (plot,) = tyre_plots(arcade, values, hz, sim.at_rest(arcade))
    handles = {h.param: h for h in plot.handles}
    slow, fast = handles["traction_slow"], handles["traction_fast"]
    assert slow.x < values["slip_speed"] < fast.x
    for handle in (slow, fast):
        below = handle.x <= values["slip_speed"]
        (level,) = {y for x, y in zip(plot.curves[0].xs, plot.curves[0].ys) if (x <= values["slip_speed"]) == below}
        assert handle.y == pytest.approx(level, rel=1e-12)
        assert handle.value(handle.x, handle.y) == pytest.approx(values[handle.param], rel=1e-9)
    if options.get("recipe_2020"):
        expected = 0.25
    elif options.get("rate_independent"):
        expected = (1.0 - (1.0 - 0.25) ** ((1 / 60) / dt)) * 60
    else:
        expected = 0.25 / dt
    assert slow.value(slow.x, 25.0) == pytest.approx(expected, rel=1e-9)
    assert fast.value(fast.x, 25.0) == pytest.approx(expected, rel=1e-9)


def test_while_driving_a_curves_extent_grows_at_once_and_shrinks_only_after_its_hold():
    """The tab's held extent: a point that needs more room gets it on that refresh; one
    that needs less keeps the wider curve until it has needed no more for the hold
    (2 s); the extents are steps of 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 × 10ⁿ."""
    now = [0.0]
    held = HeldExtent(lambda: now[0], hold_s=2.0)
    assert held("lateral", 0.35) == pytest.approx(0.4)
    assert held("lateral", 0.9) == pytest.approx(1.0)  # grown at once
    now[0] = 1.5
    assert held("lateral", 0.35) == pytest.approx(1.0)  # held
    assert held("traction", 0.07) == pytest.approx(0.08)  # each curve its own
    now[0] = 2.5
    assert held("lateral", 0.35) == pytest.approx(0.4)  # 2.5 s since it last needed 1.0

    # the dynamic car's slip-angle axis: drawn out to the held extent while the point comes back in
    values = dict(Tuning(monster.PARAMS))
    state = driven(monster, values)
    alpha = max(abs(float(state.channel(f"alpha_{axle}")[0])) for axle in ("front", "rear"))
    now[0] = 10.0
    held = HeldExtent(lambda: now[0], hold_s=2.0)
    held("lateral", 4.6)  # a moment ago a point asked for 4.6 rad of curve: a step of 5
    lateral, _ = tyre_plots(monster, values, HZ, state, held)
    assert lateral.curves[0].xs[-1] == pytest.approx(5.0 * DEGREES)
    now[0] = 12.5
    lateral, _ = tyre_plots(monster, values, HZ, state, held)
    peak = values["mu"] / min(values["cornering_front"], values["cornering_rear"])
    assert lateral.curves[0].xs[-1] == pytest.approx(max(2.0 * peak, _steady(1.15 * alpha)) * DEGREES)
