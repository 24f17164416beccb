"""Recordings with ticks lost, as the live link writes them: the rows of those ticks
left out of the file, nothing else changed."""

from __future__ import annotations

from pathlib import Path

from sandbox.files.recordings import Recording, load_recording, save_recording


def without_rows(recording: Recording, rows: set[int], folder: Path) -> Recording:
    """`recording` saved, the lines of `rows` (row 0 the first after the header)
    deleted from the file, and loaded back."""
    path = folder / "lost.csv"
    save_recording(path, recording)
    lines = path.read_text().split("\n")
    path.write_text("\n".join(line for number, line in enumerate(lines) if number - 1 not in rows))
    return load_recording(path)
