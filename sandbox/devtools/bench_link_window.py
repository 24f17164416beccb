"""The window's frames while a peer floods the live link: the window listens, a separate
process says hello with the right token (so it is the linked game) and then sends
datagrams as fast as it may, up to 100 000 a second, of every kind the link must drop
(not JSON, oversized, wrong token, NaN, unknown names) mixed with telemetry (1 000 a
second, so the game's car and channels are drawn too). The frames are driven as in
bench_window.frame_costs; the figure is the share of frames over one tick's budget."""

from __future__ import annotations

import subprocess
import sys
import time

from .bench_window import frame, frame_stats, offscreen_window, scripted_trace

WARM_UP_FRAMES = 30
FLOOD_RATE = 100_000
"""datagrams a second the peer aims at."""

_PEER = r"""
import json, socket, sys, time
port, token, seconds, rate = int(sys.argv[1]), sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setblocking(False)
def message(kind, **fields):
    return json.dumps({"v": 1, "type": kind, "token": token, **fields}).encode()
s.sendto(message("hello", game="flood", godot="3.2.3", model="arcade", format=None, hz=60, units="px",
                 params={"engine_power": 800}, missing=[]), ("127.0.0.1", port))
time.sleep(0.5)
kinds = [b"\xff not json", b"[1, 2]", b"x" * 65000,
         json.dumps({"v": 1, "type": "telemetry", "token": "wrong"}).encode(),
         b'{"v": 1, "type": "telemetry", "token": "' + token.encode() + b'", "x": NaN}',
         message("values", seq=1, params={"no_such_name": 1.0})]
sent, tick, start = 0, 0, time.perf_counter()
while time.perf_counter() - start < seconds:
    for k in range(1000):
        if k % 100 == 0:
            tick += 1
            data = message("telemetry", tick=tick, t=tick / 60, x=tick, y=0.0, heading=0.0, vx=60.0, vy=0.0,
                           controls={"steer": 0, "throttle": 1, "brake": 0, "handbrake": 0, "shift": 0},
                           state={}, applied=0, cost_us=1)
        else:
            data = kinds[k % len(kinds)]
        try:
            s.sendto(data, ("127.0.0.1", port))
            sent += 1
        except (BlockingIOError, OSError):
            pass
    ahead = sent / rate - (time.perf_counter() - start)
    if ahead > 0:
        time.sleep(ahead)
print(sent)
"""


def flood_frames(seconds: float = 10.0) -> dict:
    """Frame times (ms) of the window driving a scripted lap while the linked peer
    floods; what the link counted as dropped, and what the peer sent."""
    with offscreen_window() as (app, window):
        window.link_panel.port.setValue(0)
        if not window.link.listen():
            raise RuntimeError("the window could not listen for the game")
        server = window.link.server
        hz = window.sim.hz
        window.replay.play_trace(scripted_trace(seconds + 1.0, hz), "bench")
        app.processEvents()
        for _ in range(WARM_UP_FRAMES):  # the replay's first frames draw everything once
            frame(app, window, hz)
        peer = subprocess.Popen(
            [sys.executable, "-c", _PEER, str(server.port), server.token, str(seconds + 1.0), str(FLOOD_RATE)],
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            if server.wait_for_game(10) is None:
                raise RuntimeError("the flooding peer never linked")
            time.sleep(0.6)  # the flood under way
            costs = [frame(app, window, hz)[1] for _ in range(round(seconds * hz))]
            sent = int(peer.communicate(timeout=seconds + 30)[0].strip() or 0)
            status = server.status()
        finally:
            if peer.poll() is None:
                peer.kill()
                peer.wait()
        window.link.close()
    return {
        "seconds": seconds,
        "sent": sent,
        "sent_per_s": sent / (seconds + 1.0),
        "received": status.received,
        "dropped": dict(status.dropped),
        "over_budget": sum(cost > 1000.0 / hz for cost in costs) / len(costs),
        "budget_ms": 1000.0 / hz,
        **frame_stats(costs),
    }
