"""A flood of the link from another local program, for the link's tests and figures: a
separate process sends tiny datagrams without the token (one byte each, not JSON) from
one socket to the sandbox's port on 127.0.0.1, as fast as it can, until it is told to
stop or has sent its bounded count; it says how many it sent."""

from __future__ import annotations

import subprocess
import sys
from contextlib import contextmanager

_FLOODER = r"""
import select, socket, sys
port, count = int(sys.argv[1]), int(sys.argv[2])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setblocking(False)
sent, where, data = 0, ("127.0.0.1", port), b"x"
print("flooding", flush=True)
while sent < count:
    for _ in range(2048):
        try:
            s.sendto(data, where)
            sent += 1
        except OSError:  # the system's buffer full, or the port closed: the flood goes on
            pass
    if select.select([sys.stdin], [], [], 0)[0]:  # stdin closed: told to stop
        break
print(sent, flush=True)
"""


class Flood:
    """The flooding process; `sent` is its count once it has stopped."""

    def __init__(self, port: int, count: int):
        self.process = subprocess.Popen(
            [sys.executable, "-c", _FLOODER, str(port), str(count)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        self.process.stdout.readline()  # "flooding": its socket is sending
        self.sent = 0

    def stop(self) -> int:
        """Stop the flood (it ends within 2 048 datagrams); the datagrams it sent."""
        if self.process.returncode is None:
            try:
                out, _ = self.process.communicate(timeout=30)  # closes its stdin: the sign to stop
                self.sent = int(out.strip() or 0)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.communicate()
        return self.sent


@contextmanager
def flooding(port: int, count: int = 20_000_000):
    """A Flood of at most `count` datagrams to `port`, stopped when the block ends."""
    flood = Flood(port, count)
    try:
        yield flood
    finally:
        flood.stop()
