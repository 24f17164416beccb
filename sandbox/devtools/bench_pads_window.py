"""The controller figures of `car-sandbox bench`: what a poll costs (bench_pads.measure, no
pad and virtual pads) and, in the real window (offscreen, SDL's virtual pad), how many
physics ticks pass from a stick moved to the car's steer holding its new value. Each frame
is the window's own (drive_view.frame: the controllers polled, then the ticks due), its
clock set one tick back first so that each frame is due one tick, as at 60 frames a second.
Where SDL cannot start, each figure is {"error": why} and the report says it could not be
measured."""

from __future__ import annotations

import os
import time

from PySide6.QtCore import QCoreApplication, QEvent

from ..session.pads import AXIS_SCALE
from .bench_pads import TICK_LIMIT
from .bench_window import offscreen_window

STICK_X = 0
MOVES = (24000, -20000, 30000, -32768, 16384, -12000, 32767, -26000, 20000, -16384)
"""Stick positions (SDL's 16-bit values), each past Godot's dead zones and the other way
from the one before, so every move changes the steer."""
START_S = 20.0
"""s the window may take to start SDL and to see the virtual pad."""


def _sdl_error(sdl) -> str:
    return sdl.SDL_GetError().decode(errors="replace") or "no reason given"


def _frame(app, window) -> None:
    """One frame of the window's timer, one tick of wall time after the last."""
    view = window.drive_view
    view._last_frame = time.perf_counter() - window.sim.dt  # the frame timer's clock, one tick back
    view.frame()
    app.processEvents()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def stick_ticks(moves=MOVES) -> dict:
    """{"ticks": [ticks each move took to reach the car's steer (None: not within
    TICK_LIMIT)], "max_ticks": the largest (None if any did not arrive)}, or
    {"error": why} when the window has no controllers to read."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # headless: SDL draws nothing here
    with offscreen_window() as (app, window):
        controllers = window.controllers
        deadline = time.monotonic() + START_S
        while controllers.pads is None and time.monotonic() < deadline:
            app.processEvents()  # SDL starts after the window's first paint
            time.sleep(0.01)
        pads = controllers.pads
        if pads is None:
            return {"error": f"the window did not start its game controllers within {START_S:g} s"}
        if pads.error:
            return {"error": pads.error}
        sdl = pads.sdl
        index = sdl.SDL_JoystickAttachVirtual(sdl.SDL_JOYSTICK_TYPE_GAMECONTROLLER, 6, 15, 0)
        if index < 0:
            return {"error": f"SDL could not attach a virtual pad ({_sdl_error(sdl)})"}
        stick = sdl.SDL_JoystickOpen(index)
        try:
            deadline = time.monotonic() + START_S
            while not pads.devices and time.monotonic() < deadline:
                _frame(app, window)
            if not pads.devices:
                return {"error": f"the window did not see the virtual pad within {START_S:g} s"}
            counts = []
            for raw in moves:
                sdl.SDL_JoystickSetVirtualAxis(stick, STICK_X, raw)
                target = controllers.dead_zones.steer(raw / AXIS_SCALE)
                before = window.sim.ticks
                for _ in range(2 * TICK_LIMIT):  # frames: a frame may run no tick
                    arrived = abs(window.drive.controls.steer - target) <= 1e-6
                    if arrived or window.sim.ticks - before >= TICK_LIMIT:
                        break
                    _frame(app, window)
                counts.append(window.sim.ticks - before if arrived else None)
        finally:
            sdl.SDL_JoystickClose(stick)
            while sdl.SDL_NumJoysticks() > 0 and sdl.SDL_JoystickIsVirtual(0):
                sdl.SDL_JoystickDetachVirtual(0)
    return {"ticks": counts, "max_ticks": None if None in counts else max(counts)}
