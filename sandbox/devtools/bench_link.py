"""The live link's figures, measured against the real game: the recipe's car in Godot 3
(headless, in real time) with the exported link node, and the sandbox's listening end.

- slider to game: from `send_set` to the game's `ack`, which the node sends when it has
  applied the value, at the start of the physics tick that uses it (the ack's own trip
  back over loopback is included, so the figure is an upper bound);
- telemetry at 240 Hz: ticks the game ran against telemetry received, none may be lost;
- the node's own cost per tick, as it measures it (`cost_us` in its telemetry);
- the game's ticks recorded while another local program floods the sandbox's port with
  tiny datagrams without the token, as fast as it can (link_flood.py).
"""

from __future__ import annotations

import math
import random
import time
from contextlib import contextmanager

import numpy as np

from ..files.godot_link import export_link_node
from ..link.server import LinkServer
from ..physics.models import arcade
from .link_flood import flooding
from .link_game import start_link_game
from .oracle import unavailable

LATENCY_SLACK_MS = 2.0
"""The target: one physics tick of the game plus this, on loopback (p50 and p99)."""
NODE_COST_TARGET_US = 100.0
FLOOD_SHARE_TARGET = 0.99
"""The target: this share of the game's ticks recorded under a flood without the token."""
QUIET_S = 1.0
"""s of telemetry before the flood and after it, which mark the ticks run during it."""


DRAWING_FRAME_SLEEP_US = 1000
"""µs the engine sleeps between frames for the figures "as a game that draws": headless, it
cannot draw and sleeps 6 900 µs a frame by default, so a physics tick starts up to that
much late; a game that draws runs its frames back to back or at the display's rate."""


def _game(server: LinkServer, hz: int, seconds: float, frame_sleep_us: int | None, fixed_fps: bool):
    """The recipe car driving circles (throttle, a little steer) for `seconds` at `hz`."""
    drive = np.zeros((int(seconds * hz), 5))
    drive[:, 0], drive[:, 1] = 0.3, 1.0
    return start_link_game(
        export_link_node(arcade, 3), server.port, drive, token=server.token, hz=hz, fixed_fps=fixed_fps,
        timeout=seconds + 30, frame_sleep_us=frame_sleep_us,
    )  # fmt: skip


@contextmanager
def _linked(hz: int, seconds: float, frame_sleep_us: int | None = None, fixed_fps: bool = False):
    """(server, game): the game running and linked (its hello taken); both stopped after."""
    server = LinkServer(port=0)
    server.start()
    try:
        with _game(server, hz, seconds, frame_sleep_us, fixed_fps) as game:
            if server.wait_for_game(30) is None:
                raise RuntimeError(f"the game did not say hello:\n{game.log()}")
            yield server, game
    finally:
        server.stop()


def _telemetry(server: LinkServer, game, seconds: float = math.inf) -> list:
    """Every telemetry taken for `seconds`, or until the game has quit."""
    received: list = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end and game.running():
        time.sleep(0.02)
        received += server.take()
    return received + server.take()


def slider_to_game(moves: int = 300, hz: int = 60, frame_sleep_us: int | None = None) -> dict:
    """ms from a value handed to the link to the game's acknowledgement of using it,
    `moves` times at random moments of the game's tick."""
    with _linked(hz, moves * 3.0 / hz + 10, frame_sleep_us) as (server, game):
        rng = random.Random(1)
        latencies = []
        for k in range(moves):
            time.sleep(rng.uniform(0.0, 1.5 / hz))  # a move at any moment of the tick
            start = time.perf_counter()
            seq = server.send_set({"engine_power": 700.0 + (k % 2) * 100.0})
            if server.wait_applied(seq, 5.0) is None:
                raise RuntimeError(f"no acknowledgement of move {k}:\n{game.log()}")
            latencies.append((time.perf_counter() - start) * 1000.0)
    return {
        "hz": hz,
        "frame_sleep_us": frame_sleep_us,
        "moves": moves,
        "p50_ms": float(np.percentile(latencies, 50)),
        "p99_ms": float(np.percentile(latencies, 99)),
        "max_ms": float(np.max(latencies)),
        "target_ms": 1000.0 / hz + LATENCY_SLACK_MS,
    }


def telemetry_stream(seconds: float = 60.0, hz: int = 240, frame_sleep_us: int | None = None) -> dict:
    """Every tick's telemetry for `seconds` of a game at `hz`: ticks run, received, lost,
    dropped; the node's cost per tick."""
    with _linked(hz, seconds + 2.0, frame_sleep_us) as (server, game):
        server.take()
        received = _telemetry(server, game, seconds)
        status = server.status()
    ticks = [t.tick for t in received]
    ran = ticks[-1] - ticks[0] + 1 if ticks else 0
    costs = np.array([t.cost_us for t in received]) if received else np.zeros(1)
    return {
        "hz": hz,
        "seconds": ran / hz,
        "ticks_run": ran,
        "received": len(received),
        "lost": ran - len(set(ticks)),
        "dropped": dict(status.dropped),
        "node_cost_mean_us": float(costs.mean()),
        "node_cost_p99_us": float(np.percentile(costs, 99)),
        "node_cost_max_us": float(costs.max()),
    }


def node_cost_back_to_back(ticks: int = 3000) -> dict:
    """The node's cost per tick (µs) with the engine running its ticks back to back (as
    fast as it goes, never idle): from the telemetry that arrives."""
    with _linked(60, ticks / 60.0, fixed_fps=True) as (server, game):
        received = _telemetry(server, game)
    costs = np.array([t.cost_us for t in received[1:]]) if len(received) > 1 else np.zeros(1)
    return {"ticks": len(costs), "mean_us": float(costs.mean()), "p99_us": float(np.percentile(costs, 99))}


def flooded_ticks(seconds: float = 22.0, hz: int = 60) -> dict:
    """The game's ticks run while another program floods the port for `seconds` (1 320
    ticks at 60 Hz by default), against those taken; what the flood sent and what the
    link dropped."""
    with _linked(hz, seconds + 3 * QUIET_S + 2.0) as (server, game):
        before = [t.tick for t in _telemetry(server, game, QUIET_S)]
        with flooding(server.port) as flood:
            start = time.perf_counter()
            during = [t.tick for t in _telemetry(server, game, seconds)]
        flooded_s = time.perf_counter() - start
        after = [t.tick for t in _telemetry(server, game, QUIET_S)]
        status = server.status()
    if not before or not after:
        raise RuntimeError(f"no telemetry before or after the flood:\n{game.log()}")
    first, last = max(before), min(after)  # the ticks between them ran during the flood
    taken = {tick for tick in during + after if first < tick < last}
    return {
        "hz": hz,
        "seconds": flooded_s,
        "ticks_run": last - first - 1,
        "recorded": len(taken),
        "flood_sent": flood.sent,
        "flood_per_s": flood.sent / flooded_s,
        "dropped": dict(status.dropped),
    }


def run(quick: bool = False) -> dict:
    """Both figures, or a note when the Godot oracle cannot run here (no Godot 3 binary,
    or the app installed without its source checkout)."""
    missing = unavailable()
    if missing is not None:
        return {"skipped": missing}
    moves = 60 if quick else 300
    return {
        "latency": slider_to_game(moves, frame_sleep_us=DRAWING_FRAME_SLEEP_US),
        "latency_headless": slider_to_game(moves),
        "telemetry": telemetry_stream(10.0 if quick else 60.0, frame_sleep_us=DRAWING_FRAME_SLEEP_US),
        "node_cost_back_to_back": node_cost_back_to_back(),
        "flood": flooded_ticks(10.0 if quick else 22.0),
    }


def _verdict(ok: bool) -> str:
    return "met" if ok else "NOT MET"


def report(f: dict) -> list[str]:
    if "skipped" in f:
        return [f"live link to the game: not measured ({f['skipped']})"]
    lat, tel = f["latency"], f["telemetry"]
    target = lat["target_ms"]
    lost_ok = tel["lost"] == 0 and tel["received"] == tel["ticks_run"]
    lines = [
        f"live link, a value sent to the game until the game acknowledges using it (Godot 3 headless, "
        f"{lat['hz']} Hz, real time, {lat['moves']} moves at random moments; the engine sleeping "
        f"{DRAWING_FRAME_SLEEP_US} µs between frames, as a game that draws): p50 {lat['p50_ms']:.1f} ms, p99 "
        f"{lat['p99_ms']:.1f} ms, max {lat['max_ms']:.1f} ms  target ≤ one tick + {LATENCY_SLACK_MS:g} ms = "
        f"{target:.1f} ms: {_verdict(lat['p50_ms'] <= target and lat['p99_ms'] <= target)}",
    ]
    if "latency_headless" in f:
        h = f["latency_headless"]
        lines.append(
            f"  with the headless engine's own 6 900 µs sleep between frames (a tick starts up to that late): "
            f"p50 {h['p50_ms']:.1f} ms, p99 {h['p99_ms']:.1f} ms, max {h['max_ms']:.1f} ms"
        )
    return (
        lines
        + [
            f"live link, telemetry at {tel['hz']} Hz for {tel['seconds']:.1f} s: {tel['received']:,d} of "
            f"{tel['ticks_run']:,d} ticks received, {tel['lost']} lost, dropped {tel['dropped'] or 'none'}  "
            f"target none lost: {_verdict(lost_ok)}",
            f"  the link node's cost in the game per tick (in real time, the engine idle between frames): mean "
            f"{tel['node_cost_mean_us']:.0f} µs, p99 {tel['node_cost_p99_us']:.0f} µs, max "
            f"{tel['node_cost_max_us']:.0f} µs  target < {NODE_COST_TARGET_US:g} µs: "
            f"{_verdict(tel['node_cost_mean_us'] < NODE_COST_TARGET_US)}",
        ]
        + _back_to_back(f)
        + _flood(f)
    )


def _back_to_back(f: dict) -> list[str]:
    if "node_cost_back_to_back" not in f:
        return []
    b = f["node_cost_back_to_back"]
    return [
        f"  with the engine running its ticks back to back ({b['ticks']:,d} ticks): mean {b['mean_us']:.0f} µs, "
        f"p99 {b['p99_us']:.0f} µs  target < {NODE_COST_TARGET_US:g} µs: "
        f"{_verdict(b['mean_us'] < NODE_COST_TARGET_US)}"
    ]


def _flood(f: dict) -> list[str]:
    if "flood" not in f:
        return []
    w = f["flood"]
    share = w["recorded"] / w["ticks_run"] if w["ticks_run"] else 0.0
    return [
        f"live link under a flood from another program ({w['flood_per_s']:,.0f} tiny datagrams/s without the "
        f"token for {w['seconds']:.1f} s, the game at {w['hz']} Hz): {w['recorded']:,d} of {w['ticks_run']:,d} "
        f"game ticks recorded ({100 * share:.1f} %)  target ≥ {100 * FLOOD_SHARE_TARGET:g} %: "
        f"{_verdict(share >= FLOOD_SHARE_TARGET)}; dropped {w['dropped'] or 'none'}"
    ]


if __name__ == "__main__":
    print("\n".join(report(run(quick=True))))
