"""`simulate`: replay a control trace through a preset's car and write the trajectory CSV."""

from __future__ import annotations

from ..errors import TraceError
from .progress import Progress


def run(args) -> None:
    from ..csv_rows import format_rows
    from ..files.disk import write_atomic
    from ..files.presets import load_preset
    from ..files.traces import TRAJECTORY_COLUMNS, trace_chunks
    from ..physics.sim import trace_trajectory

    preset = load_preset(args.preset)
    progress = Progress("simulating")
    shares = []

    def chunks():
        for rows, share in trace_chunks(args.controls):
            shares.append(share)
            yield rows

    def write(name: str) -> None:
        """Header, then each chunk's rows as it is simulated: memory bounded by a chunk."""
        with open(name, "w", encoding="utf-8", newline="\n") as f:
            f.write(",".join(TRAJECTORY_COLUMNS) + "\n")
            for rows in trace_trajectory(preset.model, preset.tuning, chunks(), args.hz or preset.hz):
                f.write(format_rows((), rows)[1:])
                progress(shares[-1])

    finished = False
    try:
        write_atomic(args.out, write, TraceError)
        finished = True
    finally:
        progress.close(finished)
