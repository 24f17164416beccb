"""Recordings with ticks lost, as the live link writes them: the rows of those ticks
left out of the file, nothing else changed."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sandbox.files.recording_columns import STATE_COLUMNS
from sandbox.files.recordings import Recording, load_recording, save_recording


def without_rows(recording: Recording, rows: set[int], folder: Path) -> Recording:
    """`recording` saved, the lines of `rows` (row 0 the first after the header)
    deleted from the file, and loaded back."""
    path = folder / "lost.csv"
    save_recording(path, recording)
    lines = path.read_text().split("\n")
    path.write_text("\n".join(line for number, line in enumerate(lines) if number - 1 not in rows))
    return load_recording(path)


def recordable_states(model) -> tuple[str, ...]:
    """The model's state values a recording can hold (single-valued, a column name of
    their own), those defined at rest: what the game sends of a car that has them."""
    rest = model.STATE.rest(1)[0]
    return tuple(
        slot.name
        for slot in model.STATE.slots
        if slot.name in STATE_COLUMNS and np.isfinite(rest[model.STATE.offset[slot.name]])
    )
