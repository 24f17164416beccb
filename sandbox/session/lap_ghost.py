"""The best lap's ghost: the session's best lap (`laps_live.LiveLaps.best_trace`: its
controls and the car's state at its start) replayed by a ghost of the same tuning,
restarted each time the car starts a lap, so it drives beside the car the lap the car
is trying to beat. It is one of the session's ghosts (drawn and read out as they are),
with a trace of its own instead of the car's controls; it is only there while the car
is on a timed lap and a best lap exists, and only while fewer than MAX_GHOSTS other
ghosts are driven."""

from __future__ import annotations

from ..physics.sim import Simulation, seek_states
from ..physics.state import State
from .ghosts import MAX_GHOSTS, Ghost
from .sources import TraceSource

NAME = "best lap"
"""The start of the best lap's ghost's name (its lap number follows)."""


def lap_ghost(session) -> Ghost | None:
    """The session's best lap's ghost, None when there is none."""
    return next((g for g in session.ghosts if g.trace is not None and g.name.startswith(NAME)), None)


def drop_lap_ghost(session) -> None:
    """No best lap's ghost (a reset, a new book, another track or car)."""
    ghost = lap_ghost(session)
    if ghost is not None:
        session.drop_ghost(ghost)


def restart_lap_ghost(session, ahead: int) -> None:
    """The car has started a lap `ahead` ticks ago (0: it starts with the next ghost
    tick): the best lap's ghost at the best lap's start, run `ahead` ticks into it."""
    best = session.laps.best_trace()
    if best is None or session.replay is not None:  # a replay's odometers are kept for the ghosts it began with
        drop_lap_ghost(session)
        return
    lap, rows, start = best
    ghost = lap_ghost(session)
    if ghost is None:
        if len(session.ghosts) >= MAX_GHOSTS:
            return
        sim = Simulation(session.model, dict(session.sim.params), n=1, hz=session.sim.hz, track=session.track)
        ghost = Ghost(sim, session.model.body(session.sim.params), NAME, _free_colour(session.ghosts))
        session.ghosts.append(ghost)
    ghost.name = f"{NAME} {lap.number}"
    ghost.trace = TraceSource(rows, ghost.name, start)
    ghost.sim.state = State.of(start.layout, start.data.copy())
    ghost.sim.ticks = 0
    ghost.travelled = session.travelled
    if ahead:
        sim = ghost.sim
        run = seek_states(sim.model, sim.params, ghost.rows(rows[:ahead]), sim.hz, start=sim.state, walls=sim.walls)
        ghost.sim.state = State.of(run.layout, run.data[-1:].copy())
        ghost.sim.ticks = ahead


def _free_colour(ghosts: list[Ghost]) -> int:
    """The first ghost colour no other ghost has."""
    taken = {g.colour for g in ghosts}
    return next(c for c in range(MAX_GHOSTS) if c not in taken)
