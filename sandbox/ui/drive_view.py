"""The window's frame loop and its drawing of the drive session: the frame timer runs
the ticks the session says are due, the session's hooks feed the car view and the live
plots, and each drawn frame shows the HUD, the ghosts' readouts and the status line.
An object the window owns (it draws into the window's views)."""

from __future__ import annotations

import math
import time

import numpy as np
from PySide6.QtCore import Qt, QTimer

from ..files.traces import demo_drive
from ..physics.state import State
from ..session.ghosts import gap_line
from ..session.hud import gauges, regime_text
from ..session.input_channels import tick_inputs
from ..session.laps_live import lap_lines, tab_channels
from .view_overlays import Dashboard

FRAME_MS = 8
"""Frame timer interval: frames every ~8 ms; physics runs whole 1/hz ticks in between."""
REFRESH_TURNS = 3
"""Drawn frames per redraw of each live plot (20 Hz at 60 Hz): a plot repaint costs
more than the car view, so no frame repaints them all. Turn 0: the speed plot and the
status line; 1: the slip plot; 2: the model's channels (the lightest plot), the force
curve's speed marker and the replay bar. The car view is drawn every frame."""
FPS_FRAMES = 30
"""Drawn frames the frame rate in the status line is averaged over."""


CONES_TIP = (
    "Cones the car has knocked over since it was placed: its shape touched them on its way "
    "through a tick (a fast car cannot jump one). Each cone counts once; knocked cones are "
    "drawn knocked and are not solid. Car → Reset car stands them up again."
)


class DriveView:
    """Frames of `window` (a MainWindow, which owns this), and what it draws of
    `window.drive` after each."""

    def __init__(self, window):
        self.window = w = window
        w.drive.on_reset = self._drive_reset
        w.drive.on_tick = self._drive_ticked
        w.drive.on_run = self._drive_ran
        self._frame_times: list[float] = []  # seconds between drawn frames
        self._since_drawn = 0.0
        self.drawn = 0  # frames drawn with a new tick (the plots take turns, see REFRESH_TURNS)
        self._fps = 0.0
        self._laps_shown = (None, 0, None)  # the lap book the Laps tab shows, its laps and cone penalty then
        self._last_frame = time.perf_counter()
        self.timer = QTimer(w)
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.timeout.connect(self.frame)

    def start_frames(self) -> None:
        """(Re)start the frame timer; the time before now is not driven."""
        self.start_clock()
        self.timer.start(FRAME_MS)

    def start_clock(self) -> None:
        """The next frame drives the time from now on (not the time before)."""
        self._last_frame = time.perf_counter()

    def frame(self) -> None:
        """Timer callback: read the game controllers, run the physics ticks that are due;
        redraw if any ran.

        The timer fires faster than the tick rate so a tick is shown at most one
        timer interval late; frames without a new tick would repeat the picture.
        """
        self.window.controllers.poll()  # before the ticks: a stick moved counts from the next one
        now = time.perf_counter()
        elapsed = now - self._last_frame
        self._last_frame = now
        self.run_for(elapsed)

    def run_for(self, elapsed: float) -> int:
        """Physics for `elapsed` wall seconds (as the session counts them: scaled, or
        frozen while paused, when replaying); redraw if a tick ran. Returns the ticks run."""
        drive = self.window.drive
        self._since_drawn += elapsed
        playing = drive.playing
        ran = drive.run_for(elapsed)
        if playing and not drive.playing:  # the replay reached its end
            self.start_clock()
            self.window.replay.show()
        if ran:
            self._frame_times.append(self._since_drawn)
            self._since_drawn = 0.0
            if len(self._frame_times) >= FPS_FRAMES:
                self._fps = len(self._frame_times) / max(sum(self._frame_times), 1e-9)
                self._frame_times.clear()
            self.drawn += 1
            self.refresh(self.drawn)
        return ran

    def _drive_reset(self) -> None:
        w = self.window
        w.keys.release_all()
        w.track.clear_trail()
        w.plots.reset_data()
        w.gg.clear()

    def _drive_ticked(self, state: State, shadows) -> None:
        w = self.window
        w.track.record(state, w.body)
        inputs = tick_inputs(w.drive.controls, getattr(w.drive.source, "device", None))
        w.plots.record(w.sim.time, state, shadows, inputs)
        w.gg.record(w.sim.time, state.data)

    def _drive_ran(self, car: State, runs: list[State], first: int) -> None:
        """The trail and the plots' window as if each tick of a run had been drawn."""
        w = self.window
        keep = w.plots.buffer.capacity
        recent = lambda s: State.of(s.layout, s.data[-keep:])  # noqa: E731
        w.track.record(State.of(car.layout, car.data[-w.track.trail.capacity :]), w.body)
        shown, done = len(recent(car)), first + len(car)
        rows = w.drive.ran_rows[-shown:]
        device = getattr(w.drive.source, "device_rows", None)
        w.plots.forget_tick_before()  # a run's rows follow no row the plots have
        w.plots.record(
            np.arange(done - shown + 1, done + 1) / w.sim.hz,
            recent(car),
            [(recent(states), w.drive.ghost_scale(g)) for g, states in zip(w.drive.ghosts, runs)],
            tick_inputs(rows, None if device is None else device[done - shown : done]),
        )
        w.gg.record(done / w.sim.hz, car.data)

    def _show_laps(self) -> None:
        """The Laps tab shows the session's lap book once it has a lap it has not shown,
        is re-timed (another cone penalty) or is a new book (another tuning, rate or track)."""
        w = self.window
        book = w.drive.laps.book
        shown = (book, len(book.laps), book.cone_penalty)
        if self._laps_shown[0] is not book or self._laps_shown[1:] != shown[1:]:
            self._laps_shown = shown
            w.laps.show_book(book, tab_channels(w.drive.laps, w.model.LENGTH_UNIT))

    def refresh(self, frame: int | None = None) -> None:
        """Show the latest state: the car view every frame; each live plot, the status
        line, the force curve's speed marker and the replay bar on one frame in
        REFRESH_TURNS (all of them when `frame` is None: a step, a scrub, a reset)."""

        def due(turn: int) -> bool:
            return frame is None or frame % REFRESH_TURNS == turn

        w = self.window
        state = w.sim.state
        speed = float(state.speed[0])
        if due(0):
            regime = regime_text(w.model, w.tuning, state)
            fps = f" · {self._fps:4.0f} fps" if self._fps else ""
            w.status.setText(f"{w.wheel.who()}{regime}physics {w.sim.hz} Hz{fps}")
            self._show_cones(state)
            self._show_laps()
        slip = f"slip {math.degrees(float(state.sideslip[0])):+.1f}°"  # speed: on the dashboard
        w.track.hud_lines = [slip] + lap_lines(w.drive.laps)
        gaps = w.drive.gaps()
        if [g.ghost.name for g in gaps] != w.plots.ghost_names:  # the best lap's ghost comes and goes by itself
            w.plots.set_ghost_names([g.ghost.name for g in gaps])
        w.track.ghosts = [(g.state, g.ghost.body, g.scale, g.ghost.colour) for g in gaps]
        w.track.ghost_lines = [gap_line(g, speed, w.model.LENGTH_UNIT) for g in gaps]
        w.track.dashboard = self._dashboard(state, speed)
        w.track.show_state(state, w.body)
        w.plots.refresh(w.sim.time, None if frame is None else frame % REFRESH_TURNS)
        if due(1) and w.gg.active:  # with the slip plot; drawn only while its tab is in front
            w.gg.refresh(exact=frame is None)
        if due(2):  # with the channel plot, the lightest of the three
            w.curves.set_speed(speed)
            feel = getattr(w.panel, "feel_plot", None)
            if feel is not None and feel.isVisible():
                feel.set_speed(speed)
            tyres = getattr(w, "tyres", None)
            if tyres is not None and tyres.active:  # the Tyres tab in front
                tyres.refresh(exact=frame is None)
            replay = w.drive.replay
            if replay is not None:
                w.replay.bar.show_position(replay.name, w.drive.replay_tick, len(replay), w.sim.hz)

    def _show_cones(self, state: State) -> None:
        """The status bar's count of the cones knocked, on a track with cones."""
        track = self.window.drive.track
        label = self.window.cones
        label.setVisible(track is not None and bool(track.cones))
        if label.isVisible():
            label.setText(f"cones knocked: {int(state.get('cones_hit')[0])} of {len(track.cones)}")

    def _dashboard(self, state: State, speed: float) -> Dashboard:
        """The view's dashboard: speed, the engine's rpm and gear where the model
        declares them, and this tick's pedals and steering."""
        w = self.window
        c = w.drive.controls
        rpm, gear = gauges(w.model, state)
        return Dashboard(speed, w.model.LENGTH_UNIT, float(c.throttle), float(c.brake), float(c.steer), rpm, gear)

    def scripted_drive(self, seconds: float) -> None:
        """Drive `controls.demo_drive` for `seconds` of physics time (one compiled run),
        then redraw once."""
        sim = self.window.sim
        hz, done = sim.hz, sim.ticks
        rows = [demo_drive((done + i) / hz) for i in range(round(seconds * hz))]
        if rows:
            self.window.drive.drive_through(rows)
        self.refresh()

    def reset_car(self) -> None:
        """The car and its ghosts back at the origin, at rest (a replay at its start)."""
        self.window.drive.reset()
        self.refresh()
        self.window.replay.show()
