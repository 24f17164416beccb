"""Kinematic bicycle of "Simple 2D car steering physics in games" (seed 000).

Units: m, s, rad (angles in degrees on the sliders). Godot conventions: y down,
heading 0 along +x, positive steer turns right (heading increases).

Default, the blog's six lines, every tick: put a back and a front wheel wheel_base
apart about the centre (rebuilt from centre and heading each tick, so the wheel base
never drifts), move the back wheel speed·dt along the heading and the front wheel
speed·dt along heading + steer angle, then centre = their midpoint and heading = the
angle from back to front. The speed comes from the pedals (speed_control.py).

Options from the comment thread, all off by default:
- exact_arc: rotate the car about the instantaneous centre (where the wheel axes
  meet) at ω = speed·sin(steer)/wheel_base, the default's own limit for small dt; the
  pose is then the same for any dt while the steering is constant.
- keep_wheel_base (Christopher Night): the front wheel travels √(B²+C)−B with
  B = (b−r)·cos(steer), C = r·(2b−r), r = speed·dt, b = wheel_base, so the wheels
  end the tick exactly wheel_base apart.
- steer_rate > 0: the wheels turn towards the input at that rate instead of at once,
  and return to centre at return_rate when no steering key is held (optionally
  scaled by speed/top speed, so a parked car keeps its wheels turned).
- Drift ILLUSIONS, not physics: drift_delay moves the wheels along the heading of
  that many seconds ago while the body is drawn at the current one; drift_overrotate
  draws the body turned further by steer·(speed/top speed)·drift_overrotate.

State extras: speed (m/s, signed), steer (rad), display_heading (rad),
wheel_gap (m, back-to-front distance after the move, before the rebuild),
heading_history (n × HISTORY ticks) and ticks, for drift_delay.
"""

from __future__ import annotations

from typing import Mapping

import numpy as np

from ..params import Param
from . import speed_control
from .batch_math import norm
from .geometry import DEGREES, rotate_about, wrap
from ..state import Controls, State

NAME = "bicycle"
TITLE = "Kinematic bicycle (blog, 2010)"
LENGTH_UNIT = "m"
HISTORY = 128
"""ticks of heading kept for drift_delay (0.5 s needs 120 at 240 Hz)."""

PARAMS = (
    Param("wheel_base", "Wheel base", "m", 2.5, 0.5, 10, 0.05, "Distance between the back and the front wheel."),
    Param("max_steer", "Steering angle", "°", 30, 1, 60, 0.5, "Front wheel angle at full steer."),
) + speed_control.PARAMS + (
    Param.switch("exact_arc", "Exact arc", False,
                 "Rotate about the instantaneous centre: the same path for any tick rate while steering is held."),
    Param.switch("keep_wheel_base", "Front wheel keeps wheel base", False,
                 "The comment thread's correction: the front wheel travels the extra distance that keeps "
                 "the wheels exactly one wheel base apart."),
    Param("steer_rate", "Steering speed", "°/s", 0, 0, 720, 5,
          "How fast the wheels turn while a steering key is held; 0 = at once (the blog)."),
    Param("return_rate", "Return to centre", "°/s", 180, 0, 1440, 5,
          "How fast the wheels straighten with no steering key (when steering speed > 0)."),
    Param.switch("return_with_speed", "Return scales with speed", False,
                 "Return to centre at return rate × speed / top speed (a parked car keeps its wheels turned)."),
    Param("drift_delay", "Drift illusion: delay", "s", 0, 0, 0.5, 0.01,
          "ILLUSION: the wheels move along the heading of this long ago; the body is drawn at today's."),
    Param("drift_overrotate", "Drift illusion: over-rotate", "×", 0, 0, 2, 0.05,
          "ILLUSION: draw the body turned further by steer × speed/top speed × this."),
)


# Live plot channels: group -> (unit, ((state.extra key, label, factor), ...))
TELEMETRY = {
    "wheel angle": ("°", (("steer", "front wheel", DEGREES),)),
    "speed": ("m/s", (("speed", "signed speed", 1.0),)),
    "drawn vs path heading": ("°", (("display_heading", "drawn heading", DEGREES),)),
}

def _steer(state: State, steer_in: np.ndarray, speed: np.ndarray, p: Mapping, dt: float) -> np.ndarray:
    """Front wheel angle (rad) after this tick."""
    target = steer_in * np.radians(p["max_steer"])
    rate = np.radians(p["steer_rate"]) * dt
    current = state.get("steer")
    holding = steer_in != 0
    back_rate = np.radians(p["return_rate"]) * dt
    scale = np.where(p["return_with_speed"], np.abs(speed) / np.maximum(p["max_speed"], 1e-9), 1.0)
    goal = np.where(holding, target, 0.0)
    step = np.where(holding, rate, back_rate * scale)
    eased = current + np.clip(goal - current, -step, step)  # never past the goal
    return np.where(np.asarray(p["steer_rate"]) > 0, eased, target)


def _motion_heading(state: State, p: Mapping, dt: float) -> tuple[np.ndarray, np.ndarray | None, np.ndarray]:
    """Heading to move the wheels along (delayed for drift_delay), the history, ticks.

    The history (n × HISTORY) is kept only while some car has drift_delay on."""
    n = len(state)
    ticks = state.get("ticks")
    if not np.any(np.asarray(p["drift_delay"]) > 0):
        return state.heading, None, ticks
    history = state.extra.get("heading_history")
    if history is None:
        history = np.repeat(state.heading[:, None], HISTORY, axis=1)
    lag = np.clip(np.round(np.asarray(p["drift_delay"]) / dt), 0, HISTORY - 1).astype(int)
    lag = np.broadcast_to(np.minimum(lag, ticks.astype(int)), (n,))
    slot = (ticks.astype(int) - lag) % HISTORY
    delayed = history[np.arange(n), slot]
    return np.where(lag > 0, delayed, state.heading), history, ticks


def step(state: State, controls: Controls, p: Mapping[str, np.ndarray | float], dt: float) -> State:
    """Advance every car one tick of `dt` seconds; returns a new State."""
    n = len(state)
    steer_in = np.broadcast_to(np.asarray(controls.steer, dtype=np.float64), (n,))
    speed = speed_control.next_speed(state.get("speed"), controls.throttle, controls.brake, p, dt)
    steer = _steer(state, steer_in, speed, p, dt)
    motion, history, ticks = _motion_heading(state, p, dt)
    L = np.asarray(p["wheel_base"], dtype=np.float64)
    h = state.heading
    r = speed * dt
    # each trig value once (trig is the slow part of a tick); the options' extra work
    # only when some car has them on
    ch, sh = np.cos(h), np.sin(h)
    cm, sm = (ch, sh) if motion is h else (np.cos(motion), np.sin(motion))
    half = L / 2

    # the blog's six lines (front distance: the same r, or Night's correction)
    bx, by = state.x - half * ch, state.y - half * sh
    fx, fy = state.x + half * ch, state.y + half * sh
    front = r
    keep = np.asarray(p["keep_wheel_base"], dtype=bool)
    if keep.any():
        B = (L - r) * np.cos(steer)
        front = np.where(keep, np.sqrt(np.maximum(B * B + r * (2 * L - r), 0.0)) - B, r)
    bx, by = bx + r * cm, by + r * sm
    wheel_direction = motion + steer
    fx, fy = fx + front * np.cos(wheel_direction), fy + front * np.sin(wheel_direction)
    x, y = (fx + bx) / 2, (fy + by) / 2
    heading = np.arctan2(fy - by, fx - bx)
    gap = norm(fx - bx, fy - by)

    # the instantaneous centre (on the back axle line, L/tan(steer) out), and with
    # exact_arc the exact rotation about it
    sin_steer = np.sin(steer)
    turning = np.abs(sin_steer) > 1e-12
    radius = np.where(turning, L / np.where(turning, np.tan(steer), 1.0), 0.0)
    back_x, back_y = state.x - half * cm, state.y - half * sm
    cx, cy = back_x - radius * sm, back_y + radius * cm
    exact = np.asarray(p["exact_arc"], dtype=bool)
    if exact.any():
        turn = speed * sin_steer / L * dt
        arc_x, arc_y = rotate_about(state.x, state.y, cx, cy, turn)
        ax = np.where(turning, arc_x, state.x + r * cm)
        ay = np.where(turning, arc_y, state.y + r * sm)
        x, y = np.where(exact, ax, x), np.where(exact, ay, y)
        heading = np.where(exact, wrap(h + turn), heading)
        gap = np.where(exact, L, gap)

    ticks = ticks + 1
    display = heading + steer * (speed / np.maximum(p["max_speed"], 1e-9)) * p["drift_overrotate"]
    extra = {"speed": speed, "steer": steer, "display_heading": display, "wheel_gap": np.broadcast_to(gap, (n,)),
             "ticks": ticks, "icr_x": np.where(turning, cx, np.nan), "icr_y": np.where(turning, cy, np.nan)}
    if history is not None:
        history = history.copy()
        history[np.arange(n), ticks.astype(int) % HISTORY] = heading
        extra["heading_history"] = history
    return State(x, y, heading, (x - state.x) / dt, (y - state.y) / dt, wheel_angle=steer,
                 traction_fast=np.zeros(n, dtype=bool), extra=extra)


def body(p: Mapping[str, float]) -> dict[str, float]:
    """Drawing sizes (m) around the two virtual wheels; the track is for looks only."""
    wb = float(p["wheel_base"])
    return {"wheel_base": wb, "track": 0.6 * wb, "length": wb + 1.2, "width": 0.6 * wb + 0.3}


force_curve = speed_control.force_curve
top_speed = speed_control.top_speed
