"""A car that spins keeps its momentum: only its tyres (and drag, rolling resistance
and the brakes the model declares) may slow it, never a switch between its low-speed
and its normal behaviour.

Every metric model, on seeded random spins and handbrake turns at every offered tick
rate. Per tick the deceleration along the velocity, −Δv·v̂/dt, stays under the bound
the model's forces allow, and with no pedal driving the kinetic energy never rises.

- monster: each axle's force along the car and across it are each capped at μ × the
  axle's load (the text has no friction circle), so the tyres give at most √2·μ·M·g,
  √(2 + 2·sin δ)·μ·M·g with the front brake along the car (`tyre_factor`); weight
  transfer only moves load between the axles, Wf + Wr = M·g. Add drag and rolling
  resistance, Cdrag·v² + Crr·max(v, LOW_SPEED), and at low speed the velocity turning
  with the body, |v|·(1 − cos ω·dt)/dt. The energy (car, yaw, rear axle) is checked
  except where the model adds it on purpose or cannot help it: the text's literal
  cornering force (option), yaw set by the low-speed turning, and tunings whose yaw
  the text's explicit step cannot integrate (`stable_yaw`).
- rigid_body: with a grip limit each of the four tyres gives at most its cap
  (μ·m·g/4 with grip ∝ load, else max grip), so 4·cap/m; no drag. Without a limit the
  seed's tyres are linear dampers with no μ: only the energy is checked.
- bicycle, ackermann: kinematic, no tyre forces. The speed is the pedals' (a number in
  the state, speed_control.py) and never falls faster than the larger of the declared
  braking and coasting rates; the drawn point's velocity is that speed times a factor
  of the steering geometry (it changes when the wheels turn, not by any force).
"""

import math

import numpy as np
import pytest

from random_tunings import random_tunings
from sandbox.files.presets import BUILTIN_DIR, load_preset
from sandbox.physics.models import MODELS
from sandbox.physics.models import monster as mo
from sandbox.physics.models import rigid_body as rb
from sandbox.physics.sim import step, tuning_rows
from sandbox.physics.state import Controls, State

RATES = (30, 60, 120, 240)
SECONDS = 6.0
CARS = 48
SLACK = 1e-9
"""m/s² and relative energy: float rounding, nothing more."""


def corvette_abs():
    return load_preset(BUILTIN_DIR / "monster_corvette_abs.json").tuning


def deceleration(before: State, after: State, dt: float) -> np.ndarray:
    """m/s² per car: −(v_after − v_before)·v̂_before / dt (0 for a car at rest)."""
    speed = before.speed
    along = ((after.vx - before.vx) * before.vx + (after.vy - before.vy) * before.vy) / np.maximum(speed, 1e-300)
    return np.where(speed > 0, -along / dt, 0.0)


def tyre_factor(p, steer) -> np.ndarray:
    """monster: the most the four tyres give, in units of μ·M·g. Each axle's force
    along the car and across its wheels is each capped at μ·load; the rear's are at
    right angles (√2), the front's brake force acts along the car and its cornering
    force across the wheel steered by δ, 90° − δ apart: √(2 + 2·sin|δ|). Weight
    transfer only moves load between the axles (Wf + Wr = M·g)."""
    delta = np.abs(np.asarray(steer)) * np.radians(np.asarray(p["max_steer"], dtype=float))
    return np.maximum(math.sqrt(2), np.sqrt(2 + 2 * np.sin(delta)))


def monster_bound(p, steer, before: State, after: State, dt: float) -> np.ndarray:
    """m/s²: tyre_factor·μ·g + (Cdrag·v² + Crr·max(v, LOW_SPEED))/M, plus, while the
    low-speed turning may act (2·LOW_SPEED along and across the car), the turn of the
    velocity with the body, |v|·(1 − cos ω·dt)/dt."""
    v = before.speed
    m = np.asarray(p["mass"], dtype=float)
    resistance = (np.asarray(p["c_drag"]) * v * v + np.asarray(p["c_rr"]) * np.maximum(v, mo.LOW_SPEED)) / m
    turn = np.where(v < 2 * math.sqrt(2) * mo.LOW_SPEED, v * (1 - np.cos(after.extra["omega"] * dt)) / dt, 0.0)
    return tyre_factor(p, steer) * np.asarray(p["mu"]) * mo.G + resistance + turn


def monster_energy(p, s: State) -> np.ndarray:
    """J: ½M|v|² + ½Iω² + ½I_w·ω_w² (car, yaw, rear axle)."""
    return (
        0.5 * np.asarray(p["mass"]) * s.speed**2
        + 0.5 * np.asarray(p["yaw_inertia"]) * s.extra["omega"] ** 2
        + 0.5 * np.asarray(p["wheel_inertia"]) * s.extra["wheel_omega"] ** 2
    )


def stable_yaw(p, dt: float) -> np.ndarray:
    """Cars whose yaw the text's explicit step integrates without chatter. The tyres
    are a yaw damper of at most k = M·g·max(Cα,f·b², Cα,r·c²)/LOW_SPEED N·m·s/rad
    (all the load on one axle, the slowest speed the slip angle divides by); explicit
    Euler on I·ω̇ = −k·ω is stable only while dt·k/I < 2. Random tunings past it (a
    heavy car with the smallest yaw inertia) chatter and can gain energy at any speed:
    a limit of the text's integrator, not of the slide."""
    p = {
        k: np.asarray(p[k], dtype=float)
        for k in ("mass", "yaw_inertia", "cg_to_front", "cg_to_rear", "cornering_front", "cornering_rear")
    }
    arm = np.maximum(p["cornering_front"] * p["cg_to_front"] ** 2, p["cornering_rear"] * p["cg_to_rear"] ** 2)
    return dt * p["mass"] * mo.G * arm / mo.LOW_SPEED / p["yaw_inertia"] < 2


def test_the_corvette_keeps_sliding_when_it_spins():
    """The user's drive: 6 s at full throttle, then full right lock with the handbrake.
    Once it moves 60° or more away from where it points (then at about 21 m/s) it slides
    on, slowed by its tyres: never more than √(2 + 2·sin 30°)·μ·g = 17.0 m/s² plus drag
    and rolling resistance (0.3 m/s²), so it slides far more than a car length
    (v²/(2·a) = 21²/(2·17.3) ≈ 13 m)."""
    p = corvette_abs()
    dt = 1 / 60
    s = step(mo, State.at_rest(1, mo.STATE), Controls(0, 1, 0), p, dt, ticks=360)
    spin = Controls(1, 0, 0, handbrake=1)
    worst, sideways_at = 0.0, None
    for _ in range(600):
        after = step(mo, s, spin, p, dt)
        worst = max(worst, float(deceleration(s, after, dt)[0] - monster_bound(p, 1.0, s, after, dt)[0]))
        if sideways_at is None and abs(after.slip_angle[0]) >= math.pi / 3:
            sideways_at = (after.x[0], after.y[0], after.speed[0])
        s = after
    assert sideways_at is not None and sideways_at[2] > 15.0  # it did spin, fast
    slid = math.hypot(s.x[0] - sideways_at[0], s.y[0] - sideways_at[1])
    assert slid > mo.body(p)["length"]
    assert worst <= SLACK


def spin_program(rng, n: int, hz: int):
    """Per car: full throttle for 1–4 s, then full lock either way with the handbrake
    (most cars), the brake (some, partly pressed too) or neither, throttle off. Yields
    (controls, throttle) per tick."""
    launch = rng.uniform(1.0, 4.0, n)
    steer = rng.choice([-1.0, 1.0], n) * rng.choice([1.0, 1.0, 0.6], n)
    handbrake = (rng.random(n) < 0.6).astype(float)
    brake = np.where(rng.random(n) < 0.3, rng.choice([0.4, 1.0], n), 0.0)
    for tick in range(int(SECONDS * hz)):
        t = tick / hz
        on = t < launch
        throttle = np.where(on, 1.0, 0.0)
        yield (
            Controls(np.where(on, 0.0, steer), throttle, np.where(on, 0.0, brake), np.where(on, 0.0, handbrake)),
            throttle,
        )


def monster_tunings(seed: int) -> dict:
    """The ABS Corvette first, then random tunings inside the declared ranges (every
    other one without the literal cornering force, whose energy is not checked)."""
    p = random_tunings(mo, seed, CARS, edges=0.2)
    p["tutorial_cornering"][1::2] = False
    for q in mo.PARAMS:
        p[q.name][0] = corvette_abs()[q.name]
    return p


@pytest.mark.parametrize("hz", RATES)
def test_monster_spins_lose_speed_only_to_tyres_drag_and_brakes(hz):
    p = monster_tunings(seed=hz)
    packed = tuning_rows(mo, p, CARS)
    rng = np.random.default_rng(100 + hz)
    s, dt = State.at_rest(CARS, mo.STATE), 1 / hz
    literal = np.asarray(p["tutorial_cornering"], dtype=bool)
    checked = stable_yaw(p, dt) & ~literal
    assert checked[0] and checked.sum() >= CARS // 3  # the energy of a third of the cars at least
    over, rise = 0.0, 0.0
    for controls, throttle in spin_program(rng, CARS, hz):
        after = step(mo, s, controls, p, dt, packed)
        over = max(over, float(np.max(deceleration(s, after, dt) - monster_bound(p, controls.steer, s, after, dt))))
        # no pedal drives (throttle off, not in reverse, where the brake drives); not
        # the text's literal cornering force, which adds energy on purpose
        coasting = (throttle == 0) & (s.extra["gear"] > 0) & (after.extra["gear"] > 0) & checked
        e0, e1 = monster_energy(p, s), monster_energy(p, after)
        # below 2·LOW_SPEED along and across the car (so below √2·2·LOW_SPEED of speed)
        # the text's low-speed turning sets the yaw rate from the speed, ω = v·sin δ/L,
        # with no force doing it: yaw it gains there is not counted
        yaw_gain = 0.5 * np.asarray(p["yaw_inertia"]) * (after.extra["omega"] ** 2 - s.extra["omega"] ** 2)
        slow = np.minimum(s.speed, after.speed) < 2 * math.sqrt(2) * mo.LOW_SPEED
        e1 = e1 - np.where(slow, np.maximum(yaw_gain, 0.0), 0.0)
        rise = max(rise, float(np.max(np.where(coasting, (e1 - e0) / np.maximum(e0, 1e-300), 0.0))))
        s = after
    assert over <= SLACK
    assert rise <= SLACK


def rigid_energy(p, s: State) -> np.ndarray:
    """J: ½m|v|² + ½Iω² + Σ½I_w·ω_w²."""
    spin = s.extra["wheel_speed"]
    return (
        0.5 * np.asarray(p["mass"]) * s.speed**2
        + 0.5 * rb.inertia(p) * s.extra["omega"] ** 2
        + 0.5 * np.asarray(p["wheel_inertia"]) * (spin**2).sum(axis=1)
    )


@pytest.mark.parametrize("hz", RATES)
def test_rigid_body_spins_lose_speed_only_to_tyres(hz):
    p = random_tunings(rb, seed=hz, n=CARS, edges=0.2)
    p["mass"] = np.maximum(p["mass"], 0.5)
    cap = np.where(p["grip_load"], p["mu"] * p["mass"] * rb.GRAVITY / 4, p["max_grip"])
    limited = p["grip_load"] | p["grip_limit"]
    packed = tuning_rows(rb, p, CARS)
    rng = np.random.default_rng(200 + hz)
    s, dt = State.at_rest(CARS, rb.STATE), 1 / hz
    over, rise = 0.0, 0.0
    for controls, throttle in spin_program(rng, CARS, hz):
        forward = np.cos(s.heading) * s.vx + np.sin(s.heading) * s.vy
        after = step(rb, s, controls, p, dt, packed)
        bound = 4 * cap / p["mass"]
        over = max(over, float(np.max(np.where(limited, deceleration(s, after, dt) - bound, 0.0))))
        # the brake drives backwards below REVERSE_BELOW forward speed: that is a pedal driving
        coasting = (throttle == 0) & ~((np.asarray(controls.brake) > 0) & (forward < rb.REVERSE_BELOW))
        e0, e1 = rigid_energy(p, s), rigid_energy(p, after)
        rise = max(rise, float(np.max(np.where(coasting, (e1 - e0) / np.maximum(e0, 1e-300), 0.0))))
        s = after
    assert over <= SLACK
    assert rise <= SLACK


@pytest.mark.parametrize("hz", RATES)
@pytest.mark.parametrize("name", ["bicycle", "ackermann"])
def test_kinematic_speed_falls_no_faster_than_declared_braking_or_coasting(name, hz):
    model = MODELS[name]
    p = random_tunings(model, seed=hz, n=CARS, edges=0.2)
    packed = tuning_rows(model, p, CARS)
    rng = np.random.default_rng(300 + hz)
    s, dt = State.at_rest(CARS, model.STATE), 1 / hz
    rate = np.maximum(p["braking"], p["coast"])
    over, rise = 0.0, 0.0
    for controls, throttle in spin_program(rng, CARS, hz):
        after = step(model, s, controls, p, dt, packed)
        v0, v1 = np.abs(s.extra["speed"]), np.abs(after.extra["speed"])
        over = max(over, float(np.max((v0 - v1) / dt - rate)))
        pedal = (throttle > 0) | (np.asarray(controls.brake) > 0)
        rise = max(rise, float(np.max(np.where(pedal, 0.0, v1 - v0))))
        s = after
    assert over <= SLACK
    assert rise <= 0.0


@pytest.mark.parametrize("preset", ["monster_corvette_c5", "monster_corvette_abs"])
def test_braking_through_a_spin_brakes_and_never_reverses_while_sliding(preset):
    """Holding the brake selects reverse only at rest (slower than STOP): a car spinning
    with the brake held, whose forward speed passes through zero while it slides
    sideways at 8–10 m/s, keeps braking; once stopped, the brake reverses as before."""
    p = load_preset(BUILTIN_DIR / f"{preset}.json").tuning
    dt = 1 / 60
    s = step(mo, State.at_rest(1, mo.STATE), Controls(0, 1, 0), p, dt, ticks=360)
    sliding = 0
    for _ in range(60 * 8):
        after = step(mo, s, Controls(1, 0, 1, handbrake=1), p, dt)
        if s.speed[0] > math.sqrt(2) * mo.STOP:  # moving: along or across the car faster than STOP
            assert after.extra["gear"][0] > 0
            sliding += abs(s.slip_angle[0]) > math.radians(80)
        s = after
    assert sliding > 0  # it did slide sideways with the brake held
    assert s.speed[0] <= math.sqrt(2) * mo.STOP
    s = step(mo, s, Controls(0, 0, 1), p, dt, ticks=120)
    assert s.extra["gear"][0] == -1  # at rest, the brake reverses


@pytest.mark.parametrize("name,preset", [("bicycle", "bicycle_blog"), ("ackermann", "ackermann_van")])
def test_easing_off_the_brake_while_reversing_slows_no_faster_than_declared(name, preset):
    """A pad's brake, held at full in reverse and then eased to 0.3: the reverse speed
    falls towards 0.3 × the reverse top speed at the coasting rate, as a lowered top
    speed does going forward, instead of jumping there in one tick."""
    model = MODELS[name]
    p = load_preset(BUILTIN_DIR / f"{preset}.json").tuning
    dt = 1 / 60
    s = step(model, State.at_rest(1, model.STATE), Controls(0.5, 0, 1), p, dt, ticks=600)
    assert s.extra["speed"][0] == pytest.approx(-p["reverse_speed"])
    rate = max(p["braking"], p["coast"])
    for _ in range(600):
        after = step(model, s, Controls(0.5, 0, 0.3), p, dt)
        assert abs(s.extra["speed"][0]) - abs(after.extra["speed"][0]) <= rate * dt + SLACK
        s = after
    assert s.extra["speed"][0] == pytest.approx(-0.3 * p["reverse_speed"], rel=1e-6)
